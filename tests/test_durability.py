"""When written files reach the disk.

A catalog, a setting, a glossary — a file that is somebody's work — is flushed before
it is renamed over the old one, so a failing disk keeps the old file. A file the
project can make again (a template, a built page, the site) is flushed, inside a
command, together with the others at the command's end (a worker process: at the end of
each batch), from a few threads, so that the file system commits them in a handful of
journal transactions instead of one per file. Either way each file is replaced
atomically, and a flush that fails names its file.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from tolmach import fileio
from tolmach.cli import cli
from tolmach.fileio import WriteError, flushed_at_end, staged_writes, write_atomic


@pytest.fixture
def flushes(monkeypatch):
    """Every fsync, by the name of the file it flushed (or 'fd' when only a descriptor)."""
    seen: list[str] = []
    real_fsync = os.fsync

    def fsync(fd):
        seen.append(os.path.basename(os.readlink(f"/proc/self/fd/{fd}")))
        real_fsync(fd)

    monkeypatch.setattr(fileio.os, "fsync", fsync)
    return seen


def test_a_file_written_outside_a_command_is_flushed_before_its_rename(tmp_path, flushes):
    write_atomic(tmp_path / "page.md", "text\n", regenerable=True)
    assert len(flushes) == 1 and flushes[0].endswith(".tmp")


def test_a_catalog_is_flushed_before_its_rename_also_inside_a_command(tmp_path, flushes):
    with flushed_at_end():
        write_atomic(tmp_path / "de.po", "msgid \"\"\n")
        assert len(flushes) == 1 and flushes[0].endswith(".tmp")
    assert len(flushes) == 1


def test_files_written_inside_a_command_are_flushed_together_at_its_end(tmp_path, flushes):
    with flushed_at_end():
        for number in range(5):
            write_atomic(tmp_path / f"{number}.md", f"page {number}\n", regenerable=True)
        assert flushes == []
        assert (tmp_path / "3.md").read_text() == "page 3\n"  # in place at once
    assert sorted(flushes) == [f"{number}.md" for number in range(5)]


def test_a_file_unchanged_is_neither_written_nor_flushed(tmp_path, flushes):
    (tmp_path / "same.md").write_text("same\n")
    with flushed_at_end():
        assert write_atomic(tmp_path / "same.md", "same\n", regenerable=True) is False
    assert flushes == []


def test_the_flush_happens_also_when_the_command_fails(tmp_path, flushes):
    with pytest.raises(RuntimeError), flushed_at_end():
        write_atomic(tmp_path / "written.md", "kept\n", regenerable=True)
        raise RuntimeError("half-way")
    assert flushes == ["written.md"]


def test_nested_scopes_flush_once_at_the_outermost_end(tmp_path, flushes):
    with flushed_at_end():
        with flushed_at_end():
            write_atomic(tmp_path / "inner.md", "x\n", regenerable=True)
        assert flushes == []
    assert flushes == ["inner.md"]


def test_a_failed_flush_names_the_file(tmp_path, monkeypatch):
    def refuse(fd):
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    with pytest.raises(WriteError) as raised, flushed_at_end():
        write_atomic(tmp_path / "page.md", "text\n", regenerable=True)
        monkeypatch.setattr(fileio.os, "fsync", refuse)
    assert "page.md" in str(raised.value)
    assert "may not be whole on disk" in str(raised.value)


def test_a_command_flushes_its_templates_after_writing_them(tmp_path: Path, flushes):
    (tmp_path / "seeds").mkdir()
    for number in range(3):
        (tmp_path / "seeds" / f"doc{number}.md").write_text(f"# Заголовок {number}\n\nТекст.\n", "utf-8")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.tolmach]\nsource-locale = "ru"\nlocales = ["de"]\n', "utf-8")
    result = CliRunner().invoke(cli, ["-C", str(tmp_path), "extract", "-j", "1"])
    assert result.exit_code == 0, result.output
    assert sorted(flushes) == ["doc0.pot", "doc1.pot", "doc2.pot"]  # the files, not temporaries


def test_staged_files_take_their_place_together_when_the_scope_ends(tmp_path, flushes):
    (tmp_path / "old.po").write_text("old\n")
    with staged_writes():
        assert write_atomic(tmp_path / "old.po", "new\n", staged=True) is True
        assert write_atomic(tmp_path / "fresh.po", "fresh\n", staged=True) is True
        assert (tmp_path / "old.po").read_text() == "old\n"  # not yet
        assert not (tmp_path / "fresh.po").exists()
        assert flushes == []
    assert (tmp_path / "old.po").read_text() == "new\n"
    assert (tmp_path / "fresh.po").read_text() == "fresh\n"
    assert len(flushes) == 2 and all(name.endswith(".tmp") for name in flushes)  # before the renames
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fresh.po", "old.po"]


def test_a_staged_file_that_fails_to_flush_leaves_every_target_as_it_was(tmp_path, monkeypatch):
    (tmp_path / "a.po").write_text("a\n")
    (tmp_path / "b.po").write_text("b\n")

    def refuse(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with pytest.raises(WriteError) as raised, staged_writes():
        write_atomic(tmp_path / "a.po", "A\n", staged=True)
        write_atomic(tmp_path / "b.po", "B\n", staged=True)
        monkeypatch.setattr(fileio.os, "fsync", refuse)
    assert "a.po" in str(raised.value) and "the file is as it was" in str(raised.value)
    assert (tmp_path / "a.po").read_text() == "a\n" and (tmp_path / "b.po").read_text() == "b\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.po", "b.po"]  # no temporary left


def test_an_error_inside_the_scope_removes_what_was_written_aside(tmp_path):
    (tmp_path / "a.po").write_text("a\n")
    with pytest.raises(RuntimeError), staged_writes():
        write_atomic(tmp_path / "a.po", "A\n", staged=True)
        raise RuntimeError("the batch failed")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.po"]
    assert (tmp_path / "a.po").read_text() == "a\n"


def test_staged_outside_a_scope_is_an_ordinary_write(tmp_path, flushes):
    assert write_atomic(tmp_path / "a.po", "a\n", staged=True) is True
    assert (tmp_path / "a.po").read_text() == "a\n" and len(flushes) == 1
