"""Quality checks: what `tolmach check` reports, and what it lets through.

The cases live in ``data/checks/cases.toml``, one a row: a source, a translation, a
locale and the findings expected. Each case runs through a real one-entry catalog, so
waivers and the catalog counts behave as in `tolmach check`.
"""

from __future__ import annotations

import doctest
import json
import re
import tomllib
from dataclasses import replace
from functools import cache
from pathlib import Path

import polib
import pytest
from babel.numbers import format_decimal
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

from tolmach.checks import (
    CHECKS,
    CheckConfig,
    CheckError,
    DocumentContext,
    EntryContext,
    Finding,
    check,
    check_catalog,
    check_entry,
    inline,
    read_catalog,
)
from tolmach.checks import completeness as completeness_module
from tolmach.checks import length as length_module
from tolmach.checks import markup as markup_module
from tolmach.checks import numbers as numbers_module
from tolmach.checks import punctuation as punctuation_module
from tolmach.checks import registry as registry_module
from tolmach.checks import unsafe as unsafe_module
from tolmach.checks.inline import _fully_parsed, _parsed, _plain, code_spans, inline_markup
from tolmach.checks.report import has_errors, list_checks, render_human, render_json
from tolmach.markdown.document import parse_document
from tolmach.markdown.verify import verified_build

DATA = Path(__file__).parent / "data" / "checks"
SECTIONS: dict[str, dict] = tomllib.loads((DATA / "cases.toml").read_text(encoding="utf-8"))
CASES = [(section, case) for section, table in SECTIONS.items() for case in table["cases"]]


# --- the data file -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("section", "case"), CASES, ids=[f"{section}: {case['id']}" for section, case in CASES]
)
def test_case(section: str, case: dict) -> None:
    findings = _run(case, _termbase() if case.get("termbase") else None)
    active = [f for f in findings if not f.waived]
    waived = [f for f in findings if f.waived]
    _assert_findings(case["expect"], active, findings)
    _assert_findings(case.get("waived", []), waived, findings)


def test_every_check_has_two_passing_and_two_failing_cases() -> None:
    for name in CHECKS:
        cases = SECTIONS.get(name, {}).get("cases", [])
        failing = [c for c in cases if name in {_check_of(e) for e in c["expect"]}]
        passing = [c for c in cases if c not in failing]
        assert len(passing) >= 2 and len(failing) >= 2, (
            f"{name}: {len(passing)} pass, {len(failing)} fail"
        )


def _run(case: dict, termbase: object) -> list[Finding]:
    """The case as the only entry of a catalog read back from .po text."""
    po = polib.POFile(wrapwidth=0)
    po.metadata = {"Content-Type": "text/plain; charset=UTF-8"}
    po.append(
        polib.POEntry(
            msgid=case["source"],
            msgstr=case["translation"],
            comment=case.get("kind", "paragraph"),
            tcomment=case.get("tcomment", ""),
            flags=list(case.get("flags", [])),
            obsolete=case.get("obsolete", False),
        )
    )
    reread = polib.pofile(str(po), wrapwidth=0)
    return check_catalog(
        reread, "case.po", case["locale"], CheckConfig(), termbase=termbase, document=_document(case)
    )


def _document(case: dict) -> DocumentContext | None:
    """A case with a ``document`` is checked in it: its source must be one of its segments."""
    if "document" not in case:
        return None
    document = parse_document(case["document"])
    assert case["source"] in {s.text for s in document.segments}, "source not in the document"
    verified = verified_build(document, {case["source"]: case["translation"]})
    return DocumentContext("doc.md", verified, case["locale"], frozenset(CHECKS))


def _assert_findings(expected: list[str], found: list[Finding], everything: list[Finding]) -> None:
    report = "\n".join(str(f) for f in everything) or "(no findings)"
    assert {f.check for f in found} == {_check_of(e) for e in expected}, report
    for item in expected:
        name, _, part = item.partition(": ")
        assert any(f.check == name and part in f.message for f in found), f"{item}\n{report}"


def _check_of(expected: str) -> str:
    return expected.partition(": ")[0]


# --- the termbase of the glossary cases ------------------------------------------------


@cache
def _termbase() -> object:
    from tolmach.glossary import load_termbase

    return load_termbase(DATA / "termbase.toml")


# --- the registry -----------------------------------------------------------------------


def test_each_check_has_a_name_a_severity_and_a_one_line_explanation() -> None:
    listed = list_checks()
    assert [name for name, _, _ in listed] == list(CHECKS)
    for name, severity, explanation in listed:
        assert re.fullmatch(r"[a-z]+(?:-[a-z]+)*", name)
        assert severity in ("error", "warning")
        assert explanation and "\n" not in explanation and len(explanation) <= 100


def test_the_issue_names_these_checks_and_severities() -> None:
    listed = list_checks()
    assert [name for name, _, _ in listed[:3]] == ["markup", "unsafe", "numbers"]
    severities = {name: severity for name, severity, _ in listed}
    for name in ("markup", "numbers", "unsafe", "punctuation", "whitespace", "brackets"):
        assert severities[name] == "error"
    for name in ("quotes", "length", "untranslated", "fuzzy", "obsolete", "identical"):
        assert severities[name] == "warning"
    assert "glossary" in severities


def test_a_check_needs_a_docstring_and_a_unique_name() -> None:
    with pytest.raises(ValueError, match="docstring"):
        check("no-docstring")(lambda ctx: iter(()))
    with pytest.raises(ValueError, match="twice"):
        check("markup")(_documented)
    with pytest.raises(ValueError, match="severity"):
        check("bad-severity", severity="fatal")  # type: ignore[arg-type]
    assert "no-docstring" not in CHECKS


def _documented(ctx):  # pragma: no cover - never called
    """A check that is never registered."""
    return iter(())


# --- entries ----------------------------------------------------------------------------


def test_a_finding_reads_like_a_compiler_message() -> None:
    finding = Finding(
        "locales/de/LC_MESSAGES/rocm7.po",
        123,
        "markup",
        "error",
        'link destination changed: "https://a" → "https://b"',
        "msgid",
    )
    assert str(finding) == (
        "locales/de/LC_MESSAGES/rocm7.po:123: error: [markup] "
        'link destination changed: "https://a" → "https://b"'
    )
    waived = Finding("x.po", 4, "numbers", "error", "number missing: 5", waived=True)
    assert str(waived) == "x.po:4: waived: [numbers] number missing: 5"


def test_each_plural_form_is_checked_against_its_source() -> None:
    entry = polib.POEntry(
        msgid="`%d` файл",
        msgid_plural="`%d` файлов",
        msgstr_plural={0: "`%d` file", 1: "%d files"},
        comment="paragraph",
    )
    messages = [f.message for f in check_entry(entry, "en")]
    assert messages == ["msgstr[1]: inline code missing: `%d`"]


def test_fuzzy_and_untranslated_entries_are_not_checked_one_by_one() -> None:
    fuzzy = polib.POEntry(
        msgid="Смотрите [x](https://a).", msgstr="See [x](https://b)", flags=["fuzzy"]
    )
    empty = polib.POEntry(msgid="Смотрите [x](https://a).", msgstr="")
    assert check_entry(fuzzy, "en") == []
    assert check_entry(empty, "en") == []


def test_the_block_type_comes_from_the_extracted_comment() -> None:
    entry = polib.POEntry(
        msgid="Флаг a или b", msgstr="Flag a | b", comment='table cell, under "Флаги"'
    )
    assert [f.check for f in check_entry(entry, "en")] == ["markup"]
    entry.comment = 'paragraph, under "Флаги"'
    assert check_entry(entry, "en") == []


def test_without_a_termbase_the_glossary_check_is_silent() -> None:
    entry = polib.POEntry(msgid="Новые ускорители AMD.", msgstr="AMD's new speeders.")
    assert [f for f in check_entry(entry, "en") if f.check == "glossary"] == []


# --- a whole catalog ---------------------------------------------------------------------


FIXTURE_REPORT = """\
rocm7.de.po:13: error: [numbers] number 1.742 written as "1.742", which reads as 1742 in de (write 1,742) — write each number of the source with its value, in the target language's notation; or waive: # tolmach: ignore numbers — reason
rocm7.de.po:17: error: [markup] link destination changed: "https://rocm.docs.amd.com" → "https://rocm.docs.amd.com/de" — copy code spans, link targets, HTML and emphasis markers from the source as they are; or waive: # tolmach: ignore markup — reason
rocm7.de.po:21: waived: [markup] link destination changed: "https://rocm.docs.amd.com/ru" → "https://rocm.docs.amd.com/de"
rocm7.de.po:26: error: [waiver] flag ignore-numbrs names no check (did you mean ignore-numbers?) — name a check that `tolmach check --list` shows
rocm7.de.po:31: warning: [quotes] quotation marks «» are not used in de: write „…“ — use the target language's quotation marks; or waive: # tolmach: ignore quotes — reason
rocm7.de.po:35: warning: [untranslated] untranslated entries: 1 (lines 35) — translate them in a PO editor (Poedit, Lokalize, Weblate)
rocm7.de.po:39: warning: [fuzzy] fuzzy entries: 1 (lines 39) — review them and clear the fuzzy flag (Poedit: “Needs work” off)
rocm7.de.po:44: warning: [obsolete] obsolete entries: 1 (lines 44) — delete the #~ entries, or run `tolmach update --no-obsolete`"""


def test_a_catalog_report_names_file_line_severity_and_check() -> None:
    po = read_catalog(DATA / "rocm7.de.po")
    findings = check_catalog(po, "rocm7.de.po", "de", CheckConfig())
    assert "\n".join(str(f) for f in findings) == FIXTURE_REPORT


def test_human_report_groups_per_file_lists_waivers_apart_and_sums_up() -> None:
    findings = check_catalog(read_catalog(DATA / "rocm7.de.po"), "rocm7.de.po", "de")
    console = Console(record=True, width=200, color_system=None, force_terminal=True)
    render_human(findings, console)
    text = console.export_text()
    active, waivers, summary = (
        text.index("rocm7.de.po\n"),
        text.index("Waived"),
        text.index("errors"),
    )
    assert active < waivers < summary
    assert "rocm7.de.po:17: error: [markup] link destination changed" in text[:waivers]
    assert "rocm7.de.po:21: waived: [markup]" in text[waivers:summary]
    assert re.search(r"rocm7\.de\.po\s*│\s*3\s*│\s*4\s*│\s*1", text)


def test_the_summary_is_plain_text_when_not_on_a_terminal() -> None:
    findings = check_catalog(read_catalog(DATA / "rocm7.de.po"), "rocm7.de.po", "de")
    console = Console(record=True, width=200, color_system=None, force_terminal=False)
    render_human(findings, console, paths=["clean.po"])
    summary = console.export_text().split("tolmach check\n", 1)[1]
    assert summary.isascii(), summary
    assert summary.splitlines() == [
        "file         errors  warnings  waived",
        "clean.po          0         0       0",
        "rocm7.de.po       3         4       1",
        "total             3         4       1",
    ]


_AWKWARD_TEXT = st.text(st.sampled_from("ab: [/]\\\t\r.语é-"), min_size=1, max_size=30)


@given(
    st.lists(
        st.tuples(_AWKWARD_TEXT, st.integers(0, 99), _AWKWARD_TEXT, st.booleans(),
                  st.sampled_from(["error", "warning"])),
        max_size=6,
    ),
    st.lists(_AWKWARD_TEXT, max_size=3),
    st.integers(8, 40),
)
def test_a_piped_report_is_written_as_rich_would_print_it(rows, clean, width) -> None:
    """Piped, the report skips rich for lines it would print unchanged; its bytes are
    what rich prints (a recording console takes rich's way for everything)."""
    import io

    findings = [Finding(path, line, "markup", severity, message, waived=waived)
                for path, line, message, waived, severity in rows]
    outputs = []
    for record in (False, True):
        file = io.StringIO()
        render_human(findings, Console(file=file, width=width, record=record, highlight=False),
                     paths=clean)
        outputs.append(file.getvalue())
    assert outputs[0] == outputs[1]


def test_tolmach_check_piped_draws_no_boxes(tmp_path) -> None:
    from click.testing import CliRunner

    from tolmach.cli import cli

    project = tmp_path / "p"
    (project / "seeds").mkdir(parents=True)
    (project / "seeds" / "a.md").write_text("# Заголовок\n\nТекст.\n", "utf-8")
    (project / "pyproject.toml").write_text(
        '[tool.tolmach]\nsource-locale = "ru"\nlocales = ["de"]\ndocuments = ["seeds/*.md"]\n', "utf-8")
    runner = CliRunner()
    assert runner.invoke(cli, ["-C", str(project), "extract"]).exit_code == 0
    assert runner.invoke(cli, ["-C", str(project), "update"]).exit_code == 0
    result = runner.invoke(cli, ["-C", str(project), "check"])
    assert "tolmach check" in result.output and "untranslated" in result.output
    assert not any(ch in result.output for ch in "│┃━─┏┡└"), result.output


def test_json_report_has_findings_and_a_summary() -> None:
    findings = check_catalog(read_catalog(DATA / "rocm7.de.po"), "rocm7.de.po", "de")
    document = json.loads(render_json(findings))
    assert document["version"] == 1
    assert set(document["findings"][0]) == {
        "path",
        "line",
        "check",
        "severity",
        "message",
        "msgid",
        "waived",
        "source",
        "fix",
    }
    assert document["summary"]["files"]["rocm7.de.po"] == {"errors": 3, "warnings": 4, "waived": 1}
    assert document["summary"]["total"] == {"errors": 3, "warnings": 4, "waived": 1}


def test_only_unwaived_errors_fail_the_run() -> None:
    error = Finding("a.po", 1, "markup", "error", "x")
    assert has_errors([error])
    assert not has_errors([Finding("a.po", 1, "length", "warning", "x")])
    assert not has_errors([Finding("a.po", 1, "markup", "error", "x", waived=True)])


# --- configuration -----------------------------------------------------------------------


PYPROJECT = """\
[tool.tolmach]
source-locale = "ru"

[tool.tolmach.checks]
severity = { length = "error", punctuation = "warning" }
disable = ["spacing"]
"""


def test_severities_and_disabled_checks_come_from_pyproject() -> None:
    config = CheckConfig.from_mapping(
        tomllib.loads(PYPROJECT)["tool"]["tolmach"], "pyproject.toml", PYPROJECT
    )
    assert config.severity_of("length") == "error"
    assert config.severity_of("punctuation") == "warning"
    assert config.severity_of("markup") == "error"
    assert ("spacing", "warning") not in [(n, s) for n, s, _ in list_checks(config)]
    entry = polib.POEntry(msgid="Открытая экосистема ROCm", msgstr="The open  ROCm ecosystem.")
    assert [(f.check, f.severity) for f in check_entry(entry, "en", config)] == [
        ("punctuation", "warning")
    ]


@pytest.mark.parametrize(
    ("line", "text", "message"),
    [
        (
            5,
            'severity = { lenght = "error" }',
            ("unknown check 'lenght' in severity (did you mean 'length'?)"),
        ),
        (6, 'disable = ["spacing", "xss"]', "unknown check 'xss' in disable"),
        (5, 'severity = { length = "fatal" }', 'must be "error" or "warning"'),
        (5, 'serverity = { length = "error" }', "unknown setting 'serverity'"),
    ],
)
def test_a_config_mistake_names_the_file_and_the_line(line: int, text: str, message: str) -> None:
    lines = PYPROJECT.splitlines()
    lines[line - 1] = text
    pyproject = "\n".join(lines) + "\n"
    with pytest.raises(CheckError) as raised:
        CheckConfig.from_mapping(
            tomllib.loads(pyproject)["tool"]["tolmach"]["checks"], "pyproject.toml", pyproject
        )
    assert (raised.value.path, raised.value.line) == ("pyproject.toml", line)
    assert message in raised.value.message
    assert str(raised.value).startswith(f"pyproject.toml:{line}: ")


# --- bad input ---------------------------------------------------------------------------


def test_a_catalog_polib_cannot_read_names_the_file_and_the_line() -> None:
    with pytest.raises(CheckError) as raised:
        read_catalog(DATA / "broken.po")
    assert raised.value.path.endswith("broken.po")
    assert raised.value.line == 11


def test_a_catalog_that_is_not_utf8_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.po"
    path.write_bytes('msgid ""\nmsgstr ""\n\nmsgid "a"\nmsgstr "Übersetzung"\n'.encode("latin-1"))
    with pytest.raises(CheckError) as raised:
        read_catalog(path)
    assert raised.value.line == 5
    assert "utf-8" in raised.value.message


def test_a_missing_catalog_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CheckError, match="no such catalog file"):
        read_catalog(tmp_path / "nowhere.po")


def test_a_flag_for_an_unknown_check_is_an_error_at_its_entry() -> None:
    findings = check_catalog(read_catalog(DATA / "rocm7.de.po"), "rocm7.de.po", "de")
    [bad] = [f for f in findings if f.check == "waiver"]
    assert (bad.line, bad.severity, bad.waived) == (26, "error", False)
    assert bad.msgid == "Открытая экосистема ROCm."


# --- properties ----------------------------------------------------------------------------

LOCALES = ["en", "de", "zh_CN", "fr", "ja", "ru"]
KINDS = ["paragraph", "heading 2", "table cell", "list item"]
PLAIN_TEXT = st.text(
    alphabet=st.characters(blacklist_characters="`*_[]<>&\\\n\r\x00", blacklist_categories=("Cs",)),
    max_size=60,
)


@given(PLAIN_TEXT)
def test_text_without_markdown_characters_is_read_without_a_parse(text: str) -> None:
    assert _plain(text) == _fully_parsed(text)


# Backticks in runs, spaces, characters the text rule stops at but no rule takes without
# a bracket (! ^ : - ~), and now and then Markdown or whitespace the parser reacts to:
# a code span's edges, unmatched runs, runs of other lengths and syntax inside a span.
CODE_SPAN_TEXT = (
    st.lists(
        st.sampled_from(
            ["`", "``", "```", " ", "a", "б", "中", "!", "^", ":", "-", "~"] * 3
            + ["*", "_", "[", "]", "(x)", "<b>", "&amp;", "\\", "\n", "\t", "\u00a0", "\x00"]
        )
    )
    .map("".join)
    .filter(lambda text: "`" in text)
)


@given(CODE_SPAN_TEXT)
def test_code_spans_are_read_without_a_parse_as_the_parser_reads_them(text: str) -> None:
    assert _parsed(text) == _fully_parsed(text)


@pytest.mark.parametrize(
    "text, quick",
    [
        ("`a`", True),
        ("`` a ` b ``", True),
        ("` `", True),
        ("`  `", True),
        ("` a`", True),
        ("``a`", True),
        ("`a``b`", True),
        ("a ``` b `` c ``` d", True),
        ("unclosed ` and ``closed``", True),
        ("`*a* [b](c) <d> &amp; \\`", True),
        ("![x] `code`", False),
        ("`a` *b*", False),
        ("`a`\tb", False),
        ("`a\nb`", False),
        ("`\u00a0a\u00a0`", False),
        ("`a` <b>", False),
        ("*`a`*", False),
        ("`a` `b", True),
        ("`a` `*b*", False),
    ],
)
def test_code_only_texts_match_the_parse(text: str, quick: bool) -> None:
    assert (code_spans(text) is not None) == quick
    assert inline_markup(text) == _fully_parsed(text)


def test_a_code_only_text_is_not_parsed(monkeypatch) -> None:
    def no_parse(text: str) -> list:
        raise AssertionError(f"parsed {text!r}")

    monkeypatch.setattr(inline, "_children", no_parse)
    found = _parsed("`x` and ``y_[z]``")
    assert found.code == ("x", "y_[z]")



@given(
    st.decimals(min_value=0, max_value=10**7, places=3, allow_nan=False, allow_infinity=False),
    st.sampled_from(LOCALES),
)
def test_a_number_written_the_target_locale_way_keeps_its_value(value, locale: str) -> None:
    source = f"Рост составил {format_decimal(value, locale='ru')} единиц"
    target = f"Growth was {format_decimal(value, locale=locale)} units"
    ctx = EntryContext(source, target, locale)
    assert list(CHECKS["numbers"].function(ctx)) == []


@given(st.integers(min_value=10, max_value=10**6), st.sampled_from(LOCALES), st.data())
def test_a_changed_digit_is_reported(number: int, locale: str, data: st.DataObject) -> None:
    written = str(number)
    position = data.draw(st.integers(min_value=0, max_value=len(written) - 1))
    digit = data.draw(st.sampled_from([d for d in "0123456789" if d != written[position]]))
    changed = written[:position] + digit + written[position + 1 :]
    ctx = EntryContext(f"Всего {written} GPU", f"In total {changed} GPUs", locale)
    assert list(CHECKS["numbers"].function(ctx)), changed


def test_the_docstring_examples_hold() -> None:
    for module in (
        inline,
        markup_module,
        numbers_module,
        punctuation_module,
        unsafe_module,
        length_module,
        completeness_module,
        registry_module,
    ):
        failed, _ = doctest.testmod(module)
        assert failed == 0, module.__name__


def test_no_vector_of_the_xss_list_passes_the_checks() -> None:
    """Each hostile translation of ``data/xss-vectors.txt`` meets at least one error."""
    vectors_file = DATA.parent / "xss-vectors.txt"
    if not vectors_file.exists():
        pytest.skip("no xss-vectors.txt")
    lines = vectors_file.read_text(encoding="utf-8").splitlines()
    vectors = [v.replace("\\n", "\n") for v in lines if v.strip() and not v.startswith("#")]
    passed = []
    for vector in vectors:
        entry = polib.POEntry(msgid="Будущее открытых вычислений наступило.", msgstr=vector)
        if not has_errors(check_entry(entry, "en")):
            passed.append(vector)
    assert len(vectors) > 50
    assert not passed


def test_clean_files_show_in_the_summary_when_named() -> None:
    console = Console(record=True, width=120, color_system=None, force_terminal=True)
    render_human([], console, paths=["locales/en/LC_MESSAGES/rocm7.po"])
    text = console.export_text()
    assert text.startswith("No findings.")
    assert re.search(r"rocm7\.po\s*│\s*0\s*│\s*0\s*│\s*0", text)
    document = json.loads(render_json([], paths=["a.po"]))
    assert document["summary"] == {
        "files": {"a.po": {"errors": 0, "warnings": 0, "waived": 0}},
        "total": {"errors": 0, "warnings": 0, "waived": 0},
    }


MARKDOWN_SOUP = st.lists(
    st.sampled_from([*"ab я3.,:%x*_`[]()<>!&#;|\\\n-«»„“\"'", "```", "](", "<a ", "&#x6a;"]),
    max_size=40,
).map("".join)


@given(MARKDOWN_SOUP, MARKDOWN_SOUP, st.sampled_from(LOCALES), st.sampled_from(KINDS))
def test_no_translation_makes_a_check_fail(source: str, target: str, locale, kind) -> None:
    entry = polib.POEntry(msgid=source or "x", msgstr=target or "y", comment=kind)
    for finding in check_entry(entry, locale):
        assert "check failed" not in finding.message, finding


def test_a_check_that_raises_becomes_an_error_finding(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(ctx):
        """Always fails."""
        raise ValueError("boom")

    monkeypatch.setitem(CHECKS, "length", replace(CHECKS["length"], function=broken))
    entry = polib.POEntry(msgid="Открытая экосистема ROCm.", msgstr="The open ROCm ecosystem.")
    [finding] = check_entry(entry, "en")
    assert (finding.check, finding.severity) == ("length", "warning")
    assert finding.message == "check failed on this entry (ValueError: boom)"


# Words that repeat in every case and script, separated by the spaces, digits, underscores
# and punctuation a look-behind and a word boundary might tell apart.
REPEAT_TEXT = st.lists(
    st.sampled_from(
        ["the", "The", "THE", "дом", "Дом", "ДОМ", "ß", "ss", "Σ", "σ", "ς", "é", "É", "a",
         "中文", "x1", "1", "_", " ", "  ", "\n", "\t", "\u00a0", ".", ",", "-", "'", "(", "»"]
    ),
    max_size=12,
).map("".join)


@given(REPEAT_TEXT)
def test_repeated_words_are_found_as_the_look_behind_found_them(text: str) -> None:
    """A word boundary before the first letter of a repeat is the look-behind it replaced."""
    before = re.compile(r"(?<!\w)([^\W\d_]{2,}+)\s++(\1)(?!\w)", re.IGNORECASE)
    found = punctuation_module._REPEATED_WORD_RE.finditer(text)
    expected = before.finditer(text)
    assert [m.span() for m in found] == [m.span() for m in expected]
