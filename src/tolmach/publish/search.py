"""Full-text search with Pagefind: an index per language, read by the search pages.

Pagefind reads every page with ``data-pagefind-body`` (the articles; lists and reviewer
pages have none), indexes it under its ``<html lang>``, and writes a static bundle the
browser queries without a server. The Python package ships the binary; the extended
build segments Chinese and Japanese words. The bundle is made anew each time and its
manifest written with sorted keys, so the same site gives the same bytes.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

from tolmach.fileio import write_atomic

__all__ = ["PAGEFIND", "index_search", "search_available"]

PAGEFIND = "pagefind"


def search_available() -> bool:
    """Whether the pagefind package (and so its binary) is installed."""
    return find_spec("pagefind") is not None


def index_search(site: Path) -> str | None:
    """Index ``site`` into ``site/pagefind``; the error message if Pagefind failed."""
    bundle = site / PAGEFIND
    shutil.rmtree(bundle, ignore_errors=True)
    done = subprocess.run(
        [sys.executable, "-m", "pagefind", "--site", str(site), "--output-subdir", PAGEFIND,
         "--silent"], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return f"pagefind failed: {(done.stderr or done.stdout).strip()[-500:]}"
    manifest = bundle / "pagefind-entry.json"
    if manifest.is_file():
        data = json.loads(manifest.read_text("utf-8"))
        write_atomic(manifest, json.dumps(data, sort_keys=True, ensure_ascii=False), regenerable=True)
    return None
