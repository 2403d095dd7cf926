"""Hypothesis strategies for Markdown articles, and the settings the property tests share.

A document is built from blocks (paragraphs with inline markup, headings, lists,
blockquotes, code, HTML, tables, definitions, footnotes, front matter), each a list of
lines; containers prefix the lines of the blocks they hold. The finished text is then
roughened the way real files are: CRLF line ends, tabs, trailing spaces, a BOM.

Every generated text is valid Markdown (every text is); the strategies only make the
interesting shapes likely.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

__all__ = [
    "ROBUST",
    "block_lines",
    "inline_text",
    "markdown_documents",
    "plain_words",
]

#: Examples per property in CI; ``TOLMACH_EXAMPLES=5000 pytest ...`` explores further.
EXAMPLES = int(os.environ.get("TOLMACH_EXAMPLES", "300"))

#: Fixed number of examples, no deadline, derandomized: CI runs the same inputs each time.
ROBUST = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)

# --- words and inline markup -----------------------------------------------------------

_ALPHABETS = (
    "абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ",
    "abcdefghijklmnopqrstuvwxyzABCXYZ0123456789",
    "中文字符测试漢字かなカナ한국어",
    "äöüßéèçñøåÆŒ",
    "😀🚀✨👍🏽",
)
_PUNCTUATION = list(".,;:!?()-–—«»\"'/%№…")
_AWKWARD = list("*_`[]<>&\\#|~=+!")  # characters Markdown gives meaning to

plain_words = st.one_of(
    *(st.text(alphabet, min_size=1, max_size=8) for alphabet in _ALPHABETS[:2]),
    st.text(_ALPHABETS[0], min_size=1, max_size=10),  # Russian is the source language
    st.text(_ALPHABETS[2], min_size=1, max_size=4),
    st.text(_ALPHABETS[3] + _ALPHABETS[1], min_size=1, max_size=6),
    st.sampled_from(list(_ALPHABETS[4])),
)
_word = st.one_of(
    plain_words,
    plain_words.map(lambda w: w + "."),
    st.tuples(plain_words, st.sampled_from(_PUNCTUATION)).map("".join),
)
_urls = st.sampled_from(
    [
        "https://example.org",
        "http://x.org/a_b*c",
        "/docs/page.html#раздел",
        "<url with spaces>",
        "https://пример.рф/путь?q=1&r=2",
        "img.png",
        "",
    ]
)
_titles = st.sampled_from(["", ' "Заголовок"', " 'title'", " (скобки)", ' "a \\" b"'])
_labels = st.sampled_from(["ref", "Ссылка", "a b", "1", "x_y"])


@st.composite
def _phrase(draw, max_words: int = 4) -> str:
    return " ".join(draw(st.lists(_word, min_size=1, max_size=max_words)))


@st.composite
def _inline_atom(draw) -> str:
    """One word or one piece of inline markup."""
    phrase = _phrase(3)
    kind = draw(
        st.sampled_from(
            [
                "word", "word", "word", "word", "emphasis", "strong", "underscore", "code",
                "code2", "link", "image", "reflink", "collapsed", "shortcut", "autolink",
                "email", "entity", "numeric", "escape", "html", "footnote", "awkward",
                "strike", "nested",
            ]
        )
    )
    if kind == "word":
        return draw(_word)
    if kind == "emphasis":
        return f"*{draw(phrase)}*"
    if kind == "strong":
        return f"**{draw(phrase)}**"
    if kind == "underscore":
        return f"_{draw(phrase)}_"
    if kind == "code":
        return "`" + draw(st.sampled_from(["x = 1", "a*b*c", "[не ссылка](x)", "<b>", " `` ", "\\"])) + "`"
    if kind == "code2":
        return "``" + draw(st.sampled_from(["a ` b", "`x`", "код"])) + "``"
    if kind == "link":
        return f"[{draw(phrase)}]({draw(_urls)}{draw(_titles)})"
    if kind == "image":
        return f"![{draw(phrase)}]({draw(_urls)}{draw(_titles)})"
    if kind == "reflink":
        return f"[{draw(phrase)}][{draw(_labels)}]"
    if kind == "collapsed":
        return f"[{draw(_labels)}][]"
    if kind == "shortcut":
        return f"[{draw(_labels)}]"
    if kind == "autolink":
        return draw(st.sampled_from(["<https://example.org/путь>", "<mailto:a@b.c>", "<irc://x>"]))
    if kind == "email":
        return "<info@example.org>"
    if kind == "entity":
        return draw(st.sampled_from(["&amp;", "&nbsp;", "&copy;", "&laquo;", "&bogus;", "&"]))
    if kind == "numeric":
        return draw(st.sampled_from(["&#1046;", "&#x416;", "&#0;", "&#X1F600;"]))
    if kind == "escape":
        return "\\" + draw(st.sampled_from(list("*_`[]<>#\\!-.|")))
    if kind == "html":
        return draw(
            st.sampled_from(
                ["<b>жирный</b>", "<span class=\"x\">", "</span>", "<br/>", "<!-- note -->",
                 "<a href='x'>", "<img src=\"a.png\" alt=\"альт\">"]
            )
        )
    if kind == "footnote":
        return draw(st.sampled_from(["[^1]", "[^note]", "[^сноска]"]))
    if kind == "awkward":
        return "".join(draw(st.lists(st.sampled_from(_AWKWARD), min_size=1, max_size=3)))
    if kind == "strike":
        return f"~~{draw(phrase)}~~"
    return f"**{draw(phrase)} [{draw(phrase)}](x) `c`**"


@st.composite
def inline_text(draw, max_atoms: int = 6) -> str:
    """One line of inline Markdown: words and markup separated by spaces (or not)."""
    atoms = draw(st.lists(_inline_atom(), min_size=1, max_size=max_atoms))
    seps = draw(st.lists(st.sampled_from([" ", " ", " ", "", "  "]), min_size=len(atoms), max_size=len(atoms)))
    text = "".join(a + s for a, s in zip(atoms, seps, strict=True)).strip(" ")
    return text or "текст"


# --- blocks --------------------------------------------------------------------------


@st.composite
def _paragraph(draw) -> list[str]:
    lines = draw(st.lists(inline_text(), min_size=1, max_size=3))
    out = []
    for index, line in enumerate(lines):
        if index < len(lines) - 1:
            line += draw(st.sampled_from(["", "", "", "  ", "\\", " "]))  # hard breaks, soft
        if index and draw(st.integers(0, 4)) == 0:
            line = draw(st.sampled_from([" ", "  ", "   "])) + line  # continuation indent
        out.append(line)
    return out


@st.composite
def _atx_heading(draw) -> list[str]:
    level = draw(st.integers(1, 6))
    closing = draw(st.sampled_from(["", "", " #", " " + "#" * level, " ##  "]))
    space = draw(st.sampled_from([" ", " ", "  ", "\t"]))
    lead = draw(st.sampled_from(["", "", " ", "   "]))
    return [f"{lead}{'#' * level}{space}{draw(inline_text(4))}{closing}"]


@st.composite
def _setext_heading(draw) -> list[str]:
    underline = draw(st.sampled_from(["===", "---", "=", "--", "========  "]))
    return [*draw(st.lists(inline_text(4), min_size=1, max_size=2)), underline]


@st.composite
def _fenced_code(draw) -> list[str]:
    char = draw(st.sampled_from(["`", "~"]))
    fence = char * draw(st.integers(3, 5))
    info = draw(st.sampled_from(["", "python", "bash {.x}", " text", "ру"]))
    body = draw(
        st.lists(st.sampled_from(["x = 1", "# не заголовок", "> не цитата", "", "  - a", "\tтаб"]), max_size=3)
    )
    closed = draw(st.integers(0, 5)) > 0
    return [fence + info, *body, *([fence] if closed else [])]


@st.composite
def _indented_code(draw) -> list[str]:
    body = draw(st.lists(st.sampled_from(["code()", "# комментарий", "- not list", "\tx"]), min_size=1, max_size=3))
    return ["    " + line for line in body]


@st.composite
def _html_block(draw) -> list[str]:
    return draw(
        st.sampled_from(
            [
                ["<div>", "текст *внутри*", "</div>"],
                ["<div class=\"note\">", "", "Абзац **внутри** div.", "", "</div>"],
                ["<!-- комментарий", "на две строки -->"],
                ["<details><summary>Подробнее</summary>", "", "Скрыто.", "", "</details>"],
                ["<pre>", "  текст   с пробелами", "</pre>"],
                ["<table><tr><td>ячейка</td></tr></table>"],
                ["<?php echo 1; ?>"],
                ["<br>"],
            ]
        )
    )


@st.composite
def _table(draw) -> list[str]:
    columns = draw(st.integers(1, 3))
    cell = st.one_of(inline_text(2).map(lambda t: t.replace("|", "\\|")), st.just(""), st.just("`a \\| b`"))
    aligns = draw(st.lists(st.sampled_from(["---", ":--", "--:", ":-:"]), min_size=columns, max_size=columns))
    outer = draw(st.booleans())

    def row(cells: list[str]) -> str:
        inner = " | ".join(cells)
        return f"| {inner} |" if outer else inner

    header = draw(st.lists(cell, min_size=columns, max_size=columns))
    if not any(c.strip() for c in header) and not outer:
        header[0] = "А"
    rows = draw(st.lists(st.lists(cell, min_size=columns, max_size=columns), max_size=3))
    return [row(header), row(aligns), *(row(r) for r in rows)]


@st.composite
def _reference_definition(draw) -> list[str]:
    label = draw(_labels)
    url = draw(st.sampled_from(["https://example.org", "<a b>", "/путь", "x.html"]))
    title = draw(st.sampled_from(["", ' "Заголовок ссылки"', " 'один'", " (два)"]))
    return [f"[{label}]: {url}{title}"]


@st.composite
def _footnote(draw) -> list[str]:
    label = draw(st.sampled_from(["1", "note", "сноска"]))
    lines = draw(_paragraph())
    return [f"[^{label}]: {lines[0]}", *("    " + line for line in lines[1:])]


@st.composite
def _thematic_break(draw) -> list[str]:
    return [draw(st.sampled_from(["---", "***", "___", " - - -", "* * *"]))]


def _leaf_blocks():
    return st.one_of(
        _paragraph(), _paragraph(), _paragraph(), _atx_heading(), _setext_heading(),
        _fenced_code(), _indented_code(), _html_block(), _table(), _reference_definition(),
        _footnote(), _thematic_break(),
    )


@st.composite
def _blockquote(draw, depth: int) -> list[str]:
    inner = draw(_block_sequence(depth + 1, max_blocks=3))
    marker = draw(st.sampled_from(["> ", "> ", ">", " > "]))
    lazy = draw(st.booleans())
    out = []
    for index, line in enumerate(inner):
        if lazy and index and line and inner[index - 1] and draw(st.integers(0, 3)) == 0:
            out.append(line)  # a lazy continuation line (may also end the quote: any text is fine)
        else:
            out.append((marker + line) if line else marker.rstrip())
    return out


@st.composite
def _list(draw, depth: int) -> list[str]:
    ordered = draw(st.booleans())
    if ordered:
        delimiter = draw(st.sampled_from([".", ")"]))
        first = draw(st.sampled_from([1, 1, 0, 3, 10, 123456789]))
    else:
        bullet = draw(st.sampled_from(["-", "*", "+"]))
    spacing = draw(st.sampled_from([" ", " ", "  ", "    ", "\t"]))
    loose = draw(st.booleans())
    items = draw(st.lists(_block_sequence(depth + 1, max_blocks=2), min_size=1, max_size=3))
    out: list[str] = []
    for number, item in enumerate(items):
        marker = f"{first + number}{delimiter}" if ordered else bullet
        width = len(marker) + (len(spacing) if spacing != "\t" else 4 - len(marker) % 4)
        if width > len(marker) + 4:
            width = len(marker) + 1
        indent = " " * width
        if number and loose:
            out.append("")
        for index, line in enumerate(item):
            if index == 0:
                out.append(marker + spacing + line)
            else:
                out.append(indent + line if line else "")
    return out


@st.composite
def _block_sequence(draw, depth: int = 0, max_blocks: int = 6) -> list[str]:
    """Blocks separated by blank lines (sometimes none: then they may merge, as in life)."""
    choices = [_leaf_blocks()]
    if depth < 3:
        choices += [_blockquote(depth), _list(depth)]
    blocks = draw(st.lists(st.one_of(*choices), min_size=1, max_size=max_blocks))
    out: list[str] = []
    for index, block in enumerate(blocks):
        if index:
            out += [""] * draw(st.sampled_from([1, 1, 1, 1, 2, 0]))
        out += block
    return out


block_lines = _block_sequence


@st.composite
def _front_matter(draw) -> list[str]:
    title = draw(
        st.sampled_from(
            ["Заголовок статьи", '"В кавычках: да"', "'одинарные ''кавычки'''", "ROCm 7: обзор",
             "Привет # не комментарий", "|", ">"]
        )
    )
    lines = ["---", f"title: {title}"]
    if title in ("|", ">"):
        lines += ["  Блочное значение", "  на две строки"]
    if draw(st.booleans()):
        lines.append(f"description: {draw(_phrase(5))}".replace(":", " ", 1).replace(" ", ": ", 1))
    if draw(st.booleans()):
        lines += ["tags:", "  - gpu", "  - рокм", "date: 2024-01-01"]
    lines.append(draw(st.sampled_from(["---", "---", "..."])))
    return lines


# --- the roughening -------------------------------------------------------------------


@st.composite
def markdown_documents(draw) -> str:
    """A whole article: maybe front matter, blocks, then line ends and spaces roughened."""
    lines = draw(_block_sequence())
    if draw(st.integers(0, 3)) == 0:
        lines = [*draw(_front_matter()), "", *lines]
    if draw(st.integers(0, 4)) == 0:
        lines = [
            line.replace("    ", "\t", 1) if line.startswith("    ") and draw(st.booleans()) else line
            for line in lines
        ]
    if draw(st.integers(0, 4)) == 0:
        lines = [
            line + draw(st.sampled_from(["", " ", "\t", "   "])) if line else line for line in lines
        ]
    ending = draw(st.sampled_from(["\n", "\n", "\n", "\r\n", "mixed", "\r"]))
    if ending == "mixed":
        text = "".join(line + draw(st.sampled_from(["\n", "\r\n"])) for line in lines)
    else:
        text = ending.join(lines) + ending
    if draw(st.integers(0, 5)) == 0:
        text = text.rstrip("\r\n")  # no final line end
    if draw(st.integers(0, 5)) == 0:
        text = "\ufeff" + text
    return text
