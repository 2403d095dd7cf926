"""A hostile translator cannot change a built or published page's structure (fuzzed).

Every segment of a document that has every kind of slot — ATX and setext headings,
paragraphs, list items, blockquotes, table header and body cells, footnotes, link
titles, front-matter scalars (plain, quoted, literal and folded blocks) and HTML blocks
made translatable — gets a random msgstr mixing block syntax, carriage returns and
Unicode line separators, pipes, backslashes, fences, HTML and reference definitions.
The verified build must then render to the source's HTML structure (as the pipeline
and as the published site render it; inline elements of a block may change order), keep every front-matter key and untranslated
value (read with a YAML parser), and bring no line-end character the source lacks.

Derandomized, with at least 2,000 examples in CI (``TOLMACH_EXAMPLES`` raises it).
"""

from __future__ import annotations

from collections import Counter

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import EXAMPLES, ROBUST

from tolmach.markdown.build import LINE_SEPARATORS
from tolmach.markdown.compare import html_shape
from tolmach.markdown.document import SegmentOptions, markdown_parser, parse_document
from tolmach.markdown.verify import Verifier
from tolmach.publish.render import render_markdown

MD = markdown_parser()
HOSTILE = settings(ROBUST, max_examples=max(2000, EXAMPLES))
TRIED: Counter[str] = Counter()

ARTICLE = """# Заголовок первого уровня

Заголовок второго
-----------------

Абзац с [ссылкой](https://example.org "Титул"), `кодом` и <kbd>Ctrl</kbd>.

- Пункт списка
  с продолжением
- Второй пункт

1. Первый
2. Второй

> Цитата
> в две строки
>
> - пункт в цитате

| Флаг | Значение |
|:-----|---------:|
| один | два |

Текст со сноской[^1] и [ссылкой][r].

[^1]: Текст сноски.

[r]: https://example.org/ref "Титул ссылки"
"""

FRONT_MATTER = """---
title: Заголовок
description: 'Описание статьи'
summary: "Кратко: главное"
abstract: |
  Первая строка
  вторая строка
note: >
  Свёрнутый
  текст
layout: post
tags: [a, b]
---

<div class="note">
Текст внутри блока.
</div>

Абзац после блока.
"""
KEYS = ("title", "description", "summary", "abstract", "note")
DOCUMENTS = [
    (ARTICLE, SegmentOptions()),
    (FRONT_MATTER, SegmentOptions(front_matter_keys=KEYS, html_text=True)),
]
VERIFIERS = [Verifier(parse_document(text, options), options=options) for text, options in DOCUMENTS]

_PIECES = [
    "Text", "слово", " ", "  ", "\t", "\n", "\n\n", "\r", "\r\n", "\u2028", "\u2029", "\u0085",
    "\x1c", "\x1d", "\x1e", "\x0b", "\x0c", "# ", "## ", "===", "---", "***", "- ", "* ",
    "+ ", "1. ", "2) ", "> ", "    ", "|", "\\|", "| a | b |\n|---|---|", "|---|", "```",
    "~~~", "```js", "<div>", "</div>", "<!--", "-->", "<script>x()</script>", "<pre>",
    "\\", "\\\\", "[x]: /evil", "[r]: /evil 'T'", "[^1]: note", "[^1]", "[^9]", "*", "**",
    "_", "`", "``", "[", "]", "(", ")", '"', "'", "<https://evil.example>", "[a](/evil)",
    "![i](/evil.png)", ":", ": ", "#", " #", "&amp;", "&#10;", "{{", "}}", "%", "@", "!",
    "?", "-", "=", ">", "<", "&", "\0",
]
hostile_msgstr = st.lists(st.sampled_from(_PIECES), min_size=1, max_size=12).map("".join)


@st.composite
def hostile_catalogs(draw):
    which = draw(st.sampled_from(range(len(DOCUMENTS))))
    verifier = VERIFIERS[which]
    texts = sorted({s.text for s in verifier.document.segments})
    chosen = draw(st.lists(st.sampled_from(texts), min_size=1, max_size=len(texts), unique=True))
    return which, {text: draw(hostile_msgstr) for text in chosen}


_BLOCKS = frozenset(
    {"p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "blockquote", "pre", "table",
     "thead", "tbody", "tr", "th", "td", "hr", "div", "section"}
)


_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})


def block_shape(html: str) -> list:
    """Elements and attributes of rendered HTML, each block's inline elements as a
    multiset: a translation may reorder links and code in a sentence, nothing more."""
    shape: list = []
    run: list = []
    for item in html_shape(html, keep_text=False):
        if item[1] in _BLOCKS:
            shape += [sorted(run, key=repr), item]
            run = []
        else:
            run.append(item)
    return [*shape, sorted(run, key=repr)]


def same_block_shape(source: str, built: str) -> bool:
    return block_shape(MD.render(source)) == block_shape(MD.render(built))


def published_shape(text: str) -> list:
    """The published page's shape; a heading's ``id`` is made from its (translated) text."""
    return [
        (item[0], item[1], tuple(a for a in item[2] if a[0] != "id"))
        if isinstance(item, tuple) and item[0] == "open" and item[1] in _HEADINGS
        else item
        for item in block_shape(render_markdown(text))
    ]


def front_matter(text: str) -> dict:
    """The front matter read by a YAML parser: the lines between the two ``---``."""
    lines = text.split("\n")
    end = lines.index("---", 1)
    return yaml.safe_load("\n".join(lines[1:end]))


def test_no_hostile_catalog_changes_a_built_or_published_structure():
    @HOSTILE
    @given(hostile_catalogs())
    def build(case) -> None:
        which, translations = case
        TRIED["catalogs"] += 1
        verifier = VERIFIERS[which]
        source = verifier.document.text
        result = verifier.build(translations)
        TRIED["rejected"] += len(result.rejected)
        TRIED["used"] += len(translations) - len(result.rejected)
        built = result.text
        assert same_block_shape(source, built)
        assert published_shape(source) == published_shape(built)
        assert not set(built) & (set(LINE_SEPARATORS) - set(source))
        if which == 1:
            before, after = front_matter(source), front_matter(built)
            assert list(before) == list(after)
            for key, value in before.items():
                if key in KEYS:
                    assert isinstance(after[key], str)
                else:
                    assert after[key] == value

    build()
    print(
        f"\nhostile catalogs: {TRIED['catalogs']} built and published, "
        f"{TRIED['rejected']} translations left out, {TRIED['used']} used; no structure changed"
    )
