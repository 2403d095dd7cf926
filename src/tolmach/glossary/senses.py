"""Where a term holds: in which documents (scope, domains) and in which contexts (senses).

A termbase made for one article states what its words mean *there*: «вывод» is
inference in a GPU article and a conclusion in a report. A term may therefore name the
documents it applies to (``scope``: names or globs of document names) or the domains
it belongs to (``domain``; the project's configuration tags documents with domains),
and it may carry context conditions (a :class:`Context`) so that one word can have two
entries, one per meaning, each with its own translation.

Document names are matched as strings: ``rocm7`` or ``guide/intro/index``; in a glob
``*`` and ``?`` stay inside one ``/``-separated part and ``**`` crosses parts.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, fields

from tolmach.glossary.match import Token, is_cyrillic, normalize_word, term_word_lemmas

__all__ = [
    "CONTEXT_KEYS",
    "HEADING_RULES",
    "Context",
    "context_from_items",
    "document_matches",
    "glob_pattern",
]

HEADING_RULES: tuple[str, ...] = ("any", "only", "never")
# TOML key → attribute, in the order the file and the exchange formats write them.
CONTEXT_KEYS: dict[str, str] = {
    "previous": "previous",
    "not-previous": "not_previous",
    "next": "next",
    "not-next": "not_next",
    "near": "near",
    "not-near": "not_near",
    "headings": "headings",
}

Lemmas = Callable[[int], frozenset[str] | None]


@dataclass(frozen=True)
class Context:
    """Conditions on the words around a match; all that are given must hold.

    ``previous``/``next``: the word right before/after the term must be one of these
    (Russian words by lemma, others as written, case ignored); ``not-previous`` /
    ``not-next``: must not be. ``near`` / ``not-near``: one of these words is / none
    is in the same segment. ``headings``: ``"only"`` in headings, ``"never"`` in them.
    """

    previous: tuple[str, ...] = ()
    not_previous: tuple[str, ...] = ()
    next: tuple[str, ...] = ()
    not_next: tuple[str, ...] = ()
    near: tuple[str, ...] = ()
    not_near: tuple[str, ...] = ()
    headings: str = "any"

    def __bool__(self) -> bool:
        return self != _NO_CONTEXT

    def items(self) -> list[tuple[str, str | tuple[str, ...]]]:
        """The conditions that are set, as ``(toml key, value)`` in the file's order."""
        found = []
        for key, attr in CONTEXT_KEYS.items():
            value = getattr(self, attr)
            if value and value != "any":
                found.append((key, value))
        return found

    def accepts(
        self, tokens: Sequence[Token], start: int, end: int, lemmas: Lemmas, heading: bool
    ) -> bool:
        """Whether a match of tokens ``start:end`` in a segment meets every condition."""
        if self.headings == "only" and not heading:
            return False
        if self.headings == "never" and heading:
            return False
        before = _keys_at(tokens, start - 1, lemmas)
        after = _keys_at(tokens, end, lemmas)
        if self.previous and not before & _keys(self.previous):
            return False
        if self.not_previous and before & _keys(self.not_previous):
            return False
        if self.next and not after & _keys(self.next):
            return False
        if self.not_next and after & _keys(self.not_next):
            return False
        if self.near or self.not_near:
            around = _keys_around(tokens, start, end, lemmas)
            if self.near and not around & _keys(self.near):
                return False
            if self.not_near and around & _keys(self.not_near):
                return False
        return True


_NO_CONTEXT = Context()
_WORD_LISTS = tuple(f.name for f in fields(Context) if f.name != "headings")


def _keys_at(tokens: Sequence[Token], index: int, lemmas: Lemmas) -> frozenset[str]:
    if not 0 <= index < len(tokens):
        return frozenset()
    found = lemmas(index)
    return found if found is not None else frozenset({tokens[index].text.casefold()})


def _keys_around(tokens: Sequence[Token], start: int, end: int, lemmas: Lemmas) -> set[str]:
    keys: set[str] = set()
    for index in (*range(start), *range(end, len(tokens))):
        keys |= _keys_at(tokens, index, lemmas)
    return keys


@functools.lru_cache(maxsize=4096)
def _keys(words: tuple[str, ...]) -> frozenset[str]:
    """Lemmas of the Russian words of a condition, the others casefolded."""
    keys: set[str] = set()
    for word in words:
        keys |= term_word_lemmas(word) if is_cyrillic(word) else {word.casefold()}
    return frozenset(normalize_word(k) for k in keys)


def context_from_items(items: Iterable[tuple[str, object]]) -> Context:
    """A :class:`Context` from ``(toml key, value)`` pairs already validated."""
    values = {CONTEXT_KEYS[key]: value for key, value in items}
    for name in _WORD_LISTS:
        if name in values:
            values[name] = tuple(values[name])  # type: ignore[arg-type]
    return Context(**values)  # type: ignore[arg-type]


# --- documents -----------------------------------------------------------------------


def document_matches(patterns: Iterable[str], name: str) -> bool:
    """Whether a document name is one of ``patterns`` (names or globs).

    >>> document_matches(["rocm7"], "rocm7"), document_matches(["guide/*"], "guide/intro/index")
    (True, False)
    >>> document_matches(["guide/**"], "guide/intro/index")
    True
    """
    return any(pattern == name or glob_pattern(pattern).fullmatch(name) for pattern in patterns)


@functools.lru_cache(maxsize=1024)
def glob_pattern(glob: str) -> re.Pattern[str]:
    """A glob over ``/``-separated names as a regular expression."""
    parts, i = [], 0
    while i < len(glob):
        if glob.startswith("**", i):
            parts.append(".*")
            i += 2
        elif glob[i] == "*":
            parts.append("[^/]*")
            i += 1
        elif glob[i] == "?":
            parts.append("[^/]")
            i += 1
        else:
            parts.append(re.escape(glob[i]))
            i += 1
    return re.compile("".join(parts))
