"""Whole-line directives: a line that tells the site generator to insert something.

::

    [iframe src="menu" height=140 edit]          javascript.info
    [edit src="beforeafter" title="Открыть пример в песочнице."]
    {* ../../docs_src/python_types/tutorial001.py hl[2] *}       FastAPI's MkDocs includes
    --8<-- "snippets/note.md"                    PyMdown snippets
    {{#include ../listings/ch01/main.rs}}        mdBook
    <<< @/snippets/snippet.js{2}                 VitePress code import
    [[toc]]                                      VitePress table of contents

The line is skeleton — before, it was a paragraph whose msgid a translator (or
pseudo-translation) could rewrite. Values of ``title``, ``alt``, ``label``,
``caption`` and ``placeholder`` are segments. Each syntax names its line forms.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock

from tolmach.markdown.dialects.common import (
    add_slots,
    attribute_slots,
    line_content,
    scan_attributes,
    split_values,
)

__all__ = ["INCLUDE_FORMS", "JAVASCRIPT_INFO_FORMS", "LineForm", "directive_lines_plugin"]


@dataclass(frozen=True)
class LineForm:
    """A directive line: it starts with ``opener`` and ends with ``closer``; when
    ``names`` is given, the word after the opener must be one of them."""

    label: str
    opener: str
    closer: str = ""
    names: frozenset[str] | None = None

    def matches(self, text: str) -> int | None:
        """Where the directive's arguments start in ``text`` (a stripped line), or None."""
        if not text.startswith(self.opener) or not text.endswith(self.closer):
            return None
        if len(text) < len(self.opener) + len(self.closer):
            return None
        pos = len(self.opener)
        if self.names is None:
            return pos
        end = pos
        while end < len(text) and (text[end].isalnum() or text[end] in "-_"):
            end += 1
        if text[pos:end] not in self.names or text[end : end + 1] not in (" ", "\t", "]", "/"):
            return None
        return end


JAVASCRIPT_INFO_FORMS = (
    LineForm(
        "directive",
        "[",
        "]",
        frozenset({"iframe", "codetabs", "edit", "demo", "html", "js", "recent", "break", "old", "cut"}),
    ),
)
INCLUDE_FORMS = (
    LineForm("include", "{*", "*}"),
    LineForm("include", "{!", "!}"),
    LineForm("include", "{{#", "}}"),
    LineForm("snippet", "--8<-- "),
    LineForm("code import", "<<< "),
    LineForm("table of contents", "[[toc]]"),
    LineForm("table of contents", "[TOC]"),
)


def directive_lines_plugin(md: MarkdownIt, forms: tuple[LineForm, ...], rule: str = "directive_line") -> None:
    first_chars = frozenset(form.opener[0] for form in forms)

    def directive(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        start = state.bMarks[start_line] + state.tShift[start_line]
        if start >= len(state.src) or state.src[start] not in first_chars:
            return False  # most lines: a quick no
        return _directive(state, start_line, silent, forms)

    md.block.ruler.before(
        "fence", rule, directive, {"alt": ["paragraph", "reference", "blockquote", "list"]}
    )
    md.add_render_rule("directive_line", _render)


def _directive(state: StateBlock, line: int, silent: bool, forms: tuple[LineForm, ...]) -> bool:
    if state.sCount[line] - state.blkIndent >= 4:
        return False
    start, end = line_content(state, line)
    text = state.src[start:end].rstrip()
    for form in forms:
        args = form.matches(text)
        if args is not None:
            break
    else:
        return False
    if silent:
        return True
    token = state.push("directive_line", "div", 0)
    token.content = text
    token.info = form.label
    token.map = [line, line + 1]
    token.block = True
    attributes, _ = scan_attributes(state.src, start + args, start + len(text) - len(form.closer))
    slots = list(attribute_slots(state, line, attributes, f"{form.label} {{name}}"))
    masked, values = split_values(text, start - state.src.rfind("\n", 0, start) - 1, slots)
    token.meta = {"masked": masked, "values": values}
    add_slots(token, slots)
    state.line = line + 1
    return True


def _render(self, tokens, idx, options, env) -> str:
    token = tokens[idx]
    values = "".join(f"<span>{escape(v)}</span>" for v in token.meta.get("values", []))
    return f'<div class="directive" data-directive="{escape(token.meta["masked"])}">{values}</div>\n'
