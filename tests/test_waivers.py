"""Waivers survive the tools translators use, and lapse when their source text changes.

A waiver is a translator comment (``# tolmach: ignore numbers — reason``): GNU msgcat and
msgmerge and a translate-toolkit XLIFF round trip keep it, where they drop the older
flag form (``#, ignore-numbers``, still read). ``update`` pins it to its msgid; when the
source changes, the waiver lapses: the check applies again and a warning says why.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polib
import pytest
from click.testing import CliRunner

from tolmach.catalog.waivers import fingerprint, pin_waivers, waivers_in
from tolmach.checks import check_entry
from tolmach.cli import cli
from tools import run_tool

ARTICLE = "# Выпуск\n\nВерсия 6.8 вышла.\n\nДругой абзац с числом 5.\n"
REASON = "the German edition ships 6.9"
CATALOG = "locales/de/LC_MESSAGES/a.po"


def run(project: Path, *args: str, code: int = 0):
    result = CliRunner().invoke(cli, ["-C", str(project), *args], catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result


def findings(project: Path, code: int = 0) -> list[dict]:
    return json.loads(run(project, "check", "--format", "json", code=code).output)["findings"]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.tolmach]\nsource-locale = "ru"\nlocales = ["de"]\n', "utf-8"
    )
    (tmp_path / "seeds").mkdir()
    (tmp_path / "seeds" / "a.ru.md").write_text(ARTICLE, "utf-8")
    run(tmp_path, "extract")
    run(tmp_path, "update")
    po = polib.pofile(str(tmp_path / CATALOG))
    texts = {"Выпуск": "Release", "Версия 6.8 вышла.": "Version 6.9 ist da.",
             "Другой абзац с числом 5.": "Ein anderer Absatz mit der Zahl 5."}
    for entry in po:
        entry.msgstr = texts[entry.msgid]
    po.find("Версия 6.8 вышла.").tcomment = f"tolmach: ignore numbers — {REASON}"
    po.save()
    return tmp_path


def waived_numbers(project: Path) -> list[dict]:
    return [f for f in findings(project) if f["check"] == "numbers" and f["waived"]]


def test_a_comment_waiver_waives_and_update_pins_it(project):
    assert len(waived_numbers(project)) == 1
    run(project, "update")
    entry = polib.pofile(str(project / CATALOG)).find("Версия 6.8 вышла.")
    pin = fingerprint("Версия 6.8 вышла.")
    assert entry.tcomment == f"tolmach: ignore numbers [msgid {pin}] — {REASON}"
    assert len(waived_numbers(project)) == 1
    assert "unchanged" in run(project, "update").output  # pinned once, then stable


def test_the_flag_form_is_still_read():
    entry = polib.POEntry(msgid="Версия 6.8.", msgstr="Version 6.9.", flags=["ignore-numbers"])
    found = [f for f in check_entry(entry, "de") if f.check == "numbers"]
    assert found and all(f.waived for f in found)


def test_a_waiver_naming_no_check_is_an_error():
    entry = polib.POEntry(msgid="Версия 6.8.", msgstr="Version 6.8.",
                          tcomment="tolmach: ignore numbrs — typo")
    errors = [f for f in check_entry(entry, "de") if f.check == "waiver"]
    assert [f.message for f in errors] == [
        "waiver 'tolmach: ignore numbrs' names no check (did you mean 'numbers'?)"
    ]


def test_several_checks_and_dash_forms_are_read():
    entry = polib.POEntry(msgid="x", tcomment="note\ntolmach: ignore numbers, punctuation - why")
    assert [(w.check, w.reason) for w in waivers_in(entry)] == [
        ("numbers", "why"), ("punctuation", "why")
    ]
    assert pin_waivers("note\nother", "x") == "note\nother"


def chain_msgcat(project: Path, work: Path) -> None:
    run_tool("msgcat", "-o", work / "cat.po", project / CATALOG)
    shutil.copyfile(work / "cat.po", project / CATALOG)


def chain_msgmerge(project: Path, work: Path) -> None:
    run_tool("msgmerge", "-q", "-o", work / "merged.po", project / CATALOG,
             project / "locales" / "a.pot")
    shutil.copyfile(work / "merged.po", project / CATALOG)


def chain_xliff(project: Path, work: Path) -> None:
    run_tool("po2xliff", "--progress=none", project / CATALOG, work / "a.xlf")
    run_tool("xliff2po", "--progress=none", work / "a.xlf", work / "back.po")
    shutil.copyfile(work / "back.po", project / CATALOG)


CHAINS = {"msgcat": [chain_msgcat], "msgmerge": [chain_msgmerge], "xliff": [chain_xliff],
          "all": [chain_msgcat, chain_msgmerge, chain_xliff]}


@pytest.mark.parametrize("chain", CHAINS)
def test_waivers_come_back_after_the_tools_and_update(project, tmp_path_factory, chain):
    run(project, "update")  # pins the waiver
    pinned = polib.pofile(str(project / CATALOG)).find("Версия 6.8 вышла.").tcomment
    work = tmp_path_factory.mktemp("tools")
    for step in CHAINS[chain]:
        step(project, work)
    run(project, "update")
    entry = polib.pofile(str(project / CATALOG)).find("Версия 6.8 вышла.")
    assert entry.tcomment == pinned
    assert len(waived_numbers(project)) == 1
    before = (project / CATALOG).read_bytes()
    run(project, "update")
    assert (project / CATALOG).read_bytes() == before  # a stable catalog


def test_a_waiver_lapses_visibly_when_the_source_changes(project):
    run(project, "update")
    (project / "seeds" / "a.ru.md").write_text(ARTICLE.replace("6.8", "6.10"), "utf-8")
    run(project, "extract")
    run(project, "update")
    po = polib.pofile(str(project / CATALOG))
    entry = po.find("Версия 6.10 вышла.")
    assert "fuzzy" in entry.flags and REASON in entry.tcomment
    entry.flags.remove("fuzzy")  # the translator confirms without rereading the waiver
    entry.previous_msgid = None
    po.save()
    found = findings(project, code=1)
    lapsed = [f for f in found if f["check"] == "waiver"]
    assert len(lapsed) == 1 and lapsed[0]["severity"] == "warning"
    assert "was given for an earlier source text" in lapsed[0]["message"]
    assert "delete '[msgid" in lapsed[0]["fix"]
    active = [f for f in found if f["check"] == "numbers" and not f["waived"]]
    assert active and active[0]["source"] == "seeds/a.ru.md:3"
    # renewing: delete the pin; the next update pins the waiver to the new text
    po = polib.pofile(str(project / CATALOG))
    entry = po.find("Версия 6.10 вышла.")
    entry.tcomment = f"tolmach: ignore numbers — {REASON}"
    po.save()
    run(project, "update")
    assert fingerprint("Версия 6.10 вышла.") in (project / CATALOG).read_text("utf-8")
    assert len(waived_numbers(project)) == 1


def test_flag_waivers_become_pinned_comments_when_the_source_changes(project):
    po = polib.pofile(str(project / CATALOG))
    entry = po.find("Версия 6.8 вышла.")
    entry.tcomment, entry.flags = "", ["ignore-numbers"]
    po.save()
    (project / "seeds" / "a.ru.md").write_text(ARTICLE.replace("6.8", "6.10"), "utf-8")
    run(project, "extract")
    run(project, "update")
    entry = polib.pofile(str(project / CATALOG)).find("Версия 6.10 вышла.")
    assert "ignore-numbers" not in entry.flags
    assert entry.tcomment == f"tolmach: ignore numbers [msgid {fingerprint('Версия 6.8 вышла.')}]"
