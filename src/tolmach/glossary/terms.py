"""The termbase's data model: terms, the termbase with its lemma index, matches.

Kept apart from file parsing (:mod:`~tolmach.glossary.termbase`) and checking
(:mod:`~tolmach.glossary.compliance`) so each stays small; import the public names
from :mod:`tolmach.glossary`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from tolmach.glossary.match import SourceIndex, Token, is_cyrillic, lemma_pattern
from tolmach.glossary.matchcache import Found, MatchStore, MatchTable, table_name
from tolmach.glossary.senses import Context, document_matches

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
    variants: tuple[str, ...] = ()  # other spellings of the source: "DeepSeek-R1"
    scope: tuple[str, ...] = ()  # document names or globs; empty: every document
    domains: tuple[str, ...] = ()  # domains of the configuration; empty: every domain
    context: Context = field(default_factory=Context)

    def __post_init__(self):
        object.__setattr__(self, "translations", tuple(sorted(self.translations)))
        object.__setattr__(self, "forbidden", tuple(sorted(self.forbidden)))

    @property
    def spellings(self) -> tuple[str, ...]:
        """The source and its variants: each is found in the source, and a keep-term
        may appear in a translation in any of them."""
        return (self.source, *self.variants)

    @property
    def is_limited(self) -> bool:
        """True for a term that holds only in some documents or contexts."""
        return bool(self.scope or self.domains or self.context)

    def applies_to(self, document: str, domains: frozenset[str] | set[str]) -> bool:
        """Whether the term holds in a document with this name and these domains."""
        if not (self.scope or self.domains):
            return True
        return document_matches(self.scope, document) or bool(set(self.domains) & domains)

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
        return SourceIndex(
            (lemma_pattern(spelling, t.case_sensitive), t)
            for t in self.terms
            for spelling in t.spellings
        )

    @functools.cached_property
    def _with_context(self) -> frozenset[int]:
        """Ids of the terms with context conditions: only these need a look around."""
        return frozenset(id(t) for t in self.terms if t.context)

    @functools.cached_property
    def _by_document(self) -> dict[tuple[str, frozenset[str]], Termbase]:
        return {}

    @functools.cached_property
    def _by_subset(self) -> dict[tuple[int, ...], Termbase]:
        return {}

    @functools.cached_property
    def _positions(self) -> dict[int, int]:
        return {id(term): index for index, term in enumerate(self.terms)}

    @functools.cached_property
    def _heading_rules(self) -> bool:
        """Whether a term holds only in headings, or never in them."""
        return any(t.context.headings != "any" for t in self.terms)

    @functools.cached_property
    def match_name(self) -> str:
        """A digest of what finding these terms depends on (:mod:`.matchcache`)."""
        return table_name((t.spellings, t.case_sensitive, t.context) for t in self.terms)

    @functools.cached_property
    def match_table(self) -> MatchTable:
        """What these terms found per text, so each text is matched once per run (or
        never again, with :meth:`remember_in`)."""
        return MatchTable(self.match_name)

    def remember_in(self, store: MatchStore) -> None:
        """Take what earlier runs found from ``store``, and leave there what this run finds."""
        if "match_table" not in self.__dict__:
            self.__dict__["match_table"] = store.table(self.match_name)

    def find_in_source(self, text: str, heading: bool = False) -> list[TermMatch]:
        """Terms in a source segment, longest first, in text order.

        A term with context conditions is found only where they hold; ``heading``
        says whether the segment is a heading.
        """
        heading = heading and self._heading_rules
        found = self.match_table.get(text, heading, lambda: self._find(text, heading))
        terms = self.terms
        return [TermMatch(terms[i], start, end, text[start:end]) for i, start, end in found]

    def _find(self, text: str, heading: bool) -> Found:
        accept = None
        conditional = self._with_context
        if conditional:

            def accept(term, tokens: list[Token], start: int, end: int, lemmas) -> bool:
                if id(term) not in conditional:
                    return True
                return term.context.accepts(tokens, start, end, lemmas, heading)

        positions = self._positions
        hits = self._index.find(text, accept)
        return tuple((positions[id(hit.item)], hit.start, hit.end) for hit in hits)

    def for_document(self, name: str, domains: frozenset[str] | set[str] = frozenset()) -> Termbase:
        """The terms that hold in one document (by its name and its domains); documents
        that have the same terms share one termbase, and what it found."""
        key = (name, frozenset(domains))
        if key not in self._by_document:
            if not any(t.scope or t.domains for t in self.terms):
                self._by_document[key] = self
            else:
                chosen = tuple(i for i, t in enumerate(self.terms) if t.applies_to(name, key[1]))
                if chosen not in self._by_subset:
                    terms = tuple(self.terms[i] for i in chosen)
                    self._by_subset[chosen] = Termbase(terms, self.ignored)
                self._by_document[key] = self._by_subset[chosen]
        return self._by_document[key]

    @property
    def domains(self) -> tuple[str, ...]:
        """Every domain some term names, sorted."""
        return tuple(sorted({d for t in self.terms for d in t.domains}))

    def get(self, source: str) -> Term | None:
        """The first term written ``source`` (case and ё/е ignored)."""
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
