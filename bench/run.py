"""Run every benchmark under bench/ and print its figures: `make bench`.

Each benchmark is a script of its own (runnable alone); this runs them one after the
other in fresh processes so that one's memory does not weigh on the next. `--quick`
is passed on to the benchmarks that have a quick mode (`make bench BENCH_ARGS=--quick`).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ORDER = (
    "bench_pipeline.py",
    "bench_dialects.py",
    "bench_glossary.py",
    "bench_checks.py",
    "bench_scale.py",
    "bench_merge.py",
    "bench_publish.py",
    "bench_scaling.py",
)
HAVE_QUICK = {"bench_scale.py", "bench_merge.py"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes where a benchmark has them")
    options = parser.parse_args()
    failed = 0
    for name in ORDER:
        script = HERE / name
        if not script.is_file():
            continue
        print(f"\n=== {name} ===", flush=True)
        extra = ["--quick"] if options.quick and name in HAVE_QUICK else []
        failed |= subprocess.run([sys.executable, str(script), *extra]).returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
