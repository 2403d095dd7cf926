"""Jobs: how the steps run over documents × locales — once, in parallel, across machines.

The steps themselves (:mod:`tolmach.project`, :mod:`tolmach.publish.site`) cut their
work into units, a document or a document in one locale. This stage takes those units
and gives back their results: :mod:`~tolmach.jobs.cache` remembers each unit's result
under a key made of the content it depends on, so a unit whose inputs did not change
is neither parsed nor written again; :mod:`~tolmach.jobs.executor` runs the rest in
batches on any :class:`concurrent.futures.Executor` (a process pool for ``-j N``, this
process for ``-j 1``) and hands the results back in order; :mod:`~tolmach.jobs.shard`
splits the documents between machines (``--shard K/N``). Progress is reported through a
callback, so the library never draws anything.
"""

from tolmach.jobs.cache import ResultCache, content_digest
from tolmach.jobs.executor import InlineExecutor, Progress, RunOptions, process_pool, run_batches
from tolmach.jobs.shard import Shard, parse_shard
from tolmach.jobs.units import Fresh, Unit, run_units, warm_up

__all__ = [
    "Fresh",
    "InlineExecutor",
    "Progress",
    "ResultCache",
    "RunOptions",
    "Shard",
    "Unit",
    "content_digest",
    "parse_shard",
    "process_pool",
    "run_batches",
    "run_units",
    "warm_up",
]
