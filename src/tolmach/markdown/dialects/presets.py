"""The syntax table and the presets: which parser plugins each documentation site needs.

A *syntax* is one parser plugin under a short name (``deflist``, ``containers`` …),
with the inline rules whose spans are protected atoms and, for the extract warnings, a
test for source lines that look like it. A *preset* names the syntaxes a site
generator enables by default; a project adjusts it with ``syntax = ["+deflist",
"-linkify"]``. Plugins are installed in table order, whatever the order of the list.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from mdit_py_plugins.attrs import attrs_plugin
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.front_matter import front_matter_plugin
from mdit_py_plugins.gfm_autolink import gfm_autolink_plugin

from tolmach.markdown.dialects.abbr import abbr_plugin
from tolmach.markdown.dialects.admonitions import admonitions_plugin
from tolmach.markdown.dialects.alerts import alerts_plugin
from tolmach.markdown.dialects.blocks import blocks_plugin
from tolmach.markdown.dialects.callouts import callouts_plugin
from tolmach.markdown.dialects.containers import containers_plugin
from tolmach.markdown.dialects.deflist import deflist_plugin
from tolmach.markdown.dialects.directives import (
    INCLUDE_FORMS,
    JAVASCRIPT_INFO_FORMS,
    directive_lines_plugin,
)
from tolmach.markdown.dialects.expressions import expressions_plugin
from tolmach.markdown.dialects.front_matter import (
    json_front_matter_plugin,
    toml_front_matter_plugin,
)
from tolmach.markdown.dialects.heading_attrs import heading_attrs_plugin
from tolmach.markdown.dialects.liquid import liquid_plugin
from tolmach.markdown.dialects.mdx import mdx_plugin
from tolmach.markdown.dialects.shortcodes import shortcodes_plugin
from tolmach.markdown.dialects.tabs import tabs_plugin

__all__ = ["FRONT_MATTER_KEYS", "PRESETS", "SYNTAXES", "LineHint", "Syntax"]

Installer = Callable[[MarkdownIt, frozenset[str]], None]


@dataclass(frozen=True)
class Syntax:
    """One parser plugin under its name, as the ``syntax`` setting spells it."""

    name: str
    summary: str
    install: Installer
    atoms: dict[str, str] = field(default_factory=dict)  # inline rule → atom label
    looks_like: LineHint | None = None  # a source line that seems to use it


@dataclass(frozen=True)
class LineHint:
    """A pattern for source lines that seem to use a syntax: matched at the start of a
    line, or (``anywhere``) inside one, where it must begin with a literal ``{``."""

    pattern: str
    anywhere: bool = False


def _hint(pattern: str, anywhere: bool = False) -> LineHint:
    re.compile(pattern)  # a broken pattern fails at import, not at the first extract
    return LineHint(pattern, anywhere)


def _plain(plugin, **options) -> Installer:
    return lambda md, attributes: md.use(plugin, **options)


def _enable(rule: str) -> Installer:
    return lambda md, attributes: md.enable(rule)


def _tasklists(md: MarkdownIt, attributes: frozenset[str]) -> None:
    md.options["tasklists"] = True


def _directives(forms, rule) -> Installer:
    return lambda md, attributes: directive_lines_plugin(md, forms, rule)


_TABLE: tuple[Syntax, ...] = (
    Syntax("table", "GFM tables", _enable("table")),
    Syntax("front-matter", "YAML front matter (---)", _plain(front_matter_plugin)),
    Syntax("toml-front-matter", "TOML front matter (+++)", _plain(toml_front_matter_plugin),
           looks_like=_hint(r"\+\+\+[ \t]*$")),
    Syntax("json-front-matter", "JSON front matter ({ … })", _plain(json_front_matter_plugin)),
    Syntax("footnote", "footnotes [^1]", _plain(footnote_plugin)),
    Syntax("strikethrough", "~~strikethrough~~", _enable("strikethrough")),
    Syntax("tasklists", "task list items - [x]", _tasklists,
           looks_like=_hint(r"[ \t]*[-*+] \[[ xX]\] ")),
    Syntax("alerts", "GitHub alerts > [!NOTE]", lambda md, a: alerts_plugin(md),
           looks_like=_hint(r"[ \t]*> ?\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\][ \t]*$")),
    Syntax("heading-attrs", "heading anchors ## Title {#id}", lambda md, a: heading_attrs_plugin(md),
           looks_like=_hint(r" {0,3}#{1,6} [^\n]*\{(?:[: \t]*[#.][\w-][^{}\n]*|/\*[^{}\n]*\*/)\}[ \t]*$")),
    Syntax("inline-attrs", "attributes after links and images [a](b){ .c }", _plain(attrs_plugin),
           atoms={"attr": "attribute list"}),
    Syntax("math", "math $…$ and $$…$$", _plain(dollarmath_plugin),
           atoms={"math_inline": "math", "math_inline_double": "math"},
           looks_like=_hint(r"[ \t]*\$\$")),
    Syntax("linkify", "bare URLs (GFM autolinks)", _plain(gfm_autolink_plugin),
           atoms={"gfm_autolink_www": "URL", "gfm_autolink_protocol": "URL", "gfm_autolink_email": "URL"}),
    Syntax("deflist", "definition lists (Term / : definition)", lambda md, a: deflist_plugin(md),
           looks_like=_hint(r": \S")),
    Syntax("abbr", "abbreviations *[HTML]: …", lambda md, a: abbr_plugin(md),
           looks_like=_hint(r"\*\[[^\]]+\]: ")),
    Syntax("containers", "::: containers (VitePress, Docusaurus)", lambda md, a: containers_plugin(md),
           looks_like=_hint(r" {0,3}:{3,} ?[A-Za-z]")),
    Syntax("admonitions", "!!! note admonitions (MkDocs)", lambda md, a: admonitions_plugin(md),
           looks_like=_hint(r" {0,3}(?:!!!|\?\?\?\+?) [A-Za-z]")),
    Syntax("blocks", "/// note | Title blocks (PyMdown)", lambda md, a: blocks_plugin(md),
           looks_like=_hint(r" {0,3}/{3,} ?[A-Za-z]")),
    Syntax("tabs", '=== "Tab" content tabs (MkDocs)', lambda md, a: tabs_plugin(md),
           looks_like=_hint(r' {0,3}===[+!]* +"[^\n]*"[ \t]*$')),
    Syntax("shortcodes", "Hugo shortcodes {{< x >}}", lambda md, a: shortcodes_plugin(md),
           atoms={"shortcode_inline": "shortcode"}, looks_like=_hint(r"\{\{[<%]", anywhere=True)),
    Syntax("liquid", "Liquid/Jinja tags {% x %}", lambda md, a: liquid_plugin(md),
           atoms={"liquid_tag": "template tag"}, looks_like=_hint(r"\{%-? ?[a-z]", anywhere=True)),
    Syntax("expressions", "template expressions {{ x }}", lambda md, a: expressions_plugin(md),
           atoms={"expression": "expression"}, looks_like=_hint(r"\{\{ ?[\w$.]", anywhere=True)),
    Syntax("mdx", "MDX: import/export, JSX, {expressions}", lambda md, a: mdx_plugin(md, a),
           atoms={"jsx_inline": "JSX", "mdx_expression": "expression"},
           looks_like=_hint(r"(?:import|export) [^\n]*(?:from |=)|<[A-Z]\w*[ >/]")),
    Syntax("includes", "include lines {* … *}, --8<--, {{#include}}, <<<, [[toc]]",
           _directives(INCLUDE_FORMS, "include_line"),
           looks_like=_hint(r"(?:\{\*[^\n]*\*\}|--8<-- [^\n]*|\{\{#\w+ [^\n]*\}\}|<<< [^\n]*|\[\[toc\]\])[ \t]*$")),
    Syntax("directives", "javascript.info directive lines [iframe …]",
           _directives(JAVASCRIPT_INFO_FORMS, "directive_line"),
           looks_like=_hint(r"\[(?:iframe|codetabs|edit|demo|recent) ")),
    Syntax("callouts", "javascript.info callouts ```smart header=\"…\"", lambda md, a: callouts_plugin(md),
           looks_like=_hint(r" {0,3}(?:`{3,}|~{3,})(?:smart|warn|ponder|online|offline|summary|quote|compare)\b")),
)

SYNTAXES: dict[str, Syntax] = {s.name: s for s in _TABLE}

_BASE = ("table", "front-matter", "footnote")

PRESETS: dict[str, tuple[str, ...]] = {
    "commonmark": _BASE,
    "gfm": (*_BASE, "strikethrough", "tasklists", "alerts", "linkify", "math"),
    "vitepress": (
        "table", "front-matter", "strikethrough", "alerts", "linkify", "heading-attrs",
        "inline-attrs", "containers", "expressions", "includes",
    ),
    "docusaurus": (
        *_BASE, "strikethrough", "tasklists", "linkify", "heading-attrs", "containers", "mdx",
    ),
    "mkdocs-material": (
        *_BASE, "strikethrough", "tasklists", "heading-attrs", "inline-attrs", "deflist", "abbr",
        "admonitions", "blocks", "tabs", "includes",
    ),
    "hugo": (
        *_BASE, "toml-front-matter", "json-front-matter", "strikethrough", "tasklists", "linkify",
        "deflist", "heading-attrs", "shortcodes",
    ),
    "jekyll": (*_BASE, "deflist", "heading-attrs", "abbr", "math", "liquid", "expressions"),
    "mdbook": ("table", "footnote", "strikethrough", "tasklists", "alerts", "heading-attrs", "includes"),
    "javascript-info": (*_BASE, "deflist", "callouts", "directives"),
}

# Front-matter keys a preset's sites use for prose, added to the project's defaults
# (``title``, ``description``) unless the project lists its own ``front-matter-keys``.
FRONT_MATTER_KEYS: dict[str, tuple[str, ...]] = {
    "vitepress": (
        "hero.name", "hero.text", "hero.tagline", "hero.actions.*.text",
        "features.*.title", "features.*.details",
    ),
    "docusaurus": ("sidebar_label",),
    "mkdocs-material": (),
    "hugo": ("linkTitle", "summary", "params.subtitle"),
    "jekyll": ("excerpt",),
}
