"""tolmach: a localization pipeline for Markdown articles.

The public API is the pipeline's stages; everything else is private to the package::

    document = parse_document(markdown)                      # source → segments
    template = extract_template(document, "a.md", project="a")   # segments → .pot
    catalog = update_catalog(template, old_po, "de")          # .pot + old .po → .po
    localized = apply_translations(document, translations_of(catalog))
"""

from tolmach.catalog.merge import update_catalog
from tolmach.catalog.status import catalog_stats, translations_of
from tolmach.catalog.template import extract_template
from tolmach.config import Config, load_config
from tolmach.markdown.build import apply_translations
from tolmach.markdown.document import Document, Segment, parse_document
from tolmach.markdown.pseudo import pseudo_translate
from tolmach.project import Project

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
