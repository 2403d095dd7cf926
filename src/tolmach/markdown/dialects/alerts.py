"""GitHub alerts: ``> [!NOTE]``, ``> [!TIP]``, ``> [!IMPORTANT]``, ``> [!WARNING]``,
``> [!CAUTION]`` as the first line of a blockquote.

markdown-it-py parses them itself (the ``alerts`` option). The marker line is skeleton;
the title the renderer shows ("Note") is made up from the marker, so it is no segment;
the body's paragraphs are segments that say they belong to the alert.
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

from tolmach.markdown.segment import CONTEXT, SKIP

__all__ = ["alerts_plugin"]


def alerts_plugin(md: MarkdownIt) -> None:
    md.options["alerts"] = True
    md.core.ruler.after("block", "alert_kinds", _annotate)


def _annotate(state: StateCore) -> None:
    tokens = state.tokens
    for index, token in enumerate(tokens):
        if token.type == "alert_open":
            token.meta = {**(token.meta or {}), CONTEXT: f"alert body ({token.info})"}
        elif token.type == "inline" and index and tokens[index - 1].type == "alert_title_open":
            token.meta = {**(token.meta or {}), SKIP: True}
