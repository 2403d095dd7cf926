"""What `tolmach update` says and keeps: counts per catalog and in total, no obsolete copy
of an entry that became the fuzzy match, `--no-obsolete`, and how `#:` lines are written.
"""

from __future__ import annotations

import json
from pathlib import Path

import polib
import pytest
from click.testing import CliRunner

from tolmach.catalog.merge import UpdateSummary, summarize_update, update_catalog
from tolmach.cli import cli

ARTICLE = """# Заголовок

Первый абзац о драйверах для ускорителей.

Второй абзац, который потом удалят.

Третий абзац о версиях библиотек.
"""
EDITED = """# Заголовок

Новый абзац в самом начале статьи.

Первый абзац о драйверах для новых ускорителей.

Третий абзац о версиях библиотек.
"""


def run(project: Path, *args: str, code: int = 0):
    result = CliRunner().invoke(cli, ["-C", str(project), *args], catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.tolmach]\nsource-locale = "ru"\nlocales = ["en", "de"]\n', "utf-8"
    )
    (tmp_path / "seeds").mkdir()
    (tmp_path / "seeds" / "a.ru.md").write_text(ARTICLE, "utf-8")
    return tmp_path


def translate_all(path: Path) -> None:
    po = polib.pofile(str(path))
    for entry in po:
        entry.msgstr = f"[{entry.msgid}]"
    po.save()


def edited(project: Path) -> None:
    for locale in ("en", "de"):
        translate_all(project / f"locales/{locale}/LC_MESSAGES/a.po")
    (project / "seeds" / "a.ru.md").write_text(EDITED, "utf-8")
    run(project, "extract")


def test_update_prints_counts_per_catalog_and_in_total(project):
    run(project, "extract")
    first = run(project, "update").output
    assert "created locales/en/LC_MESSAGES/a.po: +4 new, ~0 fuzzy, −0 obsolete, 0 kept" in first
    edited(project)
    output = run(project, "update").output
    line = "wrote locales/de/LC_MESSAGES/a.po: +1 new, ~1 fuzzy, −1 obsolete, 2 kept"
    assert line in output
    assert "total: +2 new, ~2 fuzzy, −2 obsolete, 4 kept (2 catalogs, 2 written)" in output
    again = run(project, "update").output
    assert "unchanged locales/de/LC_MESSAGES/a.po: +0 new, ~0 fuzzy, −0 obsolete, 4 kept" in again


def test_update_json_gives_the_same_counts(project):
    run(project, "extract")
    run(project, "update")
    edited(project)
    document = json.loads(run(project, "update", "--format", "json").output)
    assert document["version"] == 1
    de = next(c for c in document["catalogs"] if c["locale"] == "de")
    assert de | {"path": "locales/de/LC_MESSAGES/a.po", "document": "a", "tag": "de"} == de
    assert (de["new"], de["fuzzy"], de["obsolete"], de["kept"]) == (1, 1, 1, 2)
    assert de["written"] is True and de["created"] is False
    total = document["total"]
    assert (total["new"], total["fuzzy"], total["obsolete"], total["kept"]) == (2, 2, 2, 4)
    assert (total["catalogs"], total["written"]) == (2, 2)


def test_an_edited_paragraph_leaves_no_obsolete_copy_and_check_stays_quiet(project):
    run(project, "extract")
    run(project, "update", "-l", "en")
    translate_all(project / "locales/en/LC_MESSAGES/a.po")
    source = project / "seeds" / "a.ru.md"
    source.write_text(ARTICLE.replace("о драйверах", "о новых драйверах"), "utf-8")
    run(project, "extract")
    run(project, "update", "-l", "en")
    po = polib.pofile(str(project / "locales/en/LC_MESSAGES/a.po"))
    assert [e.msgid for e in po.obsolete_entries()] == []
    fuzzy = po.fuzzy_entries()[0]
    assert fuzzy.previous_msgid == "Первый абзац о драйверах для ускорителей."
    report = run(project, "check", "-l", "en", "--format", "json").output
    assert "obsolete" not in {f["check"] for f in json.loads(report)["findings"]}


def test_no_obsolete_drops_removed_strings(project):
    run(project, "extract")
    run(project, "update")
    edited(project)
    run(project, "update", "-l", "en", "--no-obsolete")
    run(project, "update", "-l", "de")
    en = (project / "locales/en/LC_MESSAGES/a.po").read_text("utf-8")
    de = (project / "locales/de/LC_MESSAGES/a.po").read_text("utf-8")
    assert "#~" not in en and "#~ msgid \"Второй абзац, который потом удалят.\"" in de


def updated_then_edited(project, setting: str) -> None:
    """The project with ``setting`` added to its settings, extracted and updated, then
    its source edited."""
    config = project / "pyproject.toml"
    config.write_text(config.read_text("utf-8") + setting + "\n", "utf-8")
    run(project, "extract")
    run(project, "update")
    edited(project)


def test_keep_obsolete_false_in_the_settings(project):
    updated_then_edited(project, setting="keep-obsolete = false")
    output = run(project, "update").output
    assert "−1 obsolete" in output  # counted, then dropped
    assert "#~" not in (project / "locales/de/LC_MESSAGES/a.po").read_text("utf-8")
    run(project, "update", "--obsolete")  # nothing left to keep: stays without


@pytest.mark.parametrize(
    "location, expected",
    [("full", "#: seeds/a.ru.md:7\n"), ("file", "#: seeds/a.ru.md\n"), ("never", None)],
)
def test_location_setting_writes_references_as_msgmerge_add_location(
    project, location, expected
):
    config = project / "pyproject.toml"
    config.write_text(config.read_text("utf-8") + f'location = "{location}"\n', "utf-8")
    run(project, "extract")
    run(project, "update", "-l", "en")
    po_path = project / "locales/en/LC_MESSAGES/a.po"
    text = po_path.read_text("utf-8")
    block = text.split('msgid "Третий абзац о версиях библиотек."')[0].rsplit("\n\n", 1)[1]
    if expected is None:
        assert "#:" not in text
    else:
        assert block.endswith(expected)
    # a paragraph added above shifts every line number; with "file" or "never" the
    # catalogs do not change at all
    before = po_path.read_bytes()
    source = project / "seeds" / "a.ru.md"
    source.write_text(source.read_text("utf-8").replace("# Заголовок\n", "# Заголовок\n\n\n\n"))
    run(project, "extract")
    run(project, "update", "-l", "en")
    assert (po_path.read_bytes() == before) == (location != "full")


def test_a_wrong_location_names_the_line(project):
    config = project / "pyproject.toml"
    config.write_text(config.read_text("utf-8") + 'location = "sometimes"\n', "utf-8")
    result = run(project, "extract", code=1)
    assert "pyproject.toml:4: location must be one of 'full', 'file', 'never'" in result.output


def test_summary_counts_memory_suggestions_as_new():
    template = polib.POFile()
    for text in ("Один.", "Два."):
        template.append(polib.POEntry(msgid=text, msgstr=""))

    class Memory:
        def best(self, text, locale, *, threshold, exclude_document):
            if text != "Два.":
                return None
            return type("M", (), {"source": "Два.", "target": "Zwei.", "context": None,
                                  "score": 1.0, "origin": "b.po, de"})()

    merged = update_catalog(template, None, "de", memory=Memory(), document="a")
    assert summarize_update(None, merged) == UpdateSummary(new=2, memory=1)
    assert str(summarize_update(None, merged)) == (
        "+2 new (1 suggested by memory), ~0 fuzzy, −0 obsolete, 0 kept"
    )


def test_update_parses_each_template_once_and_each_catalog_once(project):
    """The template read to refuse a broken one before any work is the one merged:
    one document in two locales costs one template parse and two catalog parses (the
    memory, which reads changed catalogs too, is off here)."""
    from tolmach.fileio import WORK

    config = project / "pyproject.toml"
    config.write_text(config.read_text("utf-8") + "translation-memory = false\n", "utf-8")
    run(project, "extract")
    run(project, "update", "-j", "1")
    edited(project)  # both catalogs changed: both are merged again
    parses = WORK["parse"]
    run(project, "update", "-j", "1")
    assert WORK["parse"] - parses == 3


def test_no_fuzzy_matching_proposes_only_the_same_strings_as_msgmerge_n(project):
    """The changed paragraph stays untranslated, its old translation waits as an obsolete
    entry; a later update with fuzzy matching still finds it there and proposes it."""
    run(project, "extract")
    run(project, "update")
    edited(project)
    output = run(project, "update", "-N").output
    assert "wrote locales/de/LC_MESSAGES/a.po: +2 new, ~0 fuzzy, −2 obsolete, 2 kept" in output
    po = polib.pofile(str(project / "locales/de/LC_MESSAGES/a.po"))
    assert po.fuzzy_entries() == []
    assert po.find("Первый абзац о драйверах для новых ускорителей.").msgstr == ""
    waiting = {e.msgid: e.msgstr for e in po.obsolete_entries()}
    assert waiting["Первый абзац о драйверах для ускорителей."] == "[Первый абзац о драйверах для ускорителей.]"
    run(project, "update")  # the setting's default: fuzzy matching
    proposed = polib.pofile(str(project / "locales/de/LC_MESSAGES/a.po")).fuzzy_entries()
    assert [e.previous_msgid for e in proposed] == ["Первый абзац о драйверах для ускорителей."]


def test_fuzzy_matching_false_in_the_settings(project):
    updated_then_edited(project, setting="fuzzy-matching = false")
    assert "~0 fuzzy" in run(project, "update", "-l", "de").output
    assert "~1 fuzzy" in run(project, "update", "-l", "en", "--fuzzy").output
