"""Where a catalog stands: which entries a build may use, and progress in words.

A word is what a translator reads: code spans, link destinations, HTML tags and
entities do not count (:func:`word_count`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

import polib

__all__ = ["CatalogStats", "catalog_stats", "entry_lines", "translations_of", "word_count"]

_WORD_RE = re.compile(r"\w+(?:[-'’]\w+)*")
_MARKUP_RE = re.compile(r"`[^`]*`|\]\([^)]*\)|<[^>]*>|&#?\w+;")


def translations_of(po: polib.POFile) -> dict[str, str]:
    """msgid → msgstr for the entries a build may use: translated, not fuzzy, not obsolete."""
    return {
        e.msgid: e.msgstr
        for e in po
        if e.msgstr and not e.obsolete and "fuzzy" not in e.flags and not e.msgid_plural
    }


def entry_lines(po: polib.POFile) -> dict[str, int]:
    """msgid → the line of its entry, for messages that name an entry."""
    return {e.msgid: e.linenum or 0 for e in po if not e.obsolete and not e.msgctxt}


def word_count(text: str) -> int:
    """Words a translator reads: markup such as code spans and URLs does not count."""
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


def catalog_stats(entries: Iterable[polib.POEntry]) -> CatalogStats:
    """Count translated, fuzzy and untranslated entries and their source words."""
    counts = [0] * 7
    for entry in entries:
        if entry.obsolete:
            counts[6] += 1
            continue
        words = word_count(entry.msgid)
        if "fuzzy" in entry.flags:
            slot = 1
        elif entry.translated():
            slot = 0
        else:
            slot = 2
        counts[slot] += 1
        counts[slot + 3] += words
    return CatalogStats(*counts)
