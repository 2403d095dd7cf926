"""Publishing: localized articles as a static, script-free multilingual website.

:func:`publish_site` writes the site; :mod:`tolmach.publish.render` turns Markdown into
HTML that a hostile translation cannot turn into script; :mod:`tolmach.publish.preview`
serves the site locally and rebuilds it as catalogs change.
"""

from tolmach.publish.site import PublishError, publish_site, render_site

__all__ = ["PublishError", "publish_site", "render_site"]
