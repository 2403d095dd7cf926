"""The termbase's data model: terms, the termbase with its lemma index, matches.

Kept apart from file parsing (``glossary``) and checking (``glossary_check``) so each
stays small; import the public names from :mod:`tolmach.glossary`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from tolmach.glossary.match import SourceIndex, is_cyrillic, lemma_pattern

__all__ = [
    "KINDS",
    "GlossaryError",
    "Kind",
    "Targets",
    "Term",
    "TermMatch",
    "Termbase",
    "quote_term",
    "term_key",
]

Kind = Literal["keep", "translate"]
KINDS: tuple[str, ...] = ("keep", "translate")


class GlossaryError(Exception):
    """A termbase problem with its place: ``path:LINE: message``."""

    def __init__(self, path: str | Path, line: int | None, term: str | None, message: str):
        self.path, self.line, self.term, self.message = str(path), line, term, message
        place = f"{self.path}:{line}" if line else self.path
        super().__init__(f"{place}: {message}")


Targets = tuple[tuple[str, tuple[str, ...]], ...]


@dataclass(frozen=True)
class Term:
    """One termbase entry. Locale tables are kept sorted, so equality ignores their order."""

    source: str
    kind: Kind
    translations: Targets = ()
    forbidden: Targets = ()
    note: str = ""
    case_sensitive: bool = True
    line: int = field(default=0, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "translations", tuple(sorted(self.translations)))
        object.__setattr__(self, "forbidden", tuple(sorted(self.forbidden)))

    def targets_for(self, locale: str) -> tuple[str, ...]:
        """Required translations (preferred first) for a locale, or for its language."""
        return _for_locale(self.translations, locale)

    def forbidden_for(self, locale: str) -> tuple[str, ...]:
        return _for_locale(self.forbidden, locale)

    @property
    def display(self) -> str:
        return quote_term(self.source)


def _for_locale(table: Targets, locale: str) -> tuple[str, ...]:
    found = dict(table)
    return found.get(locale) or found.get(locale.split("_")[0], ())


@dataclass(frozen=True)
class TermMatch:
    """A term found in source text; ``text`` is the form that was found there."""

    term: Term
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Termbase:
    """All terms, plus the phrases ``glossary candidates`` ignores. The lemma index is
    built on first use and kept with the instance."""

    terms: tuple[Term, ...] = ()
    ignored: tuple[str, ...] = ()

    @functools.cached_property
    def _index(self) -> SourceIndex:
        return SourceIndex((lemma_pattern(t.source, t.case_sensitive), t) for t in self.terms)

    def find_in_source(self, text: str) -> list[TermMatch]:
        """Terms in a source segment, longest first, in text order."""
        return [
            TermMatch(h.item, h.start, h.end, text[h.start : h.end]) for h in self._index.find(text)
        ]

    def get(self, source: str) -> Term | None:
        key = term_key(source)
        return next((t for t in self.terms if term_key(t.source) == key), None)

    @property
    def locales(self) -> tuple[str, ...]:
        found = {loc for t in self.terms for loc, _ in (*t.translations, *t.forbidden)}
        return tuple(sorted(found))


def term_key(source: str) -> str:
    """How a waiver or a look-up names a term: case and ё/е do not matter."""
    return source.casefold().replace("ё", "е")


def quote_term(source: str) -> str:
    """«Cyrillic» or "Latin", as messages quote a term."""
    return f"«{source}»" if is_cyrillic(source) else f'"{source}"'
