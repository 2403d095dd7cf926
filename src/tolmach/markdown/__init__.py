"""Markdown stage: source text in, segments out; segments and translations in, text out.

:mod:`~tolmach.markdown.document` splits a source into a :class:`Document` — the text
plus the *slots* that hold translatable segments (front matter values in
:mod:`~tolmach.markdown.frontmatter`); everything outside the slots is the skeleton.
:mod:`~tolmach.markdown.build` fills the slots with translations and copies the
skeleton byte for byte; :mod:`~tolmach.markdown.pseudo` makes fake translations that
show segment boundaries; :mod:`~tolmach.markdown.compare` and
:mod:`~tolmach.markdown.fidelity` prove that a rebuilt document renders like its source.
:mod:`~tolmach.markdown.structure` takes the structural fingerprint of a text, and
:mod:`~tolmach.markdown.verify` builds with translations and keeps every one that would
change the fingerprint out of the build, naming it.
A document is written in a :mod:`~tolmach.markdown.dialects` dialect (CommonMark by
default; VitePress, MkDocs Material, Hugo … as parser plugins), whose one parser serves
segmentation, verification and checks alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tolmach.markdown.build import apply_translations
    from tolmach.markdown.document import Document, Segment, parse_document
    from tolmach.markdown.pseudo import pseudo_translate

_EXPORTS = {
    "apply_translations": "tolmach.markdown.build",
    "Document": "tolmach.markdown.document",
    "Segment": "tolmach.markdown.document",
    "parse_document": "tolmach.markdown.document",
    "pseudo_translate": "tolmach.markdown.pseudo",
}

__all__ = ["Document", "Segment", "apply_translations", "parse_document", "pseudo_translate"]


def __getattr__(name: str):
    """Load an exported name on first use, so importing the package stays cheap."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
