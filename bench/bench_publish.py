"""Publishing a site: time and peak memory over many documents × locales.

Usage:  .venv/bin/python bench/bench_publish.py [--docs N] [--locales en,de,uk] [--search]

The documents are the Russian Markdown files of javascript.info kept beside the project
(../shared/data/...; read from there, never copied), or generated ones when that corpus
is missing. Catalogs are made by ``extract`` + ``update`` and filled with the source text
(every page passes the threshold). The publish runs in its own process, so its peak
memory (max RSS) is its own; a later issue aims at < 100 MB for 500 documents × 3 locales.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "data" / "peers-corpus-ru-javascript-info.tar.xz"


def make_project(folder: Path, docs: int, locales: list[str]) -> None:
    seeds = folder / "docs"
    seeds.mkdir(parents=True)
    texts = _corpus(docs) if CORPUS.is_file() else _generated(docs)
    for index, text in enumerate(texts):
        (seeds / f"doc{index:04d}.md").write_text(text, "utf-8")
    quoted = ", ".join(f'"{code}"' for code in locales)
    (folder / "pyproject.toml").write_text(
        f'[tool.tolmach]\nsource-locale = "ru"\nlocales = [{quoted}]\n'
        'documents = ["docs/*.md"]\ntranslation-memory = false\n'
        'base-url = "https://example.org/"\n', "utf-8")
    sys.path.insert(0, str(ROOT / "src"))
    import polib

    from tolmach.config import load_config
    from tolmach.project import Project

    project = Project(load_config(folder))
    project.extract()
    project.update()
    for code in locales:
        for doc in project.documents:
            path = project.catalog_path(code, doc.name)
            po = polib.pofile(str(path), wrapwidth=0)
            for entry in po:
                entry.msgstr = entry.msgid
                entry.flags = [f for f in entry.flags if f != "fuzzy"]
            po.save(str(path))


def _corpus(count: int) -> list[str]:
    with tarfile.open(CORPUS) as archive:
        members = sorted((m for m in archive.getmembers() if m.name.endswith(".md")),
                         key=lambda m: m.name)[:count]
        return [archive.extractfile(m).read().decode("utf-8") for m in members]


def _generated(count: int) -> list[str]:
    return [f"# Статья {n}\n\n" + "".join(f"## Раздел {k}\n\nАбзац {k} статьи {n}.\n\n"
                                        for k in range(20)) for n in range(count)]


def publish_once(folder: Path, search: bool) -> dict:
    sys.path.insert(0, str(ROOT / "src"))
    from tolmach.config import load_config
    from tolmach.project import Project
    from tolmach.publish import PublishOptions, publish_site

    start = time.perf_counter()
    report = publish_site(Project(load_config(folder)), folder / "site",
                          PublishOptions(search=search, review=None))
    return {"seconds": time.perf_counter() - start, "pages": len(report.published),
            "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=500)
    parser.add_argument("--locales", default="en,de,uk")
    parser.add_argument("--search", action="store_true", help="also run Pagefind")
    parser.add_argument("--run", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run:
        print(json.dumps(publish_once(Path(args.run), args.search)))
        return
    with tempfile.TemporaryDirectory(prefix="tolmach-bench-publish-") as work:
        folder = Path(work)
        make_project(folder, args.docs, args.locales.split(","))
        command = [sys.executable, __file__, "--run", str(folder)] + (["--search"] if args.search else [])
        result = json.loads(subprocess.run(command, capture_output=True, text=True,
                                           check=True).stdout)
    print(f"publish {args.docs} documents × {len(args.locales.split(','))} locales "
          f"(+ originals): {result['pages']} pages in {result['seconds']:.2f} s, "
          f"peak {result['peak_mib']:.0f} MiB")


if __name__ == "__main__":
    main()
