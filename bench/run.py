"""Run every benchmark under bench/ and print its figures: `make bench`.

Each benchmark is a script of its own (runnable alone); this runs them one after the
other in fresh processes so that one's memory does not weigh on the next.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ORDER = (
    "bench_pipeline.py",
    "bench_dialects.py",
    "bench_glossary.py",
    "bench_checks.py",
    "bench_merge.py",
    "bench_scaling.py",
)


def main() -> int:
    failed = 0
    for name in ORDER:
        script = HERE / name
        if not script.is_file():
            continue
        print(f"\n=== {name} ===", flush=True)
        failed |= subprocess.run([sys.executable, str(script)]).returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
