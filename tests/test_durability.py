"""When written files reach the disk.

Outside a command (the library called directly) each file is flushed before it is
renamed into place. A command flushes everything it wrote once, at its end: one
``os.sync()`` instead of an ``fsync`` per file, which for thousands of catalogs or
pages was most of the command's time. Either way each file is replaced atomically.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from tolmach import fileio
from tolmach.cli import cli
from tolmach.fileio import flushed_at_end, write_atomic


@pytest.fixture
def disk_calls(monkeypatch):
    calls = {"fsync": 0, "sync": 0}
    real_fsync = os.fsync

    def fsync(fd):
        calls["fsync"] += 1
        real_fsync(fd)

    def sync():
        calls["sync"] += 1

    monkeypatch.setattr(fileio.os, "fsync", fsync)
    monkeypatch.setattr(fileio.os, "sync", sync)
    return calls


def test_a_file_written_outside_a_command_is_flushed_before_the_rename(tmp_path, disk_calls):
    write_atomic(tmp_path / "a.po", "msgid \"\"\n")
    assert disk_calls == {"fsync": 1, "sync": 0}


def test_files_written_inside_a_command_are_flushed_once_at_its_end(tmp_path, disk_calls):
    with flushed_at_end():
        for number in range(5):
            write_atomic(tmp_path / f"{number}.md", f"page {number}\n")
        assert disk_calls == {"fsync": 0, "sync": 0}
        assert (tmp_path / "3.md").read_text() == "page 3\n"  # in place at once
    assert disk_calls == {"fsync": 0, "sync": 1}


def test_the_flush_happens_also_when_the_command_fails(tmp_path, disk_calls):
    with pytest.raises(RuntimeError), flushed_at_end():
        write_atomic(tmp_path / "written.md", "kept\n")
        raise RuntimeError("half-way")
    assert disk_calls["sync"] == 1
    assert (tmp_path / "written.md").read_text() == "kept\n"


def test_nested_scopes_flush_once_at_the_outermost_end(tmp_path, disk_calls):
    with flushed_at_end():
        with flushed_at_end():
            write_atomic(tmp_path / "inner.md", "x\n")
        assert disk_calls["sync"] == 0
    assert disk_calls == {"fsync": 0, "sync": 1}


def test_a_command_writes_its_files_without_an_fsync_each(tmp_path: Path, disk_calls):
    (tmp_path / "seeds").mkdir()
    for number in range(3):
        (tmp_path / "seeds" / f"doc{number}.md").write_text(f"# Заголовок {number}\n\nТекст.\n", "utf-8")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.tolmach]\nsource-locale = "ru"\nlocales = ["de"]\n', "utf-8")
    result = CliRunner().invoke(cli, ["-C", str(tmp_path), "extract", "-j", "1"])
    assert result.exit_code == 0, result.output
    assert len(list((tmp_path / "locales").glob("*.pot"))) == 3
    assert disk_calls == {"fsync": 0, "sync": 1}
