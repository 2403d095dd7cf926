"""Trailing heading attributes: ``## Title {#id .class key=value}``.

VitePress (markdown-it-attrs), Docusaurus, Hugo (goldmark), Jekyll (kramdown, also
``{: #id}``), MkDocs (attr_list, ``{ #id }``) and mdBook write a heading's anchor this
way; react.dev writes it as an MDX comment, ``{/*id*/}``. The block is cut from the
heading's content (so it never reaches a msgid) and becomes the heading's attributes;
what was cut is noted in the inline token's meta for segmentation.
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

from tolmach.markdown.segment import TAIL

__all__ = ["heading_attrs_plugin", "parse_attribute_block", "trailing_attributes"]


def heading_attrs_plugin(md: MarkdownIt) -> None:
    md.core.ruler.after("block", "heading_attrs", _heading_attrs)


def _heading_attrs(state: StateCore) -> None:
    tokens = state.tokens
    for index, token in enumerate(tokens[:-1]):
        if token.type != "heading_open":
            continue
        inline = tokens[index + 1]
        content = inline.content.rstrip()
        opening = _block_start(content)
        if opening is None:
            continue
        attrs = parse_attribute_block(content[opening:])
        if attrs is None:
            continue
        kept = content[:opening].rstrip(" \t")
        inline.meta = {**(inline.meta or {}), TAIL: inline.content[len(kept) :]}
        inline.content = kept
        for name, value in attrs:
            if name == "class" and token.attrGet("class"):
                token.attrJoin("class", value)
            else:
                token.attrSet(name, value)


def trailing_attributes(content: str) -> str | None:
    """The attribute block that ends ``content``, as the plugin would take it, or None.

    >>> trailing_attributes("Быстрый старт {#start}")
    '{#start}'
    """
    content = content.rstrip()
    opening = _block_start(content)
    if opening is None or parse_attribute_block(content[opening:]) is None:
        return None
    return content[opening:]


def _block_start(content: str) -> int | None:
    """Where a trailing ``{…}`` starts, if it is preceded by a space or starts the line."""
    if not content.endswith("}"):
        return None
    opening = content.rfind("{")
    if opening < 0:
        return None
    if content.startswith("{/*", opening):  # an MDX comment may hold anything but */
        opening = content.rfind("{/*")
    if opening > 0 and content[opening - 1] not in " \t":
        return None
    if opening > 0 and content[:opening].rstrip().endswith("\\"):
        return None
    return opening


def parse_attribute_block(block: str) -> list[tuple[str, str]] | None:
    """``{#id .a key=v}`` → attributes, or None if it is no attribute block.

    >>> parse_attribute_block("{ #quick-start .lead }")
    [('id', 'quick-start'), ('class', 'lead')]
    >>> parse_attribute_block("{/*usage*/}")
    [('id', 'usage')]
    >>> parse_attribute_block("{not attributes}") is None
    True
    """
    inner = block[1:-1].strip()
    if inner.startswith("/*") and inner.endswith("*/"):
        anchor = inner[2:-2].strip()
        return [("id", anchor)] if anchor and " " not in anchor else None
    inner = inner.removeprefix(":").strip()
    if not inner:
        return None
    found: list[tuple[str, str]] = []
    for part in _split_parts(inner):
        if part is None:
            return None
        found.append(part)
    return found


def _split_parts(inner: str):
    pos = 0
    while pos < len(inner):
        if inner[pos] in " \t":
            pos += 1
            continue
        end = pos
        quote = None
        while end < len(inner) and (quote or inner[end] not in " \t"):
            if inner[end] in "\"'":
                quote = None if quote == inner[end] else (quote or inner[end])
            end += 1
        yield _part(inner[pos:end])
        pos = end


def _part(word: str) -> tuple[str, str] | None:
    if word.startswith("#") and len(word) > 1 and _is_name(word[1:]):
        return ("id", word[1:])
    if word.startswith(".") and len(word) > 1 and _is_name(word[1:]):
        return ("class", word[1:])
    name, eq, value = word.partition("=")
    if eq and _is_name(name):
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        return (name, value)
    return None


def _is_name(text: str) -> bool:
    return bool(text) and all(ch.isalnum() or ch in "-_:." for ch in text)
