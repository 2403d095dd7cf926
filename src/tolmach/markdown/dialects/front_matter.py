"""TOML (``+++``) and JSON (``{ … }``) front matter, as Hugo reads them.

YAML front matter (``---``) comes from mdit-py-plugins; these two give the same
``front_matter`` token, with ``meta["format"]`` saying which language it is in, so
that :mod:`tolmach.markdown.frontmatter` can find the translatable values.
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock

__all__ = ["json_front_matter_plugin", "toml_front_matter_plugin"]


def toml_front_matter_plugin(md: MarkdownIt) -> None:
    md.block.ruler.before("table", "front_matter_toml", _toml_rule, {"alt": []})


def json_front_matter_plugin(md: MarkdownIt) -> None:
    md.block.ruler.before("table", "front_matter_json", _json_rule, {"alt": []})


def _toml_rule(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    return _front_matter(state, start, end, silent, "+++", "+++", "toml")


def _json_rule(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    return _front_matter(state, start, end, silent, "{", "}", "json")


def _front_matter(
    state: StateBlock, start: int, end: int, silent: bool, opener: str, closer: str, kind: str
) -> bool:
    if start != 0 or state.sCount[0] != 0 or _line(state, 0) != opener:
        return False
    closing = next((n for n in range(1, end) if _line(state, n) == closer), None)
    if closing is None:
        return False
    if silent:
        return True
    token = state.push("front_matter", "", 0)
    token.hidden = True
    token.block = True
    token.markup = opener
    token.meta = {"format": kind}
    first_body = state.bMarks[1] if closing > 1 else state.eMarks[0]
    token.content = state.src[first_body : state.eMarks[closing - 1]] if closing > 1 else ""
    token.map = [0, closing + 1]
    state.line = closing + 1
    return True


def _line(state: StateBlock, line: int) -> str:
    return state.src[state.bMarks[line] : state.eMarks[line]].rstrip(" \t")
