"""The result cache and messages name files relative to the project root by their text (a prefix)
rather than with ``Path.relative_to``: the names must be the same either way."""

from __future__ import annotations

from pathlib import Path, PurePosixPath

import pytest

from tolmach.jobs.cache import FileDigests


def _by_relative_to(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


@pytest.mark.parametrize("root", ["/p/proj", "/p/proj/", "/", ".", "proj", "proj/sub", ""])
@pytest.mark.parametrize("path", ["/p/proj/locales/de/LC_MESSAGES/a.po", "/p/proj", "/p/project/a.po",
                                  "/p/proj/./x//y.md", "locales/x.po", "proj/sub/x.po", "proj/subx/x.po",
                                  "/other/a.po", "proj", "a.po"])
def test_a_file_is_named_as_relative_to_names_it(root: str, path: str):
    files = FileDigests(Path(root))
    assert files.relative(Path(path)) == _by_relative_to(Path(path), Path(root))
    assert files.relative(PurePosixPath(path)) == _by_relative_to(Path(path), Path(root))


def test_a_recorded_output_is_digested_from_its_name(tmp_path: Path):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "a.md").write_text("Текст\n", "utf-8")
    files = FileDigests(tmp_path)
    by_path = files.digest(tmp_path / "out" / "a.md")
    assert by_path and FileDigests(tmp_path).digest_of("out/a.md") == by_path
    assert FileDigests(tmp_path).digest_of("out/missing.md") == ""


@pytest.mark.parametrize("root", ["/p/proj", "/p/proj/", "/", ".", "proj", "proj/sub", ""])
@pytest.mark.parametrize("path", ["/p/proj/locales/de/LC_MESSAGES/a.po", "/p/proj", "/p/project/a.po",
                                  "/p/proj/./x//y.md", "locales/x.po", "proj/sub/x.po", "proj/subx/x.po",
                                  "/other/a.po", "proj", "a.po", "/"])
def test_messages_show_a_path_as_relative_to_shows_it(root: str, path: str):
    from tolmach.fileio import relative_to_root

    assert relative_to_root(Path(path), Path(root)) == _by_relative_to(Path(path), Path(root))


def _rewrite_keeping_size_and_time(path: Path, text: str) -> None:
    """A later write in the same tick of the file system's clock: same size, same time."""
    import os

    before = path.stat()
    path.write_text(text, "utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


def _stamp(path: Path, seconds_ago: float, *, whole_seconds: bool) -> None:
    """Set the file's time as a clock of fine ticks or of whole seconds would have."""
    import os
    import time

    stamp = time.time_ns() - int(seconds_ago * 1e9)
    stamp = stamp - stamp % 1_000_000_000 if whole_seconds else stamp - stamp % 1_000 + 123
    os.utime(path, ns=(stamp, stamp))


@pytest.mark.parametrize("whole_seconds", [False, True], ids=["fine clock", "clock of whole seconds"])
def test_a_file_changed_in_the_tick_it_was_hashed_in_is_hashed_again(tmp_path: Path, whole_seconds: bool):
    path = tmp_path / "a.po"
    path.write_text("msgstr \"Один\"\n", "utf-8")
    _stamp(path, 0, whole_seconds=whole_seconds)
    files = FileDigests(tmp_path)
    first = files.digest(path)
    _rewrite_keeping_size_and_time(path, "msgstr \"Два!\"\n")
    again = FileDigests(tmp_path, files.known)
    assert again.digest(path) != first and again.hashed == 1


@pytest.mark.parametrize("seconds_ago, whole_seconds, hashed", [
    (0.5, False, 0),  # a fine clock has ticked long since
    (0.5, True, 1),  # a clock of whole seconds, or FAT's two, may not have
    (3.0, True, 0),
])
def test_a_file_is_read_again_only_while_its_clock_may_not_have_ticked(
        tmp_path: Path, seconds_ago: float, whole_seconds: bool, hashed: int):
    path = tmp_path / "a.po"
    path.write_text("msgstr \"Один\"\n", "utf-8")
    _stamp(path, seconds_ago, whole_seconds=whole_seconds)
    files = FileDigests(tmp_path)
    files.digest(path)
    again = FileDigests(tmp_path, files.known)
    again.digest(path)
    assert again.hashed == hashed


def test_the_files_a_run_wrote_are_hashed_as_it_saves_so_the_next_run_reads_none(tmp_path: Path):
    from tolmach.jobs import ResultCache

    page = tmp_path / "out" / "a.html"
    page.parent.mkdir()
    cache = ResultCache(tmp_path, "v")
    page.write_text("<p>Текст</p>\n", "utf-8")
    cache.put("publish-page", "a.html", "key", outputs={page: "digest of what was written"})
    asset = tmp_path / "out" / "b.png"
    asset.write_bytes(b"\x89PNG")
    cache.wrote(asset)  # copied besides the units' outputs
    for path in (page, asset):
        _stamp(path, 0.5, whole_seconds=False)  # written a while before the run saves
    cache.save(["a"])
    later = ResultCache(tmp_path, "v")
    assert later.digest(page) and later.digest(asset)
    assert later.files.hashed == 0


def test_a_file_hashed_within_a_tick_of_being_written_is_hashed_again_as_the_run_saves(
        tmp_path: Path):
    from tolmach.jobs import ResultCache

    page = tmp_path / "a.html"
    page.write_text("<p>Один</p>\n", "utf-8")
    cache = ResultCache(tmp_path, "v")
    cache.put("publish-page", "a.html", "key", outputs={page: "digest"})
    cache.digest(page)  # asked again at once (a search chunk's key), racily
    _stamp(page, 0.5, whole_seconds=False)
    cache.save(["a"])
    assert cache.files.hashed == 2
    later = ResultCache(tmp_path, "v")
    assert later.digest(page) and later.files.hashed == 0
