"""``wrap`` (the breaks found around each line's end) against ``break_lines`` over every
opportunity: the catalog writer switched to the first, so both must always agree."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from strategies import ROBUST

from tolmach.catalog.linebreak import break_lines, break_opportunities, fits_unbroken, wrap
from tolmach.catalog.pofile import _escape

# Letters, digits, spaces (runs of them too) and the characters whose classes make or
# forbid breaks: hyphens, dashes, slashes, brackets, quotes, no-break and zero-width
# spaces, a combining accent, wide characters, escapes.
_PIECES = st.sampled_from(
    ["слово", "ab", "x", "123", " ", "  ", "-", "—", "–", "/", "(", ")", "«", "»", ",", ".",
     ":", "!", "?", '"', "'", "\\", "\n", "\t", "\u00a0", "\u200b", "\u0301", "中文", "カ",
     "한", "😀", "%", "$", "№", "…", "http://example.org/a-very-long-path/with-parts"]
)
_TEXTS = st.lists(_PIECES, max_size=80).map("".join)


def reference(text: str, width: int, start: int, exclude: int | None) -> list[int]:
    positions = [p for p in break_opportunities(text) if p != exclude]
    return break_lines(text, positions, width, start)


@ROBUST
@given(_TEXTS, st.integers(1, 90), st.sampled_from([0, 6, 13]), st.booleans())
def test_wrap_breaks_where_break_lines_does(raw: str, width: int, start: int, final: bool):
    text = _escape(raw)
    exclude = len(text) - 2 if final else None
    assert wrap(text, width, start, exclude) == reference(text, width, start, exclude)


@ROBUST
@given(_TEXTS, st.integers(1, 90), st.sampled_from([0, 6, 13]), st.booleans())
def test_fits_unbroken_says_whether_wrap_breaks_nothing(
    raw: str, width: int, start: int, final: bool
):
    text = _escape(raw)
    exclude = len(text) - 2 if final else None
    assert fits_unbroken(text, width, start, exclude) == (wrap(text, width, start, exclude) == [])


def test_wrap_on_long_russian_sentences_and_words_too_long_for_a_line():
    sentence = ("Функция-конструктор вызывается с оператором «new», а стрелочная функция — "
                "нет; см. https://learn.javascript.ru/constructor-new и главу 5.")
    for text in (sentence, sentence * 4, "а" * 200 + " " + sentence, sentence.replace(" ", "")):
        for width in (20, 45, 77):
            escaped = _escape(text)
            assert wrap(escaped, width) == reference(escaped, width, 0, None)
            assert wrap(escaped, width), "each of these needs a break"
