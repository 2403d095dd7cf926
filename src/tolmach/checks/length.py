"""Length: a translation far shorter or longer than the language pair makes likely.

Each language has a typical length relative to English text of the same content
(German runs about a fifth longer, Russian a tenth). Length is display width: a
full-width Chinese or Japanese character counts two, so text mixed with Latin names is
measured fairly. The expected ratio of a pair is the quotient of the two; a translation
outside a generous band around it is likely cut short or carries something extra.
Only visible text counts, and short strings are skipped: their ratios mean little.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from unicodedata import east_asian_width

from tolmach.checks.inline import OBJECT
from tolmach.checks.registry import EntryContext, check

__all__ = ["expected_ratio", "length"]

# Display width relative to English for the same content (rough, from translation practice).
_RELATIVE_LENGTH: dict[str, float] = {
    "en": 1.0,
    "ru": 1.1,
    "uk": 1.1,
    "be": 1.1,
    "de": 1.2,
    "nl": 1.15,
    "fr": 1.15,
    "es": 1.15,
    "it": 1.12,
    "pt": 1.15,
    "pl": 1.1,
    "cs": 1.05,
    "sv": 1.05,
    "fi": 1.05,
    "tr": 1.05,
    "ar": 0.9,
    "he": 0.85,
    "zh": 0.7,
    "ja": 0.85,
    "ko": 0.9,
}
_MAYBE_WIDE_RE = re.compile(r"[\u1100-\U0003ffff]")
SHORTEST = 20  # visible characters of the source below which the ratio is not judged
_BAND_LONG = 2.0  # allowed factor either side for sources of 60 characters or more
_BAND_SHORT = 3.0  # and for shorter ones


@check("length", severity="warning")
def length(ctx: EntryContext) -> Iterator[str]:
    """Translation not far shorter or longer than usual for the language pair."""
    source = _visible_length(ctx.source_markup.text)
    if source < SHORTEST:
        return
    target = _visible_length(ctx.target_markup.text)
    expected = expected_ratio(ctx.source_language, ctx.language)
    band = _BAND_LONG if source >= 60 else _BAND_SHORT
    ratio = target / source
    if ratio < expected / band:
        yield _message("shorter", source, target, expected)
    elif ratio > expected * band:
        yield _message("longer", source, target, expected)


def expected_ratio(source_language: str, target_language: str) -> float:
    """Typical characters of translation per character of source.

    >>> round(expected_ratio("ru", "de"), 2)
    1.09
    """
    source = _RELATIVE_LENGTH.get(source_language, 1.0)
    return _RELATIVE_LENGTH.get(target_language, 1.0) / source


@lru_cache(maxsize=4096)
def _visible_length(text: str) -> int:
    """Display width: full-width (East Asian wide) characters count two."""
    text = " ".join(text.replace(OBJECT, " ").split())
    if text.isascii():
        return len(text)
    return len(text) + sum(1 for c in _MAYBE_WIDE_RE.findall(text) if east_asian_width(c) in "WF")


def _message(which: str, source: int, target: int, expected: float) -> str:
    return (
        f"translation much {which} than the source: width {target} for {source} "
        f"(about {round(source * expected)} expected)"
    )
