"""Definition lists (Pandoc, PHP Markdown Extra, kramdown, goldmark, javascript.info)::

    Термин
    : Определение, которое
      продолжается здесь.

mdit-py-plugins' ``deflist`` plugin parses them. The term becomes a segment of its own
and each definition a segment (the ``: `` or ``~ `` marker stays skeleton), so no
translation can join the two: 476 of 480 definition lists of javascript.info were lost
that way before.
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from mdit_py_plugins.deflist import deflist_plugin as mdit_deflist

from tolmach.markdown.segment import CONTEXT, KIND

__all__ = ["deflist_plugin"]


def deflist_plugin(md: MarkdownIt) -> None:
    mdit_deflist(md)
    md.core.ruler.after("block", "deflist_kinds", _annotate)


def _annotate(state: StateCore) -> None:
    tokens = state.tokens
    for index, token in enumerate(tokens):
        if token.type == "dt_open" and index + 1 < len(tokens):
            term = tokens[index + 1]
            if term.type == "inline" and term.map:
                term.map = [term.map[0], term.map[0] + 1]  # the plugin gives [n, n]
                term.meta = {**(term.meta or {}), KIND: "definition term"}
        elif token.type == "dd_open":
            token.meta = {**(token.meta or {}), CONTEXT: "definition"}
