"""Full-text search with Pagefind: the index in chunks, merged by the search page.

Pagefind reads every page with ``data-pagefind-body`` (the articles; lists and reviewer
pages have none), indexes it under its ``<html lang>``, and writes a static bundle the
browser queries without a server. The Python package ships the binary; the extended
build segments Chinese and Japanese words.

One Pagefind run over a whole site holds the whole index in memory (about 20 MB plus
0.35 MB per javascript.info article: 700 MB for 2,600 pages) and must run again when any
page changes. So each language is split into chunks of about ``search-chunk-pages``
pages (100 by default, see :mod:`tolmach.config`; at most half as many more),
each indexed by a run of its own into a bundle of its own, ``pagefind/<chunk>/``: the
runs follow one another, so the peak is one chunk's, and a chunk is indexed again only
when one of its pages changed, so one edit re-indexes a small chunk per language.
``search-chunk-pages = 0`` makes each language one chunk. The search page of a language
searches all the bundles of the language through ``pagefind/merge/pagefind.js``
(``static/pagefind-merge.js``), which starts loading them as the page opens, ranks their
results together by score and leaves out a bundle that only matched by Pagefind's typo
fallback when another holds the word, so a query finds the same pages as one index
would.

A page's chunk is a hash of its site path modulo the language's chunk count, a power of
two (see :func:`chunk_count`): adding or removing a page changes only its own chunk,
and the count, so every chunk of the language, changes only when the number of pages
crosses a power of two times the chunk size. A bundle is written aside and moved in
when complete, with its entry manifest's keys sorted: the same pages give the same bytes.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path

from tolmach.fileio import move_into_place, write_atomic

__all__ = ["MERGE", "MERGE_SCRIPT", "PAGEFIND", "Chunk", "bucket_of", "chunk_count",
           "index_chunk", "plan_chunks", "remove_stale_bundles", "run_pagefind", "search_available"]

PAGEFIND = "pagefind"
MERGE = "merge"  # pagefind/merge/pagefind.js: the module that searches every bundle
MERGE_SCRIPT = "pagefind-merge.js"  # its source among the static files
# What Pagefind writes into every bundle and the search page never loads (other kinds of
# search box): a third of a bundle's own files, left out of each.
_UNUSED = ("pagefind-component-ui.css", "pagefind-component-ui.js", "pagefind-highlight.js",
           "pagefind-modular-ui.css", "pagefind-modular-ui.js")
_MOST_CHUNKS = 1 << 20  # a bound on the doubling, never reached: site paths differ
_ASIDE = ".new-"  # prefix of a bundle being written, and of the pages it reads


def search_available() -> bool:
    """Whether the pagefind package (and so its binary) is installed."""
    return find_spec("pagefind") is not None


@dataclass(frozen=True)
class Chunk:
    """Pages of one language indexed together into ``pagefind/<name>/``."""

    language: str  # the locale code, as in the site paths
    name: str
    pages: tuple[str, ...]  # site paths, sorted


def bucket_of(site_path: str, count: int) -> int:
    """The chunk of a page among ``count``: a hash of its site path, so it depends on
    nothing else (not on the other pages, not on the order they come in)."""
    digest = hashlib.sha256(site_path.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % count


def chunk_count(pages: int, size: int | None = None) -> int:
    """The fewest chunks, a power of two, that keep ``pages`` at ``size`` or fewer a
    chunk on average (no ``size``: one chunk). A power of two because the count changes
    only when the pages double (with any other rounding it would change every ``size``
    pages, and each change re-indexes the whole language)."""
    if not size:
        return 1
    count = 1
    while count * size < pages:
        count *= 2
    return count


def plan_chunks(pages: Iterable[tuple[str, str]], size: int | None = None) -> list[Chunk]:
    """The chunks of ``pages`` (``(language, site path)`` pairs), by language, then by
    number; none is empty. The chunk count of a language is :func:`chunk_count`, doubled
    until no chunk holds more than ``size`` and a half (an unlucky hash; rare); without a
    ``size``, a language is one chunk."""
    by_language: dict[str, list[str]] = {}
    for code, path in pages:
        by_language.setdefault(code, []).append(path)
    chunks: list[Chunk] = []
    for code in sorted(by_language):
        paths = sorted(set(by_language[code]))
        count = chunk_count(len(paths), size)
        while True:
            buckets: list[list[str]] = [[] for _ in range(count)]
            for path in paths:
                buckets[bucket_of(path, count)].append(path)
            if not size or max(map(len, buckets)) <= size + size // 2 or count >= _MOST_CHUNKS:
                break
            count *= 2
        chunks.extend(Chunk(code, f"{code}-{number + 1}-of-{count}", tuple(bucket))
                      for number, bucket in enumerate(buckets) if bucket)
    return chunks


def index_chunk(site: Path, chunk: Chunk) -> str | None:
    """Index the pages of ``chunk`` into ``site/pagefind/<chunk>/``, replacing the bundle
    there once the new one is complete; the error message if Pagefind failed.

    Pagefind reads a folder, so the chunk's pages are linked (copied where links are not
    possible) into one beside the bundle, under their site paths: the addresses in the
    bundle are those of the site."""
    folder = site / PAGEFIND
    pages = folder / f"{_ASIDE}{chunk.name}.pages"
    fresh = folder / f"{_ASIDE}{chunk.name}"
    for leftover in (pages, fresh):
        shutil.rmtree(leftover, ignore_errors=True)
    try:
        for path in chunk.pages:
            _link_or_copy(site / path, pages / path)
        failed = run_pagefind(pages, fresh)
    finally:
        shutil.rmtree(pages, ignore_errors=True)
    if failed is not None:
        shutil.rmtree(fresh, ignore_errors=True)
        return failed
    for name in _UNUSED:
        (fresh / name).unlink(missing_ok=True)
    manifest = fresh / "pagefind-entry.json"
    if manifest.is_file():
        data = json.loads(manifest.read_text("utf-8"))
        write_atomic(manifest, json.dumps(data, sort_keys=True, ensure_ascii=False), regenerable=True)
    bundle = folder / chunk.name
    if bundle.is_symlink() or bundle.is_file():
        bundle.unlink()
    else:
        shutil.rmtree(bundle, ignore_errors=True)
    move_into_place(fresh, bundle)  # a folder: one rename as well
    return None


def run_pagefind(pages: Path, bundle: Path) -> str | None:
    """One Pagefind run: every page under ``pages`` into ``bundle``; the error if any."""
    done = subprocess.run(
        [*_pagefind_command(), "--site", str(pages), "--output-path", str(bundle), "--silent"],
        capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return f"pagefind failed: {(done.stderr or done.stdout).strip()[-500:]}"
    return None


def remove_stale_bundles(site: Path, chunks: Iterable[Chunk]) -> list[Path]:
    """Remove from ``site/pagefind/`` everything but the bundles of ``chunks`` and the
    module that merges them: bundles
    of chunks that are gone, what a run left aside, an index of another layout.
    Returns what was removed."""
    folder = site / PAGEFIND
    if not folder.is_dir() or folder.is_symlink():
        return []
    keep = {MERGE} | {chunk.name for chunk in chunks}
    removed = []
    for entry in sorted(folder.iterdir()):
        if entry.name in keep:
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        else:
            entry.unlink()
        removed.append(entry)
    return removed


def _pagefind_command() -> list[str]:
    """The Pagefind binary itself when the package can name it (``python -m pagefind``
    costs a Python start-up, 0.1 s, per chunk)."""
    try:
        from pagefind.service import get_executable
        binary = get_executable()
    except (ImportError, OSError):
        binary = None
    if binary is not None and Path(binary).is_file():
        return [str(binary)]
    return [sys.executable, "-m", "pagefind"]


def _link_or_copy(source: Path, target: Path) -> None:
    """A page Pagefind is to read, in the folder it reads: a hard link to the site's
    page (no bytes copied), or a copy where the file system has no links."""
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(source, target)
    except OSError:
        write_atomic(target, source.read_bytes(), regenerable=True)
