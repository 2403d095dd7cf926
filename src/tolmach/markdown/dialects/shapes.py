"""What the structural fingerprint compares of each dialect construct.

A plugin token is fingerprinted by its type, tag, markup, info, attributes and content
(:mod:`tolmach.markdown.structure`) — right for constructs with nothing translatable in
them (an ESM line, a ``$$`` block, a heading's ``{#id}`` which is an attribute). Where
a token's info or content holds translatable text, its shape here keeps everything but
that text: the container's name and colons, the callout's info string minus
``header="…"``, the shortcode's name and arguments minus its ``title``, the directive
line minus its ``title``.
"""

from __future__ import annotations

from markdown_it.token import Token

from tolmach.markdown.dialects.blocks import UNTRANSLATED_ARGUMENT
from tolmach.markdown.dialects.containers import split_container_info
from tolmach.markdown.structure import register_shape

__all__ = ["register_dialect_shapes"]


def _container(token: Token) -> tuple:
    name, title = split_container_info(token.info)
    rest = token.info if title is None else token.info[: title[0]] + token.info[title[1] :]
    return (token.type, token.markup, name, " ".join(rest.split()), title is not None)


def _admonition(token: Token) -> tuple:
    return (token.type, token.markup, token.attrGet("class"), bool(token.content))


def _block(token: Token) -> tuple:
    name, _, argument = token.info.partition("|")
    name = name.strip()
    kept = argument.strip() if name in UNTRANSLATED_ARGUMENT else bool(argument.strip())
    return (token.type, token.markup, name, kept)


def _tab(token: Token) -> tuple:
    return (token.type, token.markup)


def _masked(token: Token) -> tuple:
    """Tokens whose plugin kept the marker minus its translatable values in meta."""
    meta = token.meta or {}
    return (token.type, token.markup, meta.get("masked", token.content), len(meta.get("values", ())))


def _raw_body(token: Token) -> tuple:
    return (*_masked(token), token.content)


def _abbreviation(token: Token) -> tuple:
    return (token.type, token.info)


_SHAPES = {
    "container_colon_open": _container,
    "admonition_open": _admonition,
    "blocks_open": _block,
    "tab_open": _tab,
    "callout_open": _masked,
    "shortcode_open": _masked,
    "shortcode": _masked,
    "shortcode_raw": _raw_body,
    "liquid_line": _masked,
    "liquid_raw": _masked,
    "directive_line": _masked,
    "jsx_flow": _masked,
    "abbr_definition": _abbreviation,
}


def register_dialect_shapes() -> None:
    """Tell the structural fingerprint how to read the dialect plugins' tokens."""
    for token_type, shape in _SHAPES.items():
        register_shape(token_type, shape)
