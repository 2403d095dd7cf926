"""When the system refuses a write, tolmach says so in one line and keeps every file whole.

A full disk (ENOSPC), a read-only file system (EROFS), a missing permission (EACCES) or
a used-up quota (EDQUOT) gives one line naming the file relative to the project, what
happened and what to do, exit code 1, and leaves every file as it was: no half-written
catalog, no temporary file, no lock file.

Where the machine lets the tests mount a tmpfs (root with CAP_SYS_ADMIN, as on CI), a
tiny one makes the disk really full or really read-only; everywhere, the same errors
are injected into the atomic writer at each step (temporary file, fsync, rename). A
file the project can make again (a template, a page) is flushed at the command's end:
the disk failing there is still one line naming the file.
A folder where a file should be (EISDIR) and a name too long for the file system
(ENAMETOOLONG) need no help: tests/test_bad_input.py makes them.
"""

from __future__ import annotations

import errno
import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import polib
import pytest
from click.testing import CliRunner

from tolmach.cli import cli
from tolmach.config import load_config
from tolmach.project import Project

CONFIG = '[tool.tolmach]\nsource-locale = "ru"\nlocales = ["en", "de"]\n'
ARTICLE = "# Заголовок\n\nАбзац.\n\n> Цитата.\n"
EN_PO = "locales/en/LC_MESSAGES/article.po"
PROBLEMS = {
    errno.ENOSPC: "cannot write: no space left on the device",
    errno.EDQUOT: "cannot write: the disk quota is used up",
    errno.EROFS: "cannot write: the file system is read-only",
    errno.EACCES: "cannot write: permission denied",
}


def invoke(root: Path, *args: str):
    return CliRunner().invoke(cli, ["-C", str(root), *args], catch_exceptions=False)


def make_project(root: Path) -> Path:
    """Templates, catalogs, the memory and one translation: a project in use."""
    (root / "seeds").mkdir(parents=True)
    (root / "pyproject.toml").write_text(CONFIG, "utf-8")
    (root / "seeds" / "article.ru.md").write_text(ARTICLE, "utf-8")
    Project(load_config(root)).extract()
    assert invoke(root, "update").exit_code == 0
    po = polib.pofile(str(root / EN_PO))
    po.find("Заголовок").msgstr = "Heading"
    po.save()
    return root


def change_source(root: Path) -> None:
    with open(root / "seeds" / "article.ru.md", "a", encoding="utf-8") as handle:
        handle.write("\nНовый абзац, которого нет в каталогах.\n")


def snapshot(root: Path) -> dict[str, str]:
    return {
        path.relative_to(root).as_posix(): (
            hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "folder"
        )
        for path in sorted(root.rglob("*"))
        if path.name != "filler"
    }


def assert_refused_in_one_line(result, root: Path, where: str, problem: str) -> None:
    lines = result.output.strip().splitlines()
    assert result.exit_code == 1, result.output
    assert len(lines) == 1, result.output
    assert lines[0].startswith(f"Error: {where}: {problem}"), lines[0]
    assert str(root) not in result.output


# ------------------------------------------------------------- injected errors


@pytest.mark.parametrize("code", list(PROBLEMS), ids=[errno.errorcode[c] for c in PROBLEMS])
@pytest.mark.parametrize("step", ["tempfile.mkstemp", "os.fsync", "os.replace"])
def test_an_os_error_while_writing_a_catalog_keeps_the_old_one(tmp_path, monkeypatch, code, step):
    """A catalog is somebody's work: it is flushed before its rename, so even a disk
    that fails at the flush keeps the old catalog."""
    root = make_project(tmp_path / "project")
    change_source(root)
    assert invoke(root, "extract").exit_code == 0
    before = snapshot(root)

    def refuse(*args, **kwargs):
        raise OSError(code, os.strerror(code))

    module, name = step.split(".")
    monkeypatch.setattr({"os": os, "tempfile": tempfile}[module], name, refuse)
    result = invoke(root, "update", "-l", "en")
    monkeypatch.undo()
    assert_refused_in_one_line(result, root, EN_PO, PROBLEMS[code])
    after = snapshot(root)
    changed = {path for path in before.keys() | after.keys()
               if before.get(path) != after.get(path) and not path.startswith(".tolmach-cache/")}
    assert changed == set(), "a file changed, or a temporary or lock file was left"


@pytest.mark.parametrize("code", list(PROBLEMS), ids=[errno.errorcode[c] for c in PROBLEMS])
@pytest.mark.parametrize("step", ["tempfile.mkstemp", "os.replace"])
def test_an_os_error_while_writing_a_template_keeps_the_old_one(tmp_path, monkeypatch, code, step):
    root = make_project(tmp_path / "project")
    change_source(root)
    before = snapshot(root)
    del before["seeds/article.ru.md"]

    def refuse(*args, **kwargs):
        raise OSError(code, os.strerror(code))

    module, name = step.split(".")
    monkeypatch.setattr({"os": os, "tempfile": tempfile}[module], name, refuse)
    result = invoke(root, "extract")
    monkeypatch.undo()
    assert_refused_in_one_line(result, root, "locales/article.pot", PROBLEMS[code])
    after = snapshot(root)
    del after["seeds/article.ru.md"]
    assert after == before, "a file changed, or a temporary or lock file was left"


@pytest.mark.parametrize("code", list(PROBLEMS), ids=[errno.errorcode[c] for c in PROBLEMS])
def test_a_template_the_disk_fails_to_flush_is_an_error_naming_it(tmp_path, monkeypatch, code):
    """A template can be made again, so a command flushes it with the others at its end:
    a failure there cannot keep the old bytes, but still stops the command with one line
    naming the file."""
    root = make_project(tmp_path / "project")
    change_source(root)

    def refuse(*args, **kwargs):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(os, "fsync", refuse)
    result = invoke(root, "extract")
    monkeypatch.undo()
    lines = result.output.strip().splitlines()
    assert result.exit_code == 1, result.output
    assert lines[-1].startswith(f"Error: locales/article.pot: {PROBLEMS[code]}"), lines
    assert "may not be whole on disk" in lines[-1]
    assert not list(root.rglob("*.tmp")) and not (root / ".tolmach-cache" / "lock").exists()


def test_an_os_error_while_locking_is_one_line(tmp_path, monkeypatch):
    root = make_project(tmp_path / "project")
    before = snapshot(root)

    def refuse(*args, **kwargs):
        raise OSError(errno.EACCES, os.strerror(errno.EACCES))

    monkeypatch.setattr(os, "open", refuse)
    result = invoke(root, "update")
    monkeypatch.undo()
    assert_refused_in_one_line(result, root, ".tolmach-cache/lock", PROBLEMS[errno.EACCES])
    assert "cannot lock the project" in result.output
    assert snapshot(root) == before


def test_a_long_name_that_fits_is_written(tmp_path):
    """The temporary file's name must fit too: a long target name is cut in it."""
    root = make_project(tmp_path / "project")
    name = "b" * 250  # 'b…b.pot' is 254 bytes; '.b…b.pot.XXXXXXXX.tmp' would not fit
    (root / "seeds" / f"{name}.md").write_text(ARTICLE, "utf-8")
    result = invoke(root, "extract")
    assert result.exit_code == 0, result.output
    assert (root / "locales" / f"{name}.pot").is_file()
    assert not list((root / "locales").glob(".*.tmp"))


# ------------------------------------------------------------- real file systems


@pytest.fixture
def tmpfs(tmp_path: Path):
    """Mount tiny tmpfs file systems; each is unmounted after the test."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a tmpfs needs root; the same errors are injected above")
    mounted: list[Path] = []

    def mount(folder: Path, size: str = "1m") -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755",
                               "tmpfs", str(folder)], capture_output=True, text=True)
        if done.returncode != 0:
            pytest.skip(f"this machine does not allow mounting a tmpfs ({done.stderr.strip()}); "
                        "the same errors are injected above")
        mounted.append(folder)
        return folder

    yield mount
    for folder in reversed(mounted):
        subprocess.run(["umount", "-l", str(folder)], check=False)


def move_onto_tmpfs(folder: Path, mount, size: str = "1m") -> None:
    """Put ``folder``'s files on a tmpfs mounted in its place."""
    keep = folder.with_name(folder.name + "-copy")
    shutil.copytree(folder, keep)
    shutil.rmtree(folder)
    mount(folder, size)
    shutil.copytree(keep, folder, dirs_exist_ok=True)
    shutil.rmtree(keep)


def fill(folder: Path) -> None:
    with open(folder / "filler", "wb") as handle:
        try:
            while True:
                handle.write(b"\0" * 65536)
                handle.flush()
        except OSError as exc:
            assert exc.errno == errno.ENOSPC


def remount_read_only(folder: Path) -> None:
    subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)


def test_a_full_disk_under_locales_keeps_the_template_whole(tmp_path, tmpfs):
    root = make_project(tmp_path / "project")
    move_onto_tmpfs(root / "locales", tmpfs)
    change_source(root)
    fill(root / "locales")
    before = snapshot(root / "locales")
    result = invoke(root, "extract")
    assert_refused_in_one_line(result, root, "locales/article.pot", PROBLEMS[errno.ENOSPC])
    assert snapshot(root / "locales") == before
    assert not (root / ".tolmach-cache" / "lock").exists()
    (root / "locales" / "filler").unlink()
    assert invoke(root, "extract").exit_code == 0  # space again: it just works


def test_a_full_disk_keeps_catalogs_and_memory_whole(tmp_path, tmpfs):
    """The memory learns the new translation first: SQLite finds the disk full."""
    root = tmp_path / "project"
    tmpfs(root, "4m")
    make_project(root)
    po = polib.pofile(str(root / EN_PO))
    po.find("Абзац.").msgstr = "Paragraph."
    po.save()
    change_source(root)
    assert invoke(root, "extract").exit_code == 0
    fill(root)
    before = snapshot(root)
    result = invoke(root, "update")
    lines = result.output.strip().splitlines()
    assert result.exit_code == 1 and len(lines) == 1, result.output
    assert lines[0].startswith("Error: .tolmach-cache/memory.sqlite3: no space left on the "
                               "device for the translation memory"), lines[0]
    assert str(root) not in result.output
    (root / "filler").unlink()
    after = snapshot(root)
    # SQLite may keep its (empty) write-ahead log when it could not clean up on a full
    # disk: part of its own commit protocol, gone at the next successful run
    wal = root / ".tolmach-cache" / "memory.sqlite3-wal"
    assert not wal.exists() or wal.stat().st_size == 0
    for name in ("memory.sqlite3-wal", "memory.sqlite3-shm"):
        after.pop(f".tolmach-cache/{name}", None)
    assert after == before
    assert invoke(root, "update").exit_code == 0
    assert not wal.exists()


def test_read_only_locales_keep_the_catalogs(tmp_path, tmpfs):
    root = make_project(tmp_path / "project")
    for _ in range(2):  # the second run lets the memory learn the catalogs the first wrote
        assert invoke(root, "update").exit_code == 0
    change_source(root)
    assert invoke(root, "extract").exit_code == 0
    move_onto_tmpfs(root / "locales", tmpfs)
    remount_read_only(root / "locales")
    before = snapshot(root)
    result = invoke(root, "update")
    assert_refused_in_one_line(result, root, "locales/en/LC_MESSAGES/article.po",
                               PROBLEMS[errno.EROFS])
    assert snapshot(root) == before


def test_a_read_only_project_cannot_be_locked_and_says_so(tmp_path, tmpfs):
    root = tmp_path / "project"
    tmpfs(root)
    make_project(root)
    change_source(root)
    remount_read_only(root)
    before = snapshot(root)
    result = invoke(root, "extract")
    assert_refused_in_one_line(result, root, ".tolmach-cache/lock", PROBLEMS[errno.EROFS])
    assert snapshot(root) == before
