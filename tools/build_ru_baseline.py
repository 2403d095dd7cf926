"""Build the general-Russian baseline that ``tolmach glossary candidates`` ranks against.

Source: the vocabulary of navec's ``news_v1_1B_250K_300d_100q`` embeddings, which the
``natasha`` package (MIT licence) ships in ``natasha/data/emb/``: the 250,000 most
frequent word forms of about 1.2 billion tokens of Russian news, each with its count.
Each form's count goes to its pymorphy3 lemmas (split evenly when a form has several);
the result is every lemma seen at least ``--min-count`` times, most frequent first, as
``lemma<TAB>count`` lines (counts to two significant digits), gzip-compressed, with a header line giving the total.

    pip download --no-deps natasha==1.6.0 -d /tmp/natasha
    python tools/build_ru_baseline.py /tmp/natasha/natasha-1.6.0-py3-none-any.whl

The output is deterministic for the same input (gzip without a time stamp).
"""

from __future__ import annotations

import argparse
import gzip
import io
import struct
import tarfile
import zipfile
from collections import Counter
from pathlib import Path

import pymorphy3

EMBEDDING = "natasha/data/emb/navec_news_v1_1B_250K_300d_100q.tar"
OUTPUT = Path(__file__).resolve().parent.parent / "src/tolmach/glossary/data/ru-baseline.tsv.gz"


def navec_vocabulary(wheel: Path) -> dict[str, int]:
    """Word form → count, from the vocab.bin inside the navec tar inside the wheel."""
    with zipfile.ZipFile(wheel) as archive, archive.open(EMBEDDING) as tar_bytes:
        packed = io.BytesIO(tar_bytes.read())
    with tarfile.open(fileobj=packed) as tar:
        data = gzip.decompress(tar.extractfile("vocab.bin").read())
    (size,) = struct.unpack("<I", data[:4])
    counts = struct.unpack(f"<{size}I", data[4 : 4 + 4 * size])
    words = data[4 + 4 * size :].decode("utf-8").split("\n")
    return dict(zip(words, counts, strict=True))


def lemma_counts(forms: dict[str, int]) -> Counter[str]:
    morph = pymorphy3.MorphAnalyzer()
    lemmas: Counter[str] = Counter()
    for form, count in forms.items():
        if not form.isalpha():
            continue
        normal = {p.normal_form.replace("ё", "е") for p in morph.parse(form)} or {form}
        for lemma in normal:
            lemmas[lemma] += count / len(normal)
    return lemmas


def _two_digits(count: float) -> int:
    """Two significant digits are all a ranking needs, and they compress well."""
    return int(float(f"{count:.2g}"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("wheel", type=Path, help="natasha-1.6.0-py3-none-any.whl")
    parser.add_argument("--min-count", type=int, default=50)
    parser.add_argument("-o", "--output", type=Path, default=OUTPUT)
    args = parser.parse_args()
    forms = navec_vocabulary(args.wheel)
    total = sum(forms.values())
    lemmas = lemma_counts(forms)
    kept = sorted(
        ((lemma, _two_digits(count)) for lemma, count in lemmas.items() if count >= args.min_count),
        key=lambda item: (-item[1], item[0]),
    )
    lines = [f"# total\t{total}"] + [f"{lemma}\t{count}" for lemma, count in kept]
    args.output.parent.mkdir(parents=True, exist_ok=True)
    payload = ("\n".join(lines) + "\n").encode("utf-8")
    args.output.write_bytes(gzip.compress(payload, compresslevel=9, mtime=0))
    print(f"{len(kept)} lemmas from {len(forms)} forms ({total:,} tokens) → {args.output}")


if __name__ == "__main__":
    main()
