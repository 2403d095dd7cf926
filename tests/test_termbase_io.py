"""Termbase exchange: TBX and CSV round trips, files from other tools, the TOML writer,
and the ``glossary export`` / ``glossary import`` commands."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from tolmach.cli.glossary import glossary
from tolmach.fileio import write_atomic
from tolmach.glossary import GlossaryError, Term, Termbase, load_termbase, parse_termbase
from tolmach.glossary.exchange import (
    dump_termbase_toml,
    merge_locale,
    read_csv,
    read_omegat,
    read_pairs,
    read_tbx,
    update_termbase_toml,
    write_csv,
    write_omegat,
    write_pairs,
    write_tbx,
)

DATA = Path(__file__).parent / "data" / "glossary"
SEED_GLOSSARY = Path(__file__).parent.parent / "locales" / "glossary.toml"
TERMBASES = {
    "test fixture": load_termbase(DATA / "termbase.toml"),
    "seed": load_termbase(SEED_GLOSSARY),
    "every field": load_termbase(DATA / "rich.toml"),
}
FORMATS = ["tbx", "csv", "csv-pairs", "omegat", "toml"]


def _read_back(fmt: str, termbase: Termbase) -> Termbase:
    if fmt == "tbx":
        return read_tbx(write_tbx(termbase), ignored=termbase.ignored)
    if fmt == "csv":
        return read_csv(write_csv(termbase), ignored=termbase.ignored)
    if fmt in ("csv-pairs", "omegat"):
        return _pairs_round_trip(fmt, termbase)
    return parse_termbase(dump_termbase_toml(termbase))


def _pairs_round_trip(fmt: str, termbase: Termbase) -> Termbase:
    """One file per locale, imported one after the other into an empty termbase."""
    writer, reader = (
        (write_pairs, read_pairs) if fmt == "csv-pairs" else (write_omegat, read_omegat)
    )
    files = {locale: writer(termbase, locale) for locale in termbase.locales}
    rebuilt = Termbase((), termbase.ignored)
    for locale, text in files.items():
        rebuilt = merge_locale(rebuilt, reader(text, locale), locale)
    return rebuilt


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("name", TERMBASES)
def test_export_then_import_gives_an_equal_termbase(fmt, name):
    termbase = TERMBASES[name]
    assert _read_back(fmt, termbase) == termbase


def test_preferred_translation_stays_first_through_every_format():
    term = TERMBASES["test fixture"].get("пропускная способность")
    for fmt in FORMATS:
        back = _read_back(fmt, Termbase((term,))).terms[0]
        assert back.targets_for("en") == ("bandwidth", "throughput")


# --- TBX -----------------------------------------------------------------------------


def _entry(termbase: Termbase, source: str) -> ET.Element:
    root = ET.fromstring(write_tbx(termbase))
    return next(e for e in root.iter("termEntry") if e.find("langSet/tig/term").text == source)


def test_tbx_is_tbx_basic_martif_with_the_source_language():
    root = ET.fromstring(write_tbx(TERMBASES["test fixture"]))
    assert (root.tag, root.get("type")) == ("martif", "TBX-Basic")
    assert root.get("{http://www.w3.org/XML/1998/namespace}lang") == "ru"


def test_tbx_marks_keep_terms_in_a_note_not_in_a_made_up_data_category():
    entry = _entry(TERMBASES["test fixture"], "ROCm")
    assert entry.find("descrip[@type='Translation needed']") is None
    assert entry.find("note").text == 'tolmach: {"kind": "keep", "case-sensitive": true}'


def test_tbx_statuses_preferred_admitted_and_deprecated():
    entry = _entry(TERMBASES["test fixture"], "ядро")
    zh = next(
        s
        for s in entry.iter("langSet")
        if s.get("{http://www.w3.org/XML/1998/namespace}lang") == "zh-CN"
    )
    statuses = [(t.find("term").text, t.find("termNote").text) for t in zh.iter("tig")]
    assert statuses == [
        ("内核", "preferredTerm-admn-sts"),
        ("核函数", "admittedTerm-admn-sts"),
        ("核心", "deprecatedTerm-admn-sts"),
    ]


def test_tbx_from_a_cat_tool_is_read():
    termbase = read_tbx((DATA / "cat_tool.tbx").read_text(encoding="utf-8"))
    kernel, rocm = termbase.terms
    assert kernel.targets_for("en") == ("kernel", "compute kernel")
    assert kernel.forbidden_for("en") == ("core",)
    assert kernel.note == "GPU kernel, not a CPU core."
    assert (rocm.kind, rocm.case_sensitive) == ("keep", True)


def test_broken_tbx_names_the_line():
    with pytest.raises(GlossaryError, match=r"^terms\.tbx:3: invalid XML"):
        read_tbx('<martif xml:lang="ru">\n<text><body>\n<termEntry></body>', "terms.tbx")


def test_tbx_with_an_invalid_term_names_its_entry_line():
    tbx = write_tbx(TERMBASES["test fixture"]).replace('xml:lang="de"', 'xml:lang="xx"', 1)
    with pytest.raises(GlossaryError, match=r"^t\.tbx:\d+: term .*unknown locale 'xx'"):
        read_tbx(tbx, "t.tbx")


# --- CSV -----------------------------------------------------------------------------


def test_csv_has_one_row_per_term_and_a_column_per_locale():
    header, first, *_ = write_csv(TERMBASES["test fixture"]).splitlines()
    assert header == (
        "term,description,translatable,case_sensitive,de,en,zh_CN,"
        "forbidden:de,forbidden:en,forbidden:zh_CN"
    )
    assert first == "ROCm,AMD's GPU software platform.,false,true,,,,,,"


def test_csv_from_crowdin_style_columns_is_read():
    termbase = read_csv((DATA / "crowdin_style.csv").read_text(encoding="utf-8"))
    accelerator, rocm, bandwidth = termbase.terms
    assert accelerator.forbidden_for("en") == ("booster", "speeder")
    assert (rocm.kind, rocm.case_sensitive) == ("keep", True)
    assert bandwidth.targets_for("en") == ("bandwidth", "throughput")


def test_csv_with_an_unknown_column_names_the_header_line():
    with pytest.raises(GlossaryError, match=r"^g\.csv:1: unknown CSV column 'colour'"):
        read_csv("term,colour\nROCm,red\n", "g.csv")


def test_csv_duplicate_names_the_row_line():
    with pytest.raises(GlossaryError, match=r'^g\.csv:3: duplicate term "ROCM"'):
        read_csv("term,translatable\nROCm,false\nROCM,false\n", "g.csv")


def test_csv_refuses_a_translation_containing_the_variant_separator():
    termbase = Termbase((Term("ИИ", "translate", (("en", ("AI|ML",)),)),))
    with pytest.raises(ValueError, match=re.escape("'|'")):
        write_csv(termbase)


# --- TOML ----------------------------------------------------------------------------

texts = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1).map(str.strip).filter(bool)


@given(note=texts, target=texts)
def test_any_note_and_translation_survive_the_toml_writer(note, target):
    termbase = Termbase(
        (Term("ускоритель", "translate", (("en", (target,)),), note=note, case_sensitive=False),)
    )
    assert parse_termbase(dump_termbase_toml(termbase)) == termbase


def test_write_atomic_leaves_an_unchanged_file_alone(tmp_path):
    path = tmp_path / "g.toml"
    assert write_atomic(path, "a = 1\n") is True
    assert write_atomic(path, "a = 1\n") is False
    assert [p.name for p in tmp_path.iterdir()] == ["g.toml"]


# --- commands ------------------------------------------------------------------------


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "locales").mkdir()
    (tmp_path / "locales" / "glossary.toml").write_text(
        SEED_GLOSSARY.read_text(encoding="utf-8"), encoding="utf-8"
    )
    return tmp_path


def run(project: Path, *args: str):
    return CliRunner().invoke(glossary, list(args), obj=SimpleNamespace(root=project))


@pytest.mark.parametrize("fmt", ["tbx", "csv"])
def test_export_then_import_leaves_the_glossary_file_byte_for_byte(project, fmt):
    exported = project / f"terms.{fmt}"
    assert run(project, "export", "--format", fmt, "-o", str(exported)).exit_code == 0
    assert run(project, "import", str(exported)).exit_code == 0
    glossary_file = project / "locales" / "glossary.toml"
    assert glossary_file.read_bytes() == SEED_GLOSSARY.read_bytes()


@pytest.mark.parametrize(("fmt", "suffix"), [("csv-pairs", "csv"), ("omegat", "txt")])
def test_bilingual_files_of_every_locale_rebuild_the_glossary(project, fmt, suffix):
    glossary_file = project / "locales" / "glossary.toml"
    for locale in ("en", "de", "zh_CN"):
        out = project / f"terms.{locale}.{suffix}"
        assert run(project, "export", "--format", fmt, "-l", locale, "-o", str(out)).exit_code == 0
    for locale in ("en", "de", "zh_CN"):
        result = run(project, "import", "-l", locale, str(project / f"terms.{locale}.{suffix}"))
        assert result.exit_code == 0, result.output
    assert glossary_file.read_bytes() == SEED_GLOSSARY.read_bytes()


def test_an_import_that_changes_terms_keeps_the_files_comments(project):
    glossary_file = project / "locales" / "glossary.toml"
    pairs = project / "de.csv"
    pairs.write_text("source,target,status\nускоритель,Akzelerator,preferred\n", "utf-8")
    result = run(project, "import", "-l", "de", str(pairs))
    assert result.exit_code == 0, result.output
    text = glossary_file.read_text(encoding="utf-8")
    assert text.startswith("# tolmach termbase for the articles in seeds/")
    assert "# --- AMD hardware ---" in text
    termbase = load_termbase(glossary_file)
    assert termbase.get("ускоритель").targets_for("de") == ("Akzelerator",)
    assert termbase.get("узел").targets_for("de") == ()
    assert [t.source for t in termbase.terms] == [
        t.source for t in load_termbase(SEED_GLOSSARY).terms
    ]


def test_pair_formats_need_a_locale(project):
    result = run(project, "export", "--format", "omegat")
    assert result.exit_code != 0 and "-l" in result.output


def test_export_to_stdout(project):
    result = run(project, "export", "--format", "csv")
    assert result.exit_code == 0
    assert result.output.startswith("term,description,translatable,case_sensitive,")


def test_a_bad_import_changes_nothing(project):
    glossary_file = project / "locales" / "glossary.toml"
    before = glossary_file.read_bytes()
    bad = project / "bad.csv"
    bad.write_text("term,translatable\nROCm,false\nRocm,false\n", encoding="utf-8")
    result = run(project, "import", str(bad))
    assert result.exit_code != 0
    assert "bad.csv:3: duplicate term" in result.output
    assert glossary_file.read_bytes() == before
    assert sorted(p.name for p in (project / "locales").iterdir()) == ["glossary.toml"]


def test_import_needs_a_known_format(project):
    other = project / "terms.xlsx"
    other.write_text("x", encoding="utf-8")
    result = run(project, "import", str(other))
    assert result.exit_code != 0
    assert "--format" in result.output


# --- TBX-Basic: the structure and data categories of the specification -----------------
#
# TBX-Basic (LISA/LTAC, TBXBasiccoreStructV02.dtd with TBXBasicXCSV02.xcs) written as
# assertions: no schema for it ships in a package we could install.

TBX_BASIC_TYPES = {
    "descrip": {"definition", "subjectField", "context"},
    "admin": {"customerSubset", "projectSubset", "source"},
    "termNote": {
        "administrativeStatus",
        "geographicalUsage",
        "grammaticalGender",
        "partOfSpeech",
        "termLocation",
        "termType",
    },
    "ref": {"crossReference"},
    "xref": {"externalCrossReference", "xGraphic"},
    "transac": {"transactionType"},
}
TBX_BASIC_PICKLISTS = {
    "administrativeStatus": {
        "preferredTerm-admn-sts",
        "admittedTerm-admn-sts",
        "deprecatedTerm-admn-sts",
        "supersededTerm-admn-sts",
    },
    "termType": {"fullForm", "acronym", "abbreviation", "shortForm", "variant", "phrase"},
    "partOfSpeech": {"noun", "verb", "adjective", "adverb", "properNoun", "other"},
}
ENTRY_LEVEL = {
    "descrip": {"definition", "subjectField"},
    "admin": {"customerSubset", "projectSubset"},
}
AUX = {"descrip", "descripGrp", "admin", "adminGrp", "transacGrp", "note", "ref", "xref"}
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def assert_tbx_basic(text: str) -> None:
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n')
    assert '<!DOCTYPE martif SYSTEM "TBXBasiccoreStructV02.dtd">' in text
    root = ET.fromstring(text)
    assert (root.tag, root.get("type")) == ("martif", "TBX-Basic") and root.get(XML_LANG)
    header, body_text = list(root)
    assert (header.tag, body_text.tag) == ("martifHeader", "text")
    assert [c.tag for c in header] == ["fileDesc", "encodingDesc"]
    file_desc = header.find("fileDesc")
    assert [c.tag for c in file_desc] == ["titleStmt", "sourceDesc"]
    assert file_desc.find("titleStmt/title").text and file_desc.find("sourceDesc/p").text
    (xcs,) = header.find("encodingDesc")
    assert (xcs.tag, xcs.get("type"), xcs.text) == ("p", "XCSURI", "TBXBasicXCSV02.xcs")
    (body,) = body_text
    assert body.tag == "body"
    ids = [entry.get("id") for entry in body]
    assert len(set(ids)) == len(ids) and all(ids)
    for entry in body:
        assert entry.tag == "termEntry"
        tags = [child.tag for child in entry]
        first_lang_set = tags.index("langSet")
        assert set(tags[:first_lang_set]) <= AUX and set(tags[first_lang_set:]) == {"langSet"}
        for child in entry[:first_lang_set]:
            if child.tag in ENTRY_LEVEL:
                assert child.get("type") in ENTRY_LEVEL[child.tag], ET.tostring(child)
        for lang_set in entry.iter("langSet"):
            assert lang_set.get(XML_LANG)
            tigs = [c for c in lang_set if c.tag in ("tig", "ntig")]
            assert tigs and all(c.tag in AUX or c in tigs for c in lang_set)
            for tig in tigs:
                assert tig[0].tag == "term" and (tig[0].text or "").strip()
                notes = [c.tag for c in tig[1:]]
                assert notes == sorted(notes, key=lambda t: t != "termNote")  # termNotes first
    for element in root.iter():
        if element.tag in TBX_BASIC_TYPES:
            kind = element.get("type")
            assert kind in TBX_BASIC_TYPES[element.tag], f"<{element.tag} type={kind!r}>"
            if kind in TBX_BASIC_PICKLISTS:
                assert element.text in TBX_BASIC_PICKLISTS[kind], f"{kind} = {element.text!r}"


@pytest.mark.parametrize("name", TERMBASES)
def test_tbx_export_is_tbx_basic(name):
    assert_tbx_basic(write_tbx(TERMBASES[name]))


def test_the_tbx_basic_assertions_catch_what_the_old_export_wrote():
    old = write_tbx(TERMBASES["test fixture"]).replace(
        '<note>tolmach: {"kind": "keep", "case-sensitive": true}</note>',
        '<descrip type="Translation needed">No</descrip>',
        1,
    )
    with pytest.raises(AssertionError, match="Translation needed"):
        assert_tbx_basic(old)
    without_encoding = re.sub(r"\s*<encodingDesc>.*?</encodingDesc>", "", old, flags=re.S)
    with pytest.raises(AssertionError):
        assert_tbx_basic(without_encoding)


def test_tbx_carries_domains_scopes_and_source_variants_in_basic_categories():
    entry = _entry(TERMBASES["every field"], "вывод")
    assert [d.text for d in entry.findall("descrip[@type='subjectField']")] == [
        "gpu-computing",
        "ml",
    ]
    assert [a.text for a in entry.findall("admin[@type='projectSubset']")] == ["rocm7", "guide/**"]
    deepseek = _entry(TERMBASES["every field"], "DeepSeek R1")
    (variant,) = [
        t for t in deepseek.iter("tig") if t.find("termNote[@type='termType']") is not None
    ]
    assert variant.find("term").text == "DeepSeek-R1"


# --- bilingual files -----------------------------------------------------------------------


def test_csv_pairs_start_with_source_target_description():
    lines = write_pairs(TERMBASES["every field"], "zh_CN").splitlines()
    assert lines[0].startswith("source,target,description,status,")
    assert "NVIDIA,英伟达,,preferred,keep" in lines[2]
    assert any(line.startswith("межсоединение,连接,,forbidden,") for line in lines)


def test_omegat_glossary_is_tab_separated_source_target_comment():
    text = write_omegat(TERMBASES["every field"], "en")
    lines = [line for line in text.splitlines() if not line.startswith("#")]
    assert all(len(line.split("\t")) == 3 for line in lines)
    assert (
        "DeepSeek R1\tDeepSeek R1\tReasoning model; DeepSeek writes it with a hyphen. ⟦tolmach"
        in text
    )
    assert 'interconnect\t⟦tolmach {"case_sensitive": "true", "variants": "межсоединения"}⟧' in text


def test_a_plain_omegat_glossary_from_omegat_is_read():
    text = "# my glossary\nускоритель\taccelerator\tGPU card\nускоритель\tbooster\n"
    (term,) = merge_locale(Termbase(), read_omegat(text, "en"), "en").terms
    assert (term.source, term.note, term.targets_for("en")) == (
        "ускоритель",
        "GPU card",
        ("accelerator", "booster"),
    )


def test_a_bilingual_import_replaces_one_locale_and_keeps_the_others():
    termbase = TERMBASES["test fixture"]
    de = "source,target,description,status\nускоритель,Akzelerator,,preferred\n"
    merged = merge_locale(termbase, read_pairs(de, "de"), "de")
    accelerator = merged.get("ускоритель")
    assert accelerator.targets_for("de") == ("Akzelerator",)
    assert accelerator.targets_for("en") == termbase.get("ускоритель").targets_for("en")
    assert merged.get("ядро").targets_for("de") == ()


def test_a_bad_status_names_its_line():
    with pytest.raises(GlossaryError, match=r"^g\.csv:3: unknown status 'maybe'"):
        read_pairs("source,target,status\nа,b,preferred\nв,c,maybe\n", "en", "g.csv")


# --- the TOML file is edited, not rewritten -------------------------------------------------


def test_an_unchanged_termbase_leaves_the_file_byte_for_byte():
    text = SEED_GLOSSARY.read_text(encoding="utf-8")
    assert update_termbase_toml(text, parse_termbase(text)) == text


def test_an_edit_keeps_comments_order_and_layout():
    text = SEED_GLOSSARY.read_text(encoding="utf-8")
    termbase = parse_termbase(text)
    changed = Termbase(
        (
            *tuple(
                replace(t, note="Changed.") if t.source == "ROCm" else t
                for t in termbase.terms
                if t.source != "Cohere"
            ),
            Term("стек", "translate", (("en", ("stack",)),), case_sensitive=False),
        ),
        termbase.ignored,
    )
    new = update_termbase_toml(text, changed)
    assert parse_termbase(new) == changed
    removed = {line for line in text.splitlines()} - {line for line in new.splitlines()}
    assert removed == {
        'note = "AMD\'s open software platform for GPU computing. Never Rocm or ROCM."',
        'source = "Cohere"',
        'note = "AI company, maker of the Command models."',
    }
    assert new.startswith(text[: text.index("[[term]]")])  # the documentation header
    assert new.rstrip().endswith(
        'source = "стек"\nkind = "translate"\ntranslations = { en = "stack" }'
    )
