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

from tolmach.markdown.build import apply_translations
from tolmach.markdown.document import Document, Segment, parse_document
from tolmach.markdown.pseudo import pseudo_translate

__all__ = ["Document", "Segment", "apply_translations", "parse_document", "pseudo_translate"]
