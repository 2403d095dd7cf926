"""MDX (Docusaurus, react.dev): ESM lines, JSX elements and ``{expressions}``.

::

    import Tabs from '@theme/Tabs';                 skeleton, up to the next blank line

    <Diagram name="tree" height={250} alt="Дерево компонентов">   skeleton; alt a segment
    Текст внутри — обычный Markdown.
    </Diagram>

    Нажмите <Kbd>Ctrl</Kbd>, значение {props.count}.               atoms inside the msgid

A line holding only JSX tags (or only an expression) is a flow element: skeleton, even
right after a paragraph line, as ``</Diagram>`` above; text between such lines is
Markdown and is segmented as such. Inside text, a JSX tag and a ``{…}`` expression are
protected atoms. Values of ``title``, ``alt``, ``label``, ``caption`` and
``placeholder`` (and any names the project adds) in a flow element are segments.
"""

from __future__ import annotations

from bisect import bisect_right
from html import escape

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock

from tolmach.markdown.dialects.common import (
    TRANSLATABLE_ATTRIBUTES,
    Attribute,
    add_slots,
    first_char,
    inline_span_rule,
    line_content,
    skip_balanced,
    slot,
)

__all__ = ["jsx_tag", "mdx_plugin"]


def mdx_plugin(md: MarkdownIt, attributes: frozenset[str] = TRANSLATABLE_ATTRIBUTES) -> None:
    md.block.ruler.before("fence", "mdx_esm", _esm, {"alt": []})

    def flow(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        return _flow(state, start, end, silent, attributes)

    md.block.ruler.before(
        "fence", "jsx_flow", flow, {"alt": ["paragraph", "reference", "blockquote", "list"]}
    )
    md.inline.ruler.before("html_inline", "jsx_inline", _inline_jsx)
    md.inline.ruler.before("backticks", "mdx_expression", _inline_expression)
    for kind in ("mdx_esm", "jsx_flow", "jsx_inline", "mdx_expression"):
        md.add_render_rule(kind, _render)


def jsx_tag(src: str, pos: int, end: int) -> tuple[int, list[Attribute]] | None:
    """End of the JSX tag at ``pos`` (``<Name …>``, ``</Name>``, ``<>``, ``</>``, ``<X />``)
    and its string attributes, or None. Attribute values may be strings or ``{…}``.

    >>> jsx_tag('<Diagram height={250} alt="a > b">', 0, 34)[0]
    34
    """
    p = pos + 1
    if p < end and src[p] == "/":
        p += 1
    if p < end and src[p] == ">":
        return p + 1, []
    name_start = p
    while p < end and (src[p].isalnum() or src[p] in "_.:-"):
        p += 1
    if p == name_start or not src[name_start].isalpha():
        return None
    attributes: list[Attribute] = []
    while p < end:
        ch = src[p]
        if ch in " \t\n":
            p += 1
        elif ch == ">":
            return p + 1, attributes
        elif src.startswith("/>", p):
            return p + 2, attributes
        elif ch == "{":
            close = skip_balanced(src, p, end)
            if close is None:
                return None
            p = close
        else:
            p = _attribute(src, p, end, attributes)
            if p is None:
                return None
    return None


def _attribute(src: str, p: int, end: int, found: list[Attribute]) -> int | None:
    name_start = p
    while p < end and (src[p].isalnum() or src[p] in "_.:-"):
        p += 1
    if p == name_start:
        return None
    name = src[name_start:p]
    while p < end and src[p] in " \t\n":
        p += 1
    if p >= end or src[p] != "=":
        return p
    p += 1
    while p < end and src[p] in " \t\n":
        p += 1
    if p < end and src[p] in "\"'":
        close = src.find(src[p], p + 1, end)
        if close < 0:
            return None
        found.append(Attribute(name, p + 1, close, src[p]))
        return close + 1
    if p < end and src[p] == "{":
        return skip_balanced(src, p, end)
    return None


def _esm(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    if first_char(state, start_line) not in ("i", "e") or state.blkIndent or state.sCount[start_line] or state.parentType != "root":
        return False
    start, _ = line_content(state, start_line)
    if not state.src.startswith(("import ", "export ", "import{", "export{"), start):
        return False
    if silent:
        return True
    last = start_line + 1
    while last < end_line and not state.isEmpty(last):
        last += 1
    token = state.push("mdx_esm", "div", 0)
    token.content = state.getLines(start_line, last, 0, False).rstrip("\n")
    token.map = [start_line, last]
    token.block = True
    state.line = last
    return True


def _flow(state: StateBlock, start_line: int, end_line: int, silent: bool, names) -> bool:
    if first_char(state, start_line) not in ("<", "{") or state.sCount[start_line] - state.blkIndent >= 4:
        return False
    start, _ = line_content(state, start_line)
    limit = state.eMarks[end_line - 1] if end_line > start_line else state.eMarks[start_line]
    pos, attributes = start, []
    while True:
        if state.src.startswith("<", pos):
            found = jsx_tag(state.src, pos, limit)
            if found is None:
                return False
            pos, more = found
            attributes += more
        elif state.src.startswith("{", pos):
            close = skip_balanced(state.src, pos, limit)
            if close is None:
                return False
            pos = close
        else:
            return False
        while pos < limit and state.src[pos] in " \t":
            pos += 1
        if pos >= limit or state.src[pos] == "\n":
            break
    if state.src[start + 1 : start + 2] == "!":
        return False  # an HTML comment or declaration: not JSX
    last = _line_of(state, start_line, end_line, pos)
    if silent:
        return True
    token = state.push("jsx_flow", "div", 0)
    token.content = state.src[start:pos]
    token.map = [start_line, last + 1]
    token.block = True
    slots, masked, values, cursor = [], [], [], start
    for attr in attributes:
        if attr.name not in names or attr.quote not in "\"'" or "\n" in state.src[attr.start : attr.end]:
            continue
        found = slot(state, _line_of(state, start_line, last + 1, attr.start), attr.start, attr.end,
                     f"<{_tag_name(token.content)}> {attr.name}", "attribute" + attr.quote)
        if found:
            slots.append(found)
            masked.append(state.src[cursor : attr.start])
            values.append(state.src[attr.start : attr.end])
            cursor = attr.end
    token.meta = {"masked": "".join(masked) + state.src[cursor:pos], "values": values}
    add_slots(token, slots)
    state.line = last + 1
    return True


def _line_of(state: StateBlock, first: int, stop: int, pos: int) -> int:
    """The line (from ``first``, before ``stop``) that holds source position ``pos``."""
    return max(first, bisect_right(state.bMarks, pos, first, stop) - 1)


def _tag_name(content: str) -> str:
    name = content[1:].lstrip("/")
    end = 0
    while end < len(name) and (name[end].isalnum() or name[end] in "_.:-"):
        end += 1
    return name[:end]


def _jsx_end(src: str, pos: int, end: int) -> int | None:
    found = jsx_tag(src, pos, end)
    return None if found is None else found[0]


_inline_jsx = inline_span_rule("<", "jsx_inline", _jsx_end)
_inline_expression = inline_span_rule("{", "mdx_expression", skip_balanced)


def _render(self, tokens, idx, options, env) -> str:
    token = tokens[idx]
    masked = (token.meta or {}).get("masked", token.content)
    values = "".join(f"<span>{escape(v)}</span>" for v in (token.meta or {}).get("values", []))
    tag = "div" if token.block else "span"
    return f'<{tag} class="{token.type}" data-source="{escape(masked)}">{values}</{tag}>' + (
        "\n" if token.block else ""
    )
