"""MkDocs with the Material theme: one ``mkdocs build`` of a throwaway project a batch.

The content of a page is the inside of Material's ``<article class="md-content__inner
md-typeset">``: what MkDocs and Python-Markdown made of the page, plus the ``<h1>`` that
Material adds from the page title when the page has none.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .batch import HERE, ToolMissing, element_inner_html, run_generator, write_pages

__all__ = ["MKDOCS_MARKDOWN_EXTENSIONS", "mkdocs_material_missing", "render_mkdocs_material"]

#: Admonition types of Material (and FastAPI's extra ones) for ``/// type | Title`` blocks.
_BLOCK_ADMONITION_TYPES = [
    "note", "abstract", "info", "tip", "success", "question", "warning", "failure",
    "danger", "bug", "example", "quote", "attention", "caution", "error", "hint", "check",
]  # fmt: skip

#: The extension list of a typical Material site; pass ``markdown_extensions`` in
#: ``config`` to use another (e.g. this list plus ``"pymdownx.keys"``).
MKDOCS_MARKDOWN_EXTENSIONS: list[Any] = [
    "abbr",
    "admonition",
    "attr_list",
    "def_list",
    "footnotes",
    "md_in_html",
    "tables",
    {"toc": {"permalink": True}},
    {"pymdownx.arithmatex": {"generic": True}},
    "pymdownx.details",
    {"pymdownx.highlight": {"anchor_linenums": True, "line_spans": "__span"}},
    "pymdownx.inlinehilite",
    "pymdownx.superfences",
    {"pymdownx.tabbed": {"alternate_style": True}},
    {"pymdownx.tasklist": {"custom_checkbox": True}},
    {"pymdownx.blocks.admonition": {"types": _BLOCK_ADMONITION_TYPES}},
    "pymdownx.blocks.details",
    {"pymdownx.blocks.tab": {"alternate_style": True}},
]


def mkdocs_material_missing() -> str | None:
    """Why MkDocs Material cannot render here, or None when it can."""
    for module, package in [
        ("mkdocs", "mkdocs"),
        ("material", "mkdocs-material"),
        ("pymdownx", "pymdown-extensions"),
    ]:
        if importlib.util.find_spec(module) is None:
            return f"{package} is not installed: pip install -e '.[test]' (make venv does)"
    return None


def site_config(scratch: Path, config: Mapping[str, Any] | None) -> dict[str, Any]:
    """The throwaway mkdocs.yml as a dict: Material, flat URLs, no plugins, the map hook."""
    base = {
        "site_name": "tolmach render",
        "docs_dir": str(scratch / "docs"),
        "site_dir": str(scratch / "site"),
        "use_directory_urls": False,
        "theme": {"name": "material"},
        "plugins": [],
        "hooks": [str(HERE / "mkdocs_page_map.py")],
        "markdown_extensions": MKDOCS_MARKDOWN_EXTENSIONS,
    }
    return {**base, **(config or {})}


def render_mkdocs_material(
    pages: Mapping[str, str], config: Mapping[str, Any] | None = None
) -> dict[str, str]:
    """Page name -> the HTML inside the page's article element, from one mkdocs build.

    ``config`` replaces top-level keys of the generated mkdocs.yml (Python objects such as
    emoji functions are written as ``!!python/name`` tags, as Material's docs do).
    """
    missing = mkdocs_material_missing()
    if missing:
        raise ToolMissing(missing)
    import yaml  # comes with mkdocs: imported here so a missing mkdocs is a skip, not an error

    with tempfile.TemporaryDirectory(prefix="tolmach-mkdocs-") as folder:
        scratch = Path(folder)
        names = write_pages(scratch / "docs", pages)
        config_file = scratch / "mkdocs.yml"
        config_file.write_text(yaml.dump(site_config(scratch, config)), encoding="utf-8")
        page_map = scratch / "pages.json"
        run_generator(
            [sys.executable, "-m", "mkdocs", "build", "--quiet", "--config-file", str(config_file)],
            cwd=scratch,
            what="mkdocs build",
            scratch=scratch,
            pages_folder=scratch / "docs",
            env={"TOLMACH_MKDOCS_PAGE_MAP": str(page_map), "NO_MKDOCS_2_WARNING": "1"},
        )
        built = json.loads(page_map.read_text(encoding="utf-8"))
        return {
            name: element_inner_html(
                Path(built[relative]).read_text(encoding="utf-8"),
                "article",
                "md-content__inner md-typeset",
            )
            for relative, name in names.items()
        }
