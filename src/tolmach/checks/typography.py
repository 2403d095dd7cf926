"""Typography: each locale writes apostrophes and quotation marks one way.

A translation that uses the locale's curly quotation marks (“…” in English, „…“ in
German) and a straight apostrophe beside them (``What's``, ``AMD's``) mixes two
typographies; so does a straight ``"…"`` pair. In the locales below the typographic
apostrophe is ’ (U+2019), as CLDR and the style guides of each language give it. A
straight mark the source itself has (a quoted identifier, inches) is not counted.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from tolmach.checks.punctuation import QUOTES
from tolmach.checks.registry import EntryContext, check

__all__ = ["APOSTROPHES", "typography"]

# The apostrophe each language writes inside words (English "don’t", German "geht’s").
APOSTROPHES: dict[str, str] = {
    language: "’"
    for language in ("en", "de", "fr", "it", "es", "pt", "nl", "pl", "cs", "sv", "fi", "tr")
}
_STRAIGHT_APOSTROPHE_RE = re.compile(r"(?<=[^\W\d_])'(?=[^\W\d_])|(?<=s)'(?=\s|$)")
_STRAIGHT_QUOTES_RE = re.compile(r'"[^"\n]+"')


@check("typography", severity="warning")
def typography(ctx: EntryContext) -> Iterator[str]:
    """Apostrophes and quotation marks as the locale writes them (’ beside “…”, not ')."""
    apostrophe = APOSTROPHES.get(ctx.language)
    if apostrophe is None:
        return
    target, source = ctx.target_markup.text, ctx.source_markup.text
    if "'" in target:
        straight = _STRAIGHT_APOSTROPHE_RE.finditer(target)
        extra = list(straight)[len(_STRAIGHT_APOSTROPHE_RE.findall(source)) :]
        for found in extra:
            word = _word_around(target, found.start())
            yield f'straight apostrophe in "{word}": write "{word.replace(chr(39), apostrophe)}"'
    if '"' not in target:
        return
    quotes = QUOTES.get(ctx.language, "“”")
    pairs = _STRAIGHT_QUOTES_RE.findall(target)[len(_STRAIGHT_QUOTES_RE.findall(source)) :]
    for pair in pairs:
        yield f"straight quotation marks {pair}: write {quotes[0]}{pair[1:-1]}{quotes[1]}"


def _word_around(text: str, at: int) -> str:
    start, end = at, at + 1
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "-"):
        start -= 1
    while end < len(text) and text[end].isalnum():
        end += 1
    return text[start:end]
