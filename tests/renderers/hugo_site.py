"""Hugo: one ``hugo`` build of a throwaway site a batch.

The site's only output is a JSON file the home template writes: every page's source
path and ``.Content`` (Goldmark's HTML with shortcodes expanded). Front matter may be
TOML (``+++``), YAML (``---``) or JSON (``{``), as Hugo reads it. Shortcodes: Hugo's
built-ins (``figure``, ``youtube``, ``ref``, ``highlight``, …; not the ones that fetch
from the network), the ones in hugo/layouts/shortcodes/ (``hint``, ``details``,
``kbd``), and any the caller passes.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .batch import HERE, RenderError, ToolMissing, run_generator, write_pages

__all__ = ["HUGO_CONFIG", "hugo_missing", "render_hugo"]

FOLDER = HERE / "hugo"

#: The site configuration: Goldmark as documentation sites set it (raw HTML omitted,
#: attribute blocks on, typographer and the other extensions at their defaults).
HUGO_CONFIG: dict[str, Any] = {
    "baseURL": "https://example.org/",
    "languageCode": "en",
    "title": "tolmach render",
    "disableKinds": ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"],
    "outputs": {"home": ["JSON"], "section": [], "page": []},
    "markup": {
        "goldmark": {
            "renderer": {"unsafe": False},
            "parser": {"attribute": {"block": True, "title": True}},
        }
    },
}


def hugo_missing() -> str | None:
    """Why Hugo cannot render here, or None when it can."""
    if shutil.which("hugo") is None:
        return "hugo is not installed (Debian: apt-get install hugo)"
    return None


def merged(base: Mapping[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` with ``extra`` merged in, tables recursively (as Hugo merges config)."""
    result = dict(base)
    for key, value in extra.items():
        if isinstance(value, Mapping) and isinstance(result.get(key), Mapping):
            result[key] = merged(result[key], value)
        else:
            result[key] = value
    return result


def render_hugo(
    pages: Mapping[str, str],
    shortcodes: Mapping[str, str] | None = None,
    config: Mapping[str, Any] | None = None,
) -> dict[str, str]:
    """Page name -> the page's ``.Content``, from one hugo build.

    ``shortcodes`` maps a shortcode name to its template (added to, or replacing, the
    committed ones); ``config`` is merged into HUGO_CONFIG.
    """
    missing = hugo_missing()
    if missing:
        raise ToolMissing(missing)
    with tempfile.TemporaryDirectory(prefix="tolmach-hugo-") as folder:
        scratch = Path(folder)
        names = write_pages(scratch / "content", pages)
        shutil.copytree(FOLDER / "layouts", scratch / "layouts")
        for name, template in (shortcodes or {}).items():
            (scratch / "layouts" / "shortcodes" / f"{name}.html").write_text(
                template, encoding="utf-8"
            )
        site_config = merged(HUGO_CONFIG, config or {})
        (scratch / "hugo.json").write_text(json.dumps(site_config), encoding="utf-8")
        run_generator(
            ["hugo", "--quiet", "--buildDrafts", "--buildFuture", "--buildExpired",
             "--noBuildLock", "--cacheDir", str(scratch / "cache"),
             "--destination", str(scratch / "public")],
            cwd=scratch,
            what="hugo",
            scratch=scratch,
            pages_folder=scratch / "content",
        )  # fmt: skip
        built = json.loads((scratch / "public" / "index.json").read_text(encoding="utf-8"))
    contents = {Path(page["file"]).as_posix(): page["content"] for page in built}
    lost = [name for relative, name in names.items() if relative not in contents]
    if lost:
        raise RenderError(
            f"hugo built no content for {', '.join(lost)} (front matter build options?)"
        )
    return {name: contents[relative] for relative, name in names.items()}
