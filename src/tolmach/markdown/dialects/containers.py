"""``:::`` containers: VitePress custom containers and Docusaurus admonitions.

::

    ::: tip Заголовок            :::tip[Заголовок]           ::::details Подробнее {open}
    Текст.                       Текст.                      …
    :::                          :::                         ::::

mdit-py-plugins' ``container`` plugin parses them (a closer needs at least as many
colons as its opener, so ``::::`` can hold ``:::``). This module accepts any name and
says, per opener, what the title is: the text after the name (VitePress), or inside
``[…]`` right after it (Docusaurus). The name, the colons and trailing ``{…}`` options
stay skeleton; the title is a segment of its own.
"""

from __future__ import annotations

from html import escape

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from mdit_py_plugins.container import container_plugin

from tolmach.markdown.segment import CONTEXT, SLOTS, TextSlot

__all__ = ["containers_plugin", "split_container_info"]

NAME = "colon"  # tokens are container_colon_open / container_colon_close


def containers_plugin(md: MarkdownIt) -> None:
    container_plugin(md, NAME, validate=_has_name, render=_render)
    md.core.ruler.after("block", "container_titles", _annotate)


def _has_name(params: str, markup: str) -> bool:
    return bool(split_container_info(params)[0])


def split_container_info(info: str) -> tuple[str, tuple[int, int] | None]:
    """The container's name and the span of its title within ``info``.

    >>> split_container_info(" tip Заголовок {open}")
    ('tip', (5, 14))
    >>> split_container_info("tip[Заголовок]")
    ('tip', (4, 13))
    >>> split_container_info(" code-group")
    ('code-group', None)
    """
    pos = len(info) - len(info.lstrip(" \t"))
    start = pos
    while pos < len(info) and (info[pos].isalnum() or info[pos] in "-_"):
        pos += 1
    name = info[start:pos]
    if not name or not name[0].isalpha():
        return "", None
    rest_end = len(info.rstrip())
    if pos < rest_end and info[pos] == "[":
        close = info.rfind("]", pos)
        return name, ((pos + 1, close) if close > pos + 1 else None)
    if pos < rest_end and info[pos] not in " \t{":
        return "", None
    if info[:rest_end].endswith("}") and (brace := info.rfind("{", pos, rest_end)) >= 0:
        rest_end = len(info[:brace].rstrip())
    title_start = pos + len(info[pos:rest_end]) - len(info[pos:rest_end].lstrip())
    return name, ((title_start, rest_end) if title_start < rest_end else None)


def _annotate(state: StateCore) -> None:
    """Mark each opener's title as a slot and its body as the container's, and give each
    closer its line, so that the structure check sees where a container ends."""
    lines = state.src.split("\n") if any(t.type == f"container_{NAME}_open" for t in state.tokens) else []
    openers: list[Token] = []
    for token in state.tokens:
        if token.type == f"container_{NAME}_close" and openers:
            _place_closer(token, openers.pop(), lines)
        if token.type != f"container_{NAME}_open" or not token.map:
            continue
        openers.append(token)
        name, title = split_container_info(token.info)
        meta = {CONTEXT: f'container body ("{name}")', "name": name}
        line = lines[token.map[0]]
        info_at = line.find(token.markup) + len(token.markup)
        if title:
            meta[SLOTS] = [
                TextSlot(token.map[0], info_at + title[0], info_at + title[1], f'container title ("{name}")')
            ]
        token.meta = {**(token.meta or {}), **meta}


def _place_closer(close: Token, opener: Token, lines: list[str]) -> None:
    """The plugin ends the opener's map at the closing line; the closer takes that line."""
    line = opener.map[1] if opener.map else None
    if line is not None and line < len(lines) and lines[line].lstrip(" \t>").startswith(opener.markup[0]):
        close.map = [line, line + 1]


def _render(self, tokens, idx, options, env) -> str:
    token = tokens[idx]
    if token.nesting != 1:
        return "</div>\n"
    name, title = split_container_info(token.info)
    rest = token.info if title is None else token.info[: title[0]] + token.info[title[1] :]
    head = f'<div class="container {escape(name)}" data-info="{escape(rest.strip())}">\n'
    if title:
        head += f'<p class="container-title">{escape(token.info[title[0] : title[1]])}</p>\n'
    return head
