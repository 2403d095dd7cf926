"""Documents globs find what ``Path.glob`` finds, without walking the folders no source
can be in: the same files on any tree and pattern, and ``.venv`` or ``node_modules``
never entered."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tolmach.config import load_config
from tolmach.fileio import glob_pruned

NAMES = ["docs", "Docs", "a", "b[1]", "out", ".hidden", "node_modules"]
FILES = ["index.md", "README.md", "x.MD", ".dot.md", "a.txt", "a"]
PARTS = ["**", "*", "*.md", "*.MD", "docs", "a", "?", "[ab]*", "index.md", ".hidden",
         "node_modules", "b[[]1]", "out", "link", "..", "."]


def prune(folder: tuple[str, ...]) -> bool:
    return folder == ("out",) or folder[-1].startswith(".") or folder[-1] == "node_modules"


trees = st.recursive(
    st.lists(st.sampled_from(FILES), max_size=3, unique=True).map(lambda files: dict.fromkeys(files)),
    lambda below: st.dictionaries(st.sampled_from(NAMES + FILES), below, max_size=4),
    max_leaves=12,
)


def make(folder: Path, tree: dict | None) -> None:
    """Folders for dicts, files for None (a name used for both stays a folder)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, below in (tree or {}).items():
        if isinstance(below, dict):
            make(folder / name, below)
        elif not (folder / name).exists():
            (folder / name).write_text("x", "utf-8")


def files_outside_pruned(root: Path, found) -> list[Path]:
    """The files among ``found`` that no pruned folder holds (what the project keeps)."""
    def kept(path: Path) -> bool:
        parts = path.relative_to(root).parts[:-1]  # as written: ``..`` is a name too
        return path.is_file() and not any(prune(tuple(parts[: n + 1])) for n in range(len(parts)))

    return sorted(path for path in found if kept(path))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tree=trees, pattern=st.lists(st.sampled_from(PARTS), min_size=1, max_size=4),
       link=st.sampled_from([None, ".", "docs", "a", "node_modules", "missing"]))
def test_the_files_found_are_those_path_glob_finds_outside_pruned_folders(tree, pattern, link):
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "project"
        make(root, tree if isinstance(tree, dict) else {})
        if link is not None:  # a link to a folder (or to nothing), loops included
            target = root / link
            (root / "docs").mkdir(exist_ok=True)
            os.symlink(target, root / "docs" / "link", target_is_directory=True)
        glob = "/".join(pattern)
        expected = outcome(lambda: files_outside_pruned(root, root.glob(glob)))
        assert outcome(lambda: files_outside_pruned(root, glob_pruned(root, glob, prune))) == expected


def outcome(find):
    """The files found, or the kind of error raised (a pattern of "." alone, say)."""
    try:
        return find()
    except Exception as exc:  # noqa: BLE001 - compared, whatever it is
        return type(exc)


def test_hidden_folders_and_node_modules_are_never_walked(tmp_path, monkeypatch):
    (tmp_path / "docs" / "guide").mkdir(parents=True)
    (tmp_path / "docs" / "guide" / "index.md").write_text("# Гид\n", "utf-8")
    for hidden in (".venv/lib", "node_modules/pkg", "output/site"):
        (tmp_path / hidden).mkdir(parents=True)
        (tmp_path / hidden / "README.md").write_text("# x\n", "utf-8")
    (tmp_path / "tolmach.toml").write_text('documents = ["**/*.md"]\n', "utf-8")
    listed: list[str] = []
    scandir = os.scandir
    monkeypatch.setattr(os, "scandir", lambda path: listed.append(os.fspath(path)) or scandir(path))
    config = load_config(tmp_path)
    assert [path.relative_to(tmp_path).as_posix() for path in config.document_paths()] == [
        "docs/guide/index.md"]
    walked = {Path(path).relative_to(tmp_path).as_posix() for path in listed}
    assert walked == {".", "docs", "docs/guide"}


def test_a_pattern_path_glob_refuses_is_refused_the_same(tmp_path):
    import pytest

    with pytest.raises(ValueError, match=r"'\*\*' can only be an entire path component"):
        glob_pruned(tmp_path, "docs/**.md", prune)
    with pytest.raises(NotImplementedError):
        glob_pruned(tmp_path, "/docs/*.md", prune)
