"""Punctuation and spacing: sentence ends, whitespace, brackets, quotes, doubled words.

All of these read the visible text (code spans, URLs and HTML are not prose), except the
whitespace checks, which compare the raw strings because that is what the build splices
into the document. Chinese and Japanese end sentences with full-width marks (``。``,
``？``, ``！``), and each language has its own quotation marks.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from tolmach.checks.inline import OBJECT
from tolmach.checks.registry import EntryContext, check

__all__ = ["QUOTES", "sentence_end"]

# Sentence ends that mean the same thing, ASCII form first, full-width CJK second.
_ENDS: dict[str, tuple[str, str]] = {
    "full stop": (".", "。"),
    "question mark": ("?", "？"),
    "exclamation mark": ("!", "！"),
    "colon": (":", "："),
    "semicolon": (";", "；"),
    "ellipsis": ("…", "…"),
}
_END_CHARS = {c: name for name, pair in _ENDS.items() for c in pair} | {"．": "full stop"}
_CLOSERS = "\"'»”“’‘」』)]}*_ \t\n" + OBJECT
_FULL_WIDTH_LANGUAGES = frozenset({"zh", "ja"})
_ABBREVIATION_RE = re.compile(r"(?:^|[\s(])\w{1,4}\.$|\b\w\.\s?\w\.$")

# Primary and alternate quotation marks (CLDR delimiters).
QUOTES: dict[str, str] = {
    "ru": "«»„“",
    "uk": "«»„“",
    "be": "«»„“",
    "de": "„“‚‘",
    "en": "“”‘’",
    "fr": "«»“”",
    "es": "«»“”",
    "it": "«»“”",
    "pt": "“”‘’",
    "pl": "„”«»",
    "cs": "„“‚‘",
    "nl": "‘’“”",
    "zh": "“”‘’",
    "ja": "「」『』",
    "ko": "“”‘’",
    "tr": "“”‘’",
    "sv": "””’’",
    "fi": "””’’",
}
_DOUBLE_QUOTES = "«»„“”「」『』"
_BRACKETS = {"(": ")", "[": "]", "{": "}", "【": "】"}
# Double quotation marks as conventions pair them: each tuple holds (opener, closer) pairs.
_QUOTE_STYLES: tuple[tuple[str, ...], ...] = (
    ("«»", "„“"),  # Russian, Ukrainian
    ("„“", "«»"),  # German with guillemets inside
    ("“”", "«»"),  # English, French inner, Chinese
    ("„”", "«»"),  # Polish, Hungarian
    ("「」", "『』"),  # Japanese, traditional Chinese
    ("””",),  # Swedish, Finnish
)
_FOLD_BRACKETS = str.maketrans("（）［］｛｝", "()[]{}")
_FULL_WIDTH_BRACKET_RE = re.compile("[（）［］｛｝]")
_DOUBLE_QUOTE_RE = re.compile(f"[{_DOUBLE_QUOTES}]")
# Possessive: a repeat starts with a whole run of letters and a whole run of spaces, so
# giving characters back can never find one (it only cost time). Before a letter, ``\b``
# is "no word character before": the same test as a look-behind, and quicker to try.
_REPEATED_WORD_RE = re.compile(r"\b([^\W\d_]{2,}+)\s++(\1)(?!\w)", re.IGNORECASE)
_ALLOWED_REPEATS = {"de": {"die", "der", "das"}, "en": {"that", "had"}, "fr": {"nous", "vous"}}
_DOUBLE_SPACE_RE = re.compile(r"(?<=\S) {2,}(?=\S)")
# A space before a mark that ends a clause: "платформи ." — not ".NET", not "5 ,5".
_SPACE_BEFORE_RE = re.compile(r"(?<=\S)[ \t\u00a0\u202f]+([.,;:!?])(?![\w])")
# What every match of the pattern above holds: a quick test that most texts fail.
_SPACE_BEFORE_HINT_RE = re.compile(r"[ \t\u00a0\u202f][.,;:!?]")
# Languages whose typography puts a (narrow no-break) space before some marks.
_SPACED_MARKS = {"fr": ";:!?"}


@check("punctuation")
def punctuation(ctx: EntryContext) -> Iterator[str]:
    """Sentence end kept (full-width 。？！ in Chinese, Japanese); no space before . , ; : ! ?

    French typography puts a space before ; : ! ? and is left alone there.
    """
    yield from _space_before_marks(ctx)
    source_end = sentence_end(ctx.source_markup.text)
    target_end = sentence_end(ctx.target_markup.text)
    if source_end is None and target_end is None:
        return
    if target_end is None:
        yield f"sentence end {source_end[1]!r} ({source_end[0]}) missing"  # type: ignore[index]
    elif source_end is None:
        if not _ABBREVIATION_RE.search(_trimmed(ctx.target_markup.text)):
            yield f"sentence end {target_end[1]!r} added: the source ends without one"
    elif source_end[0] != target_end[0]:
        yield f"sentence end changed: {source_end[1]!r} → {target_end[1]!r}"
    else:
        yield from _full_width_end(ctx, target_end)


def _space_before_marks(ctx: EntryContext) -> Iterator[str]:
    """A space before . , ; : ! ? that the source does not have, except where the target
    language's typography wants one (French: before ; : ! ?)."""
    text = ctx.target_markup.text
    if not _SPACE_BEFORE_HINT_RE.search(text):
        return
    spaced = _SPACED_MARKS.get(ctx.language, "")
    source = list(_spaces_before(ctx.source_markup.text))
    for match in _SPACE_BEFORE_RE.finditer(text):
        mark = match.group(1)
        if mark in spaced:
            continue
        if mark in source:
            source.remove(mark)
            continue
        context = text[max(0, match.start() - 15) : match.end() + 5].strip()
        yield f"space before {mark!r}: {context!r}"


@lru_cache(maxsize=4096)
def _spaces_before(text: str) -> tuple[str, ...]:
    """The marks with a space before them in ``text`` (a source: shared by its locales)."""
    if not _SPACE_BEFORE_HINT_RE.search(text):
        return ()
    return tuple(m.group(1) for m in _SPACE_BEFORE_RE.finditer(text))


def sentence_end(text: str) -> tuple[str, str] | None:
    """The kind and character of the mark that ends ``text``, past closing quotes.

    >>> sentence_end("**Итог:**")
    ('colon', ':')
    >>> sentence_end("这是结果。」")
    ('full stop', '。')
    """
    trimmed = _trimmed(text)
    if trimmed.endswith("..."):
        return "ellipsis", "..."
    if trimmed and trimmed[-1] in _END_CHARS:
        return _END_CHARS[trimmed[-1]], trimmed[-1]
    return None


def _trimmed(text: str) -> str:
    return text.rstrip(_CLOSERS)


def _full_width_end(ctx: EntryContext, end: tuple[str, str]) -> Iterator[str]:
    name, char = end
    ascii_form, wide_form = _ENDS.get(name, (char, char))
    before = _trimmed(ctx.target_markup.text)[:-1].rstrip()
    if ctx.language in _FULL_WIDTH_LANGUAGES and char == ascii_form != wide_form:
        if before and not before[-1].isascii():
            yield f"sentence end {char!r} should be full-width {wide_form!r} in {ctx.locale}"
    elif ctx.language not in _FULL_WIDTH_LANGUAGES and char == wide_form != ascii_form:
        yield f"sentence end {char!r} is full-width: write {ascii_form!r} in {ctx.locale}"


@check("whitespace")
def whitespace(ctx: EntryContext) -> Iterator[str]:
    """Leading and trailing whitespace as in the source (it becomes indentation or breaks)."""
    source, target = ctx.source, ctx.target
    for where, ends in (("leading", _leading), ("trailing", _trailing)):
        if ends(source) != ends(target):
            yield f"{where} whitespace changed: {ends(source)!r} → {ends(target)!r}"


def _leading(text: str) -> str:
    return text[: len(text) - len(text.lstrip())]


def _trailing(text: str) -> str:
    return text[len(text.rstrip()) :]


@check("spacing", severity="warning")
def spacing(ctx: EntryContext) -> Iterator[str]:
    """No doubled spaces between words that the source does not have."""
    if "  " not in ctx.target_markup.masked:  # every doubled space holds two spaces
        return
    target = _DOUBLE_SPACE_RE.finditer(ctx.target_markup.masked)
    extra = len(list(target)) - _doubled_spaces(ctx.source_markup.masked)
    if extra > 0:
        first = next(_DOUBLE_SPACE_RE.finditer(ctx.target_markup.masked))
        context = ctx.target_markup.masked[max(0, first.start() - 12) : first.end() + 12]
        yield f"doubled space: {context.strip()!r}"


@lru_cache(maxsize=4096)
def _doubled_spaces(text: str) -> int:
    return len(_DOUBLE_SPACE_RE.findall(text)) if "  " in text else 0


@check("repeated-word", severity="warning")
def repeated_word(ctx: EntryContext) -> Iterator[str]:
    """No word written twice in a row ("the the") unless the source does the same."""
    allowed = _ALLOWED_REPEATS.get(ctx.language, ())
    source = _repeats(ctx.source_markup.text)
    repeats = [
        m.group(0)
        for m in _REPEATED_WORD_RE.finditer(ctx.target_markup.text)
        if m.group(1).casefold() not in allowed
    ]
    for repeat in repeats[source:]:
        yield f"repeated word: {repeat!r}"


@lru_cache(maxsize=4096)
def _repeats(text: str) -> int:
    return len(_REPEATED_WORD_RE.findall(text))


@check("brackets")
def brackets(ctx: EntryContext) -> Iterator[str]:
    """Brackets and quotation marks open and close as often as in the source."""
    source = _pairing(ctx.source_markup.text)
    target = _pairing(ctx.target_markup.text)
    if target == source:
        return
    for (opener, closer), balance, was in zip(_BRACKETS.items(), target[0], source[0], strict=True):
        if balance != was:
            yield f"unbalanced {opener}{closer}: {_describe(balance)}"
    if target[1] > source[1]:
        yield "unbalanced quotation marks: an opening or closing mark is missing"
    if target[2] > source[2]:
        yield 'unbalanced "": an odd number of straight quotes'


@lru_cache(maxsize=4096)
def _pairing(text: str) -> tuple[tuple[int, ...], int, int]:
    """Per bracket pair, opened minus closed; unmatched quotation marks; an odd number of
    straight quotes (1) or not (0). A source's are shared by all its locales."""
    text = _folded(text)
    balances = tuple(_balance(text, opener, closer) for opener, closer in _BRACKETS.items())
    return balances, quote_imbalance(text), text.count('"') % 2


def quote_imbalance(text: str) -> int:
    """Unmatched quotation marks under the convention that fits ``text`` best.

    ``“`` opens in English and closes in German, so each convention is tried in turn.

    >>> quote_imbalance("„Helios“"), quote_imbalance("“Helios”"), quote_imbalance("„Helios")
    (0, 0, 1)
    """
    marks = _DOUBLE_QUOTE_RE.findall(text)
    if not marks:
        return 0
    return min(_imbalance_under(marks, style) for style in _QUOTE_STYLES)


def _imbalance_under(marks: list[str], style: tuple[str, ...]) -> int:
    known = "".join(style)
    unmatched = sum(1 for c in marks if c not in known)
    for opener, closer in style:
        if opener == closer:
            unmatched += marks.count(opener) % 2
        else:
            unmatched += abs(marks.count(opener) - marks.count(closer))
    return unmatched


def _folded(text: str) -> str:
    """Full-width brackets count as their ASCII forms."""
    return text.translate(_FOLD_BRACKETS) if _FULL_WIDTH_BRACKET_RE.search(text) else text


def _balance(text: str, opener: str, closer: str) -> int:
    return text.count(opener) - text.count(closer)


def _describe(balance: int) -> str:
    if balance > 0:
        return f"{balance} more opened than closed"
    return f"{-balance} more closed than opened"


@check("quotes", severity="warning")
def quotes(ctx: EntryContext) -> Iterator[str]:
    """Quotation marks are the target language's own (“” in English, „“ in German, «» in Russian)."""
    own = QUOTES.get(ctx.language)
    if own is None or not _DOUBLE_QUOTE_RE.search(ctx.target_markup.text):
        return
    foreign = sorted(set(_DOUBLE_QUOTE_RE.findall(ctx.target_markup.text)) - set(own))
    if foreign:
        yield (
            f"quotation marks {''.join(foreign)} are not used in {ctx.locale}: "
            f"write {own[0]}…{own[1]}"
        )
