"""The inline atoms a translation must keep: code spans, destinations, HTML tags.

A translator rewrites text, never these: inline code, link and image destinations,
autolinks, raw HTML tags (less their translatable attributes) and footnote references.
Both the per-entry markup check (:mod:`tolmach.checks.inline`) and the structural
fingerprint of a whole document (:mod:`tolmach.markdown.structure`) read them from
markdown-it tokens with :func:`atom_of`, so the two can never disagree on what an atom is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from markdown_it.token import Token

__all__ = [
    "DIALECT_ATOMS",
    "TRANSLATABLE_ATTRIBUTES",
    "Atom",
    "atom_of",
    "inline_atoms",
    "normalize_tag",
]

#: HTML attributes whose values are text a translator translates.
TRANSLATABLE_ATTRIBUTES = frozenset({"alt", "title", "aria-label", "placeholder", "summary"})

Atom = tuple[str, str]
"""``(kind, value)``: kind is ``code``, ``link``, ``autolink``, ``image``, ``html`` or
``footnote``; in :func:`inline_atoms` also ``emphasis``, ``strong`` and ``hard break``
(with an empty value): the markup check counts those as well."""

_FORMATTING = {"em_open": "emphasis", "strong_open": "strong", "hardbreak": "hard break"}

_TAG_RE = re.compile(r"^<(/?)([A-Za-z][A-Za-z0-9-]*)(.*?)(/?)>$", re.DOTALL)
_ATTR_RE = re.compile(r"""([A-Za-z_:][\w.:-]*)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'=<>`]+))?""")


def normalize_tag(raw: str) -> str:
    """A raw HTML tag reduced to what must not change: name and untranslatable attributes.

    >>> normalize_tag('<A  Href="x" title="Hallo">')
    '<a href="x">'
    """
    match = _TAG_RE.match(raw.strip())
    if not match:
        return "<!-- -->" if raw.startswith("<!--") else raw.strip()
    closing, name, rest, _ = match.groups()
    attrs = []
    for attr in _ATTR_RE.finditer(rest):
        key = attr.group(1).lower()
        if key not in TRANSLATABLE_ATTRIBUTES:
            value = attr.group(2)
            attrs.append(key if value is None else f'{key}="{value.strip(chr(34) + chr(39))}"')
    inner = " ".join([name.lower(), *sorted(attrs)])
    return f"<{closing}{inner}>"  # <br/> and <br> are the same tag


# Inline tokens of dialect plugins that a translation copies verbatim, by label.
DIALECT_ATOMS = {
    "expression": "expression",
    "mdx_expression": "expression",
    "liquid_tag": "template tag",
    "shortcode_inline": "shortcode",
    "jsx_inline": "JSX",
    "math_inline": "math",
    "math_inline_double": "math",
}


def atom_of(token: Token) -> Atom | None:
    """The atom an inline token stands for, or None for text, emphasis and breaks."""
    kind = token.type
    if kind in DIALECT_ATOMS:
        return (DIALECT_ATOMS[kind], token.content)
    if kind == "code_inline":
        return ("code", token.content)
    if kind == "link_open":
        href = str(token.attrs.get("href", ""))
        return ("autolink" if token.markup in ("autolink", "linkify") else "link", href)
    if kind == "image":
        return ("image", str(token.attrs.get("src", "")))
    if kind == "html_inline":
        return ("html", normalize_tag(token.content))
    if kind == "footnote_ref":
        return ("footnote", str(token.meta.get("label", "")))
    return None


def inline_atoms(children: Iterable[Token]) -> tuple[Atom, ...]:
    """The atoms of one inline token's children and its emphasis and hard breaks,
    sorted: a multiset, order is free.

    An image's own children (its alt text) are text, so they are not walked.
    """
    found = []
    for token in children:
        atom = atom_of(token)
        if atom is None and token.type in _FORMATTING:
            atom = (_FORMATTING[token.type], "")
        if atom is not None:
            found.append(atom)
    found.sort()
    return tuple(found)
