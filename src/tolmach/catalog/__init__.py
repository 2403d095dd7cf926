"""Catalog stage: segments in, gettext catalogs out, and catalogs merged as sources change.

:mod:`~tolmach.catalog.template` turns a document into its ``.pot`` template and counts
progress; :mod:`~tolmach.catalog.merge` brings a locale's ``.po`` up to date with a
template as ``msgmerge`` does (kept, fuzzy with ``#|``, obsolete ``#~``);
:mod:`~tolmach.catalog.pofile` reads catalogs with errors that name the line and writes
them byte for byte as GNU ``msgcat`` would. Everything here takes and returns polib
objects; only :mod:`~tolmach.catalog.pofile` touches files.
"""

from tolmach.catalog.merge import update_catalog
from tolmach.catalog.pofile import CatalogError, format_po, read_po, write_po
from tolmach.catalog.status import CatalogStats, catalog_stats, translations_of
from tolmach.catalog.template import extract_template

__all__ = [
    "CatalogError",
    "CatalogStats",
    "catalog_stats",
    "extract_template",
    "format_po",
    "read_po",
    "translations_of",
    "update_catalog",
    "write_po",
]
