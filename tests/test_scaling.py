"""Linear time and memory on adversarial inputs (issue 12: "quadratic corners").

Every input of ``scaling.INPUTS`` — wide and long tables, nested and unmatched
brackets, emphasis runs, hard breaks, links and definitions, a long line, deep quotes
and lists — is doubled, and each pipeline step (extract, pseudo, build, check, update)
must take less than 2.6 times as long on the double (twice is linear, four times
quadratic), and allocate less than 2.6 times as much at its peak. Times are CPU time with
the cycle collector paused, best of three, the two sizes taking turns; a ratio over the
limit is measured once more, bigger, before it fails, so a busy machine does not fail
the test. ``bench/bench_scaling.py`` prints the figures.

No step may recurse as deep as its input nests: they all run on brackets, quotes,
lists and emphasis nested thousands deep with Python's recursion limit lowered.
"""

from __future__ import annotations

import sys

import pytest
import scaling
from scaling import INPUTS, LIMIT, STEPS, measure, memory_ratio, prepare

from tolmach.markdown.pseudo import pseudo_translate


@pytest.mark.parametrize("name", list(INPUTS))
def test_every_step_takes_linear_time(name):
    slow = [m for m in measure(name) if not m.linear]
    if slow:  # once more, four times bigger and best of five, before calling it quadratic
        again = measure(name, {m.step: STEPS[m.step] for m in slow}, repeat=5, scale=4)
        slow = [m for m in again if not m.linear]
    assert not slow, ", ".join(
        f"{m.step}: {m.seconds:.3f} s → {m.seconds_doubled:.3f} s (×{m.ratio:.2f})" for m in slow
    )


@pytest.mark.parametrize("name", ["wide table (columns)", "nested brackets", "hard breaks"])
def test_memory_grows_linearly(name):
    """Peak allocations of each step on the inputs where memory used to blow up."""
    for step in STEPS:
        small, large = memory_ratio(name, step)
        assert large <= LIMIT * small + 64 * 1024, f"{step}: {small} → {large} bytes"


@pytest.mark.parametrize(
    "text",
    [
        "Текст " + "[" * 5_000 + "a" + "]" * 5_000 + "\n",
        "Текст " + "[" * 10_000 + "\n",
        ">" * 5_000 + " цитата\n",
        "".join("  " * depth + "- пункт\n" for depth in range(1_000)),
        "Текст " + "*" * 5_000 + "a" + "*" * 5_000 + "\n",
    ],
    ids=["nested brackets", "unmatched brackets", "deep quote", "deep list", "long emphasis"],
)
def test_no_step_recurses_as_deep_as_the_input_nests(text):
    prepared = prepare(text)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(_depth() + 150)
    try:
        for step in STEPS.values():
            step(prepared)
    finally:
        sys.setrecursionlimit(limit)


def test_fifty_thousand_nested_brackets_pseudo_translate():
    """The issue's case, which raised RecursionError: pseudo keeps every bracket."""
    text = "[" * 50_000 + "a" + "]" * 50_000
    assert pseudo_translate(text) == "[" * 49_999 + "[áá][a]" + "]" * 49_999


def _depth() -> int:
    frame, depth = sys._getframe(), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    return depth


def test_the_limit_tells_linear_from_quadratic():
    """The assertion can fail: a step made quadratic on purpose is caught."""

    def quadratic(prepared):  # each word compared with every word before it
        seen = []
        for word in prepared.text.split()[::2]:
            seen.count(word)
            seen.append(word)

    [result] = measure("long line", {"quadratic": quadratic}, repeat=3)
    assert result.seconds > scaling.SLACK and not result.linear
