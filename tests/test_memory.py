"""memory and ``tolmach tm``: the project's translations, found again and exchanged."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import click
import polib
import pytest
from click.testing import CliRunner

from tolmach.catalog.merge import merge_catalog
from tolmach.catalog.pofile import write_po
from tolmach.cli.tm import tm
from tolmach.fileio import OutsideError
from tolmach.memory.compendium import read_compendium
from tolmach.memory.store import (
    CACHE_FILE,
    TranslationMemory,
    TranslationMemoryError,
    made_anew,
    project_catalogs,
    project_memory,
    reviewed_units,
)
from tolmach.memory.tmx import read_tmx

TMX = Path(__file__).parent / "data" / "tmx"


def write_catalog(path: Path, language: str, *entries: tuple[str, str, list[str]]) -> None:
    po = polib.POFile()
    po.metadata = {"Language": language, "Content-Type": "text/plain; charset=UTF-8"}
    for msgid, msgstr, flags in entries:
        po.append(polib.POEntry(msgid=msgid, msgstr=msgstr, flags=flags))
    write_po(po, path)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """Two documents in German, one in Chinese; one fuzzy and one untranslated entry."""
    de = tmp_path / "locales" / "de" / "LC_MESSAGES"
    write_catalog(
        de / "rocm7.po",
        "de",
        ("Установите драйвер.", "Installieren Sie den Treiber.", []),
        ("Перезагрузите систему.", "Starten Sie das System neu.", ["fuzzy"]),
        ("Ещё не переведено.", "", []),
    )
    write_catalog(
        de / "install.po", "de", ("Сборка занимает час.", "Der Build dauert eine Stunde.", [])
    )
    write_catalog(
        tmp_path / "locales" / "zh_CN" / "LC_MESSAGES" / "rocm7.po",
        "zh_CN",
        ("Установите драйвер.", "安装驱动程序。", []),
    )
    return tmp_path


@pytest.fixture
def memory(project: Path) -> TranslationMemory:
    with project_memory(project, "ru") as opened:
        yield opened


def test_memory_holds_every_reviewed_translation(memory: TranslationMemory) -> None:
    assert sorted((unit.source, unit.target, unit.locale) for unit in memory.units()) == [
        ("Сборка занимает час.", "Der Build dauert eine Stunde.", "de"),
        ("Установите драйвер.", "Installieren Sie den Treiber.", "de"),
        ("Установите драйвер.", "安装驱动程序。", "zh_CN"),
    ]


def test_search_gives_score_and_origin(memory: TranslationMemory) -> None:
    [match] = memory.search("Сборка занимает целый час.", "de")
    assert match.target == "Der Build dauert eine Stunde."
    assert match.origin == "install.po, de"
    assert match.score == pytest.approx(0.87, abs=0.01)


def test_search_leaves_out_the_document_being_merged(memory: TranslationMemory) -> None:
    assert memory.best("Установите драйвер.", "de", exclude_document="rocm7") is None
    assert memory.best("Установите драйвер.", "zh_CN", exclude_document="rocm7") is None
    assert memory.best("Установите драйвер.", "de", exclude_document="install").score == 1.0


def test_regional_translations_serve_the_language(project: Path) -> None:
    write_catalog(
        project / "locales" / "de_AT" / "LC_MESSAGES" / "wien.po",
        "de_AT",
        ("Обзор", "Überblick", []),
    )
    with project_memory(project, "ru") as memory:
        assert memory.best("Обзор", "de").origin == "wien.po, de_AT"
        assert memory.best("Обзор", "de_CH") is None


def test_refresh_reads_only_what_changed(project: Path, memory: TranslationMemory) -> None:
    catalogs = project_catalogs(project)
    assert memory.refresh(catalogs) == 0
    write_catalog(
        project / "locales" / "de" / "LC_MESSAGES" / "install.po",
        "de",
        ("Сборка занимает два часа.", "Der Build dauert zwei Stunden.", []),
    )
    assert memory.refresh(project_catalogs(project)) == 1
    assert memory.best("Сборка занимает час.", "de", threshold=0.95) is None
    (project / "locales" / "zh_CN" / "LC_MESSAGES" / "rocm7.po").unlink()
    memory.refresh(project_catalogs(project))
    assert memory.best("Установите драйвер.", "zh_CN") is None


def test_merge_fills_a_new_entry_from_another_document(memory: TranslationMemory) -> None:
    template = polib.POFile()
    template.append(polib.POEntry(msgid="Сборка занимает час."))
    [entry] = merge_catalog(None, template, memory=memory, locale="de", document="rocm7")
    assert entry.msgstr == "Der Build dauert eine Stunde." and entry.fuzzy
    assert entry.comment == "memory: 100% from install.po, de"


def test_tmx_compendium_is_imported_and_replaced_on_reimport(memory: TranslationMemory) -> None:
    units = read_compendium(TMX / "omegat.tmx", "ru")
    assert memory.import_units("omegat.tmx", units) == 4
    assert memory.best("Установка", "zh_CN").target == "安装"
    assert memory.import_units("omegat.tmx", units[:1]) == 1
    assert memory.best("Установка", "zh_CN") is None


def test_po_compendium_from_another_source_language_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "english.po"
    write_catalog(
        path,
        "de",
        ("Install the driver and restart the system.", "Treiber.", []),
        ("Building takes an hour on most machines.", "Build.", []),
    )
    with pytest.raises(TranslationMemoryError, match=r"Latin script.*translates from ru"):
        read_compendium(path, "ru")


def test_po_compendium_needs_a_language(tmp_path: Path) -> None:
    path = tmp_path / "nolang.po"
    write_catalog(path, "", ("Установите драйвер.", "Installieren.", []))
    with pytest.raises(TranslationMemoryError, match="no Language header"):
        read_compendium(path, "ru")


def test_locked_memory_is_a_clear_error(project: Path) -> None:
    database = project / CACHE_FILE
    TranslationMemory(database, "ru").close()
    holder = sqlite3.connect(database, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(TranslationMemoryError, match="locked by another process"):
            TranslationMemory(database, "ru", timeout=0.1).refresh(project_catalogs(project))
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_corrupt_memory_is_a_clear_error(project: Path) -> None:
    database = project / CACHE_FILE
    database.parent.mkdir(parents=True)
    database.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(TranslationMemoryError, match="tolmach tm rebuild"):
        TranslationMemory(database, "ru")


def test_memory_of_another_source_language_is_refused(project: Path) -> None:
    TranslationMemory(project / CACHE_FILE, "ru").close()
    with pytest.raises(TranslationMemoryError, match=r"from ru.*from en"):
        TranslationMemory(project / CACHE_FILE, "en")


# ------------------------------------------------------------ the tm command


class State:
    def __init__(self, root: Path) -> None:
        self.root = root


@pytest.fixture
def run(project: Path):
    """Invoke `tm` as the main command would, with the project root in ctx.obj."""

    @click.group()
    @click.pass_context
    def main(ctx: click.Context) -> None:
        ctx.obj = State(project)

    main.add_command(tm)

    def invoke(*args: str):
        return CliRunner().invoke(main, ["tm", *args], catch_exceptions=False)

    return invoke


def snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    return {
        path.name + path.parent.parent.name: (path.read_bytes(), path.stat().st_mtime_ns)
        for path in (root / "locales").rglob("*.po")
    }


def test_tm_search_prints_score_origin_and_texts(run) -> None:
    result = run("search", "Сборка занимает целый час.", "-l", "de")
    assert result.exit_code == 0
    assert result.output.splitlines() == [
        " 86%  install.po, de",
        "      Сборка занимает час.",
        "      Der Build dauert eine Stunde.",
    ]


def test_tm_export_then_import_round_trips(run, project: Path) -> None:
    exported = project / "out.tmx"
    assert run("export", "--format", "tmx", "-o", str(exported)).exit_code == 0
    assert len(read_tmx(exported, "ru")) == 3
    result = run("import", str(exported))
    assert result.exit_code == 0 and "Imported 3" in result.output


def test_tm_import_of_bad_tmx_fails_and_touches_no_catalog(run, project: Path) -> None:
    before = snapshot(project)
    for name in ("broken.tmx", "english-source.tmx"):
        result = run("import", str(TMX / name))
        assert result.exit_code == 1
        assert f"{name}:" in result.output
    assert snapshot(project) == before


def test_tm_rebuild_recreates_a_corrupt_memory(run, project: Path) -> None:
    database = project / CACHE_FILE
    database.parent.mkdir(parents=True)
    database.write_bytes(b"garbage" * 1000)
    failed = run("search", "Установите драйвер.", "-l", "de")
    assert failed.exit_code == 1 and "tolmach tm rebuild" in failed.output
    result = run("rebuild")
    assert result.exit_code == 0 and "3 segments from 3 catalogs" in result.output
    assert run("search", "Установите драйвер.", "-l", "de").exit_code == 0


def test_tm_works_without_a_root_object(project: Path) -> None:
    """It finds the project the working directory is in; outside one it says so."""
    cwd = Path.cwd()
    os.chdir(project)
    try:
        outside = CliRunner().invoke(tm, ["search", "Установите драйвер.", "-l", "de"])
        (project / "tolmach.toml").write_text('source-locale = "ru"\n', "utf-8")
        result = CliRunner().invoke(tm, ["search", "Установите драйвер.", "-l", "de"])
    finally:
        os.chdir(cwd)
    assert outside.exit_code == 1 and "run `tolmach init`" in outside.output
    assert result.exit_code == 0 and "100%  rocm7.po, de" in result.output


def _glob_catalogs(locales: Path) -> list[Path]:
    """What ``project_catalogs`` must find: ``*/LC_MESSAGES/**/*.po``, as pathlib globs it."""
    return sorted(locales.glob("*/LC_MESSAGES/**/*.po"))


def test_project_catalogs_finds_what_the_glob_finds_and_names_them(tmp_path: Path) -> None:
    """One listing per folder instead of a glob: the same files, in the same order, with
    locale and document named from the nearest LC_MESSAGES; links that stay inside count."""
    locales = tmp_path / "locales"
    for name in ("de/LC_MESSAGES/a/b.po", "de/LC_MESSAGES/a-b.po", "de/LC_MESSAGES/q.b.po",
                 "de/LC_MESSAGES/.po", "de/LC_MESSAGES/x.PO", "de/LC_MESSAGES/a/LC_MESSAGES/y.po",
                 ".hidden/LC_MESSAGES/h.po", "zh_CN/LC_MESSAGES/g/u/i/d.po", "fr/no.po",
                 "store/LC_MESSAGES/s/o.po"):
        (locales / name).parent.mkdir(parents=True, exist_ok=True)
        (locales / name).write_text("", "utf-8")
    (locales / "de" / "LC_MESSAGES" / "folder.po").mkdir()
    (locales / "de" / "LC_MESSAGES" / "near.po").symlink_to(locales / "de" / "LC_MESSAGES" / "q.b.po")
    (locales / "de" / "LC_MESSAGES" / "linked").symlink_to(locales / "store", target_is_directory=True)
    (locales / "en").symlink_to(locales / "store", target_is_directory=True)  # a linked locale
    found = project_catalogs(tmp_path)
    assert [c.path for c in found] == _glob_catalogs(locales)
    named = {c.name: (c.locale, c.document) for c in found}
    assert named["locales/de/LC_MESSAGES/a/b.po"] == ("de", "a/b")
    assert named["locales/de/LC_MESSAGES/a/LC_MESSAGES/y.po"] == ("a", "y")
    assert named["locales/de/LC_MESSAGES/.po"] == ("de", ".po")
    assert named["locales/en/LC_MESSAGES/s/o.po"] == ("en", "s/o")
    assert "locales/de/LC_MESSAGES/linked/o.po" not in named  # ``**`` follows no link


def test_project_catalogs_refuses_a_catalog_linked_out_of_a_linked_folder(tmp_path: Path) -> None:
    """Folders' real paths are found once each; a catalog that is itself a link out, in a
    linked folder that stays inside, is still refused, as is a locale linked out."""
    locales = tmp_path / "p" / "locales"
    (locales / "store" / "LC_MESSAGES").mkdir(parents=True)
    (locales / "store" / "LC_MESSAGES" / "ok.po").write_text("", "utf-8")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.po").write_text("", "utf-8")
    (locales / "de").symlink_to(locales / "store", target_is_directory=True)
    assert [c.name for c in project_catalogs(tmp_path / "p")] == [
        "locales/de/LC_MESSAGES/ok.po", "locales/store/LC_MESSAGES/ok.po"]
    (locales / "store" / "LC_MESSAGES" / "z.po").symlink_to(tmp_path / "outside" / "secret.po")
    with pytest.raises(OutsideError) as caught:
        project_catalogs(tmp_path / "p")
    assert caught.value.path == str(locales / "de" / "LC_MESSAGES" / "z.po")
    (locales / "store" / "LC_MESSAGES" / "z.po").unlink()
    (tmp_path / "outside" / "LC_MESSAGES").mkdir()
    (tmp_path / "outside" / "LC_MESSAGES" / "x.po").write_text("", "utf-8")
    (locales / "fr").symlink_to(tmp_path / "outside", target_is_directory=True)
    with pytest.raises(OutsideError) as caught:
        project_catalogs(tmp_path / "p")
    assert caught.value.path == str(locales / "fr")
    (locales / "fr").unlink()
    (locales / "it").mkdir()
    (locales / "it" / "LC_MESSAGES").symlink_to(tmp_path / "outside" / "LC_MESSAGES",
                                               target_is_directory=True)
    with pytest.raises(OutsideError) as caught:  # a locale's LC_MESSAGES linked out
        project_catalogs(tmp_path / "p")
    assert caught.value.path == str(locales / "it" / "LC_MESSAGES")


def memory_rows(path: Path) -> dict[str, list[tuple]]:
    """Every row of every table of a memory (the meta table's random id left out)."""
    db = sqlite3.connect(path)
    try:
        tables = [name for (name,) in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return {name: sorted(db.execute(f'SELECT * FROM "{name}"').fetchall(), key=repr)
                for name in tables if name != "meta"}
    finally:
        db.close()


def test_a_new_memory_is_made_aside_and_holds_what_one_filled_in_place_holds(project: Path) -> None:
    project_memory(project, "ru").close()
    made = project / CACHE_FILE
    assert sorted(p.name for p in made.parent.iterdir()) == ["memory.sqlite3"]  # nothing aside
    db = sqlite3.connect(made)
    assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)  # as every later run opens it
    db.close()
    in_place = project / "in-place.sqlite3"
    with TranslationMemory(in_place, "ru") as memory:
        memory.refresh(project_catalogs(project))
    assert memory_rows(made) == memory_rows(in_place)


def test_a_memory_whose_making_failed_leaves_nothing_and_the_next_one_is_made(project: Path) -> None:
    (project / "locales" / "de" / "LC_MESSAGES" / "broken.po").write_text('msgid "x\n', "utf-8")
    folder = (project / CACHE_FILE).parent
    folder.mkdir(parents=True)
    (folder / f"memory.sqlite3.new-{ended_pid()}-0a1b").write_bytes(b"left by a killed run")
    with pytest.raises(Exception, match=r"broken\.po"):
        project_memory(project, "ru")
    assert list(folder.iterdir()) == []  # neither this run's file nor the old leftover
    (project / "locales" / "de" / "LC_MESSAGES" / "broken.po").unlink()
    with project_memory(project, "ru") as memory:
        assert memory.count() == 3  # the reviewed translations: not the fuzzy one


def ended_pid() -> int:
    """The id of a process that has ended."""
    import subprocess
    import sys

    child = subprocess.Popen([sys.executable, "-c", ""])
    child.wait()
    return child.pid


def test_what_a_running_process_makes_aside_is_left_to_it(project: Path) -> None:
    folder = (project / CACHE_FILE).parent
    folder.mkdir(parents=True)
    in_making = folder / f"memory.sqlite3.new-{os.getpid()}-0a1b"  # a running process's
    in_making.write_bytes(b"being made")
    project_memory(project, "ru").close()
    assert in_making.read_bytes() == b"being made"


def test_a_memory_another_process_placed_first_is_the_one_opened(project: Path) -> None:
    """A ``tm`` command takes no project lock: two processes may make the memory at once.
    The first placed stays; the other opens it and brings it up to date."""
    path = project / CACHE_FILE
    first: list[int] = []

    def read_while_another_places_its_own(catalogs):
        if not first:  # the other process finishes while this one reads
            with project_memory(project, "ru") as other:
                first.append(os.stat(path).st_ino)
                assert other.count() == 3
        return reviewed_units(catalogs)

    with made_anew(path, "ru", project_catalogs(project), read_while_another_places_its_own) as memory:
        assert memory.count() == 3
    assert os.stat(path).st_ino == first[0]  # the first placed stays
    assert sorted(p.name for p in path.parent.iterdir() if ".new-" in p.name) == []
