"""VitePress: its own markdown-it renderer, driven by a node script, one process a batch."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .batch import HERE, RenderError, ToolMissing, node_package_missing, page_file, run_generator

__all__ = ["render_vitepress", "vitepress_missing"]

FOLDER = HERE / "vitepress"


def vitepress_missing() -> str | None:
    """Why VitePress cannot render here, or None when it can."""
    return node_package_missing(FOLDER, "vitepress")


def render_vitepress(
    pages: Mapping[str, str], options: Mapping[str, Any] | None = None
) -> dict[str, str]:
    """Page name -> the HTML VitePress makes of the page body (before Vue compiles it).

    ``options`` is VitePress's ``markdown`` site option, JSON-able keys only.
    """
    missing = vitepress_missing()
    if missing:
        raise ToolMissing(missing)
    for name in pages:
        page_file(name)
    with tempfile.TemporaryDirectory(prefix="tolmach-vitepress-") as scratch:
        request = {"pages": dict(pages), "srcDir": scratch, "options": dict(options or {})}
        stdout = run_generator(
            ["node", str(FOLDER / "render.mjs")],
            cwd=Path(scratch),
            what="VitePress",
            scratch=Path(scratch),
            stdin=json.dumps(request),
        )
    answer = json.loads(stdout)
    if answer["errors"]:
        failures = "\n".join(f"{name}: {error}" for name, error in answer["errors"].items())
        raise RenderError(f"VitePress could not render:\n{failures}")
    return answer["html"]
