"""Publishing: verified localized articles as a static multilingual website, or as
Markdown laid out for a site generator.

:func:`publish_site` writes the site (only pages that pass the threshold and the
checks); :mod:`tolmach.publish.render` turns Markdown into HTML that a hostile
translation cannot turn into script; :mod:`tolmach.publish.export` lays localized
Markdown out for MkDocs, Hugo, VitePress or Docusaurus; :mod:`tolmach.publish.preview`
serves one locale locally and rebuilds it as catalogs change.
"""

from tolmach.publish.site import PublishError, PublishOptions, PublishReport, publish_site

__all__ = ["PublishError", "PublishOptions", "PublishReport", "publish_site"]
