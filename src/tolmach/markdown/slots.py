"""Where a segment's slot lies in the source, and what its msgid is.

Segmentation (:mod:`~tolmach.markdown.document`) knows from the token stream which
block holds translatable text and on which lines; these functions find the exact
columns of that text on those lines and the prefix a further line of it needs
(``> ``, list indentation), and turn line breaks into the msgid's spaces.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from markdown_it.common.utils import MD_TRIM_CHARS, unescapeAll
from markdown_it.token import Token

from tolmach.markdown.segment import Line, Segment, TextSlot

__all__ = [
    "atx_segment",
    "block_segment",
    "cell_segment",
    "continuation",
    "reference_titles",
    "slot_segment",
]

_FOOTNOTE_LABEL_RE = re.compile(r"\[\^[^\]]*\]:")
_WHITESPACE_TAG_RE = re.compile(r"</?(?:pre|textarea|script|style)\b", re.I)


def slot_segment(slot: TextSlot, lines: list[Line]) -> Segment:
    """The segment of a marker line's translatable part that a parser plugin found."""
    line = lines[slot.line]
    return Segment(
        text=line.body[slot.start : slot.end],
        kind=slot.kind,
        line=slot.line + 1,
        start=line.start + slot.start,
        end=line.start + slot.end,
        continuation=continuation(line, slot.start),
        single_line=True,
        quoting=slot.quoting,
    )


def reference_titles(references: dict, lines: list[Line]) -> Iterator[Segment]:
    """Titles of link reference definitions (``[id]: /url "Title"``), one line each.

    The title is found as the quoted run that ends the definition's last line; a title
    over several lines stays in the skeleton (its lines carry container prefixes).
    """
    for reference in references.values():
        if not reference.get("title") or not reference.get("map"):
            continue
        line_no = reference["map"][1] - 1
        line = lines[line_no]
        span = _closing_title(line.body)
        if span is None or unescapeAll(line.body[span[0] : span[1]]) != reference["title"]:
            continue
        start, end = span
        yield Segment(
            text=line.body[start:end],
            kind="link title",
            line=line_no + 1,
            start=line.start + start,
            end=line.start + end,
            continuation=continuation(line, start),
            single_line=True,
            quoting="title" + line.body[end],
        )


def _closing_title(body: str) -> tuple[int, int] | None:
    """Inner span of the title that closes ``body`` (``"…"``, ``'…'`` or ``(…)``)."""
    end = len(body.rstrip(" \t"))
    closer = body[end - 1 : end]
    opener = {'"': '"', "'": "'", ")": "("}.get(closer)
    if opener is None:
        return None
    pos = end - 2
    while pos >= 0:
        if body[pos] == opener and not _escaped(body, pos):
            return (pos + 1, end - 1) if pos + 1 < end - 1 else None
        pos -= 1
    return None


def _escaped(text: str, pos: int) -> bool:
    backslashes = len(text[:pos]) - len(text[:pos].rstrip("\\"))
    return backslashes % 2 == 1



def continuation(line: Line, column: int) -> str:
    """Newline plus the prefix a further line of this slot needs: markers become spaces."""
    prefix = _FOOTNOTE_LABEL_RE.sub(lambda m: " " * len(m.group()), line.body[:column])
    blanked = "".join(ch if ch in ">\t" else " " for ch in prefix)
    return (line.ending or "\n") + blanked


def atx_segment(token: Token, line_no: int, lines: list[Line], kind: str) -> Segment | None:
    line = lines[line_no]
    opening = line.body.index("#")
    level = int(kind.split()[1])
    start = line.body.find(token.content, opening + level)
    if start < 0:
        return None
    return Segment(
        text=token.content,
        kind=kind,
        line=line_no + 1,
        start=line.start + start,
        end=line.start + start + len(token.content),
        continuation=continuation(line, start),
        single_line=True,
    )


def cell_segment(
    token: Token, line_no: int, lines: list[Line], cursor: int, kind: str
) -> tuple[Segment | None, int]:
    """A table cell: its content as written (``|`` came from ``\\|``) found left to right."""
    line = lines[line_no]
    raw = token.content.replace("|", "\\|")
    start = line.body.find(raw, cursor)
    if start < 0:
        return None, cursor
    end = start + len(raw)
    seg = Segment(
        text=raw,
        kind=kind,
        line=line_no + 1,
        start=line.start + start,
        end=line.start + end,
        # a cell never spans lines: the prefix of a further line (as long as the row up
        # to the cell) would only cost time and memory, per cell of a wide table
        continuation=line.ending or "\n",
        single_line=True,
    )
    return seg, end


def block_segment(
    token: Token,
    span: list[int],
    lines: list[Line],
    breaks: dict[int, str],
    kind: str,
    keep_all: bool = False,
    cut: str = "",
) -> Iterator[Segment]:
    """A paragraph-like block spread over source lines ``span``: one slot from the first
    content character to the last, and the msgid with soft breaks joined. ``cut`` is
    skeleton a plugin took off the end of the content (a heading's ``{#id}``)."""
    content = token.content.rstrip("\n") if keep_all else token.content
    parts = content.split("\n")
    placed = _place_lines(parts, span, lines, keep_all, cut.strip())
    if placed is None:
        return
    first, start, end = placed
    last = first + len(parts) - 1
    first_line = lines[first]
    yield Segment(
        text=_join_lines(parts, breaks, keep_all),
        kind=kind,
        line=first + 1,
        start=first_line.start + start,
        end=lines[last].start + end,
        continuation=continuation(first_line, start),
    )


def _place_lines(
    parts: list[str], span: list[int], lines: list[Line], keep_all: bool, cut: str = ""
) -> tuple[int, int, int] | None:
    """Find the source line of the first content line and the slot's start and end columns."""
    count = len(parts)
    for first in range(span[0], span[1] - count + 1):
        last = first + count - 1
        head = parts[0]
        body_first = lines[first].body
        body_last = lines[last].body.rstrip(MD_TRIM_CHARS if not keep_all else "")
        if cut:
            if not body_last.endswith(cut):
                continue
            body_last = body_last[: -len(cut)].rstrip(" \t")
        tail = parts[-1].lstrip(" \t") if count > 1 else parts[-1]
        if count == 1:
            if body_last.endswith(tail):
                return first, len(body_last) - len(tail), len(body_last)
            continue
        if body_first.endswith(head) and body_last.endswith(tail):
            return first, len(body_first) - len(head), len(body_last)
    return None


def _join_lines(parts: list[str], breaks: dict[int, str], keep_all: bool) -> str:
    """The msgid: soft breaks become one space, other line breaks stay as written.

    Text that opens or closes raw ``<pre>``-like HTML keeps all its line breaks: there a
    newline is not the same as a space.
    """
    if keep_all or _WHITESPACE_TAG_RE.search("\n".join(parts)):
        return "\n".join(parts)
    out = [parts[0]]  # pieces joined once at the end: a paragraph of n lines is O(n)
    offset = len(parts[0])
    for part in parts[1:]:
        kind = breaks.get(offset)
        offset += 1 + len(part)
        if kind == "softbreak":
            _strip_end(out)
            out += [" ", part.lstrip(" \t")]
        elif kind == "hardbreak":
            out += ["\n", part if _indent_width(part) >= 4 else part.lstrip(" \t")]
        else:
            out += ["\n", part]
    return "".join(out)


def _strip_end(pieces: list[str]) -> None:
    """Strip spaces and tabs off the end of the text ``pieces`` make up."""
    while pieces:
        pieces[-1] = pieces[-1].rstrip(" \t")
        if pieces[-1]:
            return
        pieces.pop()


def _indent_width(text: str) -> int:
    stripped = text.lstrip(" \t")
    return len(text[: len(text) - len(stripped)].expandtabs(4))
