"""A :class:`Dialect`: a preset plus adjustments, and the parsers it makes.

The same parser serves segmentation, the build's verification, the checks and the
fidelity tests (one traversal, used everywhere); :func:`resolve_dialect` turns the
configuration's words into a dialect and says clearly what it does not know.
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Iterable
from dataclasses import dataclass

from markdown_it import MarkdownIt

from tolmach.markdown.dialects.atoms import Atom, find_atoms, record_atoms
from tolmach.markdown.dialects.common import TRANSLATABLE_ATTRIBUTES
from tolmach.markdown.dialects.presets import FRONT_MATTER_KEYS, PRESETS, SYNTAXES

__all__ = ["COMMONMARK", "Dialect", "resolve_dialect"]


@dataclass(frozen=True)
class Dialect:
    """The syntaxes a document is written in, by preset name and adjustments."""

    name: str = "commonmark"
    syntax: tuple[str, ...] = PRESETS["commonmark"]
    attributes: frozenset[str] = TRANSLATABLE_ATTRIBUTES

    def enabled(self, syntax: str) -> bool:
        return syntax in self.syntax

    @property
    def label(self) -> str:
        """The preset and how it was adjusted: ``mkdocs-material +liquid``."""
        preset = PRESETS.get(self.name, ())
        changes = [f"+{s}" for s in self.syntax if s not in preset]
        changes += [f"-{s}" for s in preset if s not in self.syntax]
        return " ".join([self.name, *changes])

    def parser(self) -> MarkdownIt:
        """The dialect's parser (shared; do not modify it)."""
        return _parser(self.syntax, self.attributes)

    def new_parser(self) -> MarkdownIt:
        """A fresh parser of the dialect, for callers that add rules of their own."""
        return build_parser(self.syntax, self.attributes)

    def atoms(self, text: str) -> list[Atom]:
        """The protected spans of one msgid: expressions, shortcodes, math, URLs, JSX …"""
        if not self.atom_labels:
            return []
        return find_atoms(_atom_parser(self.syntax, self.attributes), text)

    @property
    def front_matter_keys(self) -> tuple[str, ...]:
        """Front-matter key paths the preset's sites write prose in."""
        return FRONT_MATTER_KEYS.get(self.name, ())

    def only_atoms(self, text: str) -> bool:
        """True if ``text`` has no word outside the dialect's atoms: ``{{ page.title }}``
        alone is nothing to translate."""
        if not self.atom_labels or _word_outside_brackets(text):
            return False
        kept = list(text)
        for atom in self.atoms(text):
            kept[atom.start : atom.end] = " " * (atom.end - atom.start)
        return not any(ch.isalnum() for ch in kept)

    @functools.cached_property
    def atom_labels(self) -> dict[str, str]:
        return {rule: label for name in self.syntax for rule, label in SYNTAXES[name].atoms.items()}


COMMONMARK = Dialect()


def _word_outside_brackets(text: str) -> bool:
    """A quick no for :meth:`Dialect.only_atoms`: a letter or digit outside ``{…}``,
    ``<…>`` and ``$…$`` means the text has words (most msgids: at their first letter)."""
    depth, math = 0, False
    for ch in text:
        if ch in "{<":
            depth += 1
        elif ch in "}>":
            depth = max(depth - 1, 0)
        elif ch == "$":
            math = not math
        elif depth == 0 and not math and ch.isalnum():
            return True
    return False


def build_parser(syntax: Iterable[str], attributes: frozenset[str] = TRANSLATABLE_ATTRIBUTES) -> MarkdownIt:
    """A CommonMark parser with the plugins of ``syntax``, installed in table order."""
    md = MarkdownIt("commonmark")
    wanted = set(syntax)
    for name, entry in SYNTAXES.items():
        if name in wanted:
            entry.install(md, attributes)
    return md


@functools.lru_cache(maxsize=32)
def _parser(syntax: tuple[str, ...], attributes: frozenset[str]) -> MarkdownIt:
    return build_parser(syntax, attributes)


@functools.lru_cache(maxsize=32)
def _atom_parser(syntax: tuple[str, ...], attributes: frozenset[str]) -> MarkdownIt:
    md = build_parser(syntax, attributes)
    record_atoms(md, {r: label for n in syntax for r, label in SYNTAXES[n].atoms.items()})
    return md


def resolve_dialect(
    name: str = "commonmark",
    adjustments: Iterable[str] = (),
    attributes: Iterable[str] = TRANSLATABLE_ATTRIBUTES,
) -> Dialect:
    """The dialect ``name`` with ``+syntax`` / ``-syntax`` adjustments; ValueError, with
    a suggestion, for a name nobody knows.

    >>> resolve_dialect("mkdocs-material", ["+liquid", "-abbr"]).label
    'mkdocs-material +liquid -abbr'
    """
    if name not in PRESETS:
        raise ValueError(f"unknown dialect {name!r}{_suggest(name, PRESETS)}; known: {', '.join(PRESETS)}")
    chosen = list(PRESETS[name])
    for word in adjustments:
        sign, syntax = word[:1], word[1:]
        if sign not in "+-" or not sign or syntax not in SYNTAXES:
            raise ValueError(
                f"syntax {word!r} must be +NAME or -NAME with a known NAME"
                f"{_suggest(syntax or word, SYNTAXES)}; known: {', '.join(SYNTAXES)}"
            )
        if sign == "+" and syntax not in chosen:
            chosen.append(syntax)
        elif sign == "-" and syntax in chosen:
            chosen.remove(syntax)
    ordered = tuple(s for s in SYNTAXES if s in chosen)
    return Dialect(name, ordered, frozenset(attributes))


def _suggest(word: str, known) -> str:
    close = difflib.get_close_matches(word, list(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""
