"""MkDocs hook of the MkDocs renderer: writes where each page's HTML went.

MkDocs loads this file by path (``hooks:`` in the throwaway mkdocs.yml). After the build
it writes ``{source file: built HTML file}`` as JSON to $TOLMACH_MKDOCS_PAGE_MAP, so the
caller need not guess MkDocs's URL rules (index pages, README.md, directory URLs).
"""

from __future__ import annotations

import json
import os

built_files: dict[str, str] = {}


def on_post_page(output, page, config):
    built_files[page.file.src_uri] = page.file.abs_dest_path
    return output


def on_post_build(config):
    with open(os.environ["TOLMACH_MKDOCS_PAGE_MAP"], "w", encoding="utf-8") as stream:
        json.dump(built_files, stream)
