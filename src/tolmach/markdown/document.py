"""Markdown → Document: the skeleton of a source article and its translatable segments.

A :class:`Document` is the source text plus a list of :class:`Segment`. Each segment
owns one *slot*, a character range of the source holding translatable text; everything
outside the slots (container prefixes such as ``> `` and list markers, indentation,
blank lines, fences, code, line endings, a dialect's marker lines) is the skeleton and
is never touched.

The segment text (the msgid) is the inline Markdown as written, with soft line breaks
turned into single spaces. Line maps of markdown-it-py tokens tell where each block
lives; the inline parser tells which line breaks are soft, which are hard and which sit
inside code spans or HTML (those two kinds stay as ``\\n`` in the msgid). The document's
:class:`~tolmach.markdown.dialects.Dialect` decides which parser plugins run; plugins
say through ``Token.meta`` what their tokens hold (see :mod:`tolmach.markdown.segment`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from markdown_it import MarkdownIt
from markdown_it.rules_inline.escape import escape as _escape_rule
from markdown_it.rules_inline.newline import newline as _newline_rule
from markdown_it.token import Token

from tolmach.fileio import count_work
from tolmach.markdown.comments import Directives
from tolmach.markdown.dialects import COMMONMARK, Dialect
from tolmach.markdown.dialects.hints import SyntaxHint, syntax_hints
from tolmach.markdown.frontmatter import locate_front_matter_values
from tolmach.markdown.html_text import html_text_segments
from tolmach.markdown.segment import CONTEXT, KIND, SKIP, SLOTS, TAIL, Line, Segment, split_lines
from tolmach.markdown.slots import (
    atx_segment,
    block_segment,
    cell_segment,
    reference_titles,
    slot_segment,
)

__all__ = [
    "Document", "ParsedText", "Segment", "SegmentOptions", "markdown_parser", "parse_document",
    "read_document",
]

_BREAKS_KEY = "tolmach_breaks"
_CODE_TOKENS = frozenset(
    {
        "fence", "code_block", "front_matter", "html_block", "math_block", "directive_line",
        "liquid_line", "liquid_raw", "shortcode_raw", "expression_line", "mdx_esm", "jsx_flow",
    }
)
_COMMONMARK_CONTAINERS = {"blockquote_open", "list_item_open", "footnote_open"}
_COMMONMARK_CLOSERS = {"blockquote_close", "list_item_close", "footnote_close"}


@dataclass(frozen=True)
class SegmentOptions:
    """What is translatable besides headings, paragraphs and table cells, and in which
    dialect the source is written."""

    front_matter_keys: tuple[str, ...] = ("title", "description")
    html_text: bool = False
    dialect: Dialect = COMMONMARK


class ParsedText:
    """A text with the tokens and environment its dialect's parser made of it (``dialect``
    None: another parser's), for one later reader of the same tokens (the publisher
    renders the text it verified): taken once, since a renderer changes them."""

    def __init__(self, text: str, tokens: list[Token], env: dict, dialect: Dialect | None) -> None:
        self.text, self.env, self.dialect = text, env, dialect
        self._tokens: list[Token] | None = tokens

    def take(self) -> list[Token] | None:
        """The tokens, the first time; None after (another reader must parse again)."""
        tokens, self._tokens = self._tokens, None
        return tokens

    def __getstate__(self) -> dict:
        """Never sent to another process: a copy would be a second reader of the tokens,
        and their weight is what keeping them here saves."""
        return {"text": self.text, "env": {}, "dialect": self.dialect, "_tokens": None}


@dataclass(frozen=True)
class Document:
    """Source text with its translatable slots, in source order, and its dialect."""

    text: str
    segments: tuple[Segment, ...] = field(default_factory=tuple)
    dialect: Dialect = COMMONMARK
    hints: tuple[SyntaxHint, ...] = ()  # lines that look like a syntax the dialect lacks


def markdown_parser(dialect: Dialect = COMMONMARK) -> MarkdownIt:
    """The parser configuration of ``dialect``, used for extraction, checks and publishing."""
    return dialect.new_parser()


@functools.lru_cache(maxsize=32)
def _segmenting_parser(dialect: Dialect) -> MarkdownIt:
    """The dialect's parser, with the inline stage reduced to classifying line breaks."""
    md = dialect.new_parser()
    md.core.ruler.at("inline", _inline_with_breaks)
    md.inline.ruler.at("newline", _recording_newline)
    md.inline.ruler.at("escape", _recording_escape)
    return md


@functools.lru_cache(maxsize=32)
def _reading_parser(dialect: Dialect) -> MarkdownIt:
    """The dialect's parser, every inline parsed in full, the line breaks classified too:
    its tokens are those of :meth:`Dialect.parser`, with the breaks in ``meta``."""
    md = dialect.new_parser()
    md.core.ruler.at("inline", _inline_everywhere_with_breaks)
    md.inline.ruler.at("newline", _recording_newline)
    md.inline.ruler.at("escape", _recording_escape)
    return md


def parse_document(
    text: str, options: SegmentOptions | None = None, *, hints: bool = False
) -> Document:
    """Split Markdown source into segments; ``text`` is returned untouched in the result.

    With ``hints``, also note lines that look like a syntax the dialect lacks (what
    ``extract`` warns about; the other steps do not need them).
    """
    options = options or SegmentOptions()
    env: dict = {}
    count_work("parse")
    tokens = _segmenting_parser(options.dialect).parse(_normalized(text), env)
    return _document_of(text, tokens, env, options, hints)


def read_document(
    text: str, options: SegmentOptions | None = None, *, hints: bool = False
) -> tuple[Document, list[Token], dict]:
    """:func:`parse_document`, and the full token stream and environment of the
    dialect's parser on ``text``: one parse for a step that also needs the source's
    structure (verification), where segmenting and reading it would take two."""
    options = options or SegmentOptions()
    env: dict = {}
    count_work("parse")
    tokens = _reading_parser(options.dialect).parse(_normalized(text), env)
    return _document_of(text, tokens, env, options, hints), tokens, env


def _document_of(
    text: str, tokens: list[Token], env: dict, options: SegmentOptions, hints: bool
) -> Document:
    lines = split_lines(text)
    directives = Directives()
    found = list(_Walk(tokens, lines, options, directives).segments())
    found.extend(reference_titles(env.get("references", {}), lines))
    found.sort(key=lambda s: s.start)
    segments = [s for s in directives.apply(found) if not options.dialect.only_atoms(s.text)]
    found_hints = syntax_hints(text, options.dialect, _code_lines(tokens)) if hints else ()
    return Document(text, tuple(_with_headings(segments)), options.dialect, tuple(found_hints))


def _shared_parser() -> MarkdownIt:
    return _segmenting_parser(COMMONMARK)


def _normalized(text: str) -> str:
    """What markdown-it sees: NUL as U+FFFD, no BOM (a signature, not text: cmark skips
    it too; a space in its place would shift the columns of the first line)."""
    return text.removeprefix("\ufeff").replace("\0", "\ufffd")


def _code_lines(tokens: list[Token]) -> set[int]:
    """Lines of code, front matter and raw HTML: no syntax hint comes from them."""
    return {n for t in tokens if t.type in _CODE_TOKENS and t.map for n in range(*t.map)}


# --- classifying line breaks -------------------------------------------------------


def _recording_newline(state, silent: bool) -> bool:
    """markdown-it's newline rule, also noting where each soft or hard break sits."""
    pos = state.pos
    before = len(state.tokens)
    matched = _newline_rule(state, silent)
    if matched and not silent and len(state.tokens) > before:
        _note_break(state, pos, state.tokens[-1].type)
    return matched


def _recording_escape(state, silent: bool) -> bool:
    """markdown-it's escape rule, noting backslash hard breaks."""
    pos = state.pos
    before = len(state.tokens)
    matched = _escape_rule(state, silent)
    grew = len(state.tokens) > before
    if matched and not silent and grew and state.tokens[-1].type == "hardbreak":
        _note_break(state, pos + 1, "hardbreak")
    return matched


def _inline_with_breaks(state) -> None:
    """markdown-it's core inline rule, run only where it tells something: on text with
    line breaks, which need classifying, and on footnote references, which decide what
    footnotes the document has. Each inline token keeps its breaks in ``meta``."""
    for token in state.tokens:
        if token.type == "inline" and ("\n" in token.content or "[^" in token.content):
            _parse_inline_noting_breaks(state, token)
    state.env.pop(_BREAKS_KEY, None)


def _inline_everywhere_with_breaks(state) -> None:
    """markdown-it's core inline rule, each inline token keeping its breaks in ``meta``."""
    for token in state.tokens:
        if token.type == "inline":
            _parse_inline_noting_breaks(state, token)
    state.env.pop(_BREAKS_KEY, None)


def _parse_inline_noting_breaks(state, token: Token) -> None:
    if token.children is None:
        token.children = []
    breaks: dict[int, str] = {}
    state.env[_BREAKS_KEY] = (token.content, breaks)
    state.md.inline.parse(token.content, state.md, state.env, token.children)
    token.meta[_BREAKS_KEY] = breaks


def _note_break(state, pos: int, kind: str) -> None:
    """Record a break of the block's own text (not of a nested image-label parse)."""
    current = state.env.get(_BREAKS_KEY)
    if current is not None and state.src is current[0]:
        current[1][pos] = kind


# --- walking the token stream ----------------------------------------------------


class _Walk:
    """One pass over the token stream, yielding segments in token order."""

    def __init__(self, tokens: list[Token], lines: list[Line], options: SegmentOptions, directives):
        self.tokens, self.lines, self.options, self.directives = tokens, lines, options, directives
        self.containers: list[tuple[str, str | None]] = []  # (opening type, context)
        self.pending_kind = "paragraph"
        self.block_map: list[int] | None = None
        self.row_map: list[int] | None = None
        self.row_cursor = 0
        self.setext = False

    def segments(self) -> Iterator[Segment]:
        for index, token in enumerate(self.tokens):
            meta = token.meta
            if meta and SLOTS in meta:
                yield from (slot_segment(s, self.lines) for s in meta[SLOTS])
            yield from self._token(index, token, meta or {})

    def _token(self, index: int, token: Token, meta: dict) -> Iterator[Segment]:
        t = token.type
        if t in _COMMONMARK_CONTAINERS:
            self.containers.append((t, None))
        elif t in _COMMONMARK_CLOSERS:
            if self.containers:  # the footnote plugin may leave a stray close: ``[^0]:>[^0]:``
                self.containers.pop()
        elif token.nesting == 1 and CONTEXT in meta:
            self.containers.append((t, meta[CONTEXT]))
        elif token.nesting == -1 and self.containers and self.containers[-1][0] == t[:-5] + "open":
            self.containers.pop()
        elif t == "front_matter":
            yield from locate_front_matter_values(token, self.lines, self.options.front_matter_keys)
        elif t == "html_block" and token.map:
            if not self.directives.read(token, self.tokens, index) and self.options.html_text:
                yield from html_text_segments(token, self.lines, self.options.dialect)
        elif t == "jsx_flow":
            self.directives.read(token, self.tokens, index)
        elif t == "heading_open":
            self.pending_kind = f"heading {token.tag[1]}"
            self.block_map = token.map
            self.setext = token.markup[:1] in ("=", "-")
        elif t == "paragraph_open":
            self.pending_kind = self._paragraph_kind()
            self.block_map = token.map
        elif t == "tr_open":
            self.row_map, self.row_cursor = token.map, 0
        elif t in ("th_open", "td_open"):
            self.pending_kind = "table header cell" if t == "th_open" else "table cell"
        elif t == "inline":
            yield from self._inline(token, meta)

    def _inline(self, token: Token, meta: dict) -> Iterator[Segment]:
        if not token.content or meta.get(SKIP):
            return
        if KIND in meta and token.map:
            yield from block_segment(token, token.map, self.lines, meta.get(_BREAKS_KEY, {}), meta[KIND])
        elif self.pending_kind.startswith("table") and self.row_map:
            seg, self.row_cursor = cell_segment(
                token, self.row_map[0], self.lines, self.row_cursor, self.pending_kind
            )
            if seg:
                yield seg
        elif self.block_map:
            yield from self._block(token, meta, self.block_map)
            self.block_map = None

    def _block(self, token: Token, meta: dict, span: list[int]) -> Iterator[Segment]:
        heading = self.pending_kind.startswith("heading")
        if heading and not self.setext:
            seg = atx_segment(token, span[0], self.lines, self.pending_kind)
            if seg:
                yield seg
            return
        end = span[1] - 1 if heading else span[1]
        per_state = meta.get(_BREAKS_KEY, {})
        if heading and _one_line_reads_as_table(token.content, self.lines[end].body):
            per_state = {}  # keep the lines: joined, they would make a table
        yield from block_segment(
            token, [span[0], end], self.lines, per_state, self.pending_kind, cut=meta.get(TAIL, "")
        )

    def _paragraph_kind(self) -> str:
        if any(t == "footnote_open" for t, _ in self.containers):
            return "footnote"
        if not self.containers:
            return "paragraph"
        opening, context = self.containers[-1]
        if context:
            return context
        return "list item" if opening == "list_item_open" else "blockquote"


def _one_line_reads_as_table(content: str, underline: str) -> bool:
    """True if a setext heading's lines, joined into one, would read as a table header
    above its ``---`` underline (``| a`` does, ``|`` and ``a`` on two lines do not)."""
    if "|" not in content or "\n" not in content:
        return False
    joined = " ".join(part.strip() for part in content.split("\n"))
    dashes = re.search(r"[-=]*$", underline.rstrip()).group()  # without container prefixes
    tokens = _shared_parser().parse(f"{joined}\n{dashes}\n", {})
    return bool(tokens) and tokens[0].type == "table_open"


def _with_headings(segments: list[Segment]) -> Iterator[Segment]:
    heading: str | None = None
    for seg in segments:
        if seg.kind.startswith("heading"):
            heading = seg.text
            yield seg
        elif seg.heading != heading:
            yield replace(seg, heading=heading)
        else:
            yield seg
