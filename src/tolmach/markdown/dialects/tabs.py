"""MkDocs Material content tabs (PyMdown Tabbed): ``=== "Label"`` and an indented body.

::

    === "C"

        ```c
        printf("Hello");
        ```

    ===+ "Вывод"

        Текст вкладки.

``===!`` starts a new tab set and ``===+`` selects the tab. The body is every following
line indented by four more spaces (or blank), as with admonitions. The label, between
the quotes, is a segment; the ``===`` line is skeleton.
"""

from __future__ import annotations

from html import escape

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock

from tolmach.markdown.dialects.common import add_slots, first_char, line_content, slot
from tolmach.markdown.segment import CONTEXT

__all__ = ["tabs_plugin"]

_FLAGS = ("", "+", "!", "+!", "!+")


def tabs_plugin(md: MarkdownIt) -> None:
    md.block.ruler.before(
        "fence", "tabs", _tab, {"alt": ["paragraph", "reference", "blockquote", "list"]}
    )
    md.add_render_rule("tab_open", _render_open)
    md.add_render_rule("tab_close", lambda *args: "</div>\n")


def _label(state: StateBlock, line: int) -> tuple[str, int, int] | None:
    """(flags, label start, label end) of a tab marker line."""
    if first_char(state, line) != "=":
        return None
    start, end = line_content(state, line)
    text = state.src[start:end].rstrip()
    if not text.startswith("===") or state.sCount[line] - state.blkIndent >= 4:
        return None
    rest = text[3:]
    flags = rest[: len(rest) - len(rest.lstrip("+!"))]
    rest = rest[len(flags) :]
    if flags not in _FLAGS or not rest[:1].isspace():
        return None
    quoted = rest.strip()
    if len(quoted) < 2 or quoted[0] != '"' or quoted[-1] != '"':
        return None
    label_end = start + len(text) - 1
    return flags, label_end - (len(quoted) - 2), label_end


def _tab(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    found = _label(state, start_line)
    if found is None:
        return False
    if silent:
        return True
    flags, label_start, label_end = found
    old_indent, old_parent, old_max = state.blkIndent, state.parentType, state.lineMax
    state.blkIndent = state.sCount[start_line] + 4
    next_line = start_line + 1
    while next_line < end_line:
        if not state.isEmpty(next_line) and state.sCount[next_line] < state.blkIndent:
            break
        next_line += 1
    while next_line - 1 > start_line and state.isEmpty(next_line - 1):
        next_line -= 1  # trailing blank lines separate the tab from what follows

    token = state.push("tab_open", "div", 1)
    token.markup = "===" + flags
    token.info = state.src[label_start:label_end]
    token.map = [start_line, next_line]
    token.block = True
    token.meta = {CONTEXT: "tab body"}
    add_slots(token, [slot(state, start_line, label_start, label_end, "tab label")])

    state.parentType, state.lineMax = "tabs", next_line
    state.md.block.tokenize(state, start_line + 1, next_line)
    state.blkIndent, state.parentType, state.lineMax = old_indent, old_parent, old_max

    close = state.push("tab_close", "div", -1)
    close.markup = "===" + flags
    close.block = True
    state.line = next_line
    return True


def _render_open(self, tokens, idx, options, env) -> str:
    token = tokens[idx]
    flags = escape(token.markup[3:])
    return f'<div class="tab" data-flags="{flags}">\n<p class="tab-label">{escape(token.info)}</p>\n'
