"""Units of work run in batches on an executor, results handed back in order.

Any :class:`concurrent.futures.Executor` will do: :class:`InlineExecutor` runs each
batch at once in this process (``-j 1``, and runs with little to do), :func:`process_pool`
gives ``-j N`` processes, and a cluster's executor can be passed instead without the
steps noticing. A batch function must be importable by name (a module-level function)
and take one picklable argument. What a worker counted (:data:`tolmach.fileio.WORK`)
comes back with its results, and so does what a step asked to have carried back
(:func:`carry_back`: what a worker learned that this process should keep, such as the
glossary's matches); an error raised in a worker is raised again here as the same
exception, with the same message, as ``-j 1`` would raise it.
"""

from __future__ import annotations

import functools
import os
import pickle
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from dataclasses import dataclass
from typing import Any

from tolmach.fileio import WORK, flushed_at_end, staged_writes

__all__ = [
    "InlineExecutor",
    "Progress",
    "RunOptions",
    "carry_back",
    "default_jobs",
    "process_pool",
    "run_batches",
    "run_beside",
]

#: ``progress(what, done, total, cached)``: called when a phase starts and after each
#: batch; ``what`` names the units ("catalogs", "pages"), ``total`` counts them all,
#: ``done`` those finished, of which ``cached`` came from the cache without any work.
Progress = Callable[[str, int, int, int], None]

#: name → (take, give): see :func:`carry_back`.
_CARRIED: dict[str, tuple[Callable[[], Any], Callable[[Any], None]]] = {}


def carry_back(name: str, take: Callable[[], Any], give: Callable[[Any], None]) -> None:
    """After each batch run in another process, ``take()`` there gives what the batch
    learned (picklable; None for nothing), and ``give(it)`` here keeps it. A worker's
    memory goes with it, so what is worth keeping beyond the run must come back: the
    process that started the run is the one that saves. Registered at import time by
    the module that owns the knowledge, so a spawned worker registers it too.
    """
    _CARRIED[name] = (take, give)

@dataclass(frozen=True)
class RunOptions:
    """How a step runs: where its units go, which documents it takes, whether it may
    trust the cache, and whom it tells how far it got."""

    executor: Executor | None = None  # None: in this process
    shard: Any = None  # a tolmach.jobs.shard.Shard: only this part of the documents
    force: bool = False  # ignore what the cache remembers (and remember afresh)
    cache: bool = True  # False: no cache at all, nothing read or written under it
    progress: Progress | None = None
    inline_below: int = 4  # fewer stale units than this run in this process

    def report(self, what: str, done: int, total: int, cached: int = 0) -> None:
        if self.progress is not None:
            self.progress(what, done, total, cached)


def default_jobs() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class InlineExecutor(Executor):
    """Runs every call at once, in this process: ``-j 1``, deterministic and debuggable."""

    def submit(self, fn, /, *args, **kwargs) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as exc:  # noqa: BLE001 - a future holds whatever the call raised
            future.set_exception(exc)
        return future


def process_pool(jobs: int) -> Executor:
    """``jobs`` worker processes, started when the first batch is submitted (a run with
    nothing to do starts none). On Linux they are forked: they begin with what this
    process has loaded (parsers, the glossary), so a short run does not pay for imports."""
    return _LazyProcessPool(jobs)


class _LazyProcessPool(Executor):
    def __init__(self, jobs: int) -> None:
        self._max_workers = jobs
        self._pool: Executor | None = None

    def submit(self, fn, /, *args, **kwargs) -> Future:
        if self._pool is None:
            from concurrent.futures import ProcessPoolExecutor
            from multiprocessing import get_context

            context = get_context("fork") if sys.platform.startswith("linux") else None
            self._pool = ProcessPoolExecutor(max_workers=self._max_workers, mp_context=context)
        return self._pool.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=wait, cancel_futures=cancel_futures)
            self._pool = None


def workers_of(executor: Executor | None) -> int:
    """How many batches an executor runs at once (1 for one that runs in process)."""
    if executor is None or isinstance(executor, InlineExecutor):
        return 1
    return getattr(executor, "_max_workers", None) or default_jobs()


def run_batches(
    function: Callable[[Any], list],
    batches: Sequence[Any],
    options: RunOptions,
    *,
    what: str,
    sizes: Sequence[int] | None = None,
    cached: int = 0,
) -> list:
    """Every batch through ``function``; the concatenated results in batch order.

    ``sizes`` counts the units of each batch for the progress report (default 1 each);
    ``cached`` units of the same phase came from the cache (reported as done).
    In process, the first error stops the run, as it always did; on a pool, batches not
    started yet are cancelled and the error of the earliest failed batch is raised.
    """
    sizes = list(sizes) if sizes is not None else [1] * len(batches)
    total = sum(sizes) + cached
    report = functools.partial(options.report, what, total=total, cached=cached)
    report(cached)
    executor = options.executor
    if executor is None or isinstance(executor, InlineExecutor) or len(batches) <= 1 \
            or total - cached < options.inline_below:
        return _run_here(function, batches, sizes, report, cached)
    call = functools.partial(_portable_call, function)
    futures = [executor.submit(call, batch) for batch in batches]
    position = {future: number for number, future in enumerate(futures)}
    outcomes: list = [None] * len(futures)
    done_units, pending = cached, set(futures)
    while pending:
        finished, pending = wait(pending, return_when=FIRST_COMPLETED)
        for future in finished:
            if future.cancelled():
                continue
            number = position[future]
            outcomes[number] = future.result()
            done_units += sizes[number]
            if outcomes[number][0] == "error":
                for other in pending:
                    other.cancel()
        report(done_units)
    return _gathered(outcome for outcome in outcomes if outcome is not None)  # None: cancelled


def _gathered(outcomes: Iterable[tuple]) -> list:
    """The batches' results concatenated, what they counted and learned taken in; the
    first error among them raised."""
    results: list = []
    for kind, value, work, learned in outcomes:
        WORK.update(work)
        _give_back(learned)
        if kind == "error":
            raise _rebuilt(value)
        results.extend(value)
    return results


def run_beside(
    function: Callable[[Any], list], batches: Sequence[Any], executor: Executor | None
) -> list:
    """Every batch through ``function``, the first in this process while the workers take
    the others: for a few large batches that this process would otherwise wait for, it is
    one worker more. The concatenated results in batch order; every batch runs to its end
    (none is left writing after this returns), and the error of the earliest failed one is
    raised. Without a pool of two or more workers, the batches run here in turn.
    """
    if workers_of(executor) < 2 or len(batches) < 2:
        return [result for batch in batches for result in function(batch)]
    call = functools.partial(_portable_call, function)
    futures = [executor.submit(call, batch) for batch in batches[1:]]
    try:
        here: tuple = ("ok", function(batches[0]), Counter(), {})
    except Exception as exc:  # noqa: BLE001 - raised below, once the workers are done
        here = ("error", exc, Counter(), {})
    finally:
        wait(futures)
    return _gathered([here, *(future.result() for future in futures)])


def _run_here(function, batches, sizes, report, done: int) -> list:
    results: list = []
    for batch, size in zip(batches, sizes, strict=True):
        with staged_writes():
            results.extend(function(batch))
        done += size
        report(done)
    return results


def _portable_call(function: Callable[[Any], list], batch: Any) -> tuple[str, Any, Counter, dict]:
    """Run one batch; its results or its error, what it counted and what it learned, in a
    form that crosses processes."""
    before = Counter(WORK)
    try:
        with flushed_at_end(), staged_writes():  # on disk before the batch is done
            result = ("ok", function(batch))
    except Exception as exc:  # noqa: BLE001 - raised again in the parent, as it was
        result = ("error", _portable(exc))
    work = Counter(WORK)
    work.subtract(before)
    return (*result, +work, _taken())


def _taken() -> dict:
    """What this process learned since the last batch, by carrier (see :func:`carry_back`)."""
    learned = {}
    for name, (take, _) in _CARRIED.items():
        value = take()
        if value is not None:
            learned[name] = value
    return learned


def _give_back(learned: dict) -> None:
    for name, value in learned.items():
        _CARRIED[name][1](value)


@dataclass(frozen=True)
class _ErrorState:
    """An exception taken apart: its class by name, its arguments and attributes."""

    module: str
    name: str
    args: tuple
    attributes: dict


def _portable(exc: Exception) -> Exception | _ErrorState:
    """``exc`` itself when pickling gives it back; else its parts. tolmach's errors
    take (path, line, message) but keep only the formatted text in ``args``."""
    try:
        again = pickle.loads(pickle.dumps(exc))
        if type(again) is type(exc) and str(again) == str(exc):
            return exc
    except Exception:  # noqa: BLE001 - any failure means: send its parts instead
        pass
    attributes = {k: v for k, v in vars(exc).items() if _picklable(v)}
    return _ErrorState(type(exc).__module__, type(exc).__qualname__, exc.args, attributes)


def _picklable(value: Any) -> bool:
    try:
        pickle.dumps(value)
    except Exception:  # noqa: BLE001 - whatever pickling raises, the value stays behind
        return False
    return True


def _rebuilt(value: Exception | _ErrorState) -> Exception:
    if isinstance(value, Exception):
        return value
    import importlib

    cls = getattr(importlib.import_module(value.module), value.name)
    exc = cls.__new__(cls)
    Exception.__init__(exc, *value.args)
    vars(exc).update(value.attributes)
    return exc
