"""Docusaurus: one real ``docusaurus build`` of a throwaway site a batch.

Pages are MDX (Docusaurus's default for ``.md`` and ``.mdx``) compiled by Docusaurus's
own MDX pipeline and rendered by its classic theme, so admonitions, heading ids, code
block titles and ``<details>`` come out as a reader's browser receives them. The content
of a page is the inside of ``<div class="theme-doc-markdown markdown">`` (with the
``<header><h1>`` Docusaurus adds from the title when the page has no heading).

Webpack's persistent cache is off: reused for a site in another temporary folder it
built pages as "Page Not Found", and a harness that may answer with stale pages is worse
than a slower one (a build takes about 20 s on two idle cores, whatever the batch size).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .batch import (
    HERE,
    ToolMissing,
    element_inner_html,
    node_package_missing,
    run_generator,
    write_pages,
)

__all__ = ["docusaurus_missing", "render_docusaurus"]

FOLDER = HERE / "docusaurus"
CONTENT_CLASSES = "theme-doc-markdown markdown"


def docusaurus_missing() -> str | None:
    """Why Docusaurus cannot build here, or None when it can."""
    return node_package_missing(FOLDER, "@docusaurus/core")


def built_file(build: Path, permalink: str) -> Path:
    """Where Docusaurus writes the page served at ``permalink`` (default trailing slash)."""
    return build / permalink.strip("/") / "index.html"


def render_docusaurus(
    pages: Mapping[str, str], config: Mapping[str, Any] | None = None
) -> dict[str, str]:
    """Page name (``.md`` or ``.mdx``) -> the page's content HTML, from one site build.

    ``config`` is merged into the site configuration one level deep, JSON-able values
    only, e.g. ``{"markdown": {"format": "detect"}}`` to read ``.md`` as CommonMark.
    """
    missing = docusaurus_missing()
    if missing:
        raise ToolMissing(missing)
    with tempfile.TemporaryDirectory(prefix="tolmach-docusaurus-") as folder:
        scratch = Path(folder)
        site = scratch / "site"
        names = write_pages(site / "docs", pages, suffixes=(".md", ".mdx"))
        # The site resolves its theme and plugins from the installed renderer package.
        os.symlink(FOLDER / "node_modules", site / "node_modules")
        build = scratch / "build"
        run_generator(
            ["node", str(FOLDER / "node_modules/@docusaurus/core/bin/docusaurus.mjs"), "build",
             str(site), "--config", str(FOLDER / "docusaurus.config.mjs"),
             "--out-dir", str(build), "--no-minify"],
            cwd=FOLDER,
            what="docusaurus build",
            scratch=scratch,
            pages_folder=site / "docs",
            env={
                "TOLMACH_DOCUSAURUS_CONFIG": json.dumps(dict(config or {})),
                "NO_UPDATE_NOTIFIER": "1",
                "DOCUSAURUS_NO_PERSISTENT_CACHE": "1",
                "DOCUSAURUS_TELEMETRY_DISABLED": "1",
            },
        )  # fmt: skip
        built = json.loads((scratch / "pages.json").read_text(encoding="utf-8"))
        permalinks = {doc["source"].removeprefix("@site/docs/"): doc["permalink"] for doc in built}
        return {
            name: element_inner_html(
                built_file(build, permalinks[relative]).read_text(encoding="utf-8"),
                "div",
                CONTENT_CLASSES,
            )
            for relative, name in names.items()
        }
