"""Dialects: the Markdown that documentation sites write, as markdown-it-py plugins.

A documentation site writes CommonMark plus its generator's syntax — ``:::`` containers
(VitePress, Docusaurus), ``!!!`` admonitions, ``///`` blocks and ``===`` tabs (MkDocs
Material), shortcodes (Hugo), Liquid (Jekyll), MDX, definition lists, heading anchors.
Each syntax is one small plugin module here, registered by name in
:mod:`~tolmach.markdown.dialects.presets`; a :class:`Dialect` is a preset of them with
adjustments, and gives the one parser that segmentation, build verification, checks and
fidelity tests all use. Plugins tell segmentation what is translatable through
``Token.meta`` (see :mod:`tolmach.markdown.segment`): marker lines stay skeleton,
titles and labels become segments, inline syntax becomes protected atoms.
"""

from tolmach.markdown.dialects.dialect import COMMONMARK, Dialect, build_parser, resolve_dialect
from tolmach.markdown.dialects.presets import PRESETS, SYNTAXES
from tolmach.markdown.dialects.shapes import register_dialect_shapes

register_dialect_shapes()

__all__ = ["COMMONMARK", "PRESETS", "SYNTAXES", "Dialect", "build_parser", "resolve_dialect"]
