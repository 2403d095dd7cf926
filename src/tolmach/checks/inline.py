"""The inline Markdown of one string, parsed once and shared by every check.

A msgid is the inline content of one block. markdown-it-py's inline parser tells code
spans, links, images, autolinks and raw HTML apart. Reference-style links and footnote
references need definitions the entry does not have: their labels are read from the raw
text (code spans masked) and blanked before parsing, so that ``*`` in a label is never
read as emphasis. A shortcut ``[label]`` may or may not be a link; it is kept apart as a
candidate.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.footnote import footnote_plugin

from tolmach.markdown.atoms import TRANSLATABLE_ATTRIBUTES, atom_of, normalize_tag

__all__ = [
    "OBJECT",
    "TRANSLATABLE_ATTRIBUTES",
    "InlineMarkup",
    "inline_markup",
    "mask_code",
    "normalize_tag",
]

OBJECT = "\ufffc"
"""Stands in the visible text for a code span, raw HTML or an autolink: not a word."""

_MD = MarkdownIt("commonmark").enable("table").use(footnote_plugin)

_MARKDOWN_CHAR_RE = re.compile(r"[`*_\[\]<>&\\\n\r\x00]")
_CODE_SPAN_RE = re.compile(r"(?<![\\`])(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)
_FOOTNOTE_RE = re.compile(r"\[\^([^\]\s]+)\]")
_FULL_REFERENCE_RE = re.compile(r"\]\[([^\[\]]*[^\[\]\s][^\[\]]*)\]")
_COLLAPSED_REFERENCE_RE = re.compile(r"\[([^\[\]]+)\]\[\]")
_SHORTCUT_RE = re.compile(r"(?<!\\)\[([^\[\]^][^\[\]]*)\](?!\[[^\[\]]*\])")
_ENTITY_RE = re.compile(r"(?<!\\)&(?:[A-Za-z][A-Za-z0-9]{1,31}|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6});")
_DELIMITER_RUN_RE = re.compile(r"\*+|(?<![^\W_])_+|_+(?![^\W_])")


@dataclass(frozen=True)
class InlineMarkup:
    """Everything in one string a translation must keep, plus its visible text."""

    code: tuple[str, ...]
    links: tuple[str, ...]
    images: tuple[str, ...]
    autolinks: tuple[str, ...]
    html: tuple[str, ...]
    entities: tuple[str, ...]
    footnotes: tuple[str, ...]
    labels: tuple[str, ...]
    shortcuts: tuple[str, ...]
    strong: int
    emphasis: int
    hardbreaks: int
    stray_delimiters: tuple[str, ...]
    text: str
    masked: str


@lru_cache(maxsize=4096)
def inline_markup(text: str) -> InlineMarkup:
    """Parse ``text`` as inline Markdown and collect its markup (cached per string)."""
    if not _MARKDOWN_CHAR_RE.search(text):
        return _plain(text)
    return _parsed(text)


def _parsed(text: str) -> InlineMarkup:
    masked = mask_code(text)
    children = _children(_blank_labels(text, masked))
    tokens = _Tokens.collect(children)
    return InlineMarkup(
        code=tuple(tokens.code),
        links=tuple(tokens.links),
        images=tuple(tokens.images),
        autolinks=tuple(tokens.autolinks),
        html=tuple(tokens.html),
        entities=tuple(m.group(0) for m in _ENTITY_RE.finditer(masked)),
        footnotes=tuple(m.group(1) for m in _FOOTNOTE_RE.finditer(masked)),
        labels=tuple(_reference_labels(masked)),
        shortcuts=tuple(_normalize_label(m.group(1)) for m in _SHORTCUT_RE.finditer(masked)),
        strong=tokens.strong,
        emphasis=tokens.emphasis,
        hardbreaks=tokens.hardbreaks,
        stray_delimiters=tuple(tokens.stray),
        text=_mask_references("".join(_visible_pieces(children))),
        masked=masked,
    )


_ATOM_FIELDS = {"code": "code", "link": "links", "autolink": "autolinks", "image": "images",
                "html": "html"}


@dataclass
class _Tokens:
    """The markup tokens of one parse, gathered in a single walk."""

    code: list[str] = field(default_factory=list)
    links: list[str] = field(default_factory=list)
    images: list[str] = field(default_factory=list)
    autolinks: list[str] = field(default_factory=list)
    html: list[str] = field(default_factory=list)
    stray: list[str] = field(default_factory=list)
    strong: int = 0
    emphasis: int = 0
    hardbreaks: int = 0

    @classmethod
    def collect(cls, children: list[Token]) -> _Tokens:
        found = cls()
        for token in _walk(children):
            found.add(token)
        return found

    def add(self, token: Token) -> None:
        kind = token.type
        if kind == "text":
            if "*" in token.content or "_" in token.content:
                # a run of * or _ left as text is an emphasis that did not open or close
                self.stray.extend(m.group(0) for m in _DELIMITER_RUN_RE.finditer(token.content))
        elif (atom := atom_of(token)) is not None:
            field_name = _ATOM_FIELDS.get(atom[0])  # footnote references: read from raw text
            if field_name is not None:
                getattr(self, field_name).append(atom[1])
        elif kind == "strong_open":
            self.strong += 1
        elif kind == "em_open":
            self.emphasis += 1
        elif kind == "hardbreak":
            self.hardbreaks += 1


def _plain(text: str) -> InlineMarkup:
    """The markup of text without a character inline Markdown reacts to: none."""
    return InlineMarkup((), (), (), (), (), (), (), (), (), 0, 0, 0, (), text, text)


def mask_code(text: str) -> str:
    """``text`` with every code span replaced by :data:`OBJECT` characters of equal length."""
    if "`" not in text:
        return text
    return _CODE_SPAN_RE.sub(lambda m: OBJECT * len(m.group(0)), text)


def _children(text: str) -> list[Token]:
    tokens = _MD.parseInline(text)
    return list(tokens[0].children or []) if tokens else []


def _blank_labels(text: str, masked: str) -> str:
    """``[text][label]`` → ``[text][-]``: a label is a name, not inline Markdown."""
    pieces, end = [], 0
    for match in _FULL_REFERENCE_RE.finditer(masked):
        pieces.append(text[end : match.start(1)] + "-")
        end = match.end(1)
    return "".join(pieces) + text[end:] if pieces else text


def _walk(tokens: list[Token]) -> Iterator[Token]:
    for token in tokens:
        yield token
        if token.children:
            yield from _walk(token.children)


def _is_autolink(token: Token) -> bool:
    return token.type == "link_open" and token.markup in ("autolink", "linkify")


def _visible_pieces(children: list[Token]) -> Iterator[str]:
    """The text a reader sees, with an :data:`OBJECT` for code, HTML and autolinks."""
    in_autolink = False
    for token in children:
        if _is_autolink(token):
            in_autolink = True
            yield OBJECT
        elif token.type == "link_close" and in_autolink:
            in_autolink = False
        elif in_autolink:
            continue
        elif token.type == "text":
            yield token.content
        elif token.type in ("code_inline", "html_inline"):
            yield OBJECT
        elif token.type == "image":
            alt = "".join(c.content for c in token.children or [] if c.type == "text")
            yield f"{OBJECT}{alt}{OBJECT}"
        elif token.type in ("softbreak", "hardbreak"):
            yield "\n"


def _mask_references(visible: str) -> str:
    """Footnote references and ``][label]`` parts are markup, not text: mask them."""
    visible = _FOOTNOTE_RE.sub(OBJECT, visible)
    return _FULL_REFERENCE_RE.sub("]" + OBJECT, visible)


def _reference_labels(masked: str) -> Iterator[str]:
    """Labels of ``[text][label]`` and ``[label][]``, normalized the CommonMark way."""
    found = []
    for m in _FULL_REFERENCE_RE.finditer(masked):
        found.append((m.start(), m.group(1)))
    for m in _COLLAPSED_REFERENCE_RE.finditer(masked):
        if not m.group(1).startswith("^"):
            found.append((m.start(), m.group(1)))
    for _, label in sorted(found):
        yield _normalize_label(label)


def _normalize_label(label: str) -> str:
    """Labels match case-insensitively with runs of whitespace as one space."""
    return " ".join(label.split()).casefold()
