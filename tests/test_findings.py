"""Findings a translator can act on: the catalog line and the Markdown line, what to do
about it, the space-before-punctuation slip, and the findings inside a PO editor.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import polib
import pytest
from click.testing import CliRunner

from tolmach.checks import CHECKS, check_entry
from tolmach.checks.annotate import ANNOTATION_PREFIX
from tolmach.checks.hints import FIXES
from tolmach.cli import cli

ARTICLE = "# Платформы\n\nПоддержка новой платформы.\n\nВерсия 6.8 вышла.\n"


def run(project: Path, *args: str, code: int = 0):
    result = CliRunner().invoke(cli, ["-C", str(project), *args], catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.tolmach]\nsource-locale = "ru"\nlocales = ["uk"]\nlocation = "never"\n', "utf-8"
    )
    (tmp_path / "seeds").mkdir()
    (tmp_path / "seeds" / "a.ru.md").write_text(ARTICLE, "utf-8")
    run(tmp_path, "extract")
    run(tmp_path, "update")
    po_path = tmp_path / "locales/uk/LC_MESSAGES/a.po"
    po = polib.pofile(str(po_path))
    texts = {"Платформы": "Платформи", "Поддержка новой платформы.": "Підтримка нової платформи .",
             "Версия 6.8 вышла.": "Версія 6.9 вийшла."}
    for entry in po:
        entry.msgstr = texts[entry.msgid]
    po.save()
    return tmp_path


LINE_RE = re.compile(
    r"^(?P<po>locales/uk/LC_MESSAGES/a\.po):(?P<line>\d+) \((?P<md>seeds/a\.ru\.md):(?P<src>\d+)\): "
    r"(?P<severity>error|warning): \[(?P<check>[\w-]+)\] (?P<message>.+?) — (?P<fix>.+)$"
)


def test_a_finding_names_catalog_line_source_line_and_what_to_do(project):
    output = run(project, "check", code=1).output
    lines = [m.groupdict() for m in map(LINE_RE.match, output.splitlines()) if m]
    by_check = {line["check"]: line for line in lines}
    assert by_check["punctuation"]["src"] == "3"  # from the document: location = "never"
    assert by_check["numbers"]["src"] == "5"
    lines = (project / "locales/uk/LC_MESSAGES/a.po").read_text("utf-8").splitlines()
    assert lines[int(by_check["numbers"]["line"]) - 1] == 'msgid "Версия 6.8 вышла."'
    assert "or waive: # tolmach: ignore numbers — reason" in by_check["numbers"]["fix"]
    assert "space before '.'" in by_check["punctuation"]["message"]


def test_every_check_says_how_to_fix_it():
    assert set(CHECKS) <= set(FIXES)


@pytest.mark.parametrize("locale", ["ru", "en", "de", "uk", "pl", "zh_CN"])
@pytest.mark.parametrize("mark", list(".,;:!?"))
def test_a_space_before_punctuation_is_found(locale, mark):
    entry = polib.POEntry(msgid=f"Первое{mark} второе.", msgstr=f"Erstes {mark} zweites.")
    messages = [f.message for f in check_entry(entry, locale) if f.check == "punctuation"]
    assert any(m.startswith(f"space before {mark!r}: 'Erstes {mark} zwei") for m in messages)


@pytest.mark.parametrize("mark", list(";:!?"))
def test_french_spaces_before_high_marks_are_right(mark):
    entry = polib.POEntry(msgid=f"Первое{mark} второе.", msgstr=f"Premier\u202f{mark} second.")
    assert not [f for f in check_entry(entry, "fr") if f.check == "punctuation"]


@pytest.mark.parametrize("target", ["Version .NET 8.", "Le score 5 ,5.", "Поддержка `a` ."])
def test_what_is_not_a_space_before_punctuation(target):
    entry = polib.POEntry(msgid="Поддержка .NET 8.", msgstr=target)
    found = [f.message for f in check_entry(entry, "en") if f.check == "punctuation"]
    assert all("space before" not in m for m in found) or target.endswith("` .")


def test_annotate_writes_findings_into_a_copy_for_a_po_editor(project, tmp_path_factory):
    catalog = project / "locales/uk/LC_MESSAGES/a.po"
    before = catalog.read_bytes()
    review = tmp_path_factory.mktemp("review")
    result = run(project, "check", "--annotate", str(review), code=1)
    assert catalog.read_bytes() == before
    copy = polib.pofile(str(review / "uk" / "a.po"))
    entry = copy.find("Поддержка новой платформы.")
    notes = [line for line in entry.tcomment.split("\n") if line.startswith(ANNOTATION_PREFIX)]
    assert notes and "error: [punctuation] space before '.'" in notes[0]
    assert "annotated locales/uk/LC_MESSAGES/a.po" in result.output
    run(project, "check", "--annotate", str(review), code=1)  # again: no doubled notes
    again = polib.pofile(str(review / "uk" / "a.po")).find("Поддержка новой платформы.")
    assert again.tcomment.count(ANNOTATION_PREFIX) == len(notes)


def test_json_findings_carry_source_and_fix(project):
    document = json.loads(run(project, "check", "--format", "json", code=1).output)
    numbers = next(f for f in document["findings"] if f["check"] == "numbers")
    assert numbers["source"] == "seeds/a.ru.md:5" and "tolmach: ignore numbers" in numbers["fix"]
