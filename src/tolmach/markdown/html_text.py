"""Prose inside HTML, Vue and JSX blocks, for projects that opt in (``html-text = true``).

A text run between two tags becomes a segment, and so does the value of a translatable
attribute (``title``, ``alt``, ``label``, ``caption``, ``placeholder``). Tags and
their other attributes — ``v-if``, ``:prop``, ``@click``, ``class`` — never do, nor
anything inside ``<script>``, ``<style>``, ``<pre>``, ``<code>`` or ``<textarea>``, nor
a run that holds only template expressions (``{{ count }}``). Before, the only choice
was the whole block as one msgid, tags and all.
"""

from __future__ import annotations

from collections.abc import Iterator

from markdown_it.token import Token

from tolmach.markdown.dialects import Dialect
from tolmach.markdown.dialects.common import scan_attributes
from tolmach.markdown.segment import Line, Segment
from tolmach.markdown.slots import continuation

__all__ = ["html_text_segments", "html_text_spans"]

_RAW_ELEMENTS = frozenset({"script", "style", "pre", "code", "textarea"})


def html_text_segments(token: Token, lines: list[Line], dialect: Dialect) -> Iterator[Segment]:
    """Segments of the text runs and translatable attributes of one HTML block."""
    first, stop = token.map
    content_lines = token.content.split("\n")
    columns = []
    for number, part in zip(range(first, stop), content_lines, strict=False):
        body = lines[number].body
        if not body.endswith(part):
            return  # a prefix we cannot account for: leave the block alone
        columns.append(len(body) - len(part))
    starts = [0]
    for part in content_lines[:-1]:
        starts.append(starts[-1] + len(part) + 1)
    for start, end, kind, quoting in html_text_spans(token.content, dialect.attributes):
        text = token.content[start:end]
        if kind == "html text" and not _has_words(text, dialect):
            continue
        line_no, column = _place(starts, columns, start)
        end_line, end_column = _place(starts, columns, end)
        line = lines[first + line_no]
        yield Segment(
            text=" ".join(text.split()) if kind == "html text" else text,
            kind=kind,
            line=first + line_no + 1,
            start=line.start + column,
            end=lines[first + end_line].start + end_column,
            continuation=continuation(line, column),
            single_line=True,
            quoting=quoting,
        )


def _place(starts: list[int], columns: list[int], offset: int) -> tuple[int, int]:
    """(line within the block, source column) of a content offset."""
    line = max(i for i, s in enumerate(starts) if s <= offset)
    return line, columns[line] + offset - starts[line]


def _has_words(text: str, dialect: Dialect) -> bool:
    """True if ``text`` has a letter outside the dialect's atoms (``{{ expr }}``)."""
    if not any(ch.isalpha() for ch in text):
        return False
    kept = list(text)
    for atom in dialect.atoms(text):
        kept[atom.start : atom.end] = " " * (atom.end - atom.start)
    return any(ch.isalpha() for ch in kept)


def html_text_spans(html: str, attributes: frozenset[str]) -> Iterator[tuple[int, int, str, str | None]]:
    """(start, end, kind, quoting) of each translatable text run and attribute value.

    >>> [(html[s:e], k) for html in ['<p title="Hi">Hello, <b>you</b></p>']
    ...  for s, e, k, q in html_text_spans(html, frozenset({"title"}))]
    [('Hi', 'html attribute title'), ('Hello,', 'html text'), ('you', 'html text')]
    """
    pos, raw_until = 0, None
    while pos < len(html):
        if html[pos] != "<":
            stop = html.find("<", pos)
            stop = len(html) if stop < 0 else stop
            if raw_until is None:
                yield from _run(html, pos, stop)
            pos = stop
            continue
        end, name, closing = _tag(html, pos)
        if end is None:
            pos += 1
            continue
        if raw_until is not None:
            if closing and name == raw_until:
                raw_until = None
        elif name:
            if not closing and name.lower() in _RAW_ELEMENTS and not html[:end].endswith("/>"):
                raw_until = name
            found, _ = scan_attributes(html, pos + 1 + len(name), end - 1, stop=">/")
            for attr in found:
                if attr.name in attributes and attr.quote in "\"'" and attr.end > attr.start:
                    yield attr.start, attr.end, f"html attribute {attr.name}", "attribute" + attr.quote
        pos = end


def _run(html: str, start: int, stop: int) -> Iterator[tuple[int, int, str, str]]:
    text = html[start:stop]
    stripped = text.strip()
    if stripped:
        lead = len(text) - len(text.lstrip())
        yield start + lead, start + lead + len(stripped), "html text", "html-text"


def _tag(html: str, pos: int) -> tuple[int | None, str, bool]:
    """(end, name, closing) of the tag, comment or declaration at ``pos``."""
    for opener, closer in (("<!--", "-->"), ("<![CDATA[", "]]>"), ("<?", "?>"), ("<!", ">")):
        if html.startswith(opener, pos):
            end = html.find(closer, pos + len(opener))
            return (None if end < 0 else end + len(closer)), "", False
    closing = html.startswith("</", pos)
    p = pos + 1 + closing
    name_start = p
    while p < len(html) and (html[p].isalnum() or html[p] in "-_.:"):
        p += 1
    if p == name_start:
        return None, "", False
    name = html[name_start:p]
    quote = None
    while p < len(html):
        ch = html[p]
        if quote:
            quote = None if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == ">":
            return p + 1, name, closing
        p += 1
    return None, "", False
