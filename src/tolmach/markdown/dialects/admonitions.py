"""MkDocs admonitions: ``!!! note "Title"`` and collapsible ``???``/``???+``, body indented.

mdit-py-plugins' ``admon`` plugin parses them. This module marks the quoted title as a
slot of the marker line (a title the plugin made up from the type, ``!!! note`` →
"Note", is not in the source and is no segment) and names the body for comments.
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from mdit_py_plugins.admon import admon_plugin

from tolmach.markdown.segment import CONTEXT, SKIP, SLOTS, TextSlot

__all__ = ["admonitions_plugin"]


def admonitions_plugin(md: MarkdownIt) -> None:
    admon_plugin(md)
    md.core.ruler.after("block", "admonition_titles", _annotate)


def _annotate(state: StateCore) -> None:
    tokens = state.tokens
    lines: list[str] | None = None
    for index, token in enumerate(tokens):
        if token.type != "admonition_open" or not token.map:
            continue
        lines = lines or state.src.split("\n")
        tag = token.meta.get("tag", "")
        meta = {CONTEXT: f'admonition body ("{tag}")'}
        title = _title_span(lines[token.map[0]], token.markup, token.info)
        if title:
            meta[SLOTS] = [TextSlot(token.map[0], *title, f'admonition title ("{tag}")')]
        token.meta = {**token.meta, **meta}
        if index + 2 < len(tokens) and tokens[index + 1].type == "admonition_title_open":
            tokens[index + 2].meta = {**(tokens[index + 2].meta or {}), SKIP: True}


def _title_span(line: str, markup: str, info: str) -> tuple[int, int] | None:
    """Columns of the title written on the marker line, quotes excluded."""
    params_at = line.find(markup) + len(markup)
    params = line[params_at:]
    stripped = params.rstrip()
    opening = stripped.find('"')
    if opening >= 0:
        closing = stripped.rfind('"')
        if closing > opening + 1:
            return params_at + opening + 1, params_at + closing
        return None
    words = stripped.split()
    if len(words) < 2:
        return None
    start = stripped.find(words[1], stripped.find(words[0]) + len(words[0]))
    return params_at + start, params_at + len(stripped)
