"""Numbers: every number of the source keeps its value in the translation.

Numbers are read from the visible text only (code spans, URLs, HTML and footnote labels
are markup), each under its own language's conventions: a Russian source writes a
decimal comma or point, German writes ``3,8`` and groups thousands with ``.``, English
the other way round. A token with one separator followed by exactly three digits is
ambiguous (``1.742``); Babel reads it the way the locale would, so ``1.742`` in a German
translation is one thousand seven hundred and forty-two and is reported. Percent signs,
``x`` multipliers and Latin unit letters glued to a number (``70B``) must stay, or a
magnitude suffix (K, M, B, T) be spelled out ("70 billion", "70 Milliarden").
Numbers written as words ("three", "трёхкратный") are out of scope, and so are signs: a
hyphen before a digit is far more often a range or a compound (``5-летнюю``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache

from babel.core import UnknownLocaleError
from babel.numbers import (
    NumberFormatError,
    format_decimal,
    get_decimal_symbol,
    get_group_symbol,
    parse_decimal,
)

from tolmach.checks.registry import EntryContext, check

__all__ = ["NumberToken", "numbers", "read_numbers"]

_SPACES = "\u00a0\u202f\u2009\u2007 '’"
_NUMBER_RE = re.compile(rf"[0-9]+(?:(?:[.,]|[{_SPACES}](?=[0-9]{{3}}(?![0-9])))[0-9]+)*")
_SPACE_SPLIT_RE = re.compile(rf"[{_SPACES}]")
_FULLWIDTH = str.maketrans("０１２３４５６７８９％", "0123456789%")
_MULTIPLIER_WORD_RE = re.compile(
    r"\s?-?(?:x|×|X|fold|fach|mal|times|倍|раз|кратн|倍数)", re.IGNORECASE
)
_FULLWIDTH_RE = re.compile("[０-９％]")
_DIGIT_RE = re.compile("[0-9]")
_GROUP_HEAD_RE = re.compile(r"[0-9]{1,3}")
_NOT_SPACE_RE = re.compile(rf"[^{_SPACES}]+")
_PERCENT_RE = re.compile(r"[\u00a0\u202f ]?%")
_LATIN_RE = re.compile(r"[A-Za-z]")
_MULTIPLIER_RE = re.compile(r"[x×X](?![A-Za-z])")
_SEPARATOR_RE = re.compile(r"[.,]")
_PERCENT_WORD_RE = re.compile(
    r"\s?(?:percent|per cent|prozent|pour cent|por ciento|процент)", re.IGNORECASE
)
_UNIT_RE = re.compile(r"[A-Za-z]{1,4}(?![A-Za-z])")
# A magnitude suffix (70B parameters) may be spelled out: "70 billion", "70 Milliarden".
_MAGNITUDE_WORDS = {
    marker: re.compile(rf"[\u00a0\u202f -]?(?:{words})", re.IGNORECASE)
    for marker, words in {
        "K": r"thousand|Tausend|тыс|千",
        "M": r"million|Million|Mio\.|млн|百万",
        "B": r"billion|Milliarde|Mrd\.|млрд|十亿",
        "T": r"trillion|Billion|Bio\.|трлн|万亿",
    }.items()
}


@dataclass(frozen=True)
class NumberToken:
    """One number as written, its value, and the value a reader of the other convention sees."""

    text: str
    value: Decimal | str  # a str for versions and dates such as 1.2.3 or 12.06.2025
    other_reading: Decimal | None = None
    marker: str = ""  # "%", "x" or a Latin unit glued to the number, such as "B"
    after: str = ""  # the few characters that follow, for "-fold", "倍" or " B"

    def same_value(self, other: NumberToken) -> bool:
        return _equal(self.value, other.value)


@check("numbers")
def numbers(ctx: EntryContext) -> Iterator[str]:
    """Every number of the source appears with the same value, percent sign, multiplier and unit."""
    source = _source_numbers(ctx.source_markup.text, ctx.source_locale)
    target = read_numbers(ctx.target_markup.text, ctx.locale)
    unmatched_source: list[NumberToken] = []
    remaining = list(target)
    for number in source:
        match = next((t for t in remaining if number.same_value(t)), None)
        if match is None:
            unmatched_source.append(number)
            continue
        remaining.remove(match)
        yield from _marker_kept(number, match)
    yield from _explain_unmatched(unmatched_source, remaining, ctx.locale)


@lru_cache(maxsize=4096)
def _source_numbers(text: str, locale: str) -> tuple[NumberToken, ...]:
    """:func:`read_numbers` of a source text, read once for all its locales."""
    return tuple(read_numbers(text, locale))


def read_numbers(text: str, locale: str) -> list[NumberToken]:
    """The numbers in ``text`` read under the conventions of ``locale``.

    >>> [str(n.value) for n in read_numbers("3,8x und 1.742 EFLOPS", "de")]
    ['3.8', '1742']
    """
    if _FULLWIDTH_RE.search(text):
        text = text.translate(_FULLWIDTH)
    elif not _DIGIT_RE.search(text):  # every number starts with a digit
        return []
    found = []
    for match in _NUMBER_RE.finditer(text):
        for start, written in _split_false_groups(match.start(), match.group(0), locale):
            end = start + len(written)
            value, other = _read(written, locale)
            found.append(
                NumberToken(written, value, other, _marker(text, start, end), text[end : end + 12])
            )
    return found


def _split_false_groups(start: int, written: str, locale: str) -> Iterator[tuple[int, str]]:
    """``2025 100`` is two numbers; ``10 000`` is one where the locale groups with spaces."""
    if not _SPACE_SPLIT_RE.search(written):
        yield start, written
        return
    head = _SPACE_SPLIT_RE.split(written, maxsplit=1)[0]
    plain_space_ok = _symbols(locale)[1].isspace() or " " not in written
    if _GROUP_HEAD_RE.fullmatch(head) and plain_space_ok:
        yield start, written
        return
    for part in _NOT_SPACE_RE.finditer(written):
        yield start + part.start(), part.group(0)


def _marker(text: str, start: int, end: int) -> str:
    """``%``, ``x`` or the Latin unit glued to the number; none inside a name like MI300X."""
    after = text[end : end + 6]
    if _PERCENT_RE.match(after) or text[max(0, start - 1) : start] == "%":
        return "%"
    if start and _LATIN_RE.match(text[start - 1]):
        return ""
    if _MULTIPLIER_RE.match(after):
        return "x"
    unit = _UNIT_RE.match(after)
    return unit.group(0) if unit else ""


@lru_cache(maxsize=8192)
def _read(written: str, locale: str) -> tuple[Decimal | str, Decimal | None]:
    """A value, plus the other possible reading when the token is ambiguous."""
    plain = _SPACE_SPLIT_RE.sub("", written)
    separators = [c for c in plain if c in ".,"]
    if not separators:
        return Decimal(plain), None
    groups = _SEPARATOR_RE.split(plain)
    if len(set(separators)) == 2:
        return _read_mixed(plain, groups), None
    if len(separators) > 1:
        grouped = all(len(g) == 3 for g in groups[1:]) and len(groups[0]) <= 3
        return (Decimal("".join(groups)) if grouped else plain), None
    whole, fraction = groups
    as_decimal = Decimal(f"{whole}.{fraction}")
    if len(fraction) != 3 or len(whole) > 3 or whole == "0":
        return as_decimal, None
    as_grouped = Decimal(whole + fraction)
    native = _native_reading(plain, locale, as_decimal)
    return native, (as_decimal if native == as_grouped else as_grouped)


def _read_mixed(plain: str, groups: list[str]) -> Decimal | str:
    """``1,234.5`` or ``1.234,5``: the last separator is the decimal one."""
    decimal_mark = plain[max(plain.rfind("."), plain.rfind(","))]
    if plain.count(decimal_mark) > 1 or any(len(g) != 3 for g in groups[1:-1]):
        return plain
    whole = "".join(groups[:-1])
    return Decimal(f"{whole}.{groups[-1]}") if decimal_mark else plain


def _native_reading(plain: str, locale: str, as_decimal: Decimal) -> Decimal:
    """How a reader of ``locale`` reads ``1.742`` or ``1,742``, by Babel."""
    decimal_symbol, group_symbol = _symbols(locale)
    separator = "." if "." in plain else ","
    if separator not in (decimal_symbol, group_symbol):
        return as_decimal  # a point in Russian text is never a thousands separator
    try:
        return parse_decimal(plain, locale=_babel_locale(locale))
    except (NumberFormatError, InvalidOperation):
        return as_decimal


@lru_cache(maxsize=64)
def _symbols(locale: str) -> tuple[str, str]:
    try:
        babel_locale = _babel_locale(locale)
        return get_decimal_symbol(babel_locale), get_group_symbol(babel_locale)
    except (UnknownLocaleError, ValueError):
        return ".", ","


def _babel_locale(locale: str) -> str:
    return locale.replace("-", "_")


def _equal(a: Decimal | str, b: Decimal | str) -> bool:
    if isinstance(a, Decimal) and isinstance(b, Decimal):
        return a == b
    return str(a) == str(b)


def _marker_kept(source: NumberToken, target: NumberToken) -> Iterator[str]:
    if not source.marker or source.marker == target.marker:
        return
    if source.marker == "%":
        if not _PERCENT_WORD_RE.match(target.after):
            yield f"percent sign lost: {source.text}% → {target.text}"
    elif source.marker == "x":
        if not _MULTIPLIER_WORD_RE.match(target.after):
            yield f"multiplier lost: {source.text}x → {target.text}"
    elif not re.match(rf"[\u00a0\u202f ]?-?{re.escape(source.marker)}(?![a-z])", target.after):
        words = _MAGNITUDE_WORDS.get(source.marker)
        if not (words and words.match(target.after)):
            yield f"unit lost: {source.text}{source.marker} → {target.text}"


def _explain_unmatched(
    missing: list[NumberToken], extra: list[NumberToken], locale: str
) -> Iterator[str]:
    for number in missing:
        misread = next((t for t in extra if _equal(number.value, t.other_reading or "")), None)
        if misread is not None:
            extra.remove(misread)
            yield (
                f'number {number.text} written as "{misread.text}", which reads as '
                f"{_plain(misread.value)} in {locale} (write {_formatted(number.value, locale)})"
            )
        elif extra:
            yield f"number changed: {number.text} → {extra.pop(0).text}"
        else:
            yield f"number missing: {number.text}"


def _plain(value: Decimal | str) -> str:
    return format(value, "f") if isinstance(value, Decimal) else value


def _formatted(value: Decimal | str, locale: str) -> str:
    if not isinstance(value, Decimal):
        return value
    try:
        return format_decimal(value, locale=_babel_locale(locale), decimal_quantization=False)
    except (UnknownLocaleError, ValueError):
        return _plain(value)
