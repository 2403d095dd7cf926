"""Termbase exchange: TBX and CSV round trips, files from other tools, the TOML writer,
and the ``glossary export`` / ``glossary import`` commands."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
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
    read_csv,
    read_tbx,
    write_csv,
    write_tbx,
)

DATA = Path(__file__).parent / "data" / "glossary"
SEED_GLOSSARY = Path(__file__).parent.parent / "locales" / "glossary.toml"
TERMBASES = {
    "test fixture": load_termbase(DATA / "termbase.toml"),
    "seed": load_termbase(SEED_GLOSSARY),
}


def _read_back(fmt: str, termbase: Termbase) -> Termbase:
    if fmt == "tbx":
        return read_tbx(write_tbx(termbase), ignored=termbase.ignored)
    if fmt == "csv":
        return read_csv(write_csv(termbase), ignored=termbase.ignored)
    return parse_termbase(dump_termbase_toml(termbase))


@pytest.mark.parametrize("fmt", ["tbx", "csv", "toml"])
@pytest.mark.parametrize("name", TERMBASES)
def test_export_then_import_gives_an_equal_termbase(fmt, name):
    termbase = TERMBASES[name]
    assert _read_back(fmt, termbase) == termbase


def test_preferred_translation_stays_first_through_every_format():
    term = TERMBASES["test fixture"].get("пропускная способность")
    for fmt in ("tbx", "csv", "toml"):
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


def test_tbx_marks_keep_terms_as_not_needing_translation():
    entry = _entry(TERMBASES["test fixture"], "ROCm")
    assert entry.find("descrip[@type='Translation needed']").text == "No"


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
def test_export_then_import_rewrites_the_glossary_with_the_same_terms(project, fmt):
    exported = project / f"terms.{fmt}"
    assert run(project, "export", "--format", fmt, "-o", str(exported)).exit_code == 0
    assert run(project, "import", str(exported)).exit_code == 0
    glossary_file = project / "locales" / "glossary.toml"
    assert load_termbase(glossary_file) == load_termbase(SEED_GLOSSARY)
    assert "[ignore]" in glossary_file.read_text(encoding="utf-8")


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
