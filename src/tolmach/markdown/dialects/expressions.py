"""Template expressions: ``{{ page.title }}`` (Liquid, Jinja), ``{{ count * 2 }}`` (Vue in
VitePress), ``{{#include file.md}}`` (mdBook).

Inline, an expression is a protected atom of the msgid: pseudo-translation keeps it and
the markup check wants it back unchanged. A line holding only an expression is
skeleton. ``{{<`` and ``{{%`` open Hugo shortcodes, not expressions.
"""

from __future__ import annotations

from html import escape

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock

from tolmach.markdown.dialects.common import find_closer, first_char, inline_span_rule, line_content

__all__ = ["expression_end", "expressions_plugin"]


def expressions_plugin(md: MarkdownIt) -> None:
    md.inline.ruler.before("backticks", "expression", _inline)
    md.block.ruler.before(
        "fence", "expression_line", _block, {"alt": ["paragraph", "reference", "blockquote", "list"]}
    )
    md.add_render_rule("expression", _render)
    md.add_render_rule("expression_line", _render)


def expression_end(src: str, pos: int, end: int) -> int | None:
    """End of the ``{{ … }}`` at ``pos``, or None.

    >>> expression_end("{{ a + '}}' }} b", 0, 16)
    14
    """
    if not src.startswith("{{", pos) or src[pos + 2 : pos + 3] in ("<", "%"):
        return None
    close = find_closer(src, pos + 2, end, "}}")
    return None if close is None else close + 2


_inline = inline_span_rule("{", "expression", expression_end)


def _block(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    if first_char(state, start_line) != "{" or state.sCount[start_line] - state.blkIndent >= 4:
        return False
    start, end = line_content(state, start_line)
    stop = expression_end(state.src, start, end)
    if stop is None or state.src[stop:end].strip():
        return False
    if silent:
        return True
    token = state.push("expression_line", "div", 0)
    token.content = state.src[start:stop]
    token.map = [start_line, start_line + 1]
    token.block = True
    state.line = start_line + 1
    return True


def _render(self, tokens, idx, options, env) -> str:
    token = tokens[idx]
    tag = "div" if token.block else "span"
    return f'<{tag} class="expression" data-expression="{escape(token.content)}"></{tag}>'
