"""Similar strings, found fast: the index behind fuzzy matches in merge and memory.

Similarity is GNU msgmerge's (``fstrcmp``): twice the characters of the longest common
subsequence over the sum of both lengths (rapidfuzz's Indel ratio). Features of a string
(:func:`tokens`) pick a short list of candidates so that a query is not compared with
every string; :mod:`tolmach.memory.store` indexes the same features in SQLite.
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict

from rapidfuzz import fuzz, process

__all__ = ["EXACT", "FuzzyIndex", "tokens"]

EXACT = 1.0  # a similarity threshold only identical texts reach: no fuzzy matching

_PREFIX = 5  # word prefixes survive inflection: «модели» and «модель» share «модел»
_WORD_PREFIX = re.compile(rf"(\w{{3,{_PREFIX}}})\w*")  # the prefix of each word of 3 letters or more
_SHORTLIST = 120  # candidates scored exactly per query
_BUDGET = 2000  # postings a query may walk through
_BRUTE_FORCE = 3000  # up to this many strings, compare them all (in C): exact and fast
_SCAN_LIMIT = 5000  # short queries may scan this many strings of a similar length
_ROUNDING = 1e-3  # rapidfuzz may refuse a score equal to its cutoff: ask a little lower


class FuzzyIndex:
    """Finds the strings most similar to a query without comparing every pair.

    Each string is indexed by its features (word prefixes and pairs of them,
    see `tokens`); a query looks up its rarest ones, keeps the strings sharing
    most of them, and scores that short list exactly.  Short queries, whose few
    words may all have changed, also scan the strings of a compatible length.
    Small catalogs are simply compared in full, in C, which is exact and fast.
    """

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts
        self.postings: dict[str, list[int]] = defaultdict(list)
        self.by_length: list[int] = []
        self.lengths: list[int] = []
        self.texts_by_length: list[str] = []
        if len(texts) <= _BRUTE_FORCE:
            return  # compared in full (see search): an index would go unread
        for number, text in enumerate(texts):
            for token in set(tokens(text)):
                self.postings[token].append(number)
        self.by_length = sorted(range(len(texts)), key=lambda number: len(texts[number]))
        self.lengths = [len(texts[number]) for number in self.by_length]
        self.texts_by_length = [texts[number] for number in self.by_length]

    def search(
        self, query: str, threshold: float, limit: int = 1, *, within: float | None = None
    ) -> list[tuple[float, int]]:
        """The best (similarity, index) pairs at or above the threshold, best first.

        Ties go to the string indexed first, so results do not depend on chance.
        ``within``: only the pairs at most that much below the best one, which are found
        faster (once a close string is found, the others need to be as close); a caller
        that picks the best, with a preference among near ties, needs no others.
        """
        cutoff = threshold * 100
        margin = None if within is None else within * 100
        if len(self.texts) <= _BRUTE_FORCE:
            found = _closest(query, self.texts, cutoff, limit + 8, margin)
            scores = {number: score for _, score, number in found}
        else:
            query_tokens = set(tokens(query))
            shortlist = self._shortlist(query_tokens)
            choices = list(map(self.texts.__getitem__, shortlist))
            found = _closest(query, choices, cutoff, limit + 8, margin)
            scores = {shortlist[position]: score for _, score, position in found}
            if sum(" " not in token for token in query_tokens) < 3:  # a few words only
                scores.update(self._scan_similar_lengths(query, cutoff, limit))
        if margin is not None and scores:
            cutoff = max(cutoff, max(scores.values()) - margin)
        ranked = sorted((-score, number) for number, score in scores.items() if score >= cutoff)
        return [(-score / 100, number) for score, number in ranked[:limit]]

    def _shortlist(self, query_tokens: set[str]) -> list[int]:
        """The strings sharing the query's rarest features, most shared first.

        The four rarest features are always used (an edit of one word removes
        at most three), more while they stay cheap; only a query made of common
        words alone has to rank a long list.
        """
        known = sorted(
            (len(self.postings[token]), token) for token in query_tokens if token in self.postings
        )
        chosen: list[list[int]] = []
        spent = 0
        for count, token in known:
            if len(chosen) >= 4 and spent + count > _SHORTLIST:
                break  # enough: the rarest features of an edited string point to it
            if len(chosen) >= 2 and spent + count > _BUDGET:
                break  # only common words left: rank what we have
            chosen.append(self.postings[token])
            spent += count
        if spent <= _SHORTLIST:
            return sorted(set(itertools.chain.from_iterable(chosen)))
        hits: Counter[int] = Counter()
        for postings in chosen:
            hits.update(postings)
        return [number for number, _ in hits.most_common(_SHORTLIST)]

    def _scan_similar_lengths(self, query: str, cutoff: float, limit: int) -> dict[int, float]:
        """Score every string whose length still allows the threshold, if they are few.

        Similarity is at most 2·min(a, b)/(a + b), which bounds the lengths.
        """
        ratio = cutoff / (200 - cutoff) if cutoff < 100 else 1.0
        low = bisect_left(self.lengths, len(query) * ratio)
        high = bisect_right(self.lengths, len(query) / ratio) if ratio else len(self.lengths)
        if high - low > _SCAN_LIMIT:
            return {}
        found = process.extract(
            query,
            self.texts_by_length[low:high],
            scorer=fuzz.ratio,
            score_cutoff=cutoff,
            limit=limit + 8,
        )
        return {self.by_length[low + position]: score for _, score, position in found}


def _closest(
    query: str, choices: list[str], cutoff: float, limit: int, margin: float | None
) -> list[tuple[str, float, int]]:
    """``process.extract``'s best ``limit`` choices at or above ``cutoff``; with a
    ``margin``, only those at most about that much below the best (the same ones, as far
    as they go: the best is found first, with a cutoff that rises as closer ones turn
    up, then the choices near it are scored again); the caller cuts at the margin."""
    if margin is not None:
        best = process.extractOne(query, choices, scorer=fuzz.ratio, score_cutoff=cutoff)
        if best is None:
            return []
        cutoff = max(cutoff, best[1] - margin - _ROUNDING)
    return process.extract(query, choices, scorer=fuzz.ratio, score_cutoff=cutoff, limit=limit)


def tokens(text: str) -> list[str]:
    """Index features of a string: its word prefixes and pairs of adjacent ones.

    Prefixes of five letters survive inflection («модели», «модель»); pairs of
    neighbours are rare even when the words are common, and an edit of one
    word leaves most of them in place.
    """
    words = _WORD_PREFIX.findall(text.lower())
    return words + list(map(" ".join, itertools.pairwise(words)))
