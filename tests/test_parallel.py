"""``-j 2`` gives what ``-j 1`` gives: the same files, byte for byte, and the same output
in the same order, cold, with nothing changed and after edits; an error raised in a
worker reads as it does in process. The pool is really used (its batches are counted),
so the comparison is not of ``-j 1`` with itself.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from pipeline_project import (
    STEPS,
    fixed_clock,
    make_project,
    project_files,
    run_command,
    run_pipeline,
    translate_catalog,
)

import tolmach.jobs.executor as executor_module
from tolmach.fileio import WORK
from tolmach.jobs import RunOptions, process_pool, run_batches


@pytest.fixture(autouse=True)
def clock(monkeypatch):
    fixed_clock(monkeypatch)


def printed(runs, folder: Path) -> list[tuple]:
    """Each command, its exit code, its standard output and error (as separate streams,
    so the order of lines on each is compared), ``-j`` left out."""
    return [
        (r.command[:-3], r.exit_code, *(s.replace(str(folder), "<project>") for s in (r.stdout, r.stderr)))
        for r in runs
    ]


@pytest.fixture
def submitted(monkeypatch) -> list[int]:
    """Batches the commands send to a process pool (one count per batch)."""
    counts: list[int] = []
    original = executor_module.process_pool

    class Counting:
        def __init__(self, jobs: int) -> None:
            self.pool = original(jobs)
            self._max_workers = jobs

        def submit(self, fn, /, *args, **kwargs):
            counts.append(1)
            return self.pool.submit(fn, *args, **kwargs)

        def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
            self.pool.shutdown(wait=wait, cancel_futures=cancel_futures)

    monkeypatch.setattr(executor_module, "process_pool", Counting)
    return counts


def test_two_processes_write_and_print_what_one_does(tmp_path, submitted):
    one = make_project(tmp_path / "one", documents=12)
    two = make_project(tmp_path / "two", documents=12)

    def both(*steps):
        runs_one = run_pipeline(one, "--quiet", "-j", "1", steps=steps or STEPS)
        runs_two = run_pipeline(two, "--quiet", "-j", "2", steps=steps or STEPS)
        assert printed(runs_one, one) == printed(runs_two, two)
        assert project_files(one) == project_files(two)
        return runs_two

    both()  # cold
    cold_batches = len(submitted)
    assert cold_batches >= 6 * 2  # every step sent several batches to the pool
    both()  # nothing changed
    for folder in (one, two):  # a translator and a writer at work
        translate_catalog(folder / "locales/de/LC_MESSAGES/doc3.po", style="broken")
        translate_catalog(folder / "locales/en/LC_MESSAGES/doc7.po", every=1)
        (folder / "docs/doc5.md").write_text("# Новая статья\n\nНовый абзац.\n", "utf-8")
    runs = both()
    assert "wrote locales/doc5.pot" in runs[0].output
    assert any(r.exit_code == 1 for r in runs)  # the broken translations are found
    both(("build", "--strict"), ("check", "--format", "json"))


def test_a_worker_error_reads_as_in_process(tmp_path, submitted):
    folders = [make_project(tmp_path / name, documents=8) for name in ("one", "two")]
    for folder in folders:
        run_pipeline(folder, "-j", "1", "--quiet", steps=STEPS[:2])
        catalog = folder / "locales/de/LC_MESSAGES/doc6.po"
        catalog.write_text(catalog.read_text("utf-8") + '\nmsgid "unterminated\n', "utf-8")
        (folder / ".tolmach-cache").rename(folder / "cache-aside")
    for step in (("update",), ("check",), ("build",), ("stats",)):
        one = run_command(folders[0], *step, "-j", "1")
        two = run_command(folders[1], *step, "-j", "2")
        assert (one.exit_code, one.output) == (two.exit_code, two.output), step
        assert one.exit_code == 1 and "locales/de/LC_MESSAGES/doc6.po:" in one.output
    assert submitted  # the steps went to the pool


def pid_of(batch: list[int]) -> list[int]:
    return [os.getpid() for _ in batch]


def test_batches_run_in_other_processes_and_come_back_in_order():
    pool = process_pool(2)
    try:
        options = RunOptions(executor=pool)
        batches = [[n] * (n % 3 + 1) for n in range(10)]
        pids = run_batches(pid_of, batches, options, what="units")
        squares = run_batches(_numbers, batches, options, what="units")
    finally:
        pool.shutdown()
    assert len(pids) == sum(len(b) for b in batches)
    assert os.getpid() not in pids  # not in this process
    assert squares == [n * n for batch in batches for n in batch]


def _numbers(batch: list[int]) -> list[int]:
    WORK["parse"] += len(batch)
    return [n * n for n in batch]


def test_work_counted_in_workers_is_added_here():
    before = WORK["parse"]
    pool = process_pool(2)
    try:
        # four batches: fewer units than four would run in this process
        run_batches(_numbers, [[1], [2], [3], [4, 5, 6]], RunOptions(executor=pool), what="units")
    finally:
        pool.shutdown()
    assert WORK["parse"] - before == 6


_LEARNED_IN_BATCH: list[int] = []  # in a worker: what its batches learned, not yet taken
_KEPT_HERE: list[int] = []


def _learning(batch: list[int]) -> list[int]:
    _LEARNED_IN_BATCH.extend(n * 10 for n in batch)
    return batch


def _take_learned() -> list[int] | None:
    taken = list(_LEARNED_IN_BATCH)
    _LEARNED_IN_BATCH.clear()
    return taken or None


executor_module.carry_back("test: learned", _take_learned, _KEPT_HERE.extend)


def test_what_workers_learn_is_carried_back_here_once():
    _KEPT_HERE.clear()
    pool = process_pool(2)
    try:
        run_batches(_learning, [[n] for n in range(1, 7)], RunOptions(executor=pool), what="units")
    finally:
        pool.shutdown()
    assert not _LEARNED_IN_BATCH  # the batches ran in the workers
    assert sorted(_KEPT_HERE) == [10, 20, 30, 40, 50, 60]  # each batch's, none twice
