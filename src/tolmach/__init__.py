"""tolmach: a localization pipeline for Markdown articles.

The public API is the pipeline's stages; everything else is private to the package::

    document = parse_document(markdown)                      # source → segments
    template = extract_template(document, "a.md", project="a")   # segments → .pot
    catalog = update_catalog(template, old_po, "de")          # .pot + old .po → .po
    localized = apply_translations(document, translations_of(catalog))
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tolmach.catalog.merge import update_catalog
    from tolmach.catalog.status import catalog_stats, translations_of
    from tolmach.catalog.template import extract_template
    from tolmach.config import Config, load_config
    from tolmach.markdown.build import apply_translations
    from tolmach.markdown.document import Document, Segment, parse_document
    from tolmach.markdown.pseudo import pseudo_translate
    from tolmach.project import Project

_EXPORTS = {
    "update_catalog": "tolmach.catalog.merge",
    "catalog_stats": "tolmach.catalog.status",
    "translations_of": "tolmach.catalog.status",
    "extract_template": "tolmach.catalog.template",
    "Config": "tolmach.config",
    "load_config": "tolmach.config",
    "apply_translations": "tolmach.markdown.build",
    "Document": "tolmach.markdown.document",
    "Segment": "tolmach.markdown.document",
    "parse_document": "tolmach.markdown.document",
    "pseudo_translate": "tolmach.markdown.pseudo",
    "Project": "tolmach.project",
}

__all__ = [
    "Config",
    "Document",
    "Project",
    "Segment",
    "apply_translations",
    "catalog_stats",
    "extract_template",
    "load_config",
    "parse_document",
    "pseudo_translate",
    "translations_of",
    "update_catalog",
]


def __getattr__(name: str):
    """Load an exported name on first use, so importing the package stays cheap."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
