"""Dialects on real documentation: fidelity, words offered for translation, and cost.

Usage:  .venv/bin/python bench/bench_dialects.py [--data DIR] [--repeat N] [--renderers]

Three corpora, read from ``../shared/data`` (or ``--data``, or ``$TOLMACH_SHARED_DATA``),
never copied into the project:

* javascript.info ru (500 files) under ``dialect = "javascript-info"``;
* FastAPI's Russian docs (MkDocs Material; MIT) under ``mkdocs-material +liquid``;
* ru.react.dev (MDX; CC BY 4.0, © the React documentation authors and the ru.react.dev
  translators) under ``docusaurus``, with ``titleText`` a translatable attribute.

For each: the share of files that survive identity, pseudo and forced builds under the
dialect's parser; source words extracted as CommonMark and under the dialect; extract
and build time under both, best of ``--repeat`` runs, and the dialect's overhead. With
``--renderers``, FastAPI is also built with MkDocs Material and react.dev with
Docusaurus (tests/renderers), source against pseudo (same structure) and forced (same
HTML) builds.
"""

from __future__ import annotations

import argparse
import os
import sys
import tarfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from tolmach.catalog.pofile import format_po  # noqa: E402
from tolmach.catalog.status import word_count  # noqa: E402
from tolmach.catalog.template import extract_template  # noqa: E402
from tolmach.config import DEFAULT_ATTRIBUTES, DEFAULT_FRONT_MATTER_KEYS  # noqa: E402
from tolmach.markdown.build import apply_translations  # noqa: E402
from tolmach.markdown.dialects import resolve_dialect  # noqa: E402
from tolmach.markdown.document import SegmentOptions, parse_document  # noqa: E402
from tolmach.markdown.fidelity import MODES, check_fidelity  # noqa: E402
from tolmach.markdown.pseudo import pseudo_translate  # noqa: E402


@dataclass(frozen=True)
class Corpus:
    name: str
    archive: str
    prefix: str
    dialect: str
    syntax: tuple[str, ...] = ()
    attributes: tuple[str, ...] = DEFAULT_ATTRIBUTES
    renderer: str | None = None

    def options(self) -> SegmentOptions:
        dialect = resolve_dialect(self.dialect, self.syntax, self.attributes)
        keys = (*DEFAULT_FRONT_MATTER_KEYS, *dialect.front_matter_keys)
        return SegmentOptions(front_matter_keys=keys, dialect=dialect)


CORPORA = (
    Corpus("javascript.info ru", "peers-corpus-ru-javascript-info.tar.xz", "", "javascript-info"),
    Corpus(
        "FastAPI ru (MkDocs Material)",
        "dialects-corpus-ru.tar.xz",
        "fastapi-ru/docs/",
        "mkdocs-material",
        ("+liquid",),
        renderer="mkdocs-material",
    ),
    Corpus(
        "ru.react.dev (MDX)",
        "dialects-corpus-ru.tar.xz",
        "react-ru/",
        "docusaurus",
        attributes=(*DEFAULT_ATTRIBUTES, "titleText"),
        renderer="docusaurus",
    ),
)


def data_folder(given: Path | None) -> Path:
    if given:
        return given
    if os.environ.get("TOLMACH_SHARED_DATA"):
        return Path(os.environ["TOLMACH_SHARED_DATA"])
    return ROOT.parent / "shared" / "data"


def load(folder: Path, corpus: Corpus) -> list[tuple[str, str]]:
    with tarfile.open(folder / corpus.archive) as archive:
        return [
            (m.name, archive.extractfile(m).read().decode("utf-8"))
            for m in sorted(archive.getmembers(), key=lambda m: m.name)
            if m.isfile() and m.name.startswith(corpus.prefix) and m.name.endswith(".md")
        ]


def words(files, options: SegmentOptions) -> int:
    """Source words of the catalogs, each distinct msgid of a file counted once."""
    total = 0
    for name, text in files:
        pot = extract_template(parse_document(text, options), name, project="bench")
        total += sum(word_count(entry.msgid) for entry in pot)
    return total


def timed(files, variants: list[SegmentOptions], repeat: int) -> list[tuple[float, float]]:
    """Best extract and build seconds per variant (build: parse, apply pseudo
    translations); the variants take turns in each round, so load on the machine
    weighs on all of them alike."""
    translations = []
    for options in variants:
        protect = options.dialect.atoms if options.dialect.atom_labels else None
        translations.append(
            [
                {s.text: pseudo_translate(s.text, protect) for s in parse_document(text, options).segments}
                for _, text in files
            ]
        )
    best = [[float("inf"), float("inf")] for _ in variants]
    for _ in range(repeat):
        for index, options in enumerate(variants):
            start = time.perf_counter()
            for name, text in files:
                document = parse_document(text, options, hints=True)
                format_po(extract_template(document, name, project="b"))
            best[index][0] = min(best[index][0], time.perf_counter() - start)
            start = time.perf_counter()
            for (_, text), mapping in zip(files, translations[index], strict=True):
                apply_translations(parse_document(text, options), mapping)
            best[index][1] = min(best[index][1], time.perf_counter() - start)
    return [(a, b) for a, b in best]


def fidelity(files, options: SegmentOptions) -> dict[str, int]:
    passed = dict.fromkeys(MODES, 0)
    for _, text in files:
        failed = check_fidelity(text, options=options)
        for mode in MODES:
            passed[mode] += mode not in failed
    return passed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=None)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--renderers", action="store_true", help="also build with the real site generators")
    parser.add_argument("--only", help="run only the corpus whose name starts with this")
    args = parser.parse_args()
    folder = data_folder(args.data)
    for corpus in CORPORA:
        if args.only and not corpus.name.startswith(args.only):
            continue
        if not (folder / corpus.archive).is_file():
            print(f"{corpus.name}: {corpus.archive} not found in {folder.name}/; skipping")
            continue
        files = load(folder, corpus)
        options, plain = corpus.options(), SegmentOptions()
        passed = fidelity(files, options)
        rates = ", ".join(f"{m} {passed[m]}/{len(files)}" for m in MODES)
        print(f"\n{corpus.name}: {len(files)} files, dialect {options.dialect.label}")
        print(f"  fidelity under the dialect: {rates}")
        before, after = words(files, plain), words(files, options)
        print(f"  words extracted: {before:,} as CommonMark, {after:,} under the dialect")
        (base_extract, base_build), (extract, build) = timed(files, [plain, options], args.repeat)
        print(
            f"  extract {base_extract:.2f} s → {extract:.2f} s ({100 * (extract / base_extract - 1):+.0f}%), "
            f"build {base_build:.2f} s → {build:.2f} s ({100 * (build / base_build - 1):+.0f}%)"
        )
        if args.renderers and corpus.renderer:
            from renderer_check import renderer_fidelity

            print("  " + renderer_fidelity(corpus.renderer, files, options), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
