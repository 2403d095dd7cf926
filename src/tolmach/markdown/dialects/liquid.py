"""Liquid (Jekyll) and Jinja tags: ``{% include note.html %}``, ``{% if … %}``, ``{% raw %}``.

A tag inside text is a protected atom; a line holding only a tag is skeleton (so
``{% if %}`` and ``{% endif %}`` lines never join a paragraph's msgid); ``raw``,
``highlight`` and ``comment`` blocks are kept whole, as code. Values of ``title``,
``alt``, ``label``, ``caption`` and ``placeholder`` in a tag line of its own
(``{% include figure.html alt="…" %}``) are segments. Output tags ``{{ … }}`` come with
the ``expressions`` syntax, which a Liquid dialect enables too.
"""

from __future__ import annotations

from html import escape

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock

from tolmach.markdown.dialects.common import (
    add_slots,
    attribute_slots,
    closing_line,
    find_closer,
    first_char,
    inline_span_rule,
    line_content,
    scan_attributes,
    split_values,
)

__all__ = ["liquid_plugin", "liquid_tag"]

RAW_TAGS = {"raw": "endraw", "highlight": "endhighlight", "comment": "endcomment"}


def liquid_plugin(md: MarkdownIt) -> None:
    md.inline.ruler.before("backticks", "liquid_tag", _inline)
    md.block.ruler.before(
        "fence", "liquid_line", _block, {"alt": ["paragraph", "reference", "blockquote", "list"]}
    )
    for kind in ("liquid_tag", "liquid_line", "liquid_raw"):
        md.add_render_rule(kind, _render)


def liquid_tag(src: str, pos: int, end: int) -> tuple[str, int, int] | None:
    """(tag name, arguments start, end) of the ``{% … %}`` at ``pos``, or None.

    >>> liquid_tag("{%- include a.html -%}", 0, 22)
    ('include', 11, 22)
    """
    if not src.startswith("{%", pos):
        return None
    close = find_closer(src, pos + 2, end, "%}")
    if close is None:
        return None
    inner = pos + 2 + (src[pos + 2 : pos + 3] == "-")
    words = src[inner:close].split(None, 1)
    if not words:
        return None
    name = words[0]
    return name, src.find(name, inner) + len(name), close + 2


def _liquid_end(src: str, pos: int, end: int) -> int | None:
    found = liquid_tag(src, pos, end)
    return None if found is None else found[2]


_inline = inline_span_rule("{", "liquid_tag", _liquid_end)


def _line_tag(state: StateBlock, line: int):
    if state.sCount[line] - state.blkIndent >= 4:
        return None
    start, end = line_content(state, line)
    found = liquid_tag(state.src, start, end)
    if found is None or state.src[found[2] : end].strip():
        return None
    return found


def _block(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    if first_char(state, start_line) != "{":
        return False
    found = _line_tag(state, start_line)
    if found is None:
        return False
    if silent:
        return True
    name, args_at, stop = found
    start, end = line_content(state, start_line)
    last = start_line
    if name in RAW_TAGS:
        closer = closing_line(
            state, start_line + 1, end_line, lambda n: (_line_tag(state, n) or ("",))[0] == RAW_TAGS[name]
        )
        last = closer if closer is not None else start_line
    kind = "liquid_raw" if last > start_line else "liquid_line"
    token = state.push(kind, "div", 0)
    token.content = state.getLines(start_line, last + 1, state.blkIndent, False).rstrip("\n")
    token.info = name
    token.map = [start_line, last + 1]
    token.block = True
    attributes, _ = scan_attributes(state.src, args_at, stop - 2)
    slots = list(attribute_slots(state, start_line, attributes, f'Liquid "{name}" {{name}}'))
    offset = start - state.src.rfind("\n", 0, start) - 1
    masked, values = split_values(state.src[start:end], offset, slots)
    rest = state.getLines(start_line + 1, last + 1, state.blkIndent, False) if last > start_line else ""
    token.meta = {"masked": masked + "\n" + rest, "values": values}
    add_slots(token, slots)
    state.line = last + 1
    return True


def _render(self, tokens, idx, options, env) -> str:
    token = tokens[idx]
    masked = (token.meta or {}).get("masked", token.content)
    values = "".join(f"<span>{escape(v)}</span>" for v in (token.meta or {}).get("values", []))
    tag = "div" if token.block else "span"
    return f'<{tag} class="liquid" data-liquid="{escape(masked)}">{values}</{tag}>'
