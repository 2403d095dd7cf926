"""The preset fixtures built by the site generators themselves.

A structure test with our own parser can agree with itself and still be wrong, so each
fixture's source, pseudo-translated and forced builds are rendered by VitePress, MkDocs
Material, Hugo and Docusaurus (tests/renderers): the pseudo build must have the source's
structure and the forced build its exact HTML (see tests/dialect_builds.py for what may
differ). Without a generator these tests skip with its install command; under CI they
fail.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from dialect_builds import comparable, differing_pages
from renderers import need, render_docusaurus, render_hugo, render_mkdocs_material, render_vitepress

from tolmach.config import DEFAULT_FRONT_MATTER_KEYS
from tolmach.markdown.dialects import resolve_dialect
from tolmach.markdown.document import SegmentOptions

DATA = Path(__file__).parent / "data" / "dialects"

# Hugo has no `notice` shortcode of its own; a site defines it like this.
NOTICE = '<div class="notice {{ .Get 0 }}">{{ .Inner }}</div>'

RENDERERS = {
    "vitepress": ("vitepress", render_vitepress, ".md"),
    "mkdocs-material": ("mkdocs-material", render_mkdocs_material, ".md"),
    "hugo": ("hugo", lambda pages: render_hugo(pages, shortcodes={"notice": NOTICE}), ".md"),
    "docusaurus": ("docusaurus", render_docusaurus, ".mdx"),
}


def options_for(preset: str) -> SegmentOptions:
    dialect = resolve_dialect(preset)
    keys = (*DEFAULT_FRONT_MATTER_KEYS, *dialect.front_matter_keys)
    return SegmentOptions(front_matter_keys=keys, html_text=True, dialect=dialect)


@pytest.mark.parametrize("preset", list(RENDERERS))
def test_pseudo_and_forced_builds_render_like_the_source(preset):
    tool, render, suffix = RENDERERS[preset]
    need(tool)
    pages = [(p.name, p.read_text("utf-8")) for p in sorted((DATA / preset).glob("*.md*"))]
    assert pages
    failures = differing_pages(pages, lambda name: options_for(preset), render, suffix)
    assert failures == {"pseudo": [], "forced": []}


def test_the_comparison_sees_a_broken_container():
    """Not vacuous: VitePress renders a lost closer, and the comparison sees it."""
    need("vitepress")
    source = "::: tip Совет\nТекст.\n:::\n\nПосле.\n"
    broken = "::: tip Совет\nТекст.\n\nПосле.\n"
    html = render_vitepress({"a.md": source, "b.md": broken})
    assert comparable(html["a.md"], set(), False) != comparable(html["b.md"], set(), False)


def test_derived_heading_ids_may_differ_but_explicit_ones_may_not():
    source = '<h2 id="ustanovka">Установка</h2><a href="#ustanovka">x</a><h2 id="start">S</h2>'
    translated = '<h2 id="install">Install</h2><a href="#install">x</a><h2 id="start">S</h2>'
    moved = '<h2 id="install">Install</h2><a href="#install">x</a><h2 id="begin">S</h2>'
    assert comparable(source, {"start"}, False) == comparable(translated, {"start"}, False)
    assert comparable(source, {"start"}, False) != comparable(moved, {"start"}, False)
