"""Adversarial inputs that double, and the pipeline steps timed on them.

Shared by ``tests/test_scaling.py`` (asserts the ratios) and ``bench/bench_scaling.py``
(prints them). Each input is a function of ``n`` whose text grows linearly with ``n``;
each step runs what the command of the same name runs, in process, its set-up (reading
the input, making translations) left out of the time:

* extract: segment the document and write the ``.pot`` text;
* pseudo: pseudo-translate every entry of the template;
* build: build with the pseudo-translations and verify the structure;
* check: every check on the pseudo-translated catalog, the built document's structure
  included;
* update: merge the template into the translated catalog.

Time is CPU time of this process (``time.process_time``), best of a few runs with the
cycle collector paused, so other jobs on a shared machine, and other objects alive in
the process, weigh little; memory is the peak of Python allocations
(``tracemalloc``) of one run.
"""

from __future__ import annotations

import contextlib
import copy
import gc
import time
import tracemalloc
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import polib

from tolmach.catalog.merge import update_catalog
from tolmach.catalog.pofile import format_po
from tolmach.catalog.status import translations_of
from tolmach.catalog.template import extract_template
from tolmach.checks import DocumentContext, check_catalog
from tolmach.fileio import no_garbage_collection
from tolmach.markdown.document import Document, parse_document
from tolmach.markdown.pseudo import pseudo_catalog
from tolmach.markdown.verify import Verifier

__all__ = [
    "INPUTS",
    "LIMIT",
    "STEPS",
    "Measurement",
    "Prepared",
    "measure",
    "memory_ratio",
    "peak_memory",
    "prepare",
]

#: time(2n) / time(n) must stay under this (2 for linear, 4 for quadratic); memory too.
LIMIT = 2.6
#: CPU seconds below which a step is too quick for its ratio to mean anything: its time
#: may then grow by this much on top of the ratio (timer resolution, allocator noise).
SLACK = 0.02


def _table(columns: int, rows: int) -> str:
    header = "|" + "|".join(f" к{i} " for i in range(columns)) + "|\n"
    rule = "|" + "---|" * columns + "\n"
    row = "|" + "|".join(f" я{i} " for i in range(columns)) + "|\n"
    return header + rule + row * rows


def _nested_list(n: int) -> str:
    """Lists ten deep, ``n`` times: deeper than markdown-it's nesting limit is text."""
    block = "".join("  " * depth + f"- пункт {depth}\n" for depth in range(10))
    return (block + "\n") * n


#: name → (text of size ~n, the n of the smaller run). Each doubles in the test.
INPUTS: dict[str, tuple[Callable[[int], str], int]] = {
    "wide table (columns)": (lambda n: _table(n, 4), 200),
    "long table (rows)": (lambda n: _table(1, n), 1000),
    "nested brackets": (lambda n: "Текст " + "[" * n + "a" + "]" * n + "\n", 1500),
    "unmatched brackets": (lambda n: "Текст " + "[" * n + "\n", 2000),
    "emphasis runs": (lambda n: "Текст " + "*a _b " * n + "\n", 1000),
    "hard breaks": (lambda n: "".join(f"строка {i}  \n" for i in range(n)), 1500),
    "links and definitions": (
        lambda n: "".join(f"См. [ссылку {i}][r{i}] и [тут](/u{i}).\n\n" for i in range(n))
        + "".join(f'[r{i}]: /ref/{i} "Титул {i}"\n' for i in range(n)),
        150,
    ),
    "long line": (lambda n: "Слово " * n + "\n", 10000),
    "deep quotes": (lambda n: "".join(">" * 30 + f" цитата {i}\n" for i in range(n)), 800),
    "deep lists": (_nested_list, 150),
}


@dataclass
class Prepared:
    """One input, ready for every step: document, template, translations."""

    text: str
    document: Document
    template: polib.POFile
    translated: polib.POFile
    translations: dict[str, str]


def prepare(text: str) -> Prepared:
    document = parse_document(text)
    template = extract_template(document, "seeds/input.ru.md", project="input")
    translated = pseudo_catalog(copy.deepcopy(template))
    return Prepared(text, document, template, translated, translations_of(translated))


def _extract(p: Prepared) -> None:
    format_po(extract_template(parse_document(p.text), "seeds/input.ru.md", project="input"))


def _pseudo(p: Prepared) -> None:
    pseudo_catalog(copy.copy(p.template))


def _build(p: Prepared) -> None:
    Verifier(p.document).build(p.translations)


def _check(p: Prepared) -> None:
    verified = Verifier(p.document).build(p.translations)
    document = DocumentContext("seeds/input.ru.md", verified, "en")
    check_catalog(p.translated, "input.po", "en", document=document)


def _update(p: Prepared) -> None:
    update_catalog(p.template, p.translated, "de")


STEPS: dict[str, Callable[[Prepared], None]] = {
    "extract": _extract,
    "pseudo": _pseudo,
    "build": _build,
    "check": _check,
    "update": _update,
}


@dataclass(frozen=True)
class Measurement:
    input: str
    step: str
    n: int
    seconds: float
    seconds_doubled: float

    @property
    def ratio(self) -> float:
        return self.seconds_doubled / max(self.seconds, 1e-9)

    @property
    def linear(self) -> bool:
        """Within :data:`LIMIT`, allowing :data:`SLACK` for steps too quick to time."""
        return self.seconds_doubled <= LIMIT * self.seconds + SLACK


def _cpu_seconds(step: Callable[[Prepared], None], prepared: Prepared) -> float:
    """CPU time of one run, the cycle collector paused: how often it passes, and how long
    each pass takes, depend on everything else alive in the process (both sizes of the
    input, the test session), not on the step's complexity; with it running, a linear
    step was once measured ×3 on a loaded machine."""
    gc.collect()
    with no_garbage_collection():
        start = time.process_time()
        step(prepared)
        return time.process_time() - start


def _best_pair(
    step: Callable[[Prepared], None], small: Prepared, large: Prepared, repeat: int
) -> tuple[float, float]:
    """Best times at ``n`` and at ``2n``, the two sizes taking turns, so that a spell of
    load on the machine falls on both rather than on one."""
    best_small = best_large = float("inf")
    for _ in range(repeat):
        best_small = min(best_small, _cpu_seconds(step, small))
        best_large = min(best_large, _cpu_seconds(step, large))
    return best_small, best_large


def sizes(name: str, scale: float = 1) -> tuple[int, Prepared, Prepared]:
    """``n`` and the input ``name`` prepared at ``n`` and ``2n`` (``scale`` multiplies n)."""
    make, n = INPUTS[name]
    n = max(1, int(n * scale))
    return n, prepare(make(n)), prepare(make(2 * n))


def measure(
    name: str,
    steps: dict[str, Callable[[Prepared], None]] | None = None,
    repeat: int = 3,
    scale: float = 1,
) -> list[Measurement]:
    """time(2n) and time(n) of every step on the input ``name``, best of ``repeat``."""
    with _rest_of_the_heap_set_aside():
        n, small, large = sizes(name, scale)
        return [
            Measurement(name, step, n, *_best_pair(run, small, large, repeat))
            for step, run in (steps or STEPS).items()
        ]


def memory_ratio(name: str, step: str, scale: float = 0.5) -> tuple[int, int]:
    """Peak bytes of ``step`` on the input ``name`` at ``n`` and at ``2n``; allocations
    do not depend on the machine's load, so half the sizes of the timings do."""
    make, n = INPUTS[name]
    n = max(1, int(n * scale))
    with _rest_of_the_heap_set_aside():
        small, large = prepare(make(n)), prepare(make(2 * n))
        return peak_memory(STEPS[step], small), peak_memory(STEPS[step], large)


@contextlib.contextmanager
def _rest_of_the_heap_set_aside() -> Iterator[None]:
    """What the process held before the measuring, out of the collector's sight
    (``gc.freeze``) while it measures: each run starts with a full collection, so that
    one run's garbage is not left to the next, and in a test session of two thousand
    tests that collection walked all their leftovers: 25 s of every input's 30 s."""
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def peak_memory(step: Callable[[Prepared], None], prepared: Prepared) -> int:
    """Peak bytes allocated by Python while ``step`` runs once."""
    gc.collect()
    tracemalloc.start()
    try:
        step(prepared)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
