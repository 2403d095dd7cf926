"""Catalog stage: segments in, gettext catalogs out, and catalogs merged as sources change.

:mod:`~tolmach.catalog.template` turns a document into its ``.pot`` template and counts
progress; :mod:`~tolmach.catalog.merge` brings a locale's ``.po`` up to date with a
template as ``msgmerge`` does (kept, fuzzy with ``#|``, obsolete ``#~``);
:mod:`~tolmach.catalog.pofile` reads catalogs with errors that name the line and writes
them byte for byte as GNU ``msgcat`` would. Everything here takes and returns polib
objects; only :mod:`~tolmach.catalog.pofile` touches files.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tolmach.catalog.merge import update_catalog
    from tolmach.catalog.pofile import CatalogError, format_po, read_po, write_po
    from tolmach.catalog.status import CatalogStats, catalog_stats, translations_of
    from tolmach.catalog.template import extract_template

_EXPORTS = {
    "update_catalog": "tolmach.catalog.merge",
    "CatalogError": "tolmach.catalog.pofile",
    "format_po": "tolmach.catalog.pofile",
    "read_po": "tolmach.catalog.pofile",
    "write_po": "tolmach.catalog.pofile",
    "CatalogStats": "tolmach.catalog.status",
    "catalog_stats": "tolmach.catalog.status",
    "translations_of": "tolmach.catalog.status",
    "extract_template": "tolmach.catalog.template",
}

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


def __getattr__(name: str):
    """Load an exported name on first use, so importing the package stays cheap."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
