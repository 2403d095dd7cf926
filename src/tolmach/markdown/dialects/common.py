"""What the dialect plugins share: reading marker lines and attributes, placing slots.

A plugin finds a construct with markdown-it's block state (``bMarks``, ``eMarks``,
``sCount``), as markdown-it's own rules do, and tells segmentation which parts of its
marker line are translatable through :class:`~tolmach.markdown.segment.TextSlot` records
in ``Token.meta``. Columns count from the start of the source line, container prefixes
(``> ``, list indentation) included, because that is how segmentation sees lines.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from markdown_it.rules_block import StateBlock
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from tolmach.markdown.segment import SLOTS, TextSlot

__all__ = [
    "TRANSLATABLE_ATTRIBUTES",
    "Attribute",
    "add_slots",
    "attribute_slots",
    "closing_line",
    "find_closer",
    "first_char",
    "inline_span_rule",
    "line_content",
    "scan_attributes",
    "skip_balanced",
    "slot",
    "split_values",
]

TRANSLATABLE_ATTRIBUTES = frozenset({"title", "alt", "label", "caption", "placeholder"})
"""Attributes of HTML, JSX, shortcodes and directives whose values are prose."""


@dataclass(frozen=True)
class Attribute:
    """``name="value"`` in a marker line: the value's span (quotes excluded) and its quote."""

    name: str
    start: int
    end: int
    quote: str  # '"', "'", "{" for a JSX expression, "" when unquoted


def line_content(state: StateBlock, line: int) -> tuple[int, int]:
    """Start (after the block's indentation) and end of ``line`` in ``state.src``."""
    return state.bMarks[line] + state.tShift[line], state.eMarks[line]


def first_char(state: StateBlock, line: int) -> str:
    """The first character of ``line``'s content ("" for an empty line): a rule checks
    it before doing anything else, as most lines are not its syntax."""
    pos = state.bMarks[line] + state.tShift[line]
    return state.src[pos] if pos < state.eMarks[line] else ""


def slot(state: StateBlock, line: int, start: int, end: int, kind: str, quoting: str | None = None):
    """A :class:`TextSlot` for ``state.src[start:end]`` on ``line``, or None if it is blank."""
    text = state.src[start:end]
    stripped = text.strip()
    if not stripped:
        return None
    start += len(text) - len(text.lstrip())
    end = start + len(stripped)
    line_start = state.src.rfind("\n", 0, state.bMarks[line]) + 1
    return TextSlot(line, start - line_start, end - line_start, kind, quoting)


def add_slots(token: Token, slots: Iterable[TextSlot | None]) -> None:
    """Attach the non-empty slots to ``token`` for segmentation."""
    found = [s for s in slots if s is not None]
    if found:
        token.meta = {**(token.meta or {}), SLOTS: found}


def attribute_slots(
    state: StateBlock,
    line: int,
    attributes: Iterable[Attribute],
    kind: str,
    names: frozenset[str] = TRANSLATABLE_ATTRIBUTES,
    quoting: str = "attribute",
) -> Iterator[TextSlot | None]:
    """Slots for the quoted values of translatable attributes on one line."""
    for attr in attributes:
        if attr.name in names and attr.quote in ('"', "'"):
            yield slot(state, line, attr.start, attr.end, kind.format(name=attr.name), quoting + attr.quote)


def scan_attributes(src: str, pos: int, end: int, stop: str = "") -> tuple[list[Attribute], int]:
    """Read ``name=value`` pairs (and bare names) from ``src[pos:end]`` until a character
    of ``stop`` outside a value; return them and where reading stopped.

    Values may be double- or single-quoted, a balanced ``{…}`` expression (JSX), or a
    bare word. A character that starts no attribute ends the scan.
    """
    found: list[Attribute] = []
    while pos < end:
        while pos < end and src[pos] in " \t\n":
            pos += 1
        if pos >= end or src[pos] in stop:
            break
        name_start = pos
        while pos < end and (src[pos].isalnum() or src[pos] in "-_:.@#$"):
            pos += 1
        if pos == name_start:
            break
        name = src[name_start:pos]
        if pos >= end or src[pos] != "=":
            continue
        pos += 1
        quote = src[pos] if pos < end else ""
        if quote in ('"', "'"):
            close = src.find(quote, pos + 1, end)
            if close < 0:
                break
            found.append(Attribute(name, pos + 1, close, quote))
            pos = close + 1
        elif quote == "{":
            close = skip_balanced(src, pos, end)
            if close is None:
                break
            found.append(Attribute(name, pos + 1, close - 1, "{"))
            pos = close
        else:
            value_start = pos
            while pos < end and src[pos] not in " \t\n" and src[pos] not in stop:
                pos += 1
            found.append(Attribute(name, value_start, pos, ""))
    return found, pos


def skip_balanced(src: str, pos: int, end: int) -> int | None:
    """Position after the ``}`` that balances the ``{`` at ``pos`` (strings and nested
    braces respected, as in a JSX expression), or None if it does not close."""
    depth = 0
    while pos < end:
        ch = src[pos]
        if ch in "\"'`":
            close = src.find(ch, pos + 1, end)
            if close < 0:
                return None
            pos = close + 1
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return pos + 1
        pos += 1
    return None


def closing_line(state: StateBlock, start: int, end: int, is_closer) -> int | None:
    """The first line in ``start..end`` for which ``is_closer(line)`` holds, not counting
    lines inside fenced code (a ``///`` in a code sample closes nothing)."""
    fence: tuple[str, int] | None = None
    for line in range(start, end):
        first, last = line_content(state, line)
        if state.sCount[line] < state.blkIndent and first < last:
            return None  # a line indented less than the block ends its container
        text = state.src[first:last]
        if fence is not None:
            char, length = fence
            run = len(text) - len(text.lstrip(char))
            if run >= length and not text[run:].strip() and state.sCount[line] - state.blkIndent < 4:
                fence = None
            continue
        if state.sCount[line] - state.blkIndent < 4 and text[:3] in ("```", "~~~"):
            char = text[0]
            run = len(text) - len(text.lstrip(char))
            if char == "~" or "`" not in text[run:]:
                fence = (char, run)
                continue
        if is_closer(line):
            return line
    return None


def split_values(text: str, offset: int, slots: Iterable[TextSlot | None]) -> tuple[str, list[str]]:
    """``text`` (a marker that starts at column ``offset``) with the slots' values cut
    out — what must never change — and the values, in order."""
    out, values, cursor = [], [], 0
    for found in slots:
        if found is None:
            continue
        out.append(text[cursor : found.start - offset])
        values.append(text[found.start - offset : found.end - offset])
        cursor = found.end - offset
    return "".join(out) + text[cursor:], values


def find_closer(src: str, pos: int, end: int, closer: str) -> int | None:
    """Where ``closer`` starts after ``pos``, skipping quoted strings; None if absent."""
    while pos < end:
        ch = src[pos]
        if ch in "\"'":
            close = src.find(ch, pos + 1, end)
            if close < 0:
                return src.find(closer, pos, end) if closer in src[pos:end] else None
            pos = close + 1
        elif src.startswith(closer, pos):
            return pos
        else:
            pos += 1
    return None


def inline_span_rule(opener: str, token_type: str,
                     span_end: Callable[[str, int, int], int | None]):
    """An inline rule for an atom that starts with ``opener`` and ends where
    ``span_end(src, pos, max)`` says (None: no atom here): one ``token_type`` span token
    that holds the atom's source, which no other inline rule then reads."""

    def rule(state: StateInline, silent: bool) -> bool:
        if state.src[state.pos] != opener:
            return False
        stop = span_end(state.src, state.pos, state.posMax)
        if stop is None:
            return False
        if not silent:
            token = state.push(token_type, "span", 0)
            token.content = state.src[state.pos : stop]
        state.pos = stop
        return True

    return rule
