"""A translation-memory suggestion is a new string with a proposal, not an outdated
translation: it says where it came from, counts as untranslated in ``stats`` and
``check`` alike, and the published page never calls a new article "outdated".
"""

from __future__ import annotations

import json
from pathlib import Path

import polib
import pytest
from click.testing import CliRunner

from tolmach.cli import cli

FIRST = "# Первая\n\nОбщий абзац о драйверах.\n"
SECOND = "# Вторая\n\nОбщий абзац о драйверах.\n\nСвой абзац.\n"


def run(project: Path, *args: str, code: int = 0):
    result = CliRunner().invoke(cli, ["-C", str(project), *args], catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.tolmach]\nsource-locale = "ru"\nlocales = ["de"]\nthreshold = 0\n', "utf-8"
    )
    (tmp_path / "seeds").mkdir()
    (tmp_path / "seeds" / "first.md").write_text(FIRST, "utf-8")
    run(tmp_path, "extract")
    run(tmp_path, "update")
    po_path = tmp_path / "locales/de/LC_MESSAGES/first.po"
    po = polib.pofile(str(po_path))
    for entry in po:
        entry.msgstr = {"Первая": "Erste", "Общий абзац о драйверах.": "Ein Absatz über Treiber."}[
            entry.msgid
        ]
    po.save()
    (tmp_path / "seeds" / "second.md").write_text(SECOND, "utf-8")
    run(tmp_path, "extract")
    output = run(tmp_path, "update").output
    assert "locales/de/LC_MESSAGES/second.po: +3 new (1 suggested by memory)" in output
    return tmp_path


def second(project: Path) -> polib.POFile:
    return polib.pofile(str(project / "locales/de/LC_MESSAGES/second.po"))


def test_a_suggestion_names_its_origin(project):
    entry = second(project).find("Общий абзац о драйверах.")
    assert entry.msgstr == "Ein Absatz über Treiber." and "fuzzy" in entry.flags
    assert "memory: 100% from first.po, de" in entry.comment.split("\n")


def test_stats_and_check_count_a_suggestion_as_untranslated(project):
    stats = json.loads(run(project, "stats", "--format", "json").output)
    row = next(c for c in stats["catalogs"] if c["document"] == "second")
    assert (row["translated"], row["fuzzy"], row["untranslated"]) == (0, 0, 3)
    report = json.loads(run(project, "check", "--format", "json").output)
    checks = {f["check"] for f in report["findings"] if f["path"].endswith("second.po")}
    assert "fuzzy" not in checks and "untranslated" in checks
    files = report["summary"]["files"]
    assert files["locales/de/LC_MESSAGES/second.po"]["progress"] == {
        key: row[key] for key in files["locales/de/LC_MESSAGES/second.po"]["progress"]
    }


def test_the_page_of_a_new_article_is_not_outdated(project):
    run(project, "publish", "-l", "de")
    page = (project / "output/site/de/second.html").read_text("utf-8")
    assert "notice-outdated" not in page
    assert "notice-outdated" not in (project / "output/site/de/first.html").read_text("utf-8")


def test_a_confirmed_suggestion_is_a_translation(project):
    po = second(project)
    entry = po.find("Общий абзац о драйверах.")
    entry.flags.remove("fuzzy")
    po.save()
    run(project, "update")
    entry = second(project).find("Общий абзац о драйверах.")
    assert not any(line.startswith("memory:") for line in entry.comment.split("\n"))
    stats = json.loads(run(project, "stats", "-l", "de", "--format", "json").output)
    row = next(c for c in stats["catalogs"] if c["document"] == "second")
    assert row["translated"] == 1


def test_a_changed_source_still_reads_as_outdated(project):
    (project / "seeds" / "first.md").write_text(FIRST.replace("драйверах", "новых драйверах"))
    run(project, "extract")
    run(project, "update")
    run(project, "publish", "-l", "de")
    assert "notice-outdated" in (project / "output/site/de/first.html").read_text("utf-8")
