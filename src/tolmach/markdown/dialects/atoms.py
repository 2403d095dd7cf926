"""Protected atoms: inline spans of a dialect that a translation copies, never changes.

``{{ expr }}``, ``{% tag %}``, ``$math$``, an inline shortcode, a bare URL, inline JSX:
each is found by the inline rule of its plugin. :func:`record_atoms` wraps those rules
so that, when asked, they note the span of source they consumed. The spans of a msgid
are what pseudo-translation leaves alone and what the markup check compares as a
multiset between source and translation.
"""

from __future__ import annotations

from dataclasses import dataclass

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline

__all__ = ["Atom", "find_atoms", "record_atoms"]

_ENV_KEY = "tolmach_atoms"


@dataclass(frozen=True)
class Atom:
    """A protected span of a msgid: where it is, what it is, and its text."""

    start: int
    end: int
    label: str
    text: str


def record_atoms(md: MarkdownIt, rules: dict[str, str]) -> None:
    """Wrap the named inline rules of ``md`` so they note their spans under a label."""
    for name, label in rules.items():
        index = md.inline.ruler.__find__(name)
        if index >= 0:
            rule = md.inline.ruler.__rules__[index].fn
            md.inline.ruler.at(name, _recording(rule, label))


def _recording(rule, label: str):
    def recorded(state: StateInline, silent: bool) -> bool:
        wanted = state.env.get(_ENV_KEY)
        if silent or wanted is None or state.src != wanted[0]:
            return rule(state, silent)
        start, pending, before = state.pos, len(state.pending), len(state.tokens)
        matched = rule(state, silent)
        if matched:
            taken = pending - _flushed(state, before, pending)
            wanted[1].append((start - taken, state.pos, label))
        return matched

    return recorded


def _flushed(state: StateInline, before: int, pending: int) -> int:
    """How much pending text the rule left as text: a rule that scans back (a bare URL
    found at its ``:``) takes its prefix from the pending text before pushing tokens."""
    if not pending:
        return 0
    new = state.tokens[before:]
    if not new:
        return len(state.pending)  # nothing pushed: the pending text is still there
    if len(new) > 1 and new[0].type == "text":
        return len(new[0].content)  # pushing flushed what was left of it
    return 0


def find_atoms(md: MarkdownIt, text: str) -> list[Atom]:
    """The protected spans of ``text`` under the recording parser ``md``, in order."""
    spans: list[tuple[int, int, str]] = []
    md.parseInline(text, {_ENV_KEY: (text, spans)})
    spans.sort()
    atoms: list[Atom] = []
    reach = 0
    for start, end, label in spans:
        if start >= reach and end > start:  # an atom inside another is part of it
            atoms.append(Atom(start, end, label, text[start:end]))
            reach = end
    return atoms
