"""Extract and build over a real corpus, beside markdown-it-py parsing it alone.

Usage:  .venv/bin/python bench/bench_pipeline.py [--corpus FILE.tar.xz] [--repeat N]

The corpus defaults to the 500 Russian Markdown files of javascript.info kept beside
the project (../shared/data/...); it is read from there, never copied. Each phase runs
in its own process so that its peak memory (max RSS) is its own.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tarfile
import time
from pathlib import Path

from benchlib import shared_data

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = (shared_data() or ROOT.parent / "shared" / "data") / (
    "peers-corpus-ru-javascript-info.tar.xz"
)
PHASES = ("parse", "extract", "build", "verified", "fidelity")


def load_corpus(path: Path) -> list[tuple[str, str]]:
    with tarfile.open(path) as archive:
        return [
            (member.name, archive.extractfile(member).read().decode("utf-8"))
            for member in sorted(archive.getmembers(), key=lambda m: m.name)
            if member.isfile() and member.name.endswith(".md")
        ]


def run_phase(phase: str, corpus: Path, repeat: int) -> dict:
    """Time one phase in this process; return seconds (best of ``repeat``) and bytes."""
    sys.path.insert(0, str(ROOT / "src"))
    from tolmach.catalog.pofile import format_po
    from tolmach.catalog.template import extract_template
    from tolmach.markdown.build import apply_translations
    from tolmach.markdown.document import markdown_parser, parse_document
    from tolmach.markdown.fidelity import check_fidelity
    from tolmach.markdown.pseudo import pseudo_translate
    from tolmach.markdown.verify import verified_build

    files = load_corpus(corpus)
    size = sum(len(text.encode("utf-8")) for _, text in files)
    prepared = {}
    if phase in ("build", "verified"):  # the catalogs a translator would have: pseudo translations
        prepared = {
            name: {s.text: pseudo_translate(s.text) for s in parse_document(text).segments}
            for name, text in files
        }
    md = markdown_parser()

    failed = {"identity": 0, "pseudo": 0, "forced": 0}

    def once() -> int:
        count = 0
        for name, text in files:
            if phase == "parse":
                count += len(md.parse(text))
            elif phase == "extract":
                pot = extract_template(parse_document(text), name, project="bench")
                count += len(format_po(pot))
            elif phase == "build":
                count += len(apply_translations(parse_document(text), prepared[name]))
            elif phase == "verified":
                count += len(verified_build(parse_document(text), prepared[name]).text)
            elif phase == "fidelity":
                for mode in check_fidelity(text):
                    failed[mode] += 1
                    count += 1
        return count

    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        once()
        best = min(best, time.perf_counter() - start)
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"phase": phase, "files": len(files), "bytes": size, "seconds": best,
            "peak_mib": peak_mib, "failed": failed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--phase", choices=PHASES, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.phase:
        print(json.dumps(run_phase(args.phase, args.corpus, args.repeat)))
        return
    if not args.corpus.is_file():
        print(f"corpus not found: {args.corpus.name} (expected in ../shared/data); skipping")
        return
    rows = []
    for phase in PHASES:
        repeat = 1 if phase == "fidelity" else args.repeat
        out = subprocess.run(
            [sys.executable, __file__, "--phase", phase, "--corpus", str(args.corpus), "--repeat", str(repeat)],
            check=True, capture_output=True, text=True,
        ).stdout
        rows.append(json.loads(out))
    size_mb = rows[0]["bytes"] / 1e6
    print(f"corpus: {rows[0]['files']} files, {size_mb:.2f} MB (best of {args.repeat} runs)")
    print(f"{'phase':<34} {'seconds':>8} {'MB/s':>7} {'peak MiB':>9}")
    labels = {
        "parse": "markdown-it-py parse alone (floor)",
        "extract": "extract (segments + .pot text)",
        "build": "build (apply translations)",
        "verified": "build, verified (as tolmach build)",
        "fidelity": "fidelity: identity+pseudo+forced",
    }
    for row in rows:
        print(
            f"{labels[row['phase']]:<34} {row['seconds']:>8.2f} "
            f"{row['bytes'] / 1e6 / row['seconds']:>7.2f} {row['peak_mib']:>9.0f}"
        )
    fidelity = rows[-1]
    files = fidelity["files"]
    print(
        "fidelity: "
        + ", ".join(
            f"{label} {files - fidelity['failed'][mode]}/{files}"
            for mode, label in (("identity", "identity build byte-identical"),
                                ("pseudo", "pseudo build same HTML structure"),
                                ("forced", "forced re-emission same HTML"))
        )
    )


if __name__ == "__main__":
    main()
