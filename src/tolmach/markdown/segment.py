"""The shared vocabulary of the Markdown stage: source lines and segments.

A :class:`Line` is one source line with its offset and ending; a :class:`Segment` is one
translatable unit and the slot (a character range of the source) it fills. Segmentation
(:mod:`~tolmach.markdown.document`, :mod:`~tolmach.markdown.frontmatter`) makes them;
reassembly (:mod:`~tolmach.markdown.build`) and the catalog stage read them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "CONTEXT",
    "KIND",
    "LINE_RE",
    "SKIP",
    "SLOTS",
    "TAIL",
    "Line",
    "Segment",
    "TextSlot",
    "split_lines",
]

LINE_RE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)?")


@dataclass(frozen=True)
class Segment:
    """One translatable unit and the slot of the source it fills."""

    text: str
    kind: str
    line: int
    start: int
    end: int
    continuation: str
    heading: str | None = None
    single_line: bool = False
    quoting: str | None = None  # how a translation is quoted back (see build.emit_translation)
    note: str | None = None  # a ``<!-- tolmach: note … -->`` for the translator

    def with_note(self, note: str) -> Segment:
        """This segment with an author's note for the translator."""
        return Segment(**{**self.__dict__, "note": note})

    @property
    def comment(self) -> str:
        """The ``#.`` line a translator sees: block type and the heading above it."""
        if self.heading is None or self.kind.startswith("heading"):
            return self.kind
        return f'{self.kind}, under "{self.heading}"'



# What a parser plugin tells segmentation, in ``Token.meta`` (one traversal, used by
# segmentation, build and verification alike):
SLOTS = "tolmach_slots"  # list[TextSlot]: translatable parts of a marker line
CONTEXT = "tolmach_context"  # on an *_open token: what its body is ("tip" container)
KIND = "tolmach_kind"  # on an inline token outside a paragraph: its kind ("definition term")
TAIL = "tolmach_tail"  # on an inline token: skeleton cut from the end of its content ({#id})
SKIP = "tolmach_skip"  # on an inline token: not a segment (generated, or a slot already)


@dataclass(frozen=True)
class TextSlot:
    """A translatable part of a dialect's marker line — a container title, a tab label,
    an attribute value — as a parser plugin found it: 0-based line, columns, kind."""

    line: int
    start: int
    end: int
    kind: str
    quoting: str | None = None


@dataclass
class Line:
    start: int  # offset of the line in the source
    body: str  # the line without its ending, NUL replaced as markdown-it does
    ending: str


def split_lines(text: str) -> list[Line]:
    """Lines with their offsets and endings; NUL and BOM replaced as the parser sees them."""
    if "\r" in text:
        pieces = [m.group() for m in LINE_RE.finditer(text)]
        if len(pieces) > 1 and not pieces[-1]:
            pieces.pop()
    else:
        pieces = [line + "\n" for line in text.split("\n")]
        pieces[-1] = pieces[-1][:-1]
        if len(pieces) > 1 and not pieces[-1]:
            pieces.pop()
    lines: list[Line] = []
    offset = 0
    has_nul = "\0" in text
    for chunk in pieces:
        body = chunk.rstrip("\r\n")
        lines.append(Line(offset, body.replace("\0", "\ufffd") if has_nul else body, chunk[len(body) :]))
        offset += len(chunk)
    if text.startswith("\ufeff"):
        lines[0].start, lines[0].body = 1, lines[0].body[1:]
    return lines
