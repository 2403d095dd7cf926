"""Abbreviation definitions (Python-Markdown ``abbr``, PHP Markdown Extra, kramdown)::

    *[HTML]: Hyper Text Markup Language

The definition line is skeleton — the abbreviation itself must match the text — and
its expansion is a segment.
"""

from __future__ import annotations

from html import escape

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock

from tolmach.markdown.dialects.common import add_slots, first_char, line_content, slot

__all__ = ["abbr_plugin"]


def abbr_plugin(md: MarkdownIt) -> None:
    md.block.ruler.before("reference", "abbr_definition", _definition, {"alt": ["paragraph"]})
    md.add_render_rule("abbr_definition", _render)


def _definition(state: StateBlock, line: int, end_line: int, silent: bool) -> bool:
    if first_char(state, line) != "*" or state.sCount[line] - state.blkIndent >= 4:
        return False
    start, end = line_content(state, line)
    text = state.src[start:end]
    close = text.find("]:")
    if not text.startswith("*[") or close < 3 or "]" in text[2:close]:
        return False
    if silent:
        return True
    token = state.push("abbr_definition", "", 0)
    token.info = text[2:close]
    token.content = text[close + 2 :].strip()
    token.map = [line, line + 1]
    token.block = True
    token.hidden = True
    add_slots(token, [slot(state, line, start + close + 2, end, f"abbreviation ({token.info})")])
    state.line = line + 1
    return True


def _render(self, tokens, idx, options, env) -> str:
    token = tokens[idx]
    return f'<abbr data-abbr="{escape(token.info)}">{escape(token.content)}</abbr>\n'
