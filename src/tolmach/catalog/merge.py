"""Merge a catalog with its new template, as GNU msgmerge does, only faster.

Semantics (``merge_catalog(old, template)`` returns a new catalog):

* Entries come in template order, with the template's msgctxt, msgid,
  msgid_plural, references and extracted comments.
* An exact match (same msgctxt and msgid) keeps its translation, translator
  comments (``# ``) and flags such as waivers (``ignore-markup``).  It stays
  fuzzy, with its ``#|`` previous msgid, only if it was fuzzy before.
* A changed source string gets the closest previous translation, flagged
  ``fuzzy``, with the old msgid in ``#| msgid`` so editors show the difference,
  and an extracted comment ``fuzzy match: 87% (previous translation)``.  The
  comment goes away once a translator clears the fuzzy flag.
* Without a close previous translation, the translation memory (if given) is
  asked; its proposals are fuzzy too, even exact ones from other documents,
  and say their origin: ``fuzzy match: 100% (memory: other.po, de)``.
* Old entries missing from the template become obsolete (``#~``), after the
  live ones, in their old order; an obsolete entry whose msgid returns comes
  back to life with its translation, and obsolete entries are fuzzy candidates.
* The header comes from the old catalog (from the template when there is none).

Similarity is the one GNU msgmerge uses (``fstrcmp``): twice the number of
characters in the longest common subsequence over the sum of both lengths,
0 to 1 (rapidfuzz's Indel ratio).  ``threshold`` is the least similarity a
fuzzy proposal needs; msgmerge's own is 0.6.  Candidates are not compared
pairwise: an index of word prefixes (and pairs of them) picks a short list,
which is then scored; `FuzzyIndex` explains how.
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING

import polib
from rapidfuzz import fuzz, process

if TYPE_CHECKING:
    from tolmach.memory.store import TranslationMemory

FUZZY_NOTE = "fuzzy match: "
_WORD = re.compile(r"\w+")
_PREFIX = 5  # word prefixes survive inflection: «модели» and «модель» share «модел»
_SHORTLIST = 120  # candidates scored exactly per query
_BUDGET = 2000  # postings a query may walk through
_BRUTE_FORCE = 3000  # up to this many strings, compare them all (in C): exact and fast
_SCAN_LIMIT = 5000  # short queries may scan this many strings of a similar length


@dataclass(frozen=True)
class Proposal:
    """A translation offered for a changed or new source string."""

    score: float
    origin: str
    source: polib.POEntry  # msgid, msgctxt, msgid_plural, translations, comments


def merge_catalog(
    old: polib.POFile | None,
    template: polib.POFile,
    *,
    threshold: float = 0.6,
    memory: TranslationMemory | None = None,
    locale: str | None = None,
    document: str | None = None,
) -> polib.POFile:
    """Bring a catalog up to date with its template; see the module docstring."""
    old_entries = list(old) if old is not None else []
    result = _empty_like(old if old is not None else template)
    plurals = _plural_count(result)
    exact = {_key(entry): entry for entry in old_entries if not entry.obsolete}
    for entry in old_entries:
        exact.setdefault(_key(entry), entry)  # obsolete ones revive when nothing live matches
    finder = _ProposalFinder(old_entries, threshold)
    used: set[int] = set()
    for wanted in template:
        if wanted.obsolete or (wanted.msgid == "" and wanted.msgctxt is None):
            continue
        found = exact.get(_key(wanted))
        if found is not None:
            used.add(id(found))
        merged = _from_template(wanted)
        if found is not None and _translated(found):
            _carry_exact(merged, found, plurals)
        else:
            if found is not None:
                _carry_notes(merged, found)
            proposal = finder.best(wanted) or _ask_memory(
                memory, wanted, threshold, locale, document
            )
            if proposal is not None:
                _apply_proposal(merged, proposal, plurals)
            else:
                _leave_untranslated(merged, plurals)
        result.append(merged)
    result.extend(_obsolete(entry) for entry in old_entries if id(entry) not in used)
    return result


def _key(entry: polib.POEntry) -> tuple[str | None, str]:
    return (entry.msgctxt, entry.msgid)


def _translated(entry: polib.POEntry) -> bool:
    if entry.msgid_plural:
        return any(entry.msgstr_plural.values())
    return bool(entry.msgstr)


def _empty_like(model: polib.POFile) -> polib.POFile:
    """A catalog with the header of `model` and no entries."""
    result = polib.POFile(wrapwidth=getattr(model, "wrapwidth", 79))
    result.header = model.header
    result.metadata = dict(model.metadata)
    result.metadata_is_fuzzy = model.metadata_is_fuzzy
    return result


def _plural_count(po: polib.POFile) -> int:
    """nplurals from the Plural-Forms header, 2 when absent."""
    found = re.search(r"nplurals\s*=\s*(\d+)", po.metadata.get("Plural-Forms", ""))
    return int(found.group(1)) if found else 2


def _from_template(wanted: polib.POEntry) -> polib.POEntry:
    """A fresh entry with everything the template decides."""
    return polib.POEntry(
        msgctxt=wanted.msgctxt,
        msgid=wanted.msgid,
        msgid_plural=wanted.msgid_plural,
        occurrences=list(wanted.occurrences),
        comment=_without_fuzzy_note(wanted.comment),
        flags=[flag for flag in wanted.flags if flag != "fuzzy"],
    )


def _without_fuzzy_note(comment: str) -> str:
    return "\n".join(line for line in comment.split("\n") if not line.startswith(FUZZY_NOTE))


def _fuzzy_note(comment: str) -> str | None:
    return next((line for line in comment.split("\n") if line.startswith(FUZZY_NOTE)), None)


def _carry_notes(merged: polib.POEntry, old: polib.POEntry) -> None:
    """Translator comments and flags (waivers) survive; fuzzy is decided elsewhere."""
    merged.tcomment = old.tcomment
    for flag in old.flags:
        if flag != "fuzzy" and flag not in merged.flags:
            merged.flags.append(flag)


def _carry_exact(merged: polib.POEntry, old: polib.POEntry, plurals: int) -> None:
    """Keep the old translation; it stays fuzzy only if it was fuzzy."""
    _carry_notes(merged, old)
    _copy_translation(merged, old, plurals)
    changed_plural = bool(merged.msgid_plural) != bool(old.msgid_plural) or (
        merged.msgid_plural and merged.msgid_plural != old.msgid_plural
    )
    if "fuzzy" in old.flags or changed_plural:
        merged.flags.insert(0, "fuzzy")
        merged.previous_msgctxt = old.previous_msgctxt
        merged.previous_msgid = old.previous_msgid
        merged.previous_msgid_plural = old.previous_msgid_plural
        if changed_plural and old.previous_msgid is None:
            merged.previous_msgid = old.msgid
            merged.previous_msgid_plural = old.msgid_plural or None
        note = _fuzzy_note(old.comment)
        if note is None and merged.previous_msgid is not None:
            score = fuzz.ratio(merged.previous_msgid, merged.msgid) / 100
            note = _note(score, "previous translation")
        if note:
            merged.comment = "\n".join(filter(None, [merged.comment, note]))


def _note(score: float, origin: str) -> str:
    """The extracted comment that says how close a fuzzy proposal is, and whence."""
    return f"{FUZZY_NOTE}{int(score * 100 + 1e-9)}% ({origin})"


def _copy_translation(merged: polib.POEntry, source: polib.POEntry, plurals: int) -> None:
    """Copy msgstr or msgstr[n], converting between singular and plural forms."""
    if merged.msgid_plural:
        forms = source.msgstr_plural if source.msgid_plural else {}
        singular = source.msgstr if not source.msgid_plural else forms.get(0, "")
        merged.msgstr_plural = {n: forms.get(n, singular) for n in range(plurals)}
    else:
        merged.msgstr = source.msgstr_plural.get(0, "") if source.msgid_plural else source.msgstr


def _apply_proposal(merged: polib.POEntry, proposal: Proposal, plurals: int) -> None:
    """Fill a new or changed entry with a proposal, fuzzy, saying where it comes from."""
    source = proposal.source
    _copy_translation(merged, source, plurals)
    if proposal.origin.startswith("previous"):
        _carry_notes(merged, source)
    merged.flags.insert(0, "fuzzy")
    merged.previous_msgctxt = source.msgctxt
    merged.previous_msgid = source.msgid
    merged.previous_msgid_plural = source.msgid_plural or None
    note = _note(proposal.score, proposal.origin)
    merged.comment = "\n".join(filter(None, [merged.comment, note]))


def _leave_untranslated(merged: polib.POEntry, plurals: int) -> None:
    if merged.msgid_plural:
        merged.msgstr_plural = {n: "" for n in range(plurals)}


def _obsolete(entry: polib.POEntry) -> polib.POEntry:
    """The old entry as an obsolete one: its places in the document are gone."""
    kept = polib.POEntry(
        msgctxt=entry.msgctxt,
        msgid=entry.msgid,
        msgid_plural=entry.msgid_plural,
        msgstr=entry.msgstr,
        msgstr_plural=dict(entry.msgstr_plural),
        obsolete=True,
        tcomment=entry.tcomment,
        comment=entry.comment,
        flags=list(entry.flags),
        previous_msgctxt=entry.previous_msgctxt,
        previous_msgid=entry.previous_msgid,
        previous_msgid_plural=entry.previous_msgid_plural,
    )
    return kept


def _ask_memory(
    memory: TranslationMemory | None,
    wanted: polib.POEntry,
    threshold: float,
    locale: str | None,
    document: str | None,
) -> Proposal | None:
    """The memory's best proposal for a singular entry (plural forms are not stored)."""
    if memory is None or locale is None or wanted.msgid_plural:
        return None
    match = memory.best(wanted.msgid, locale, threshold=threshold, exclude_document=document)
    if match is None:
        return None
    source = polib.POEntry(msgid=match.source, msgstr=match.target, msgctxt=match.context)
    return Proposal(match.score, f"memory: {match.origin}", source)


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
        for number, text in enumerate(texts):
            for token in set(tokens(text)):
                self.postings[token].append(number)
        self.by_length = sorted(range(len(texts)), key=lambda number: len(texts[number]))
        self.lengths = [len(texts[number]) for number in self.by_length]
        self.texts_by_length = [texts[number] for number in self.by_length]

    def search(self, query: str, threshold: float, limit: int = 1) -> list[tuple[float, int]]:
        """The best (similarity, index) pairs at or above the threshold, best first.

        Ties go to the string indexed first, so results do not depend on chance.
        """
        cutoff = threshold * 100
        if len(self.texts) <= _BRUTE_FORCE:
            found = process.extract(
                query, self.texts, scorer=fuzz.ratio, score_cutoff=cutoff, limit=limit + 8
            )
            scores = {number: score for _, score, number in found}
        else:
            query_tokens = set(tokens(query))
            shortlist = self._shortlist(query_tokens)
            found = process.extract(
                query,
                [self.texts[number] for number in shortlist],
                scorer=fuzz.ratio,
                score_cutoff=cutoff,
                limit=limit + 8,
            )
            scores = {shortlist[position]: score for _, score, position in found}
            if sum(" " not in token for token in query_tokens) < 3:  # a few words only
                scores.update(self._scan_similar_lengths(query, cutoff, limit))
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


def tokens(text: str) -> list[str]:
    """Index features of a string: its word prefixes and pairs of adjacent ones.

    Prefixes of five letters survive inflection («модели», «модель»); pairs of
    neighbours are rare even when the words are common, and an edit of one
    word leaves most of them in place.
    """
    words = [word[:_PREFIX] for word in _WORD.findall(text.lower()) if len(word) >= 3]
    return words + [f"{first} {second}" for first, second in itertools.pairwise(words)]


class _ProposalFinder:
    """The closest translated entry of the old catalog (live or obsolete)."""

    def __init__(self, old_entries: list[polib.POEntry], threshold: float) -> None:
        self.threshold = threshold
        self.candidates = [entry for entry in old_entries if _translated(entry)]
        self.index = FuzzyIndex([entry.msgid for entry in self.candidates])

    def best(self, wanted: polib.POEntry) -> Proposal | None:
        if not self.candidates:
            return None
        found = self.index.search(wanted.msgid, self.threshold, limit=8)
        if not found:
            return None
        # msgmerge prefers, among equals, an entry without context or with the same one
        score, number = min(
            found,
            key=lambda pair: (
                -pair[0]
                - (1e-5 if self.candidates[pair[1]].msgctxt in (None, wanted.msgctxt) else 0),
                pair[1],
            ),
        )
        source = self.candidates[number]
        origin = "previous translation" + (", obsolete" if source.obsolete else "")
        return Proposal(score, origin, source)


__all__ = ["FUZZY_NOTE", "FuzzyIndex", "Proposal", "merge_catalog", "tokens"]
