"""A translator's and a maintainer's day, scripted end to end (issue 14, "Done when").

In an empty folder: a mistake is refused, a project is made, two articles and a BCP 47
locale are added, catalogs are translated with polib (one waiver given), then run
through GNU msgcat and msgmerge and a translate-toolkit XLIFF round trip; the source is
edited, and update, check and build run again. The session ends with no lost waiver,
no silent exit 0 on a mistake, and a catalog that a second update leaves alone.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import polib
from click.testing import CliRunner

from tolmach.catalog.waivers import fingerprint
from tolmach.cli import cli
from tools import run_tool

INTRO = """# Введение

ROCm 7 — открытая платформа для ускорителей AMD.

Версия 6.8 вышла в прошлом году.
"""
GUIDE = """# Руководство

ROCm 7 — открытая платформа для ускорителей AMD.

Установите драйвер и перезагрузите систему.

Этот абзац потом удалят.
"""
GUIDE_EDITED = """# Руководство

ROCm 7 — открытая платформа для ускорителей AMD.

Установите новый драйвер и перезагрузите систему.

Новый абзац о поддержке Windows.
"""
GERMAN = {
    "Введение": "Einführung",
    "Руководство": "Anleitung",
    "ROCm 7 — открытая платформа для ускорителей AMD.": "ROCm 7 ist eine offene Plattform "
    "für AMD-Beschleuniger.",
    "Версия 6.8 вышла в прошлом году.": "Version 6.9 erschien im letzten Jahr.",
    "Установите драйвер и перезагрузите систему.": "Installieren Sie den Treiber und "
    "starten Sie das System neu.",
    "Этот абзац потом удалят.": "Dieser Absatz wird später entfernt.",
}
WAIVER = "tolmach: ignore numbers — the German edition describes 6.9"


class Session:
    """Commands typed in one folder, as a person would: the project is found from there."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def __call__(self, *args: str, code: int = 0) -> str:
        old = Path.cwd()
        os.chdir(self.folder)
        try:
            result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
        finally:
            os.chdir(old)
        assert result.exit_code == code, f"tolmach {' '.join(args)}: {result.output}"
        return result.output


def catalogs(folder: Path) -> list[Path]:
    return sorted(folder.glob("locales/*/LC_MESSAGES/*.po"))


def translate(path: Path) -> None:
    po = polib.pofile(str(path))
    german = "/de_DE/" in path.as_posix()
    for entry in po:
        if entry.obsolete:
            continue
        entry.msgstr = GERMAN.get(entry.msgid, entry.msgid) if german else f"EN: {entry.msgid}"
        if "fuzzy" in entry.flags:
            entry.flags.remove("fuzzy")
        if german and entry.msgid == "Версия 6.8 вышла в прошлом году.":
            entry.tcomment = WAIVER
    po.save()


def through_translators_tools(folder: Path, work: Path) -> None:
    """msgcat, msgmerge against the template, and po2xliff/xliff2po, on every catalog."""
    for number, path in enumerate(catalogs(folder)):
        template = folder / "locales" / f"{path.stem}.pot"
        run_tool("msgcat", "-o", work / f"{number}.cat.po", path)
        run_tool("msgmerge", "-q", "-o", work / f"{number}.merged.po", work / f"{number}.cat.po",
                 template)
        run_tool("po2xliff", "--progress=none", work / f"{number}.merged.po",
                 work / f"{number}.xlf")
        run_tool("xliff2po", "--progress=none", work / f"{number}.xlf", work / f"{number}.po")
        shutil.copyfile(work / f"{number}.po", path)


def waivers(folder: Path) -> list[str]:
    po = polib.pofile(str(folder / "locales/de_DE/LC_MESSAGES/intro.po"))
    return [line for e in po for line in e.tcomment.split("\n") if line.startswith("tolmach:")]


def test_a_day_with_tolmach(tmp_path_factory):
    folder = tmp_path_factory.mktemp("empty")
    work = tmp_path_factory.mktemp("tools")
    tolmach = Session(folder)

    # not a project yet: no silent success, nothing written
    assert "run `tolmach init`" in tolmach("extract", code=1)
    assert "run `tolmach init`" in tolmach("check", code=1)
    assert list(folder.iterdir()) == []

    tolmach("init", "--source-locale", "ru", "-l", "en")
    assert "match no Markdown file" in tolmach("extract", code=1)

    (folder / "seeds" / "intro.md").write_text(INTRO, "utf-8")
    (folder / "seeds" / "guide.md").write_text(GUIDE, "utf-8")
    tolmach("extract")
    added = tolmach("locale", "add", "de-DE")  # a BCP 47 tag; catalogs made at once
    assert "created locales/de_DE/LC_MESSAGES/guide.po: +4 new" in added
    assert "+3 new" in tolmach("update", "-l", "en")

    for path in catalogs(folder):
        translate(path)
    tolmach("update")  # pins the waiver to its text
    pinned = f"tolmach: ignore numbers [msgid {fingerprint('Версия 6.8 вышла в прошлом году.')}]"
    assert waivers(folder) == [pinned + " — the German edition describes 6.9"]

    through_translators_tools(folder, work)
    tolmach("update")
    assert waivers(folder) == [pinned + " — the German edition describes 6.9"]

    # mistakes exit 1 with one line
    assert "locale 'fr' is not configured" in tolmach("check", "-l", "fr", code=1)
    assert "did you mean 'de_DE'?" in tolmach("check", "-l", "de_de", code=1)
    assert "'ru' is the source locale" in tolmach("update", "-l", "ru", code=1)
    assert not (folder / "locales" / "ru").exists() and not (folder / "locales" / "fr").exists()

    # the author edits one article
    (folder / "seeds" / "guide.md").write_text(GUIDE_EDITED, "utf-8")
    tolmach("extract")
    report = json.loads(tolmach("update", "--format", "json"))
    guide_de = next(c for c in report["catalogs"]
                    if c["document"] == "guide" and c["tag"] == "de-DE")
    assert (guide_de["new"], guide_de["fuzzy"], guide_de["obsolete"], guide_de["kept"]) == (
        1, 1, 1, 2)

    findings = json.loads(tolmach("check", "--format", "json"))["findings"]
    assert not [f for f in findings if f["severity"] == "error" and not f["waived"]]
    waived = [f for f in findings if f["waived"] and f["check"] == "numbers"]
    assert len(waived) == 1 and waived[0]["source"] == "seeds/intro.md:5"
    obsolete = [f["message"] for f in findings if f["check"] == "obsolete"]
    assert obsolete == ["obsolete entries: 1 (lines 41)"] * 2  # the removed one, not the edit
    assert waivers(folder) == [pinned + " — the German edition describes 6.9"]

    tolmach("build", "--threshold", "0")
    assert (folder / "output/de_DE/intro.md").read_text("utf-8").startswith("# Einführung")
    tolmach("publish", "-l", "de-DE")
    assert '<html lang="de-DE"' in (folder / "output/site/de_DE/intro.html").read_text("utf-8")

    # a second update is a no-op, byte for byte
    before = {path: path.read_bytes() for path in catalogs(folder)}
    second = tolmach("update")
    assert {path: path.read_bytes() for path in catalogs(folder)} == before
    assert "wrote" not in second and "(4 catalogs, 0 written)" in second
