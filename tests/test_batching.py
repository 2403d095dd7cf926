"""How :func:`tolmach.jobs.run_units` cuts stale units into batches, and how a cold step
starts its workers early (:func:`tolmach.jobs.warm_up`).

Batches keep the units' order and each document's units together; they shrink towards
the end (large ones first, small ones last, so two workers finish together), sized by
the weight a step gives each unit. Warming up runs a function once in each worker of a
pool before the first batch, never in process, and a failure there fails nothing.
"""

from __future__ import annotations

import math
import os
from concurrent.futures import Executor, Future
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from pipeline_project import make_project, run_command

import tolmach.project as project_module
from tolmach.config import Config, load_config
from tolmach.fileio import WORK
from tolmach.jobs import (
    Fresh,
    InlineExecutor,
    ResultCache,
    RunOptions,
    Unit,
    process_pool,
    run_units,
    warm_up,
)
from tolmach.jobs.cache import FileDigests
from tolmach.jobs.units import BATCHES_PER_WORKER, GUIDED_SHARE
from tolmach.project import Project

SEEN: list[list] = []  # the batches an in-process "pool" ran, as their items


class InlinePool(Executor):
    """Runs each batch at once, here, but counts as ``workers`` workers: the batches are
    cut as for a pool of that size, and recorded."""

    def __init__(self, workers: int) -> None:
        self._max_workers = workers

    def submit(self, fn, /, *args, **kwargs) -> Future:
        future: Future = Future()
        future.set_result(fn(*args, **kwargs))
        return future


def _record(batch: tuple) -> list[Fresh]:
    _, items = batch
    SEEN.append(list(items))
    return [Fresh(item) for item in items]


def batches_of(weights: list[list[int]], workers: int) -> list[list[tuple[int, int]]]:
    """The batches run_units makes of documents whose units weigh ``weights`` (one list
    per document, one weight per unit); each unit's item is (document, weight)."""
    units = [
        Unit(f"{doc}/{number}", "key", (doc, weight), str(doc))
        for doc, doc_weights in enumerate(weights)
        for number, weight in enumerate(doc_weights)
    ]
    SEEN.clear()
    options = RunOptions(executor=InlinePool(workers), inline_below=0)
    results = run_units("step", units, _record, None, None, options,
                        restore=lambda unit, payload: payload, weigh=lambda unit: unit.item[1])
    assert results == [unit.item for unit in units]  # every result, in the units' order
    return list(SEEN)


documents = st.lists(st.lists(st.integers(1, 1000), min_size=1, max_size=3), min_size=2,
                     max_size=120)


@settings(max_examples=150, deadline=None)
@given(documents, st.integers(2, 4))
def test_batches_keep_order_and_documents_and_stay_near_their_share(weights, workers):
    batches = batches_of(weights, workers)
    flat = [item for batch in batches for item in batch]
    assert flat == [(doc, w) for doc, ws in enumerate(weights) for w in ws]
    homes = {}
    for number, batch in enumerate(batches):
        for doc, _ in batch:
            assert homes.setdefault(doc, number) == number  # a document is never split
    total = sum(map(sum, weights))
    heaviest = max(map(sum, weights))
    first_share = total / (GUIDED_SHARE * workers)
    smallest = total / (2 * BATCHES_PER_WORKER * workers)
    for batch in batches:  # a batch passes its share by less than one document
        assert sum(w for _, w in batch) < max(first_share, smallest) + heaviest
    if len(weights) >= 4 * BATCHES_PER_WORKER * workers:
        ceiling = GUIDED_SHARE * workers * math.log(total / smallest) + 2 * BATCHES_PER_WORKER * workers
        assert len(batches) <= ceiling + 1


def test_batches_shrink_towards_the_end():
    batches = batches_of([[1, 1, 1]] * 500, workers=2)  # 500 documents × 3 locales
    sizes = [len(batch) for batch in batches]
    assert sizes[0] >= 2 * sizes[-2]  # large first, small last
    assert sizes == sorted(sizes, reverse=True)
    assert 2 * BATCHES_PER_WORKER <= len(batches) <= 4 * BATCHES_PER_WORKER


def test_heavy_units_get_batches_of_their_own():
    weights = [[1]] * 40 + [[100]] * 4 + [[1]] * 40
    batches = batches_of(weights, workers=2)
    heavy = [batch for batch in batches if any(w == 100 for _, w in batch)]
    assert all(len(batch) <= 2 for batch in heavy)  # not lumped with the light ones


def test_unweighed_units_count_one_each():
    units = [Unit(str(n), "key", n, str(n)) for n in range(64)]
    SEEN.clear()
    options = RunOptions(executor=InlinePool(2), inline_below=0)
    run_units("step", units, _record, None, None, options, restore=lambda u, p: p)
    sizes = [len(batch) for batch in SEEN]
    assert sum(sizes) == 64 and sizes[0] > sizes[-2]


def _note_pid(folder: str) -> None:
    Path(folder, str(os.getpid())).write_text("warm", "utf-8")


def _fail(folder: str) -> None:
    raise RuntimeError("warming up failed")


def _pid(batch: tuple) -> list[Fresh]:
    return [Fresh(os.getpid()) for _ in batch[1]]


def test_warm_up_runs_in_the_workers_before_their_batches(tmp_path):
    pool = process_pool(2)
    try:
        options = RunOptions(executor=pool, inline_below=0)
        warm_up(options, _note_pid, str(tmp_path))
        units = [Unit(str(n), "key", n, str(n)) for n in range(8)]
        pids = run_units("step", units, _pid, None, None, options, restore=lambda u, p: p)
    finally:
        pool.shutdown()
    warmed = {int(path.name) for path in tmp_path.iterdir()}
    assert warmed and os.getpid() not in warmed  # in the workers, never here
    assert os.getpid() not in pids and len(pids) == 8


def test_warm_up_does_nothing_in_process(tmp_path):
    for executor in (None, InlineExecutor()):
        warm_up(RunOptions(executor=executor), _note_pid, str(tmp_path))
    assert list(tmp_path.iterdir()) == []


def test_a_failed_warm_up_fails_nothing():
    pool = process_pool(2)
    try:
        options = RunOptions(executor=pool, inline_below=0)
        warm_up(options, _fail, "")
        units = [Unit(str(n), "key", n, str(n)) for n in range(6)]
        pids = run_units("step", units, _pid, None, None, options, restore=lambda u, p: p)
    finally:
        pool.shutdown()
    assert len(pids) == 6 and os.getpid() not in pids


def test_a_stage_counts_as_recorded_once_a_run_kept_its_results(tmp_path):
    cache = ResultCache(tmp_path, "v")
    assert not cache.recorded("extract")
    cache.put("extract", "doc", "key", ["payload"], document="doc")
    cache.save(["doc"])
    again = ResultCache(tmp_path, "v")
    assert again.recorded("extract") and not again.recorded("stats")
    assert not ResultCache(tmp_path, "v", trust=False).recorded("extract")  # --force
    assert not ResultCache(tmp_path, "other version").recorded("extract")


def test_a_cold_step_warms_its_workers_up_and_a_cached_one_does_not(tmp_path, monkeypatch):
    warmed: list[str] = []
    monkeypatch.setattr(project_module, "warm_up",
                        lambda options, function, context: warmed.append(function.__name__))
    folder = make_project(tmp_path / "p", documents=4)
    for command in (("extract",), ("update",), ("stats",)):
        assert run_command(folder, *command, "-j", "2").exit_code == 0
    assert warmed == ["_warm_extract", "_warm_stats"]  # cold: both steps
    for command in (("extract",), ("stats",)):
        run_command(folder, *command, "-j", "2")
    assert warmed == ["_warm_extract", "_warm_stats"]  # recorded: neither
    run_command(folder, "extract", "-j", "2", "--force")
    assert warmed[-1] == "_warm_extract"  # --force believes no record: all will run


def test_one_documents_pattern_that_listed_documents_is_not_walked_again(tmp_path, monkeypatch):
    project = Project(load_config(make_project(tmp_path / "p", documents=3)))
    assert len(project.documents) == 3
    walks: list[int] = []
    original = Config.matched_documents
    monkeypatch.setattr(Config, "matched_documents",
                        lambda self: walks.append(1) or original(self))
    assert project.unmatched_patterns() == []
    assert walks == []


def test_keys_the_workers_made_on_a_cold_run_find_their_records_next_time(tmp_path):
    folder = make_project(tmp_path / "p", documents=6)
    for step in (("extract",), ("update",)):
        assert run_command(folder, *step, "-j", "1").exit_code == 0
    (folder / ".tolmach-cache/results/files.json").unlink()  # no digest made by those
    cold = run_command(folder, "stats", "-j", "2", "--format", "json")
    before = WORK.copy()
    again = run_command(folder, "stats", "-j", "1", "--format", "json")
    done = WORK.copy()
    done.subtract(before)
    assert again.output == cold.output
    assert done["parse"] == 0  # every catalog's record found under the key its worker made
    cache = ResultCache(folder, Project(load_config(folder)).cache_version)
    catalog = "locales/de/LC_MESSAGES/doc0.po"
    assert catalog in cache.files.known  # and the digests the workers made were kept


def test_digests_learned_from_another_process_stand_for_this_run(tmp_path):
    path = tmp_path / "a.po"
    path.write_text("msgid \"\"\nmsgstr \"\"\n", "utf-8")
    os.utime(path, ns=(10**18, 10**18))  # settled long before it is hashed
    worker = FileDigests(tmp_path)
    made = worker.digest(path)
    here = FileDigests(tmp_path)
    here.learn(worker.known)
    assert here.digest(path) == made and here.hashed == 0 and here.changed
    later = FileDigests(tmp_path, dict(here.known))
    assert later.digest(path) == made and later.hashed == 0  # kept for the next run


def _fail_on_odd_text(batch: tuple) -> list[Fresh]:
    _, items = batch
    SEEN.append(list(items))
    for text, number in items:
        if text.startswith("bad"):
            raise ValueError(f"unit {number} failed")
    return [Fresh((text, number)) for text, number in items]


def run_with_affinity(texts: list[str], workers: int = 2) -> list:
    units = [Unit(str(n), "key", (text, n), str(n)) for n, text in enumerate(texts)]
    SEEN.clear()
    options = RunOptions(executor=InlinePool(workers), inline_below=0)
    return run_units("step", units, _fail_on_odd_text, None, None, options,
                     restore=lambda u, p: p, affinity=lambda unit: unit.item[0])


def test_units_of_one_text_share_a_batch_and_results_keep_their_order():
    texts = [f"text {n % 20}" for n in range(80)]  # four copies of twenty texts
    results = run_with_affinity(texts)
    assert results == [(text, n) for n, text in enumerate(texts)]
    batch_of = {number: b for b, batch in enumerate(SEEN) for _, number in batch}
    for n in range(20):
        assert len({batch_of[n + 20 * copy] for copy in range(4)}) == 1


def test_affinity_changes_nothing_in_process():
    texts = [f"text {n % 5}" for n in range(20)]
    assert run_with_affinity(texts, workers=1) == [(t, n) for n, t in enumerate(texts)]
    assert [n for batch in SEEN for _, n in batch] == list(range(20))  # in their order


def test_after_a_failure_the_error_is_the_one_met_first_in_order():
    # unit 7 shares unit 0's affinity, so the pool meets it before unit 3; -j 1 meets 3 first
    texts = ["c0", "c1", "c2", "bad 3", "c4", "c5", "c6", "bad 7"]

    def affinity(unit):
        return "c0" if unit.item[1] == 7 else unit.item[0]

    units = [Unit(str(n), "key", (text, n), str(n)) for n, text in enumerate(texts)]
    SEEN.clear()
    options = RunOptions(executor=InlinePool(2), inline_below=0)
    try:
        run_units("step", units, _fail_on_odd_text, None, None, options,
                  restore=lambda u, p: p, affinity=affinity)
    except ValueError as error:
        assert str(error) == "unit 3 failed"
    else:
        raise AssertionError("no error")
    assert [n for _, n in SEEN[0]] == [0, 7]  # the pool's order did put 7 first


def _doubled(batch):
    return [Fresh(item * 2, [item * 2]) for item in batch[1]]


def test_a_record_its_step_cannot_read_is_run_again_not_a_failure(tmp_path):
    """A cache file edited or torn by hand is as good as none: the unit runs again."""
    units = [Unit("a", "key a", 1, "a"), Unit("b", "key b", 2, "b")]

    def restore(unit, payload):
        value, = payload  # what this step records: one number
        return value

    cache = ResultCache(tmp_path, "v")
    assert run_units("step", units, _doubled, None, cache, RunOptions(), restore=restore) == [2, 4]
    cache.put("step", "a", "key a", "torn", document="a")  # not one number
    cache.save(["a", "b"])
    again = ResultCache(tmp_path, "v")
    assert run_units("step", units, _doubled, None, again, RunOptions(), restore=restore) == [2, 4]
    assert again.get("step", "a", "key a") == [2]  # recorded afresh
