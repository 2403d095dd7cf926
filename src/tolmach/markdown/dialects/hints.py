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
from collections.abc import Iterator
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
    seen: set[tuple[str, int]] = set()
    for anywhere in (False, True):
        names = tuple(n for n in missing if SYNTAXES[n].looks_like.anywhere == anywhere)
        if not names:
            continue
        for match in _matches(text, _combined(names, anywhere), anywhere):
            if starts is None:
                starts = [0] + [m.end() for m in re.finditer("\n", text)]
            line = bisect_right(starts, match.start()) - 1
            name = names[int(match.lastgroup[1:])]
            if line in skip_lines or (name, line) in seen or _inside_braces(text, match.start(), anywhere):
                continue
            seen.add((name, line))
            first.setdefault(name, line)
            counts[name] = counts.get(name, 0) + 1
    hints = [SyntaxHint(first[n] + 1, n, counts[n]) for n in first]
    return sorted(hints, key=lambda h: h.line)


# Where a line-start pattern may match: after a newline and blanks, one of these.
_LINE_CANDIDATE_RE = re.compile(r"\n[ \t]*(?:[-+*>#$:!?/={\[<`~]|import |export )")


def _matches(text: str, pattern: re.Pattern[str], anywhere: bool) -> Iterator[re.Match[str]]:
    """Matches of ``pattern``; line-start patterns are tried only where a line starts
    with a character one of them can start with (a fast search for newlines first)."""
    if anywhere:
        yield from pattern.finditer(text)
        return
    first = pattern.match(text, 0)
    if first:
        yield first
    for candidate in _LINE_CANDIDATE_RE.finditer(text):
        found = pattern.match(text, candidate.start() + 1)
        if found:
            yield found


def _inside_braces(text: str, start: int, anywhere: bool) -> bool:
    """``{{% x %}}`` is a shortcode: its ``{%`` is not a Liquid tag."""
    return anywhere and start > 0 and text[start - 1] == "{"


@functools.lru_cache(maxsize=64)
def _combined(names: tuple[str, ...], anywhere: bool) -> re.Pattern[str]:
    """One pattern for all ``names``: anchored at line starts, or (for syntax that lives
    inside lines, such as ``{{ … }}``) searched anywhere with its literal prefix."""
    if anywhere:  # each begins with a literal brace: factored out, the search is fast
        alternatives = "|".join(
            f"(?P<s{i}>{SYNTAXES[n].looks_like.pattern.removeprefix(chr(92) + '{')})"
            for i, n in enumerate(names)
        )
        return re.compile(f"\\{{(?:{alternatives})")
    alternatives = "|".join(f"(?P<s{i}>{SYNTAXES[n].looks_like.pattern})" for i, n in enumerate(names))
    return re.compile(f"^(?:{alternatives})", re.M)
