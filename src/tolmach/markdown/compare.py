"""Compare two Markdown texts by the HTML they render to.

A translation may change text but never structure: the same elements in the same
nesting with the same attributes (alt and title excepted: they are translatable
text). Whitespace inside text is compared collapsed, as a browser shows it, except
inside ``<pre>``.
"""

from __future__ import annotations

import functools
import re
from html.parser import HTMLParser

from markdown_it import MarkdownIt

from tolmach.markdown.dialects import Dialect
from tolmach.markdown.document import markdown_parser

__all__ = ["html_shape", "same_html", "same_structure"]

_TEXT_ATTRIBUTES = frozenset({"alt", "title"})
_WS_RE = re.compile(r"\s+")
# HTML5 closes "<!-->" and "<!--->" at once; Python's HTMLParser (before 3.13) does not.
_ABRUPT_COMMENT_RE = re.compile(r"<!---?>")


class _ShapeParser(HTMLParser):
    def __init__(self, keep_text: bool):
        super().__init__(convert_charrefs=True)
        self.keep_text = keep_text
        self.items: list[tuple] = []
        self.pre_depth = 0

    def _attrs(self, attrs) -> tuple:
        if self.keep_text:
            return tuple(attrs)
        return tuple((k, v) for k, v in attrs if k not in _TEXT_ATTRIBUTES)

    def handle_starttag(self, tag, attrs):
        self.items.append(("open", tag, self._attrs(attrs)))
        self.pre_depth += tag == "pre"

    def handle_startendtag(self, tag, attrs):
        self.items.append(("void", tag, self._attrs(attrs)))

    def handle_endtag(self, tag):
        self.items.append(("close", tag))
        self.pre_depth -= tag == "pre"

    def handle_comment(self, data):
        self.items.append(("comment", data))

    def handle_data(self, data):
        in_pre = self.pre_depth > 0
        if not in_pre:
            data = _WS_RE.sub(" ", data)
        if self.items and self.items[-1][0] == "text":
            data = self.items.pop()[1] + data
        self.items.append(("text", data, in_pre))


def html_shape(html: str, keep_text: bool = True) -> list[tuple]:
    """Elements, attributes and (optionally) text of an HTML fragment, as a list."""
    parser = _ShapeParser(keep_text)
    parser.feed(_ABRUPT_COMMENT_RE.sub("<!---->", html))
    parser.close()
    shape = []
    for item in parser.items:
        if item[0] == "text":
            text = item[1] if item[2] else item[1].strip()
            if not keep_text or not text.strip():
                continue
            item = ("text", text)
        shape.append(item)
    return shape


@functools.lru_cache(maxsize=2)
def _parser(preset: str) -> MarkdownIt:
    return MarkdownIt("commonmark") if preset == "commonmark" else markdown_parser()


def same_html(
    source: str, output: str, preset: str = "tolmach", dialect: Dialect | None = None
) -> bool:
    """True if both render to the same HTML, text included (whitespace collapsed).

    ``preset`` is ``"tolmach"`` (the extraction parser) or ``"commonmark"``; a
    ``dialect`` renders with that dialect's parser instead.
    """
    md = dialect.parser() if dialect is not None else _parser(preset)
    return html_shape(_render(md, source)) == html_shape(_render(md, output))


def same_structure(
    source: str, output: str, preset: str = "tolmach", dialect: Dialect | None = None
) -> bool:
    """True if both render to the same elements and attributes; text may differ."""
    md = dialect.parser() if dialect is not None else _parser(preset)
    return html_shape(_render(md, source), False) == html_shape(_render(md, output), False)


def _render(md: MarkdownIt, text: str) -> str:
    """HTML of ``text``; a leading BOM is a signature, not text (as the segmenter sees it)."""
    return md.render(text.removeprefix("\ufeff"))
