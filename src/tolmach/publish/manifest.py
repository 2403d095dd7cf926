"""What a publish wrote into a folder, so that the next one removes what it no longer makes.

The list lives in the folder itself (:data:`MANIFEST`, one path per line, sorted), not
under ``.tolmach-cache``: the cache is safe to delete, and a site that forgot what it
wrote would keep a removed document's pages public. A path ending in ``/`` stands for a
whole folder tolmach fills by itself (Pagefind's index). Files the manifest does not
name are never touched — a page, image or ``CNAME`` a user put beside the site stays.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterable
from pathlib import Path, PurePosixPath

from tolmach.fileio import write_atomic

__all__ = ["MANIFEST", "read_manifest", "remove_unlisted", "write_manifest"]

MANIFEST = ".tolmach-manifest"
_HEADER = "# Written by `tolmach publish`: the files it made here. It removes those it no longer makes."


def read_manifest(folder: Path) -> set[str] | None:
    """The paths the last publish listed, or None when it left no manifest."""
    path = folder / MANIFEST
    if not path.is_file():
        return None
    lines = path.read_text("utf-8", "replace").splitlines()
    return {line for line in lines if line and not line.startswith("#") and _is_plain(line)}


def write_manifest(folder: Path, paths: Iterable[str]) -> bool:
    """Record ``paths`` (relative to ``folder``); True if the manifest changed."""
    text = "\n".join([_HEADER, *sorted(set(paths))]) + "\n"
    return write_atomic(folder / MANIFEST, text, regenerable=True)


def remove_unlisted(folder: Path, before: Iterable[str], now: set[str],
                    inside: Callable[[Path], Path]) -> list[Path]:
    """Delete what ``before`` lists and ``now`` does not, then the folders that left
    empty; ``inside(path)`` refuses a path a symbolic link would lead out of ``folder``.
    Returns the files (and whole folders) removed."""
    removed: list[Path] = []
    for entry in sorted(set(before) - now):
        if not _is_plain(entry):
            continue
        path = inside(folder / entry.rstrip("/"))
        if entry.endswith("/") and path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        elif path.is_file() or path.is_symlink():
            path.unlink()
        else:
            continue
        removed.append(path)
        _remove_empty_parents(path.parent, folder)
    return removed


def _is_plain(entry: str) -> bool:
    """A path inside the folder: relative, no ``..``, not the manifest itself."""
    path = PurePosixPath(entry.rstrip("/"))
    return bool(path.parts) and not path.is_absolute() and ".." not in path.parts \
        and "\\" not in entry and path.as_posix() != MANIFEST


def _remove_empty_parents(folder: Path, top: Path) -> None:
    while folder != top and top in folder.parents and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent
