"""Hugo shortcodes: ``{{< name args >}}`` and ``{{% name args %}}``, paired or not.

::

    {{< figure src="cat.png" alt="Кошка" >}}      a line of its own: skeleton, alt a segment
    {{% notice tip %}}                            paired: the body is Markdown, segmented
    Текст.
    {{% /notice %}}
    Смотрите {{< ref "install.md" >}}.            inline: a protected atom of the msgid

A shortcode's name and arguments are never translated (QGIS translators translated
them, and the site broke); values of ``title``, ``alt``, ``label``, ``caption`` and
``placeholder`` on a shortcode line of its own are segments. The body of
``highlight`` is code. ``{{</* … */>}}`` (a shortcode shown as text) is an atom too.
"""

from __future__ import annotations

from html import escape

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_inline import StateInline

from tolmach.markdown.dialects.common import (
    add_slots,
    attribute_slots,
    closing_line,
    first_char,
    line_content,
    scan_attributes,
    split_values,
)
from tolmach.markdown.segment import CONTEXT

__all__ = ["parse_shortcode", "shortcodes_plugin"]

RAW_BODY = frozenset({"highlight"})
_CLOSERS = {"{{<": ">}}", "{{%": "%}}"}


def shortcodes_plugin(md: MarkdownIt) -> None:
    md.block.ruler.before(
        "fence", "shortcode", _block, {"alt": ["paragraph", "reference", "blockquote", "list"]}
    )
    md.inline.ruler.before("backticks", "shortcode_inline", _inline)
    md.add_render_rule("shortcode_open", _render_open)
    md.add_render_rule("shortcode_close", lambda *args: "</div>\n")
    md.add_render_rule("shortcode", lambda self, t, i, o, e: _render_open(self, t, i, o, e) + "</div>\n")
    md.add_render_rule("shortcode_raw", _render_raw)
    md.add_render_rule("shortcode_inline", _render_inline)


def parse_shortcode(src: str, pos: int, end: int) -> tuple[str, bool, bool, int, int] | None:
    """(name, closing, self-closing, arguments start, end of tag) of the shortcode at
    ``pos``, or None. A comment ``{{</* … */>}}`` has the name ``""``.

    >>> parse_shortcode('{{< figure src="a.png" >}}', 0, 26)
    ('figure', False, False, 10, 26)
    >>> parse_shortcode("{{% /notice %}}", 0, 15)
    ('notice', True, False, 11, 15)
    """
    opener = src[pos : pos + 3]
    closer = _CLOSERS.get(opener)
    if closer is None:
        return None
    if src.startswith("/*", pos + 3):
        stop = src.find("*/" + closer, pos + 5, end)
        return None if stop < 0 else ("", False, False, pos + 3, stop + 5)
    inner = pos + 3
    while inner < end and src[inner] in " \t":
        inner += 1
    closing = inner < end and src[inner] == "/"
    inner += closing
    name_start = inner
    while inner < end and (src[inner].isalnum() or src[inner] in "-_./"):
        inner += 1
    name = src[name_start:inner]
    if not name:
        return None
    stop = _tag_end(src, inner, end, closer)
    if stop is None:
        return None
    self_closing = src[:stop].rstrip()[-1:] == "/"
    return name, closing, self_closing, inner, stop + 3


def _tag_end(src: str, pos: int, end: int, closer: str) -> int | None:
    """Where the closing delimiter starts, skipping quoted and raw-string arguments."""
    while pos < end:
        ch = src[pos]
        if ch in "\"`":
            close = src.find(ch, pos + 1, end)
            while ch == '"' and close > 0 and src[close - 1] == "\\":
                close = src.find(ch, close + 1, end)
            if close < 0:
                return None
            pos = close + 1
        elif src.startswith(closer, pos):
            return pos
        else:
            pos += 1
    return None


def _line_shortcode(state: StateBlock, line: int):
    start, end = line_content(state, line)
    if state.sCount[line] - state.blkIndent >= 4:
        return None
    found = parse_shortcode(state.src, start, end)
    if found is None or state.src[found[4] : end].strip():
        return None
    return found


def _block(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    if first_char(state, start_line) != "{":
        return False
    found = _line_shortcode(state, start_line)
    if found is None or not found[0]:
        return False
    if silent:
        return True
    name, closing, self_closing = found[:3]
    closer = None
    if not closing and not self_closing:
        closer = closing_line(state, start_line + 1, end_line, _matcher(state, name))
    if closer is None:
        _push_single(state, start_line, found, "shortcode")
        state.line = start_line + 1
        return True
    if name in RAW_BODY:
        token = _push_single(state, start_line, found, "shortcode_raw")
        token.content = state.getLines(start_line + 1, closer, state.blkIndent, True)
        token.map = [start_line, closer + 1]
        state.line = closer + 1
        return True
    _push_single(state, start_line, found, "shortcode_open", nesting=1)
    old_parent, old_max = state.parentType, state.lineMax
    state.parentType, state.lineMax = "shortcode", closer
    state.md.block.tokenize(state, start_line + 1, closer)
    state.parentType, state.lineMax = old_parent, old_max
    close = state.push("shortcode_close", "div", -1)
    close.markup = state.src[slice(*line_content(state, closer))].strip()
    close.block = True
    close.map = [closer, closer + 1]
    state.line = closer + 1
    return True


def _matcher(state: StateBlock, name: str):
    """A predicate for the line that closes ``name``, counting nested pairs."""
    depth = [1]

    def closes(line: int) -> bool:
        found = _line_shortcode(state, line)
        if found is None or found[0] != name or found[2]:
            return False
        depth[0] += -1 if found[1] else 1
        return depth[0] == 0

    return closes


def _push_single(state: StateBlock, line: int, found, kind: str, nesting: int = 0):
    name, _, _, args_at, tag_end = found
    start, _ = line_content(state, line)
    token = state.push(kind, "div", nesting)
    token.markup = state.src[start : start + 3]  # {{< or {{%
    token.info = name
    token.map = [line, line + 1]
    token.block = True
    attributes, _ = scan_attributes(state.src, args_at, tag_end - 3)
    slots = list(attribute_slots(state, line, attributes, f'shortcode "{name}" {{name}}', quoting="go"))
    tag = state.src[start:tag_end]
    masked, values = split_values(tag, start - state.src.rfind("\n", 0, start) - 1, slots)
    token.meta = {CONTEXT: f'shortcode body ("{name}")', "masked": masked, "values": values}
    add_slots(token, slots)
    return token


def _inline(state: StateInline, silent: bool) -> bool:
    if state.src[state.pos] != "{":
        return False
    found = parse_shortcode(state.src, state.pos, state.posMax)
    if found is None:
        return False
    if not silent:
        token = state.push("shortcode_inline", "span", 0)
        token.content = state.src[state.pos : found[4]]
        token.info = found[0]
    state.pos = found[4]
    return True


def _render_open(self, tokens, idx, options, env) -> str:
    token = tokens[idx]
    masked = token.meta["masked"]
    return f'<div class="shortcode" data-shortcode="{escape(masked)}">\n' + "".join(
        f'<span class="argument">{escape(value)}</span>\n' for value in token.meta.get("values", [])
    )


def _render_raw(self, tokens, idx, options, env) -> str:
    token = tokens[idx]
    return f'<pre data-shortcode="{escape(token.meta["masked"])}">{escape(token.content)}</pre>\n'


def _render_inline(self, tokens, idx, options, env) -> str:
    return f'<span class="shortcode" data-shortcode="{escape(tokens[idx].content)}"></span>'
