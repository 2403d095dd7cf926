"""Full-text search with Pagefind: the index in chunks, merged by the search page.

Pagefind reads every page with ``data-pagefind-body`` (the articles; lists and reviewer
pages have none), indexes it under its ``<html lang>``, and writes a static bundle the
browser queries without a server. The Python package ships the binary; the extended
build segments Chinese and Japanese words.

One Pagefind run over a whole site holds the whole index in memory (about 20 MB plus
0.35 MB per javascript.info article: 700 MB for 2,600 pages) and must run again when any
page changes. So each language is split into chunks of about ``search-chunk-pages``
pages (100 by default, see :mod:`tolmach.config`; at most half as many more),
each indexed by a run of its own into a bundle of its own, ``pagefind/<chunk>/``: as
many runs go at once as the command has processes (``-j``), so the peak is that many
chunks', and a chunk is indexed again only when one of its pages changed, so one edit re-indexes a small chunk per language.
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
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, as_completed, wait
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path

from tolmach.fileio import move_into_place, write_atomic

__all__ = ["MERGE", "MERGE_SCRIPT", "PAGEFIND", "Chunk", "bucket_of", "chunk_count", "index_chunk",
           "index_chunks", "index_chunks_meanwhile", "plan_chunks", "remove_stale_bundles",
           "run_pagefind", "search_available"]

PAGEFIND = "pagefind"
MERGE = "merge"  # pagefind/merge/pagefind.js: the module that searches every bundle
MERGE_SCRIPT = "pagefind-merge.js"  # its source among the static files
# What Pagefind writes into every bundle and the search page never loads (other kinds of
# search box): a third of a bundle's own files, left out of each.
_UNUSED = ("pagefind-component-ui.css", "pagefind-component-ui.js", "pagefind-highlight.js",
           "pagefind-modular-ui.css", "pagefind-modular-ui.js")
_MOST_CHUNKS = 1 << 20  # a bound on the doubling, never reached: site paths differ
_ASIDE = ".new-"  # prefix of a bundle being written, and of the pages it reads
_PLAIN_PATH = re.compile(r"[\w./-]+")  # a site path a glob can list as it is
_LONGEST_GLOB = 64 * 1024  # bytes: a command-line argument may hold 128 KiB on Linux


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
    there once the new one is complete; the error message if Pagefind failed."""
    return index_chunks(site, [chunk])[0][1]


def index_chunks(site: Path, chunks: Sequence[Chunk], workers: int = 1,
                 progress: Callable[[int], None] | None = None) -> list[tuple[Chunk, str | None]]:
    """Index each of ``chunks`` as :func:`index_chunk` does, up to ``workers`` Pagefind
    runs at once; each chunk indexed, in order, with its error if Pagefind failed (one
    after another, the first failure ends the list). ``progress`` hears how many runs
    are done.

    A run is a process of its own, so threads that wait for them keep the cores busy:
    an edit that changes a page in every language re-indexes one chunk per language, a
    cold site every chunk. Runs go side by side only when each reads the site itself
    (see :func:`_reads_site`): the bundles then move in once every run is over, so no
    folder a run walks changes under it."""
    for chunk in chunks:  # what an interrupted run left aside
        for leftover in (_aside(site, chunk, ".pages"), _aside(site, chunk)):
            shutil.rmtree(leftover, ignore_errors=True)
    tell = progress or (lambda done: None)
    if workers > 1 and len(chunks) > 1 and all(map(_reads_site, chunks)):
        failures = _index_side_by_side(site, chunks, workers, tell)
    else:
        failures = []
        for chunk in chunks:
            failures.append(_index_aside(site, chunk))
            tell(len(failures))
            if failures[-1] is not None:
                break
    for chunk, failed in zip(chunks, failures, strict=False):  # failures may stop early
        if failed is None:
            _move_bundle_in(site, chunk)
    return list(zip(chunks, failures, strict=False))


def index_chunks_meanwhile(site: Path, chunks: Sequence[Chunk], workers: int = 1,
                           progress: Callable[[int], None] | None = None,
                           ) -> Future[list[tuple[Chunk, str | None]]]:
    """:func:`index_chunks` on a thread of its own, its answer in the future returned: the
    caller writes the rest of the site meanwhile (lists, assets), and a Pagefind run of
    a third of a second no longer waits for that, nor that for it.

    The runs read only the chunks' pages, picked by name, and move bundles only into
    ``pagefind/``: until the future is done the caller must change neither (nor remove
    any folder of the site, which a run may be walking). ``progress`` is called on that
    thread."""
    pool = ThreadPoolExecutor(1, thread_name_prefix="pagefind-chunks")
    try:
        return pool.submit(index_chunks, site, chunks, workers, progress)
    finally:
        pool.shutdown(wait=False)  # the thread ends once the runs are over


def _index_side_by_side(site: Path, chunks: Sequence[Chunk], workers: int,
                        tell: Callable[[int], None]) -> list[str | None]:
    """:func:`_index_aside` for every chunk on ``workers`` threads; what a failed run
    wrote aside is removed once every run is over (all of it on an exception)."""
    with ThreadPoolExecutor(min(workers, len(chunks)), thread_name_prefix="pagefind") as pool:
        futures = [pool.submit(_index_aside, site, chunk, keep_failed=True) for chunk in chunks]
        try:
            for done, _ in enumerate(as_completed(futures), start=1):
                tell(done)
            failures = [future.result() for future in futures]
        except BaseException:
            for future in futures:
                future.cancel()
            wait(futures)
            for chunk in chunks:
                shutil.rmtree(_aside(site, chunk), ignore_errors=True)
            raise
    for chunk, failed in zip(chunks, failures, strict=True):  # no run walks the site now
        if failed is not None:
            shutil.rmtree(_aside(site, chunk), ignore_errors=True)
    return failures


def _aside(site: Path, chunk: Chunk, what: str = "") -> Path:
    """Where ``chunk``'s new bundle is written (``what=".pages"``: the pages it reads)."""
    return site / PAGEFIND / f"{_ASIDE}{chunk.name}{what}"


def _reads_site(chunk: Chunk) -> bool:
    """Whether Pagefind can read ``chunk``'s pages from the site folder itself, picked by
    a ``--glob`` that lists them: each path is plain (letters, digits, ``_ . / -``, so
    nothing in it is glob syntax) and the list fits in one argument."""
    return (sum(len(path.encode()) + 1 for path in chunk.pages) <= _LONGEST_GLOB
            and all(_PLAIN_PATH.fullmatch(path) for path in chunk.pages))


def _index_aside(site: Path, chunk: Chunk, keep_failed: bool = False) -> str | None:
    """One Pagefind run over ``chunk``'s pages into a bundle beside the live one; the
    error message if it failed (and then nothing is left aside, unless ``keep_failed``:
    other runs may be walking the site, and a folder should not vanish under them).

    Pagefind reads a folder and names each page by its path there. So it reads the site
    folder, told by a glob which pages are the chunk's; or, where a path cannot be put
    in a glob, a folder beside the bundle into which the chunk's pages are linked
    (copied where links are not possible) under their site paths. Making and removing
    that folder's many subfolders costs more than the run on some disks."""
    fresh = _aside(site, chunk)
    if _reads_site(chunk):
        failed = run_pagefind(site, fresh, chunk.pages)
    else:
        pages = _aside(site, chunk, ".pages")
        try:
            for path in chunk.pages:
                _link_or_copy(site / path, pages / path)
            failed = run_pagefind(pages, fresh)
        finally:
            shutil.rmtree(pages, ignore_errors=True)
    if failed is None:
        failed = _missed_pages(fresh, chunk)
    if failed is not None and not keep_failed:
        shutil.rmtree(fresh, ignore_errors=True)
    return failed


def _missed_pages(bundle: Path, chunk: Chunk) -> str | None:
    """Why a bundle does not hold every page of its chunk, if it does not."""
    try:
        entry = json.loads((bundle / "pagefind-entry.json").read_text("utf-8"))
        counted = sum(language["page_count"] for language in entry["languages"].values())
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        return f"pagefind wrote no readable pagefind-entry.json in {bundle.name}: {exc}"
    if counted != len(chunk.pages):
        return (f"pagefind indexed {counted} of the {len(chunk.pages)} pages of search chunk "
                f"{chunk.name}")
    return None


def _move_bundle_in(site: Path, chunk: Chunk) -> None:
    """Trim the complete bundle written aside, make its manifest's bytes stable, and put
    it in place of ``pagefind/<chunk>/``."""
    fresh = _aside(site, chunk)
    for name in _UNUSED:
        (fresh / name).unlink(missing_ok=True)
    manifest = fresh / "pagefind-entry.json"
    data = json.loads(manifest.read_text("utf-8"))
    write_atomic(manifest, json.dumps(data, sort_keys=True, ensure_ascii=False), regenerable=True)
    bundle = site / PAGEFIND / chunk.name
    if bundle.is_symlink() or bundle.is_file():
        bundle.unlink()
    else:
        shutil.rmtree(bundle, ignore_errors=True)
    move_into_place(fresh, bundle)  # a folder: one rename as well


def run_pagefind(folder: Path, bundle: Path, only: Sequence[str] | None = None) -> str | None:
    """One Pagefind run into ``bundle``: every page under ``folder``, or ``only`` those
    of its pages (paths relative to it, plain: see :func:`_reads_site`); the error if
    any."""
    command = [*_pagefind_command(), "--site", str(folder), "--output-path", str(bundle), "--silent"]
    if only is not None:
        command += ["--glob", "{" + ",".join(only) + "}"]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
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
