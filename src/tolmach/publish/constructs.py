"""Dialect constructs as a reader sees them on a published page, not as their source.

The dialect plugins (:mod:`tolmach.markdown.dialects`) parse ``::: tip``, ``!!! note``,
``> [!NOTE]``, ``=== "Tab"``, definition lists and math; their own render rules serve
the structure tests. A site needs a little more: a ``:::`` container is a titled box
like an admonition (with the generator's default title when none is written), a
``details`` container or a collapsible ``???`` admonition is a ``<details>`` element
that opens without a script, and an abbreviation definition is a line of a glossary.

Every title here may come from a translator, so it is escaped; and every attribute a
plugin took from the text (``{#id .class key=value}`` after a heading or a link) is
kept only when it is on :data:`SAFE_ATTRIBUTES`, with link targets checked again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from html import escape

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from tolmach.markdown.dialects.containers import split_container_info

__all__ = ["SAFE_ATTRIBUTES", "SHAPES_RULE", "keep_safe_attributes", "site_constructs"]

# What a token may carry into the page; event handlers, ``style``, ``srcdoc`` and the
# like are dropped whichever plugin set them.
SAFE_ATTRIBUTES = frozenset({
    "id", "class", "href", "src", "alt", "title", "lang", "dir", "start", "type", "value",
    "checked", "disabled", "width", "height", "colspan", "rowspan",
})
_DESTINATIONS = ("href", "src")
_CONTAINER = "container_colon"
_UNTITLED = frozenset({"code-group", "raw"})  # VitePress containers that are no box
_SHAPE = "site_shape"
SHAPES_RULE = "site_shapes"  # the one rule this adds to a dialect's parser  # token.meta key: (tag, classes, open) chosen for an opener


def site_constructs(md: MarkdownIt) -> None:
    """Render rules for the published page, on a parser of the document's dialect."""
    rules = md.renderer.rules
    if f"{_CONTAINER}_open" in rules or "admonition_open" in rules:
        md.core.ruler.push(SHAPES_RULE, _shape_constructs)
    if f"{_CONTAINER}_open" in rules:
        md.add_render_rule(f"{_CONTAINER}_open", _container_open)
        md.add_render_rule(f"{_CONTAINER}_close", _close)
    if "admonition_open" in rules:
        md.add_render_rule("admonition_open", _admonition_open)
        md.add_render_rule("admonition_close", _close)
        md.add_render_rule("admonition_title_open", _title_open)
        md.add_render_rule("admonition_title_close", _title_close)
    if "abbr_definition" in rules:
        md.add_render_rule("abbr_definition", _abbreviation)


def keep_safe_attributes(tokens: Iterable[Token], safe_destination: Callable[[str], bool]) -> None:
    """Drop every attribute not on :data:`SAFE_ATTRIBUTES`, and a link or image target
    that ``safe_destination`` refuses (an attribute block can set one directly)."""
    for token in tokens:
        if token.attrs:
            for name in list(token.attrs):
                value = str(token.attrs[name])
                if name not in SAFE_ATTRIBUTES or (name in _DESTINATIONS and not safe_destination(value)):
                    del token.attrs[name]
        if token.children:
            keep_safe_attributes(token.children, safe_destination)


# --- shapes: which element each construct becomes ---------------------------------------


def _shape_constructs(state: StateCore) -> None:
    """Choose each opener's element and give its closer the same (closers know nothing)."""
    openers: dict[str, list[Token]] = {}
    tokens = state.tokens
    for index, token in enumerate(tokens):
        family = token.type.rsplit("_", 1)[0]
        if token.type in (f"{_CONTAINER}_open", "admonition_open"):
            shape = _container_shape(token) if family == _CONTAINER else _admonition_shape(token)
            token.meta = {**(token.meta or {}), _SHAPE: shape}
            openers.setdefault(family, []).append(token)
            if shape[0] == "details" and index + 1 < len(tokens) and \
                    tokens[index + 1].type == "admonition_title_open":
                tokens[index + 1].meta = {**(tokens[index + 1].meta or {}), _SHAPE: shape}
        elif token.type in (f"{_CONTAINER}_close", "admonition_close") and openers.get(family):
            token.meta = {**(token.meta or {}), _SHAPE: openers[family].pop().meta[_SHAPE]}
        elif token.type == "admonition_title_close":
            opener = next((t for t in reversed(tokens[:index]) if t.type == "admonition_title_open"), None)
            if opener is not None and opener.meta and _SHAPE in opener.meta:
                token.meta = {**(token.meta or {}), _SHAPE: opener.meta[_SHAPE]}


def _container_shape(token: Token) -> tuple[str, str, bool]:
    name = split_container_info(token.info)[0]
    if name in _UNTITLED:
        return "div", f"container {name}", False
    if name == "details":
        return "details", "admonition details", "{open}" in token.info
    return "aside", f"admonition {name}", False


def _admonition_shape(token: Token) -> tuple[str, str, bool]:
    classes = " ".join(c for c in str(token.attrGet("class") or "admonition").split()
                       if not c.startswith(("is-collapsible", "collapsible-")))
    if token.markup.startswith("???"):
        return "details", classes, token.markup.endswith("+")
    return "aside", classes, False


# --- render rules ------------------------------------------------------------------------


def _open_tag(token: Token) -> str:
    tag, classes, is_open = token.meta[_SHAPE]
    return f'<{tag} class="{escape(classes)}"{" open" if is_open else ""}>\n'


def _container_open(self, tokens, idx, options, env) -> str:
    token = tokens[idx]
    tag = token.meta[_SHAPE][0]
    name, span = split_container_info(token.info)
    head = _open_tag(token)
    if name in _UNTITLED:
        return head
    title = token.info[span[0]:span[1]].strip() if span else _default_title(name)
    title_tag = "summary" if tag == "details" else "p"
    return head + f'<{title_tag} class="admonition-title">{escape(title)}</{title_tag}>\n'


def _admonition_open(self, tokens, idx, options, env) -> str:
    token = tokens[idx]
    head = _open_tag(token)
    has_title = idx + 1 < len(tokens) and tokens[idx + 1].type == "admonition_title_open"
    if token.meta[_SHAPE][0] == "details" and not has_title:
        head += f'<summary class="admonition-title">{escape(_default_title(token.meta.get("tag", "")))}</summary>\n'
    return head


def _title_open(self, tokens, idx, options, env) -> str:
    details = tokens[idx].meta and tokens[idx].meta.get(_SHAPE, ("",))[0] == "details"
    return '<summary class="admonition-title">' if details else '<p class="admonition-title">'


def _title_close(self, tokens, idx, options, env) -> str:
    details = tokens[idx].meta and tokens[idx].meta.get(_SHAPE, ("",))[0] == "details"
    return "</summary>\n" if details else "</p>\n"


def _close(self, tokens, idx, options, env) -> str:
    shape = (tokens[idx].meta or {}).get(_SHAPE, ("div",))
    return f"</{shape[0]}>\n"


def _abbreviation(self, tokens, idx, options, env) -> str:
    token = tokens[idx]
    return (f'<dl class="abbreviation"><dt><abbr>{escape(token.info)}</abbr></dt>'
            f"<dd>{escape(token.content)}</dd></dl>\n")


def _default_title(name: str) -> str:
    """The title a generator shows for an untitled box: its kind, capitalized."""
    return name.replace("-", " ").replace("_", " ").capitalize()
