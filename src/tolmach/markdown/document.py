"""Markdown → Document: the skeleton of a source article and its translatable segments.

A :class:`Document` is the source text plus a list of :class:`Segment`. Each segment
owns one *slot*, a character range of the source holding translatable text; everything
outside the slots (container prefixes such as ``> `` and list markers, indentation,
blank lines, fences, code, line endings) is the skeleton and is never touched.

The segment text (the msgid) is the inline Markdown as written, with soft line breaks
turned into single spaces. Line maps of markdown-it-py tokens tell where each block
lives; the inline parser tells which line breaks are soft, which are hard and which sit
inside code spans or HTML (those two kinds stay as ``\\n`` in the msgid).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from markdown_it import MarkdownIt
from markdown_it.common.utils import MD_TRIM_CHARS, unescapeAll
from markdown_it.rules_inline.escape import escape as _escape_rule
from markdown_it.rules_inline.newline import newline as _newline_rule
from markdown_it.token import Token
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.front_matter import front_matter_plugin

from tolmach.fileio import count_work
from tolmach.markdown.frontmatter import locate_front_matter_values
from tolmach.markdown.segment import Line, Segment, split_lines

__all__ = ["Document", "Segment", "SegmentOptions", "markdown_parser", "parse_document"]

_FOOTNOTE_LABEL_RE = re.compile(r"\[\^[^\]]*\]:")
_BREAKS_KEY = "tolmach_breaks"
_WHITESPACE_TAG_RE = re.compile(r"</?(?:pre|textarea|script|style)\b", re.I)


@dataclass(frozen=True)
class SegmentOptions:
    """What is translatable besides headings, paragraphs and table cells."""

    front_matter_keys: tuple[str, ...] = ("title", "description")
    translate_html_blocks: bool = False


@dataclass(frozen=True)
class Document:
    """Source text with its translatable slots, in source order."""

    text: str
    segments: tuple[Segment, ...] = field(default_factory=tuple)


def markdown_parser() -> MarkdownIt:
    """The one parser configuration used for extraction, checks and publishing."""
    return MarkdownIt("commonmark").enable("table").use(front_matter_plugin).use(footnote_plugin)


def _segmenting_parser() -> MarkdownIt:
    """The same parser, with the inline stage reduced to classifying line breaks."""
    md = markdown_parser()
    md.core.ruler.at("inline", _inline_with_breaks)
    md.inline.ruler.at("newline", _recording_newline)
    md.inline.ruler.at("escape", _recording_escape)
    return md


def parse_document(text: str, options: SegmentOptions | None = None) -> Document:
    """Split Markdown source into segments; ``text`` is returned untouched in the result."""
    options = options or SegmentOptions()
    lines = split_lines(text)
    md = _shared_parser()
    env: dict = {}
    count_work("parse")
    tokens = md.parse(_normalized(text), env)
    found = list(_segments_from_tokens(tokens, lines, options))
    found.extend(_reference_titles(env.get("references", {}), lines))
    found.sort(key=lambda s: s.start)
    return Document(text=text, segments=tuple(_with_headings(found)))


# --- parsing helpers -------------------------------------------------------------

_PARSER: MarkdownIt | None = None


def _shared_parser() -> MarkdownIt:
    global _PARSER
    if _PARSER is None:
        _PARSER = _segmenting_parser()
    return _PARSER


def _normalized(text: str) -> str:
    """What markdown-it sees: NUL as U+FFFD, no BOM (a signature, not text: cmark skips
    it too; a space in its place would shift the columns of the first line)."""
    return text.removeprefix("\ufeff").replace("\0", "\ufffd")


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
            if token.children is None:
                token.children = []
            breaks: dict[int, str] = {}
            state.env[_BREAKS_KEY] = (token.content, breaks)
            state.md.inline.parse(token.content, state.md, state.env, token.children)
            token.meta[_BREAKS_KEY] = breaks
    state.env.pop(_BREAKS_KEY, None)


def _note_break(state, pos: int, kind: str) -> None:
    """Record a break of the block's own text (not of a nested image-label parse)."""
    current = state.env.get(_BREAKS_KEY)
    if current is not None and state.src is current[0]:
        current[1][pos] = kind


# --- walking the token stream ----------------------------------------------------


def _segments_from_tokens(
    tokens: list[Token], lines: list[Line], options: SegmentOptions
) -> Iterator[Segment]:
    containers: list[str] = []
    pending_kind = "paragraph"
    block_map: list[int] | None = None
    row_map: list[int] | None = None
    row_cursor = 0
    setext = False
    for token in tokens:
        t = token.type
        if t in ("blockquote_open", "list_item_open", "footnote_open"):
            containers.append(t)
        elif t in ("blockquote_close", "list_item_close", "footnote_close"):
            if containers:  # the footnote plugin may leave a stray close: ``[^0]:>[^0]:``
                containers.pop()
        elif t == "front_matter":
            yield from locate_front_matter_values(token, lines, options.front_matter_keys)
        elif t == "html_block" and options.translate_html_blocks and token.map:
            yield from _block_segment(token, token.map, lines, {}, "html block", keep_all=True)
        elif t == "heading_open":
            pending_kind = f"heading {token.tag[1]}"
            block_map = token.map
            setext = token.markup[:1] in ("=", "-")
        elif t == "paragraph_open":
            pending_kind = _paragraph_kind(containers)
            block_map = token.map
        elif t == "tr_open":
            row_map, row_cursor = token.map, 0
        elif t in ("th_open", "td_open"):
            pending_kind = "table header cell" if t == "th_open" else "table cell"
        elif t == "inline" and token.content:
            if pending_kind.startswith("table") and row_map:
                seg, row_cursor = _cell_segment(token, row_map[0], lines, row_cursor, pending_kind)
                if seg:
                    yield seg
            elif block_map:
                span = block_map
                heading = pending_kind.startswith("heading")
                if heading and not setext:
                    seg = _atx_segment(token, span[0], lines, pending_kind)
                    if seg:
                        yield seg
                else:
                    end = span[1] - 1 if heading else span[1]
                    per_state = token.meta.get(_BREAKS_KEY, {})
                    if heading and _one_line_reads_as_table(token.content, lines[end].body):
                        per_state = {}  # keep the lines: joined, they would make a table
                    yield from _block_segment(token, [span[0], end], lines, per_state, pending_kind)
                block_map = None


def _one_line_reads_as_table(content: str, underline: str) -> bool:
    """True if a setext heading's lines, joined into one, would read as a table header
    above its ``---`` underline (``| a`` does, ``|`` and ``a`` on two lines do not)."""
    if "|" not in content or "\n" not in content:
        return False
    joined = " ".join(part.strip() for part in content.split("\n"))
    dashes = re.search(r"[-=]*$", underline.rstrip()).group()  # without container prefixes
    tokens = _shared_parser().parse(f"{joined}\n{dashes}\n", {})
    return bool(tokens) and tokens[0].type == "table_open"


def _reference_titles(references: dict, lines: list[Line]) -> Iterator[Segment]:
    """Titles of link reference definitions (``[id]: /url "Title"``), one line each.

    The title is found as the quoted run that ends the definition's last line; a title
    over several lines stays in the skeleton (its lines carry container prefixes).
    """
    for reference in references.values():
        if not reference.get("title") or not reference.get("map"):
            continue
        line_no = reference["map"][1] - 1
        line = lines[line_no]
        span = _closing_title(line.body)
        if span is None or unescapeAll(line.body[span[0] : span[1]]) != reference["title"]:
            continue
        start, end = span
        yield Segment(
            text=line.body[start:end],
            kind="link title",
            line=line_no + 1,
            start=line.start + start,
            end=line.start + end,
            continuation=_continuation(line, start),
            single_line=True,
            quoting="title" + line.body[end],
        )


def _closing_title(body: str) -> tuple[int, int] | None:
    """Inner span of the title that closes ``body`` (``"…"``, ``'…'`` or ``(…)``)."""
    end = len(body.rstrip(" \t"))
    closer = body[end - 1 : end]
    opener = {'"': '"', "'": "'", ")": "("}.get(closer)
    if opener is None:
        return None
    pos = end - 2
    while pos >= 0:
        if body[pos] == opener and not _escaped(body, pos):
            return (pos + 1, end - 1) if pos + 1 < end - 1 else None
        pos -= 1
    return None


def _escaped(text: str, pos: int) -> bool:
    backslashes = len(text[:pos]) - len(text[:pos].rstrip("\\"))
    return backslashes % 2 == 1


def _paragraph_kind(containers: list[str]) -> str:
    if "footnote_open" in containers:
        return "footnote"
    if not containers:
        return "paragraph"
    return "list item" if containers[-1] == "list_item_open" else "blockquote"


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


# --- locating slots ------------------------------------------------------------------


def _continuation(line: Line, column: int) -> str:
    """Newline plus the prefix a further line of this slot needs: markers become spaces."""
    prefix = _FOOTNOTE_LABEL_RE.sub(lambda m: " " * len(m.group()), line.body[:column])
    blanked = "".join(ch if ch in ">\t" else " " for ch in prefix)
    return (line.ending or "\n") + blanked


def _atx_segment(token: Token, line_no: int, lines: list[Line], kind: str) -> Segment | None:
    line = lines[line_no]
    opening = line.body.index("#")
    level = int(kind.split()[1])
    start = line.body.find(token.content, opening + level)
    if start < 0:
        return None
    return Segment(
        text=token.content,
        kind=kind,
        line=line_no + 1,
        start=line.start + start,
        end=line.start + start + len(token.content),
        continuation=_continuation(line, start),
        single_line=True,
    )


def _cell_segment(
    token: Token, line_no: int, lines: list[Line], cursor: int, kind: str
) -> tuple[Segment | None, int]:
    """A table cell: its content as written (``|`` came from ``\\|``) found left to right."""
    line = lines[line_no]
    raw = token.content.replace("|", "\\|")
    start = line.body.find(raw, cursor)
    if start < 0:
        return None, cursor
    end = start + len(raw)
    seg = Segment(
        text=raw,
        kind=kind,
        line=line_no + 1,
        start=line.start + start,
        end=line.start + end,
        # a cell never spans lines: the prefix of a further line (as long as the row up
        # to the cell) would only cost time and memory, per cell of a wide table
        continuation=line.ending or "\n",
        single_line=True,
    )
    return seg, end


def _block_segment(
    token: Token,
    span: list[int],
    lines: list[Line],
    breaks: dict[int, str],
    kind: str,
    keep_all: bool = False,
) -> Iterator[Segment]:
    """A paragraph-like block spread over source lines ``span``: one slot from the first
    content character to the last, and the msgid with soft breaks joined."""
    content = token.content.rstrip("\n") if keep_all else token.content
    parts = content.split("\n")
    placed = _place_lines(parts, span, lines, keep_all)
    if placed is None:
        return
    first, start, end = placed
    last = first + len(parts) - 1
    first_line = lines[first]
    yield Segment(
        text=_join_lines(parts, breaks, keep_all),
        kind=kind,
        line=first + 1,
        start=first_line.start + start,
        end=lines[last].start + end,
        continuation=_continuation(first_line, start),
    )


def _place_lines(
    parts: list[str], span: list[int], lines: list[Line], keep_all: bool
) -> tuple[int, int, int] | None:
    """Find the source line of the first content line and the slot's start and end columns."""
    count = len(parts)
    for first in range(span[0], span[1] - count + 1):
        last = first + count - 1
        head = parts[0]
        body_first = lines[first].body
        body_last = lines[last].body.rstrip(MD_TRIM_CHARS if not keep_all else "")
        tail = parts[-1].lstrip(" \t") if count > 1 else parts[-1]
        if count == 1:
            if body_last.endswith(tail):
                return first, len(body_last) - len(tail), len(body_last)
            continue
        if body_first.endswith(head) and body_last.endswith(tail):
            return first, len(body_first) - len(head), len(body_last)
    return None


def _join_lines(parts: list[str], breaks: dict[int, str], keep_all: bool) -> str:
    """The msgid: soft breaks become one space, other line breaks stay as written.

    Text that opens or closes raw ``<pre>``-like HTML keeps all its line breaks: there a
    newline is not the same as a space.
    """
    if keep_all or _WHITESPACE_TAG_RE.search("\n".join(parts)):
        return "\n".join(parts)
    out = [parts[0]]  # pieces joined once at the end: a paragraph of n lines is O(n)
    offset = len(parts[0])
    for part in parts[1:]:
        kind = breaks.get(offset)
        offset += 1 + len(part)
        if kind == "softbreak":
            _strip_end(out)
            out += [" ", part.lstrip(" \t")]
        elif kind == "hardbreak":
            out += ["\n", part if _indent_width(part) >= 4 else part.lstrip(" \t")]
        else:
            out += ["\n", part]
    return "".join(out)


def _strip_end(pieces: list[str]) -> None:
    """Strip spaces and tabs off the end of the text ``pieces`` make up."""
    while pieces:
        pieces[-1] = pieces[-1].rstrip(" \t")
        if pieces[-1]:
            return
        pieces.pop()


def _indent_width(text: str) -> int:
    stripped = text.lstrip(" \t")
    return len(text[: len(text) - len(stripped)].expandtabs(4))
