"""A step as units: each looked up in the cache, the stale ones run in batches.

A step describes each unit of its work by a :class:`Unit`: an id, the key of its
inputs, and the item a worker needs to do it. :func:`run_units` returns one result per
unit, in the order given: a recorded one where the cache holds a record for the key, a
fresh one (computed by ``work`` on the executor, then recorded) elsewhere. Units of one
document stay in one batch, so a worker parses a source once for all its locales.

Batches get smaller towards the end (guided scheduling): the first ones are large, so
little time goes to handing out work, and the last ones small, so the workers finish
together instead of one idling while another ends a large batch. A step may weigh its
units (by the size of the file each reads, say); unweighed, each counts as one.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from tolmach.jobs.cache import ResultCache
from tolmach.jobs.executor import RunOptions, run_batches, workers_of

__all__ = ["Fresh", "Unit", "run_units", "warm_up"]

BATCHES_PER_WORKER = 8
#: a batch takes this share of the work still to hand out, divided among the workers
GUIDED_SHARE = 4


@dataclass(frozen=True)
class Unit:
    """One unit of a step: ``id`` is unique in the step; ``key`` digests its inputs."""

    id: str
    key: str | None  # None: the worker tells it (see run_units)
    item: Any  # what the worker is given (picklable)
    document: str | None = None


@dataclass(frozen=True)
class Fresh:
    """What a worker gives back for a unit: the result the step returns, and what the
    cache should remember of it (``None``: remember nothing, run it again next time)."""

    result: Any
    payload: Any = None
    outputs: dict | None = None  # Path → digest of the bytes the unit wrote or found
    conditions: tuple = ()
    remember: bool = True
    key: str | None = None  # the unit's key, when the step left it to the worker
    digests: dict | None = None  # what the worker hashed for it (FileDigests.known)


def run_units(
    stage: str,
    units: Sequence[Unit],
    work: Callable[[Any], list[Fresh]],
    context: Any,
    cache: ResultCache | None,
    options: RunOptions,
    *,
    restore: Callable[[Unit, Any], Any],
    holds: Callable[[list], bool] | None = None,
    what: str = "units",
    before_work: Callable[[list[Unit]], None] | None = None,
    weigh: Callable[[Unit], float] | None = None,
    affinity: Callable[[Unit], Hashable] | None = None,
) -> list:
    """The result of every unit, in order (see the module docstring).

    ``work((context, items))`` runs in a worker and returns one :class:`Fresh` per item;
    ``restore(unit, payload)`` turns a recorded payload back into a result;
    ``before_work(stale)`` runs here once the stale units are known, before any of them
    runs and before the conditions of the records found are checked with ``holds``
    (it may prepare what ``holds`` needs); ``weigh(unit)`` tells how much work a stale
    unit is, for sizing the batches (default: one each). On a pool, stale units of the
    same ``affinity(unit)`` (documents of the same text, say) go into one batch, so one
    worker reuses what it worked out for the first of them instead of two workers each
    working it out; should that run fail, the stale units run again here in their own
    order, so the error raised is the one ``-j 1`` raises.

    A unit without a key is not looked up: it runs, and its worker hashes its inputs and
    gives the key back in :attr:`Fresh.key` (with what it hashed, for the cache's file
    digests). A step leaves keys to the workers when nothing of it is recorded (a cold
    run), so that hashing its inputs is shared out instead of done here first.
    """
    results: list = [None] * len(units)
    stale: list[int] = []
    pending: list[tuple[int, Any]] = []  # found, but with conditions still to check

    def take(number: int, record: Any) -> None:
        """The unit's result from its record, or the unit run again if none can be made."""
        restored = _restored(restore, units[number], record.payload)
        if restored is _UNREADABLE:
            stale.append(number)
        else:
            results[number] = restored

    for number, unit in enumerate(units):
        record = None if cache is None or unit.key is None else cache.find(stage, unit.id, unit.key)
        if record is None:
            stale.append(number)
        elif record.conditions:
            pending.append((number, record))
        else:
            cache.confirm(stage, unit.id, record, holds)
            take(number, record)
    if before_work is not None and (stale or pending):
        before_work([units[n] for n in stale])
    for number, record in pending:
        if cache.confirm(stage, units[number].id, record, holds):
            take(number, record)
        else:
            stale.append(number)
    stale.sort()
    if not stale:
        options.report(what, len(units), len(units), len(units))
        return results
    workers = workers_of(options.executor)
    in_order = _by_document(stale, units)
    groups = in_order if affinity is None or workers < 2 else _together(in_order, units, affinity)

    def run(groups: list[list[int]], options: RunOptions, workers: int) -> list[Fresh]:
        batches = _batches([[units[n] for n in group] for group in groups], workers, weigh)
        return run_batches(
            work,
            [(context, [unit.item for unit in batch]) for batch in batches],
            options,
            what=what,
            sizes=[len(batch) for batch in batches],
            cached=len(units) - len(stale),
        )

    try:
        fresh = run(groups, options, workers)
    except Exception:
        if groups is in_order:
            raise
        groups = in_order
        fresh = run(in_order, replace(options, executor=None), 1)
    order = [number for group in groups for number in group]
    for number, outcome in zip(order, fresh, strict=True):
        unit = units[number]
        results[number] = outcome.result
        if cache is None:
            continue
        if outcome.digests:
            cache.learn_digests(outcome.digests)
        key = unit.key if unit.key is not None else outcome.key
        if outcome.remember and key is not None:
            cache.put(
                stage, unit.id, key, outcome.payload, outputs=outcome.outputs,
                conditions=outcome.conditions, document=unit.document,
            )
        else:
            cache.drop(stage, unit.id)
    return results


_UNREADABLE = object()  # a record whose payload cannot be made into a result


def _restored(restore: Callable[[Unit, Any], Any], unit: Unit, payload: Any) -> Any:
    """``restore(unit, payload)``, or :data:`_UNREADABLE` when the payload is not what
    this step records (a cache file edited or torn by hand): the unit then runs again,
    as if nothing were recorded, instead of the command failing on a cache it may delete."""
    try:
        return restore(unit, payload)
    except (TypeError, ValueError, KeyError, IndexError, AttributeError):
        return _UNREADABLE


def warm_up(options: RunOptions, function: Callable[[Any], Any], context: Any) -> None:
    """Start the run's workers now and have each call ``function(context)`` (imports,
    loading a dictionary), while this process still lists and hashes the step's inputs.

    For a step about to run most of its units (nothing recorded for it yet): otherwise
    the workers would do this only once the first batch reached them, after this
    process's own preparations, and both would count against the run's time. In process
    (``-j 1``) it does nothing: the first unit loads what it needs, as before.
    """
    workers = workers_of(options.executor)
    if workers < 2:
        return
    for _ in range(workers):
        options.executor.submit(_warm, function, context)


def _warm(function: Callable[[Any], Any], context: Any) -> None:
    """Warming up is only a head start: whatever fails here, the batch that needs it
    fails again in its place and says why."""
    with contextlib.suppress(Exception):
        function(context)


def _together(groups: list[list[int]], units: Sequence[Unit],
              affinity: Callable[[Unit], Hashable]) -> list[list[int]]:
    """The documents' groups joined by the affinity of their first unit, in the order each
    affinity first appears: a batch then takes all the documents of one text."""
    joined: dict[Hashable, list[int]] = {}
    for group in groups:
        joined.setdefault(affinity(units[group[0]]), []).extend(group)
    return list(joined.values())


def _by_document(numbers: list[int], units: Sequence[Unit]) -> list[list[int]]:
    """Consecutive units of the same document, together (by their numbers)."""
    groups: list[list[int]] = []
    for number in numbers:
        document = units[number].document
        if groups and document is not None and units[groups[-1][0]].document == document:
            groups[-1].append(number)
        else:
            groups.append([number])
    return groups


def _batches(
    groups: list[list[Unit]], workers: int, weigh: Callable[[Unit], float] | None = None
) -> list[list[Unit]]:
    """Groups joined into batches, in order, each of about ``1 / (GUIDED_SHARE × workers)``
    of the weight not yet in a batch, and none lighter than ``1 / (2 × BATCHES_PER_WORKER
    × workers)`` of the whole: large batches first, small ones last (see the module
    docstring)."""
    weights = [sum(weigh(unit) for unit in group) if weigh else len(group) for group in groups]
    total = sum(weights)
    workers = max(workers, 1)
    smallest = total / (2 * BATCHES_PER_WORKER * workers)
    remaining, share = total, GUIDED_SHARE * workers
    batches: list[list[Unit]] = [[]]
    weight = 0.0
    for group, group_weight in zip(groups, weights, strict=True):
        if batches[-1] and weight + group_weight / 2 > max(smallest, remaining / share):
            batches.append([])
            remaining -= weight
            weight = 0.0
        batches[-1].extend(group)
        weight += group_weight
    return batches
