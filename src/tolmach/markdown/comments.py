"""``<!-- tolmach: … -->`` comments: what an author tells the translators and the pipeline.

::

    <!-- tolmach: note "Bus" is the hardware bus here, not a vehicle. -->
    <!-- tolmach: skip -->                 the next block is not translated
    <!-- tolmach: skip-start -->           nor anything up to
    <!-- tolmach: skip-end -->

A note becomes a ``#.`` comment on the next segment. Skipped blocks stay in the built
document as written, as mdpo and mdbook-i18n-helpers do it. In MDX, where HTML
comments are not allowed, ``{/* tolmach: … */}`` works the same.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from markdown_it.token import Token

from tolmach.markdown.segment import Segment

__all__ = ["Directives", "read_directive"]

_DIRECTIVE_RE = re.compile(
    r"^(?:<!--|\{/\*)\s*tolmach:\s*(note|skip-start|skip-end|skip)\b(.*?)(?:-->|\*/\})$", re.S
)


def read_directive(content: str) -> tuple[str, str] | None:
    """(``note``/``skip``/``skip-start``/``skip-end``, text) of a tolmach comment, or None.

    >>> read_directive("<!-- tolmach: note Keep it short. -->")
    ('note', 'Keep it short.')
    """
    match = _DIRECTIVE_RE.match(content.strip())
    if not match:
        return None
    return match.group(1), " ".join(match.group(2).split())


class Directives:
    """The tolmach comments of one document, gathered during segmentation."""

    def __init__(self) -> None:
        self.notes: list[tuple[int, str]] = []  # (first line after the comment, text)
        self.skipped: list[range] = []
        self.skip_from: int | None = None

    def read(self, token: Token, tokens: list[Token], index: int) -> bool:
        """Note the directive ``token`` holds, if any; True if it was one."""
        found = read_directive(token.content) if "tolmach" in token.content else None
        if found is None or not token.map:
            return False
        kind, text = found
        if kind == "note" and text:
            self.notes.append((token.map[1], text))
        elif kind == "skip":
            following = _next_block(tokens, index)
            if following is not None:
                self.skipped.append(range(*following))
        elif kind == "skip-start":
            self.skip_from = token.map[1]
        elif kind == "skip-end" and self.skip_from is not None:
            self.skipped.append(range(self.skip_from, token.map[0]))
            self.skip_from = None
        return True

    def apply(self, segments: Iterable[Segment]) -> list[Segment]:
        """``segments`` without the skipped ones, each note on the segment after it."""
        skipped = list(self.skipped)
        if self.skip_from is not None:  # skip-start without skip-end: to the end
            skipped.append(range(self.skip_from, 1 << 30))
        kept = [s for s in segments if not any(s.line - 1 in r for r in skipped)]
        if not self.notes:
            return kept
        notes = sorted(self.notes)
        out, pending = [], 0
        for seg in kept:
            texts = []
            while pending < len(notes) and notes[pending][0] <= seg.line - 1:
                texts.append(notes[pending][1])
                pending += 1
            out.append(seg.with_note(" ".join(texts)) if texts else seg)
        return out


def _next_block(tokens: list[Token], index: int) -> tuple[int, int] | None:
    """Lines of the block after the comment at ``index``, at the comment's level."""
    level = tokens[index].level
    for token in tokens[index + 1 :]:
        if token.level < level:
            return None
        if token.level == level and token.map and token.nesting >= 0:
            return token.map[0], token.map[1]
    return None
