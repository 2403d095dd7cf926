"""General Russian word frequencies: what makes a word rare enough to be a term.

``data/ru-baseline.tsv.gz`` holds lemma counts of about 1.2 billion tokens of Russian
news: the vocabulary of navec's ``news_v1_1B_250K_300d_100q`` embeddings, shipped by
the MIT-licensed natasha package, with each word form's count given to its pymorphy3
lemmas (``tools/build_ru_baseline.py`` makes the file from the natasha wheel).
"""

from __future__ import annotations

import functools
import gzip
import math
from importlib import resources

from tolmach.glossary.match import normalize_word

__all__ = ["MAX_RARITY", "baseline_frequency", "rarity"]

MAX_RARITY = 3.0  # a word used once in a million or less: as termy as it gets


@functools.cache
def _baseline() -> tuple[dict[str, int], int, float]:
    """Lemma counts, the total of tokens, and the count assumed for a lemma not listed."""
    data = resources.files("tolmach.glossary").joinpath("data/ru-baseline.tsv.gz").read_bytes()
    counts: dict[str, int] = {}
    total = 0
    for line in gzip.decompress(data).decode("utf-8").splitlines():
        word, _, count = line.partition("\t")
        if word == "# total":
            total = int(count)
        elif count:
            counts[word] = int(count)
    return counts, total, min(counts.values()) / 2


def baseline_frequency(lemma: str) -> float:
    """Occurrences per million words of general Russian (news); rarer words get a floor."""
    counts, total, floor = _baseline()
    return counts.get(normalize_word(lemma), floor) * 1e6 / total


def rarity(lemma: str) -> float:
    """0 for a word used more than once in a thousand, 3 for one used once in a million."""
    return min(max(math.log10(1000 / baseline_frequency(lemma)), 0.0), MAX_RARITY)
