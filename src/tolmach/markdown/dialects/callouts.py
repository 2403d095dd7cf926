"""javascript.info callouts: a fence whose info names a callout holds Markdown, not code.

::

    ```smart header="Рекурсивное решение обычно короче"
    Рекурсивное решение задачи обычно **короче**, чем итеративное.

    ```js run
    ...
    ```
    ````

The fence opens and closes as a CommonMark fence does (a callout holding code uses a
longer fence than the code's); its body is parsed as Markdown and segmented, and the
``header``, ``author``, ``title-plus`` and ``title-minus`` values of the info string
are segments. Before, 15.7k words of these bodies were never offered for translation.
"""

from __future__ import annotations

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
from tolmach.markdown.segment import CONTEXT

__all__ = ["CALLOUTS", "callouts_plugin"]

CALLOUTS = frozenset({"smart", "warn", "ponder", "online", "offline", "summary", "quote", "compare"})
TRANSLATED_ATTRIBUTES = frozenset({"header", "author", "title-plus", "title-minus"})


def callouts_plugin(md: MarkdownIt) -> None:
    md.block.ruler.before(
        "fence", "callout", _callout, {"alt": ["paragraph", "reference", "blockquote", "list"]}
    )
    md.add_render_rule("callout_open", _render_open)
    md.add_render_rule("callout_close", lambda *args: "</div>\n")


def _opener(state: StateBlock, line: int) -> tuple[str, int, str, int] | None:
    """(fence characters, info start, callout name, name end) of a callout's first line."""
    start, end = line_content(state, line)
    char = state.src[start : start + 1]
    if char not in ("`", "~") or state.sCount[line] - state.blkIndent >= 4:
        return None
    run = len(state.src[start:end]) - len(state.src[start:end].lstrip(char))
    if run < 3:
        return None
    info_at = start + run
    info = state.src[info_at:end]
    if char == "`" and "`" in info:
        return None
    name = info.strip().split(" ", 1)[0] if info.strip() else ""
    if name not in CALLOUTS:
        return None
    name_end = state.src.find(name, info_at) + len(name)
    return char * run, info_at, name, name_end


def _closes(state: StateBlock, line: int, fence: str) -> bool:
    if state.sCount[line] - state.blkIndent >= 4:
        return False
    start, end = line_content(state, line)
    text = state.src[start:end]
    run = len(text) - len(text.lstrip(fence[0]))
    return run >= len(fence) and not text[run:].strip()


def _closing(state: StateBlock, start: int, end: int, fence: str) -> int | None:
    for line in range(start, end):
        first, last = line_content(state, line)
        if first < last and state.sCount[line] < state.blkIndent:
            return None  # the container around the callout ended: so does the callout
        if _closes(state, line, fence):
            return line
    return None


def _callout(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    found = _opener(state, start_line)
    if found is None:
        return False
    if silent:
        return True
    fence, info_at, name, name_end = found
    closer = _closing(state, start_line + 1, end_line, fence)
    stop = end_line if closer is None else closer
    _, end = line_content(state, start_line)
    token = state.push("callout_open", "div", 1)
    token.markup = fence
    token.info = state.src[info_at:end].strip()
    token.map = [start_line, stop + (closer is not None)]
    token.block = True
    attributes, _ = scan_attributes(state.src, name_end, end)
    slots = list(
        attribute_slots(state, start_line, attributes, f"callout {{name}} ({name})", TRANSLATED_ATTRIBUTES)
    )
    masked, values = split_values(state.src[info_at:end], info_at - state.src.rfind("\n", 0, info_at) - 1, slots)
    token.meta = {CONTEXT: f"callout body ({name})", "name": name, "masked": masked.strip(), "values": values}
    add_slots(token, slots)

    old_parent, old_max = state.parentType, state.lineMax
    state.parentType, state.lineMax = "callout", stop
    state.md.block.tokenize(state, start_line + 1, stop)
    state.parentType, state.lineMax = old_parent, old_max

    close = state.push("callout_close", "div", -1)
    close.markup = fence
    close.block = True
    if closer is not None:
        close.map = [closer, closer + 1]  # the closer is a construct on its own line
    state.line = stop + (closer is not None)
    return True


def _render_open(self, tokens, idx, options, env) -> str:
    token = tokens[idx]
    values = "".join(f'<p class="callout-title">{escape(v)}</p>\n' for v in token.meta["values"])
    return f'<div class="callout {escape(token.meta["name"])}" data-info="{escape(token.meta["masked"])}">\n{values}'
