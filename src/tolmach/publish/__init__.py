"""Publishing: verified localized articles as a static multilingual website, or as
Markdown laid out for a site generator.

:func:`publish_site` writes the site (only pages that pass the threshold and the
checks); :mod:`tolmach.publish.render` turns Markdown into HTML that a hostile
translation cannot turn into script; :mod:`tolmach.publish.export` lays localized
Markdown out for MkDocs, Hugo, VitePress or Docusaurus; :mod:`tolmach.publish.preview`
serves one locale locally and rebuilds it as catalogs change.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tolmach.publish.site import PublishError, PublishOptions, PublishReport, publish_site

_EXPORTS = {
    "PublishError": "tolmach.publish.site",
    "PublishOptions": "tolmach.publish.site",
    "PublishReport": "tolmach.publish.site",
    "publish_site": "tolmach.publish.site",
}

__all__ = ["PublishError", "PublishOptions", "PublishReport", "publish_site"]


def __getattr__(name: str):
    """Load an exported name on first use, so importing the package stays cheap."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
