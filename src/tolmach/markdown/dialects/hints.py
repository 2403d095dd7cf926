"""Lines that look like a syntax the document's dialect does not have.

A VitePress page extracted as CommonMark loses its containers without an error; so
``extract`` says, per file, where the first such line is, how many there are, and which
presets handle the syntax. The tests are each syntax's ``looks_like`` pattern, run over
the source lines once (code, front matter and raw HTML excluded); they decide nothing
about segmentation, only whether to warn.
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_right
from dataclasses import dataclass

from tolmach.markdown.dialects.dialect import Dialect
from tolmach.markdown.dialects.presets import PRESETS, SYNTAXES

__all__ = ["SyntaxHint", "syntax_hints"]


@dataclass(frozen=True)
class SyntaxHint:
    """The first line (1-based) that looks like ``syntax``, and how many lines do."""

    line: int
    syntax: str
    count: int = 1

    @property
    def presets(self) -> tuple[str, ...]:
        return tuple(name for name, syntaxes in PRESETS.items() if self.syntax in syntaxes)

    @property
    def message(self) -> str:
        more = f" ({self.count} lines)" if self.count > 1 else ""
        where = ", ".join(self.presets) or "no preset"
        return (
            f"looks like {SYNTAXES[self.syntax].summary}{more}, which this dialect does not "
            f'parse: extracted as plain text; add syntax "+{self.syntax}" or use a dialect '
            f"that has it ({where})"
        )


def syntax_hints(text: str, dialect: Dialect, skip_lines: set[int]) -> list[SyntaxHint]:
    """One hint per syntax the dialect lacks and ``text`` seems to use, in line order."""
    missing = tuple(n for n, s in SYNTAXES.items() if s.looks_like and n not in dialect.syntax)
    if not missing:
        return []
    first: dict[str, int] = {}
    counts: dict[str, int] = {}
    starts: list[int] | None = None
    for match in _combined(missing).finditer(text):
        if starts is None:
            starts = [0] + [m.end() for m in re.finditer("\n", text)]
        line = bisect_right(starts, match.start()) - 1
        if line in skip_lines:
            continue
        name = missing[int(match.lastgroup[1:])]
        first.setdefault(name, line)
        counts[name] = counts.get(name, 0) + 1
    hints = [SyntaxHint(first[n] + 1, n, counts[n]) for n in first]
    return sorted(hints, key=lambda h: h.line)


@functools.lru_cache(maxsize=32)
def _combined(names: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(
        "|".join(f"(?P<s{i}>{SYNTAXES[n].looks_like.pattern})" for i, n in enumerate(names)), re.M
    )
