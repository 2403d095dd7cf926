"""The real site generators on a whole corpus: source, pseudo and forced builds of every
page in one batch (see tests/dialect_builds.py for what is compared).

For react.dev under Docusaurus, the site's own components (``<Sandpack>``, ``<Intro>``
…) are not Docusaurus's: each page gets a stub ``export const Name = …`` for every
component it uses — the same lines in all three builds — so that MDX compiles.
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from dialect_builds import differing_pages  # noqa: E402
from renderers import MISSING, render_docusaurus, render_mkdocs_material  # noqa: E402

_COMPONENT_RE = re.compile(r"<([A-Z][A-Za-z0-9]*)[\s/>]")
_FRONT_MATTER_RE = re.compile(r"\A---\n.*?\n---\n", re.S)


def with_component_stubs(text: str) -> str:
    """The page with a stub export for each capitalized JSX component it uses."""
    names = sorted(set(_COMPONENT_RE.findall(text)))
    if not names:
        return text
    stubs = "".join(
        f'export const {name} = (props) => <div data-component="{name}">{{props.children}}</div>;\n'
        for name in names
    )
    front = _FRONT_MATTER_RE.match(text)
    head = front.group(0) if front else ""
    return f"{head}\n{stubs}\n{text[len(head):]}"


def renderer_fidelity(renderer: str, files: list[tuple[str, str]], options) -> str:
    """One line: how many pages render with the source's structure / exact HTML."""
    missing = MISSING[renderer]()
    if missing:
        return f"{renderer}: {missing}; not run"
    if renderer == "docusaurus":
        pages = [(_page(name), with_component_stubs(text)) for name, text in files]
        render, suffix = _docusaurus_without_images, ".mdx"
    else:
        pages = [(_page(name), text) for name, text in files]
        render, suffix = render_mkdocs_material, ".md"
    start = time.perf_counter()
    failures = differing_pages(pages, lambda name: options, render, suffix)
    seconds = time.perf_counter() - start
    total = len(pages)
    result = (
        f"{renderer}: pseudo same structure {total - len(failures['pseudo'])}/{total}, "
        f"forced same HTML {total - len(failures['forced'])}/{total} ({seconds:.0f} s)"
    )
    for mode, pages_failed in failures.items():
        if pages_failed:
            result += f"\n    {mode} differs: {', '.join(pages_failed[:8])}"
    return result


def _docusaurus_without_images(pages: dict[str, str]) -> dict[str, str]:
    """The site's images are not in the corpus: Docusaurus must not fail on them."""
    hooks = {"onBrokenMarkdownLinks": "ignore", "onBrokenMarkdownImages": "ignore"}
    return render_docusaurus(pages, config={"markdown": {"hooks": hooks}})


def _page(name: str) -> str:
    """A page name inside the docs folder: the corpus path after its first two parts."""
    parts = name.split("/")
    return "/".join(parts[2:] if parts[0] == "fastapi-ru" else parts[1:])
