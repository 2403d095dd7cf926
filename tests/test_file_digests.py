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
