"""Where a catalog stands: which entries a build may use, and progress in words.

A word is what a translator reads (:func:`word_count`). A fuzzy entry that the
translation memory filled (``#. memory: 92% from other.po, de``) is a suggestion for a
new string, not an outdated translation: it counts as untranslated until a translator
confirms it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import polib

__all__ = [
    "MEMORY_NOTE",
    "CatalogStats",
    "catalog_stats",
    "entry_lines",
    "is_memory_suggestion",
    "translations_of",
    "word_count",
]

MEMORY_NOTE = "memory: "  # the extracted comment of a suggestion from the translation memory

_WORD_RE = re.compile(r"\w+(?:(?:[-'’]|(?<=\d)[.,](?=\d))\w+)*")
_MARKUP_RE = re.compile(r"`[^`]*`|\]\([^)]*\)|<[^>]*>|&#?\w+;")


def translations_of(po: polib.POFile) -> dict[str, str]:
    """msgid → msgstr for the entries a build may use: translated, not fuzzy, not obsolete."""
    return {
        e.msgid: e.msgstr
        for e in po
        if e.msgstr and not e.obsolete and "fuzzy" not in e.flags and not e.msgid_plural
    }


def is_memory_suggestion(entry: polib.POEntry) -> bool:
    """A fuzzy entry filled from the translation memory and not confirmed yet."""
    return "fuzzy" in entry.flags and any(
        line.startswith(MEMORY_NOTE) for line in (entry.comment or "").split("\n")
    )


def entry_lines(po: polib.POFile) -> dict[str, int]:
    """msgid → the line of its entry, for messages that name an entry."""
    return {e.msgid: e.linenum or 0 for e in po if not e.obsolete and not e.msgctxt}


def word_count(text: str) -> int:
    """Words a translator reads: runs of letters and digits; a hyphen or apostrophe inside
    a word joins it (``first-class``, ``ИИ-тренировки``: one word each), and so does a
    decimal point or comma between digits (``3.8x``, ``1,5``). Code spans, link
    destinations, HTML tags and entities are markup, not words.

    >>> word_count("**Ускорение inference до 3.8x:** см. `hipcc` и [доки](https://x.y/z)")
    7
    """
    return len(_WORD_RE.findall(_MARKUP_RE.sub(" ", text)))


@dataclass(frozen=True)
class CatalogStats:
    """Progress of one catalog, in entries and in source words."""

    translated: int = 0
    fuzzy: int = 0
    untranslated: int = 0
    translated_words: int = 0
    fuzzy_words: int = 0
    untranslated_words: int = 0
    obsolete: int = 0

    @property
    def total(self) -> int:
        return self.translated + self.fuzzy + self.untranslated

    @property
    def total_words(self) -> int:
        return self.translated_words + self.fuzzy_words + self.untranslated_words

    @property
    def percent(self) -> float:
        """Share of source words translated (fuzzy counts as not translated)."""
        if self.total_words:
            return 100.0 * self.translated_words / self.total_words
        return 100.0 if self.total == self.translated else 0.0


def catalog_stats(
    entries: Iterable[polib.POEntry], words_of: Mapping[str, int] | None = None
) -> CatalogStats:
    """Count translated, fuzzy and untranslated entries and their source words
    (``words_of``: msgid → :func:`word_count`, known beforehand for some msgids)."""
    counts = [0] * 7
    known = words_of or {}
    for entry in entries:
        if entry.obsolete:
            counts[6] += 1
            continue
        words = known.get(entry.msgid)
        if words is None:
            words = word_count(entry.msgid)
        if is_memory_suggestion(entry):
            slot = 2
        elif "fuzzy" in entry.flags:
            slot = 1
        elif entry.translated():
            slot = 0
        else:
            slot = 2
        counts[slot] += 1
        counts[slot + 3] += words
    return CatalogStats(*counts)
