"""The search index in chunks: which page goes into which chunk, and what a publish
indexes again.

The assignment must be deterministic (any order of the same pages, the same chunks),
bounded (no chunk beyond one and a half times the chunk size) and stable (a page added
or removed moves no other page while the chunk count holds). A publish with a small
chunk size writes several bundles per language, indexes again only the chunks whose
pages changed, removes the bundles of chunks that are gone, and writes the same bytes
whatever ``-j`` and however often.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner
from publish_scenario import extracted_and_filled

from tolmach import pseudo_translate
from tolmach.cli import cli
from tolmach.project import Project
from tolmach.publish import search
from tolmach.publish.search import (
    MERGE,
    PAGEFIND,
    Chunk,
    bucket_of,
    chunk_count,
    plan_chunks,
    search_available,
)


def site_paths(code: str, count: int, start: int = 0) -> list[tuple[str, str]]:
    return [(code, f"{code}/section-{i % 7}/article-{i}.html") for i in range(start, start + count)]


def by_name(chunks) -> dict[str, tuple[str, ...]]:
    return {chunk.name: chunk.pages for chunk in chunks}


# --- the assignment -----------------------------------------------------------------------


def test_the_chunk_count_is_the_smallest_power_of_two_that_keeps_the_mean_at_the_size():
    assert [chunk_count(n, 100) for n in (0, 1, 100, 101, 200, 201, 400, 401, 784, 1000)] == \
        [1, 1, 1, 2, 2, 4, 4, 8, 8, 16]


def test_a_page_keeps_its_bucket_whatever_the_other_pages():
    assert bucket_of("de/guide.html", 8) == bucket_of("de/guide.html", 8)
    assert {bucket_of(f"de/{i}.html", 8) for i in range(200)} == set(range(8))
    # a doubling splits a bucket in two: a page goes to b or b + 8, never elsewhere
    for i in range(200):
        assert bucket_of(f"de/{i}.html", 16) % 8 == bucket_of(f"de/{i}.html", 8)


def test_the_same_pages_in_any_order_give_the_same_chunks():
    pages = site_paths("de", 300) + site_paths("en", 250) + site_paths("zh_CN", 3)
    plan = plan_chunks(pages, 50)
    shuffled = pages[:]
    random.Random(7).shuffle(shuffled)
    assert plan_chunks(shuffled, 50) == plan
    assert plan_chunks(shuffled + pages[:10], 50) == plan  # a page named twice is one page


@pytest.mark.parametrize("size", [2, 3, 10, 50, 100])
@pytest.mark.parametrize("count", [1, 7, 64, 65, 399, 1000])
def test_every_page_is_in_one_chunk_of_its_language_and_no_chunk_is_too_big(size, count):
    pages = site_paths("de", count) + site_paths("en", count // 2 + 1)
    chunks = plan_chunks(pages, size)
    assert sorted(p for c in chunks for p in c.pages) == sorted(p for _, p in pages)
    for chunk in chunks:
        assert chunk.pages and all(p.startswith(f"{chunk.language}/") for p in chunk.pages)
        assert len(chunk.pages) <= size + size // 2, (chunk.name, len(chunk.pages))
        assert list(chunk.pages) == sorted(chunk.pages)
        code, number, of = re.fullmatch(r"(.+)-(\d+)-of-(\d+)", chunk.name).groups()
        assert code == chunk.language and 1 <= int(number) <= int(of)
        assert int(of) & (int(of) - 1) == 0  # a power of two
    for code in ("de", "en"):
        total = sum(1 for c, _ in pages if c == code)
        counts = {c.name.rsplit("-", 1)[1] for c in chunks if c.language == code}
        assert len(counts) == 1
        assert total / int(counts.pop()) <= size or size < 3  # the mean, unless doubled for a tiny size


def test_adding_or_removing_a_page_changes_only_its_own_chunk():
    pages = site_paths("de", 300)  # 4 chunks of 100 at most on average, until 400 pages
    before = by_name(plan_chunks(pages, 100))
    for extra in range(300, 360):
        after = by_name(plan_chunks([*pages, ("de", f"de/new/{extra}.html")], 100))
        assert after.keys() == before.keys()
        changed = [name for name in before if before[name] != after[name]]
        assert len(changed) == 1 and f"de/new/{extra}.html" in after[changed[0]]
    for gone in range(0, 300, 17):
        after = by_name(plan_chunks(pages[:gone] + pages[gone + 1:], 100))
        changed = [name for name in before if before[name] != after.get(name)]
        assert len(changed) == 1 and pages[gone][1] in before[changed[0]]


def test_the_languages_are_chunked_apart():
    chunks = plan_chunks(site_paths("de", 5) + site_paths("en", 5), 100)
    assert [(c.name, len(c.pages)) for c in chunks] == [("de-1-of-1", 5), ("en-1-of-1", 5)]


# --- a publish with small chunks -----------------------------------------------------------

DOCUMENTS = 10
SMALL = 2  # search-chunk-pages of the projects below: several chunks per language


def write_project(root: Path, documents: int = DOCUMENTS, chunk_pages: int = SMALL) -> None:
    (root / "docs").mkdir(parents=True, exist_ok=True)
    for i in range(documents):
        (root / "docs" / f"doc{i}.md").write_text(
            f"# Статья {i}\n\nАбзац номер {i} о слове слово{i}.\n", "utf-8")
    (root / "pyproject.toml").write_text(
        '[tool.tolmach]\nsource-locale = "ru"\nlocales = ["de"]\ndocuments = ["docs/*.md"]\n'
        f"search = true\nsearch-chunk-pages = {chunk_pages}\n", "utf-8")


def translate(root: Path) -> Project:
    def fill(entry) -> None:
        if not entry.msgstr or entry.fuzzy:
            entry.msgstr = pseudo_translate(entry.msgid)
            entry.flags = [flag for flag in entry.flags if flag != "fuzzy"]
            entry.previous_msgid = None

    return extracted_and_filled(root, fill)


def publish(root: Path, *args: str) -> None:
    result = CliRunner().invoke(cli, ["-C", str(root), "publish", "-q", *args])
    assert result.exit_code == 0, result.output


def bundles(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes()
            for p in sorted((site / PAGEFIND).rglob("*")) if p.is_file()}


def needs_pagefind() -> None:
    if not search_available():
        if os.environ.get("CI"):
            pytest.fail("pagefind is not installed (pip install 'tolmach[search]')")
        pytest.skip("pagefind is not installed")


@pytest.fixture
def runs(monkeypatch):
    """The pages of each Pagefind run, as the run saw them."""
    needs_pagefind()
    seen: list[list[str]] = []
    real = search.run_pagefind

    def counted(folder: Path, bundle: Path, only=None):
        seen.append(sorted(only) if only is not None
                    else sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.html")))
        return real(folder, bundle, only)

    monkeypatch.setattr(search, "run_pagefind", counted)
    return seen


def test_a_small_chunk_size_gives_several_bundles_each_of_its_chunk(tmp_path, runs):
    root = tmp_path / "project"
    write_project(root)
    translate(root)
    publish(root, "-j", "1")
    site = root / "output" / "site"
    plan = plan_chunks([(code, f"{code}/doc{i}.html") for code in ("ru", "de")
                        for i in range(DOCUMENTS)], SMALL)
    assert len(plan) > 4
    assert sorted(os.listdir(site / PAGEFIND)) == sorted([MERGE, *(c.name for c in plan)])
    assert sorted(runs) == sorted(list(c.pages) for c in plan)  # one run per chunk, its pages only
    for code in ("ru", "de"):
        html = (site / "search" / f"{code}.html").read_text("utf-8")
        named = re.search(r'data-bundles="([^"]+)"', html).group(1).split()
        assert named == [f"../{PAGEFIND}/{c.name}/" for c in plan if c.language == code]
        assert f'href="{named[0]}pagefind-ui.css"' in html
    for chunk in plan:
        entry = json.loads((site / PAGEFIND / chunk.name / "pagefind-entry.json").read_text("utf-8"))
        assert [lang["page_count"] for lang in entry["languages"].values()] == [len(chunk.pages)]
        names = set(os.listdir(site / PAGEFIND / chunk.name))
        assert {"pagefind.js", "pagefind-worker.js", "pagefind-ui.js", "pagefind-ui.css"} <= names
        assert not names & {"pagefind-component-ui.js", "pagefind-modular-ui.js", "pagefind-highlight.js"}


def test_one_edit_indexes_only_the_chunks_of_the_pages_it_changed(tmp_path, runs):
    root = tmp_path / "project"
    write_project(root)
    translate(root)
    publish(root)
    site = root / "output" / "site"
    before = {p: p.read_bytes() for p in site.glob("*/doc*.html")}
    runs.clear()
    publish(root)
    assert runs == []  # nothing changed: no run
    (root / "docs" / "doc3.md").write_text("# Статья 3\n\nАбзац другой, о слове правка.\n", "utf-8")
    translate(root)
    publish(root)
    changed = {p.relative_to(site).as_posix() for p, text in before.items() if p.read_bytes() != text}
    assert changed == {"ru/doc3.html", "de/doc3.html"}
    pages = [p.relative_to(site).as_posix() for p in before]
    plan = plan_chunks([(page.split("/")[0], page) for page in pages], SMALL)
    assert sorted(runs) == sorted(list(c.pages) for c in plan if set(c.pages) & changed)
    assert len(runs) == 2 < len(plan)


def test_bundles_of_chunks_that_are_gone_are_removed(tmp_path, runs, monkeypatch):
    root = tmp_path / "project"
    write_project(root)
    translate(root)
    publish(root)
    site = root / "output" / "site"
    old = set(os.listdir(site / PAGEFIND))
    (site / PAGEFIND / ".new-de-1-of-8").mkdir()  # what an interrupted run left
    (site / PAGEFIND / "pagefind.js").write_text("an index of the single-bundle layout", "utf-8")
    write_project(root, chunk_pages=0)  # the default: one bundle per language
    runs.clear()
    publish(root)
    assert sorted(os.listdir(site / PAGEFIND)) == ["de-1-of-1", MERGE, "ru-1-of-1"]
    assert not old & {"de-1-of-1", "ru-1-of-1"}
    assert (site / PAGEFIND / MERGE / "pagefind.js").is_file()
    assert len(runs) == 2
    (root / "docs" / "doc9.md").unlink()  # a removed document leaves its chunk
    translate(root)
    publish(root)
    for code in ("ru", "de"):
        entry = json.loads((site / PAGEFIND / f"{code}-1-of-1" / "pagefind-entry.json").read_text("utf-8"))
        assert [lang["page_count"] for lang in entry["languages"].values()] == [DOCUMENTS - 1]


def test_the_bundles_are_the_same_bytes_cold_or_cached_and_with_two_jobs(tmp_path, runs):
    first, second = tmp_path / "one", tmp_path / "two"
    for root in (first, second):
        write_project(root)
        translate(root)
    publish(first, "-j", "1")
    (first / "docs" / "doc4.md").write_text("# Статья 4\n\nНовый текст.\n", "utf-8")
    translate(first)
    publish(first, "-j", "1")  # cached: one chunk per language indexed again
    (second / "docs" / "doc4.md").write_text("# Статья 4\n\nНовый текст.\n", "utf-8")
    translate(second)
    publish(second, "-j", "2", "--force")
    one, two = bundles(first / "output" / "site"), bundles(second / "output" / "site")
    assert len(one) > 20 and one == two


def test_a_deleted_index_is_made_again_once(tmp_path, runs):
    """The records of a run that found the bundles gone hold the next time: the files
    looked at as missing are hashed again once Pagefind wrote them."""
    root = tmp_path / "project"
    write_project(root)
    translate(root)
    publish(root)
    made = len(runs)
    shutil.rmtree(root / "output" / "site" / PAGEFIND)
    runs.clear()
    publish(root)
    assert len(runs) == made
    runs.clear()
    publish(root)
    assert runs == []


def test_with_two_jobs_two_chunks_are_indexed_at_once(tmp_path, monkeypatch):
    """Each of the first two runs waits for the other at a barrier: run one after the
    other, the first would wait in vain and the barrier would break."""
    needs_pagefind()
    root = tmp_path / "project"
    write_project(root)
    translate(root)
    together = threading.Barrier(2, timeout=60)
    real, waited = search.run_pagefind, []

    def meeting(folder: Path, bundle: Path, only=None):
        if len(waited) < 2:
            waited.append(bundle.name)
            together.wait()
        return real(folder, bundle, only)

    monkeypatch.setattr(search, "run_pagefind", meeting)
    publish(root, "-j", "2")
    assert len(waited) == 2 and not together.broken
    plan = plan_chunks([(code, f"{code}/doc{i}.html") for code in ("ru", "de")
                        for i in range(DOCUMENTS)], SMALL)
    assert sorted(os.listdir(root / "output" / "site" / PAGEFIND)) == sorted([MERGE, *(c.name for c in plan)])


def test_a_failed_run_stops_the_publish_and_leaves_no_bundle_aside(tmp_path, monkeypatch):
    needs_pagefind()
    root = tmp_path / "project"
    write_project(root)
    translate(root)
    real = search.run_pagefind

    def failing_once(folder: Path, bundle: Path, only=None):
        if bundle.name.startswith(".new-de-1-of-"):
            return "pagefind failed: no space left on the device"
        return real(folder, bundle, only)

    monkeypatch.setattr(search, "run_pagefind", failing_once)
    result = CliRunner().invoke(cli, ["-C", str(root), "publish", "-q", "-j", "2"])
    assert result.exit_code != 0
    assert "no space left on the device" in result.output
    folder = root / "output" / "site" / PAGEFIND
    assert not [name for name in os.listdir(folder) if name.startswith(".new-")]
    monkeypatch.setattr(search, "run_pagefind", real)
    publish(root, "-j", "2")  # the next run indexes what is missing and succeeds
    assert not [name for name in os.listdir(folder) if name.startswith(".new-")]
    assert (folder / "de-1-of-8" / "pagefind-entry.json").is_file()


def test_with_two_jobs_the_lists_are_written_while_pagefind_runs(tmp_path, monkeypatch):
    """Each run waits until the lists are written: were they written only once the runs
    were over, the first would wait in vain and the event would time out."""
    needs_pagefind()
    root = tmp_path / "project"
    write_project(root)
    translate(root)
    from tolmach.publish.site import _Publisher

    lists_written, waited = threading.Event(), []
    real_lists, real_run = _Publisher._write_lists, search.run_pagefind

    def lists(publisher) -> None:
        real_lists(publisher)
        lists_written.set()

    def waiting(folder: Path, bundle: Path, only=None):
        waited.append(lists_written.wait(timeout=60))
        return real_run(folder, bundle, only)

    monkeypatch.setattr(_Publisher, "_write_lists", lists)
    monkeypatch.setattr(search, "run_pagefind", waiting)
    publish(root, "-j", "2")
    site = root / "output" / "site"
    assert (site / "search" / "de.html").is_file()
    plan = plan_chunks([(code, f"{code}/doc{i}.html") for code in ("ru", "de")
                        for i in range(DOCUMENTS)], SMALL)
    assert waited == [True] * len(plan)
    assert sorted(os.listdir(site / PAGEFIND)) == sorted([MERGE, *(c.name for c in plan)])


def test_a_failure_while_pagefind_runs_waits_for_the_runs_and_leaves_nothing_aside(
        tmp_path, monkeypatch):
    needs_pagefind()
    root = tmp_path / "project"
    write_project(root)
    translate(root)
    from tolmach.publish.site import _Publisher

    started, finished = threading.Event(), []
    real_run = search.run_pagefind

    def slow(folder: Path, bundle: Path, only=None):
        started.set()
        failed = real_run(folder, bundle, only)
        finished.append(bundle.name)
        return failed

    def broken_assets(publisher) -> None:
        assert started.wait(timeout=60)
        raise OSError("the disk is gone")

    monkeypatch.setattr(search, "run_pagefind", slow)
    monkeypatch.setattr(_Publisher, "_copy_assets", broken_assets)
    result = CliRunner().invoke(cli, ["-C", str(root), "publish", "-q", "-j", "2"])
    assert isinstance(result.exception, OSError)
    plan = plan_chunks([(code, f"{code}/doc{i}.html") for code in ("ru", "de")
                        for i in range(DOCUMENTS)], SMALL)
    assert len(finished) == len(plan)  # every run was over when the command ended
    folder = root / "output" / "site" / PAGEFIND
    assert not [name for name in os.listdir(folder) if name.startswith(".new-")]


def test_indexing_meanwhile_gives_what_indexing_gives(tmp_path, runs):
    paths = ["de/a.html", "de/b.html", "de/c.html"]
    chunks = [Chunk("de", "de-1-of-2", tuple(paths[:2])), Chunk("de", "de-2-of-2", tuple(paths[2:]))]
    now, meanwhile = article_site(tmp_path / "now", paths), article_site(tmp_path / "meanwhile", paths)
    heard: list[int] = []
    answer = search.index_chunks_meanwhile(meanwhile, chunks, 2, heard.append).result(timeout=120)
    assert answer == search.index_chunks(now, chunks, 2)
    assert sorted(heard) == [1, 2]
    assert bundles(now) == bundles(meanwhile)


def article_site(root: Path, paths: list[str]) -> Path:
    """A site folder holding an article page at each of ``paths``."""
    for path in paths:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(
            f'<html lang="de"><body><main data-pagefind-body><h1>{path}</h1>'
            f"<p>Wort Text {len(path)}</p></main></body></html>", "utf-8")
    return root


def test_pages_a_glob_can_list_are_read_from_the_site_and_give_the_bytes_linked_copies_give(
        tmp_path, monkeypatch, runs):
    paths = ["de/a.html", "de/teil/b-1.html", "de/раздел/в_2.html"]
    chunk = Chunk("de", "de-1-of-1", tuple(sorted(paths)))
    copied: list[Path] = []
    real_link = search._link_or_copy
    monkeypatch.setattr(search, "_link_or_copy", lambda source, target: (
        copied.append(target), real_link(source, target)))
    globbed = article_site(tmp_path / "globbed", paths)
    assert search.index_chunk(globbed, chunk) is None
    assert copied == []
    monkeypatch.setattr(search, "_reads_site", lambda chunk: False)
    linked = article_site(tmp_path / "linked", paths)
    assert search.index_chunk(linked, chunk) is None
    assert len(copied) == len(paths)
    assert runs == [sorted(paths), sorted(paths)]
    assert bundles(globbed) == bundles(linked)
    assert sorted(os.listdir(linked / PAGEFIND)) == ["de-1-of-1"]  # the linked copies are gone


@pytest.mark.parametrize("odd", ["de/with space.html", "de/{braces}.html", "de/a,b.html",
                                 "de/star*.html", "de/[x].html"])
def test_a_path_a_glob_cannot_list_is_indexed_from_linked_copies(tmp_path, odd):
    needs_pagefind()
    paths = sorted(["de/plain.html", odd])
    site = article_site(tmp_path / "site", paths)
    chunks = [Chunk("de", "de-1-of-2", (paths[0],)), Chunk("de", "de-2-of-2", (paths[1],))]
    assert [failed for _, failed in search.index_chunks(site, chunks, workers=2)] == [None, None]
    entry = json.loads((site / PAGEFIND / "de-2-of-2" / "pagefind-entry.json").read_text("utf-8"))
    assert entry["languages"]["de"]["page_count"] == 1


def test_a_bundle_missing_a_page_of_its_chunk_is_an_error(tmp_path, monkeypatch):
    needs_pagefind()
    paths = ["de/a.html", "de/b.html"]
    site = article_site(tmp_path / "site", paths)
    real = search.run_pagefind
    monkeypatch.setattr(search, "run_pagefind",
                        lambda folder, bundle, only=None: real(folder, bundle, ["de/a.html"]))
    failed = search.index_chunk(site, Chunk("de", "de-1-of-1", tuple(paths)))
    assert failed == "pagefind indexed 1 of the 2 pages of search chunk de-1-of-1"
    assert not (site / PAGEFIND).exists() or os.listdir(site / PAGEFIND) == []
