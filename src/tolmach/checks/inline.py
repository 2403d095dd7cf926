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
# Inline Markdown besides backticks, and whitespace other than a space (line breaks,
# tabs): text without any, between code spans, is plain text to the parser.
_BEYOND_CODE_RE = re.compile(r"[*_\[\]<>&\\\x00]|[^\S ]")
# What the parser rewrites inside a code span: line breaks, NUL (and tabs or no-break
# spaces at its ends, whose stripping parser versions differ on).
_REWRITTEN_IN_CODE_RE = re.compile(r"[^\S ]|\x00")
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
    """The markup of ``text``; one whose only inline Markdown is code spans is read
    without the parse (:func:`code_spans`), every other one is parsed."""
    masked = mask_code(text)
    source = _blank_labels(text, masked)
    spans = code_spans(source)
    if spans is None:
        return _from_parse(source, masked)
    code, visible = spans
    return _markup(masked, _Tokens(code=code), visible)


def _fully_parsed(text: str) -> InlineMarkup:
    """The markup of ``text`` from the inline parse, whatever the text holds."""
    masked = mask_code(text)
    return _from_parse(_blank_labels(text, masked), masked)


def _from_parse(source: str, masked: str) -> InlineMarkup:
    children = _children(source)
    return _markup(masked, _Tokens.collect(children), "".join(_visible_pieces(children)))


def code_spans(text: str) -> tuple[list[str], str] | None:
    """The code spans of ``text`` and its visible text, each span an :data:`OBJECT`, when
    code spans are all the inline Markdown it holds; else None.

    Spans are read the way markdown-it reads backticks: a run of backticks opens a span
    that the next run of the same length closes, else it is text; one space is stripped
    from each side of a span's content that has a space at both ends and is not all
    spaces. That is all the parser does when, outside the spans, there is no other
    character an inline rule reacts to (:data:`_BEYOND_CODE_RE`): it then meets every
    run of backticks in plain text, in order. Inside a span anything goes but line
    breaks, other whitespace than spaces and NUL, which the parser rewrites.

    >>> code, visible = code_spans("call `f()` or ``a ` b`` but not `this")
    >>> code, visible.replace(OBJECT, "@")
    (['f()', 'a ` b'], 'call @ or @ but not `this')
    >>> code_spans("`*not emphasis*` but *this*") is None
    True
    """
    code: list[str] = []
    pieces: list[str] = []
    size, pos, text_start = len(text), 0, 0
    while (start := text.find("`", pos)) != -1:
        end = start + 1
        while end < size and text[end] == "`":
            end += 1
        close = _closing_run(text, end, end - start)
        if close is None:
            pos = end  # no closing run of this length: the backticks are text
            continue
        content = text[end:close]
        if _REWRITTEN_IN_CODE_RE.search(content):
            return None
        if content.startswith(" ") and content.endswith(" ") and content.strip(" "):
            content = content[1:-1]
        code.append(content)
        pieces += [text[text_start:start], OBJECT]
        pos = text_start = close + end - start
    pieces.append(text[text_start:])
    visible = "".join(pieces)
    return None if _BEYOND_CODE_RE.search(visible) else (code, visible)


def _closing_run(text: str, pos: int, length: int) -> int | None:
    """Where the first run of exactly ``length`` backticks at or after ``pos`` starts."""
    size = len(text)
    while (start := text.find("`", pos)) != -1:
        pos = start + 1
        while pos < size and text[pos] == "`":
            pos += 1
        if pos - start == length:
            return start
    return None


def _markup(masked: str, tokens: _Tokens, visible: str) -> InlineMarkup:
    """The markup of a text from its masked form, its markup tokens and visible text.

    Labels, footnotes and entities are read from the masked text, each only when the
    character all of its kind hold is there (``[``, ``&``).
    """
    bracket = "[" in masked
    return InlineMarkup(
        code=tuple(tokens.code),
        links=tuple(tokens.links),
        images=tuple(tokens.images),
        autolinks=tuple(tokens.autolinks),
        html=tuple(tokens.html),
        entities=tuple(m.group(0) for m in _ENTITY_RE.finditer(masked)) if "&" in masked else (),
        footnotes=tuple(m.group(1) for m in _FOOTNOTE_RE.finditer(masked)) if bracket else (),
        labels=tuple(_reference_labels(masked)) if bracket else (),
        shortcuts=(
            tuple(_normalize_label(m.group(1)) for m in _SHORTCUT_RE.finditer(masked))
            if bracket
            else ()
        ),
        strong=tokens.strong,
        emphasis=tokens.emphasis,
        hardbreaks=tokens.hardbreaks,
        stray_delimiters=tuple(tokens.stray),
        text=_mask_references(visible) if "[" in visible or "]" in visible else visible,
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
