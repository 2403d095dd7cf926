"""Render Markdown with the real site generators, so tests can compare what readers see.

Every ``render_*`` function takes a batch ``{page name: Markdown}`` and returns
``{page name: HTML}`` of each page's content (no theme chrome), from ONE generator run
for the whole batch. Compare two renders with ``tolmach.markdown.compare.html_shape``.
A name is the page's path in the docs folder (``guide/intro.md``; ``.md`` is added when
missing). A failed build raises RenderError naming the page where the generator does; a
missing tool raises ToolMissing. In a test, call ``need("hugo")`` (etc.) first: it fails
under CI and skips with the install command otherwise.

VitePress 1.6.4 (npm; ``vitepress/``): ``render_vitepress(pages, options=None)``.
    VitePress's own markdown-it renderer, made by ``createMarkdownRenderer`` with the
    default markdown config (``options`` = the site's ``markdown`` option, JSON-able
    keys): containers (``::: tip``, ``::: details``, ``::: code-group``), GitHub alerts,
    ``{#id}`` anchors, emoji, ``[[toc]]``, line highlighting, shiki colours. Front matter
    is stripped and ``<script>``/``<style>`` blocks hoisted exactly as in a site (the
    same plugins). Not run: the Vue template compile that follows (``{{ }}``
    interpolation, components stay as tags), ``<!--@include:-->``; ``<<< @/snippet``
    finds no file. Code-group radio ids are random in VitePress; they are renumbered
    (``group-1``, ``tab-1``…) so renders are comparable.
MkDocs 1.6 + Material 9.x + pymdown-extensions 10+ (PyPI, the ``[test]`` extra):
    ``render_mkdocs_material(pages, config=None)``. One ``mkdocs build`` with the
    extensions of a typical Material site (MKDOCS_MARKDOWN_EXTENSIONS: admonition,
    details, superfences, tabbed, attr_list ``{ #id }``, md_in_html, def_list, footnotes,
    abbr, tables, toc permalinks, tasklist, highlight, arithmatex, and the ``/// note |
    Title`` blocks of FastAPI's docs); ``config`` replaces top-level mkdocs.yml keys.
    Returns the inside of Material's article element. FastAPI's ``{* ../x.py hl[3] *}``
    include markers come from FastAPI's own preprocessor and stay literal text here.
Hugo (Debian ``hugo``, 0.111.3 here): ``render_hugo(pages, shortcodes=None, config=None)``.
    One ``hugo`` build; returns each page's ``.Content``. TOML, YAML and JSON front
    matter; Goldmark with raw HTML omitted and attribute blocks on; shortcodes: Hugo's
    built-ins, ``hint``/``details``/``kbd`` from hugo/layouts/shortcodes/, and
    ``shortcodes`` ``{name: template}``.
Docusaurus 3.10.2 (npm; ``docusaurus/``): ``render_docusaurus(pages, config=None)``.
    A real site build (classic preset, docs only; ``.md`` and ``.mdx`` pages): MDX 3
    with Docusaurus's remark plugins (``:::note[Title]`` admonitions, ``{#id}``, code
    titles, ``<details>``) rendered by its theme components; returns the inside of
    ``div.theme-doc-markdown``. Chosen over a bare ``@mdx-js/mdx`` compile because it
    fits CI and a bare compile would need our own imitation of Docusaurus's plugins and
    theme: ``npm ci`` 58 s (79 s with an empty npm cache; 1,279 packages, 274 MB); a
    build 22 s for 20 pages, 28 s for 200, on two idle cores (webpack's persistent cache
    off, see docusaurus_site). MDX that does not compile fails the whole batch, as it
    fails a real site; the error names the page.

Comparing a source page with its translation: VitePress and Docusaurus put the heading
text into the permalink's ``aria-label``, which html_shape(keep_text=False) keeps as an
attribute, and every generator derives heading ids from the text unless the page gives
``{#id}``; such differences are real in the built site (anchors change).

Install locally (what .ci/run does)::

    apt-get install hugo                       # Hugo, from Debian
    make venv                                  # mkdocs-material, pymdown-extensions: [test] extra
    npm ci --prefix tests/renderers/vitepress  # node 20 and npm must be there
    npm ci --prefix tests/renderers/docusaurus
"""

from __future__ import annotations

from .batch import RenderError, ToolMissing, need_tool
from .docusaurus_site import docusaurus_missing, render_docusaurus
from .hugo_site import HUGO_CONFIG, hugo_missing, render_hugo
from .mkdocs_site import MKDOCS_MARKDOWN_EXTENSIONS, mkdocs_material_missing, render_mkdocs_material
from .vitepress_site import render_vitepress, vitepress_missing

__all__ = [
    "HUGO_CONFIG",
    "MISSING",
    "MKDOCS_MARKDOWN_EXTENSIONS",
    "RenderError",
    "ToolMissing",
    "need",
    "render_docusaurus",
    "render_hugo",
    "render_mkdocs_material",
    "render_vitepress",
]

#: Renderer name -> a function saying why it cannot run here (None when it can).
MISSING = {
    "vitepress": vitepress_missing,
    "mkdocs-material": mkdocs_material_missing,
    "hugo": hugo_missing,
    "docusaurus": docusaurus_missing,
}


def need(renderer: str) -> None:
    """In a test: go on if ``renderer`` can run; else fail under CI, skip otherwise."""
    need_tool(MISSING[renderer]())
