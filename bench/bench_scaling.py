"""Linear time on adversarial inputs: time(2n) / time(n) per pipeline step, and the
issue's quadratic corners measured whole.

The inputs and steps are those of ``tests/test_scaling.py`` (``tests/scaling.py``): each
input is doubled and each step timed in CPU seconds, best of three (2.0 is linear, 4.0
quadratic; the test fails at 2.6). Then the cases of issue 12, each in its own process
(seconds of CPU time, peak resident memory):

    .venv/bin/python bench/bench_scaling.py [--quick] [--case NAME]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

import scaling  # noqa: E402 - the shared inputs live with the tests

from tolmach.catalog.template import extract_template  # noqa: E402
from tolmach.markdown.document import parse_document  # noqa: E402

# name → (text, step, what the issue measured before)
CASES = {
    "table 2,000 × 200, extract": (
        lambda: ("|" + "a|" * 2000 + "\n") + ("|" + "-|" * 2000 + "\n") + ("|" + "a|" * 2000 + "\n") * 200,
        "extract",
        "36 s, 1.3 GB",
    ),
    "table 20,000 × 1, extract": (
        lambda: ("|" + "a|" * 20000 + "\n") + ("|" + "-|" * 20000 + "\n") + ("|" + "a|" * 20000 + "\n"),
        "extract",
        "44 s, 880 MB",
    ),
    "10,000 unmatched [, pseudo": (lambda: "[" * 10_000 + "\n", "pseudo", "5.8 s"),
    "100,000 unmatched [, pseudo": (lambda: "[" * 100_000 + "\n", "pseudo", "> 60 s, stopped"),
    "[ × 50,000, a, ] × 50,000, pseudo": (
        lambda: "[" * 50_000 + "a" + "]" * 50_000 + "\n",
        "pseudo",
        "RecursionError",
    ),
    "200,000 hard breaks, extract": (
        lambda: "".join(f"line {i}  \n" for i in range(200_000)),
        "extract",
        "25 s",
    ),
    "table 2,000 × 200, build (verified)": (
        lambda: ("|" + "a|" * 2000 + "\n") + ("|" + "-|" * 2000 + "\n") + ("|" + "a|" * 2000 + "\n") * 200,
        "build",
        "–",
    ),
    "200,000 hard breaks, build (verified)": (
        lambda: "".join(f"line {i}  \n" for i in range(200_000)),
        "build",
        "–",
    ),
}


def run_case(name: str) -> None:
    """In a fresh process: make what the step needs (for extract, the text alone; for
    pseudo, the template; for build, the document and its translations), time the step
    once, print JSON. The peak is the whole process's, its inputs included."""
    make, step, _ = CASES[name]
    text = make()
    if step == "extract":
        prepared = scaling.Prepared(text, None, None, None, {})  # type: ignore[arg-type]
    elif step == "pseudo":
        document = parse_document(text)
        template = extract_template(document, "seeds/input.ru.md", project="input")
        prepared = scaling.Prepared(text, document, template, None, {})  # type: ignore[arg-type]
    else:
        prepared = scaling.prepare(text)
    start = time.process_time()
    scaling.STEPS[step](prepared)
    seconds = time.process_time() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": seconds, "peak_mib": peak}))


def ratios(quick: bool) -> None:
    print("time(2n) / time(n) (and time(2n)), CPU, best of 3 (linear: 2.0, quadratic: 4.0)\n")
    print(f"| input | n | {' | '.join(scaling.STEPS)} |")
    print("|---|---:|" + "---:|" * len(scaling.STEPS))
    worst = 0.0
    for name in scaling.INPUTS:
        found = scaling.measure(name, repeat=1 if quick else 3)
        worst = max([worst, *(m.ratio for m in found if m.seconds >= scaling.SLACK)])
        cells = " | ".join(f"{m.ratio:.2f} ({m.seconds_doubled * 1000:.0f} ms)" for m in found)
        print(f"| {name} | {found[0].n:,} | {cells} |", flush=True)
    print(f"\nworst ratio of a step taking at least {scaling.SLACK} s: {worst:.2f}\n")


def cases() -> None:
    print("The issue's cases, each in its own process (CPU seconds, peak resident memory)\n")
    print("| case | before (issue 12) | now | peak |")
    print("|---|---|---:|---:|")
    for name, (_, _, before) in CASES.items():
        result = subprocess.run(
            [sys.executable, __file__, "--case", name], capture_output=True, text=True, check=True
        )
        figures = json.loads(result.stdout)
        print(f"| {name} | {before} | {figures['seconds']:.2f} s | {figures['peak_mib']:.0f} MiB |",
              flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one run per size, no issue cases")
    parser.add_argument("--case", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.case:
        run_case(args.case)
        return 0
    ratios(args.quick)
    if not args.quick:
        cases()
    return 0


if __name__ == "__main__":
    sys.exit(main())
