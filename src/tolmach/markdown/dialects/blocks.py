"""PyMdown generic blocks: ``/// note | Title`` … ``///``.

::

    //// tab | Python 3.10+          /// details | Summary
    /// tip | Подсказка                  type: warning
    Текст.                          Content.
    ///                             ///
    ////

A block opens with three or more slashes, a name and an optional ``| argument``;
option lines indented by four spaces may follow the header; the block closes at the
next line with the same number of slashes alone (so a ``////`` block can hold ``///``
ones), not counting lines inside fenced code. For most blocks the argument is a title
(a segment); for ``html`` it is an element selector and for captions a number, which
stay skeleton.
"""

from __future__ import annotations

from html import escape

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock

from tolmach.markdown.dialects.common import add_slots, closing_line, first_char, line_content, slot
from tolmach.markdown.segment import CONTEXT

__all__ = ["blocks_plugin"]

UNTRANSLATED_ARGUMENT = frozenset({"html", "caption", "figure-caption", "table-caption"})


def blocks_plugin(md: MarkdownIt) -> None:
    md.block.ruler.before(
        "fence", "blocks", _blocks, {"alt": ["paragraph", "reference", "blockquote", "list"]}
    )
    md.add_render_rule("blocks_open", _render_open)
    md.add_render_rule("blocks_close", lambda *args: "</div>\n")


def _header(state: StateBlock, line: int) -> tuple[int, str, int, int] | None:
    """(slashes, name, argument start, argument end) of a block header, or None."""
    if first_char(state, line) != "/":
        return None
    start, end = line_content(state, line)
    text = state.src[start:end]
    count = len(text) - len(text.lstrip("/"))
    if count < 3 or state.sCount[line] - state.blkIndent >= 4:
        return None
    rest = text[count:]
    name = rest.strip().split("|", 1)[0].strip()
    if not name or not all(ch.isalnum() or ch in "-_" for ch in name) or not rest[:1].isspace():
        return None
    bar = rest.find("|")
    if bar < 0:
        return count, name, end, end
    return count, name, start + count + bar + 1, end


def _is_closer(state: StateBlock, line: int, count: int) -> bool:
    start, end = line_content(state, line)
    text = state.src[start:end].rstrip()
    return len(text) == count and text == "/" * count and state.sCount[line] - state.blkIndent < 4


def _blocks(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    header = _header(state, start_line)
    if header is None:
        return False
    if silent:
        return True
    count, name, arg_start, arg_end = header
    body = start_line + 1
    while body < end_line and not state.isEmpty(body) and state.sCount[body] - state.blkIndent >= 4:
        body += 1  # the YAML options of the header
    closer = closing_line(state, body, end_line, lambda n: _is_closer(state, n, count))
    stop = end_line if closer is None else closer

    token = state.push("blocks_open", "div", 1)
    token.markup = "/" * count
    token.info = state.src[line_content(state, start_line)[0] + count : arg_end].strip()
    token.map = [start_line, stop + (closer is not None)]
    token.block = True
    token.meta = {CONTEXT: f'block body ("{name}")', "name": name}
    if name not in UNTRANSLATED_ARGUMENT:
        add_slots(token, [slot(state, start_line, arg_start, arg_end, f'block title ("{name}")')])

    old_parent, old_max = state.parentType, state.lineMax
    state.parentType, state.lineMax = "blocks", stop
    state.md.block.tokenize(state, body, stop)
    state.parentType, state.lineMax = old_parent, old_max

    close = state.push("blocks_close", "div", -1)
    close.markup = "/" * count
    close.block = True
    if closer is not None:
        close.map = [closer, closer + 1]  # the closer is a construct on its own line
    state.line = stop + (closer is not None)
    return True


def _render_open(self, tokens, idx, options, env) -> str:
    token = tokens[idx]
    name, _, argument = token.info.partition("|")
    name = name.strip()
    head = f'<div class="block {escape(name)}">\n'
    if name in UNTRANSLATED_ARGUMENT:
        return f'<div class="block {escape(name)}" data-argument="{escape(argument.strip())}">\n'
    if argument.strip():
        head += f'<p class="block-title">{escape(argument.strip())}</p>\n'
    return head
