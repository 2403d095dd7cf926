"""The renderer harness: each real site generator turns fixtures into the expected HTML.

One batch per generator per session (session-scoped fixtures). Each batch holds a page,
an identical copy and a copy whose block closer is missing: the copy must have the same
html_shape, the broken one must not. Without a generator these tests skip with its
install command; under CI (the ``CI`` environment variable set) they fail.
"""

from __future__ import annotations

import pytest
from renderers import (
    RenderError,
    ToolMissing,
    need,
    render_docusaurus,
    render_hugo,
    render_mkdocs_material,
    render_vitepress,
)
from renderers.batch import element_inner_html, page_file, write_pages

from tolmach.markdown.compare import html_shape


def matches(item: tuple, tag: str, attrs: dict[str, str | None]) -> bool:
    """Is this html_shape item a start of ``tag`` having (at least) ``attrs``?

    A trailing ``_`` in a name is dropped (``class_``); None stands for a bare attribute.
    """
    if item[0] not in ("open", "void") or item[1] != tag:
        return False
    present = dict(item[2])
    return all(
        name.rstrip("_") in present and present[name.rstrip("_")] == value
        for name, value in attrs.items()
    )


def starts(html: str, tag: str, **attrs: str | None) -> list[dict[str, str | None]]:
    """Attributes of each ``<tag>`` in ``html`` that has (at least) ``attrs``."""
    return [dict(item[2]) for item in html_shape(html) if matches(item, tag, attrs)]


def texts(html: str) -> list[str]:
    return [item[1] for item in html_shape(html) if item[0] == "text"]


def text_after(html: str, tag: str, **attrs: str | None) -> str:
    """The first text that follows the first matching ``<tag>``."""
    shape = html_shape(html)
    for index, item in enumerate(shape):
        if matches(item, tag, attrs):
            return next(later[1] for later in shape[index:] if later[0] == "text")
    raise AssertionError(f"no <{tag} {attrs}> in {html}")


def with_copies(page: str, broken: str) -> dict[str, str]:
    return {"page.md": page, "copy.md": page, "broken.md": broken}


def assert_copies(rendered: dict[str, str]) -> None:
    assert html_shape(rendered["copy.md"]) == html_shape(rendered["page.md"])
    assert html_shape(rendered["broken.md"], False) != html_shape(rendered["page.md"], False)


# --- the batch helpers (no generator needed) -------------------------------------------


def test_page_names_become_files_inside_the_docs_folder(tmp_path):
    assert str(page_file("guide/intro")) == "guide/intro.md"
    assert str(page_file("jsx.mdx", (".md", ".mdx"))) == "jsx.mdx"
    for bad in ["", "/etc/passwd", "../outside.md", "guide/"]:
        with pytest.raises(ValueError):
            page_file(bad)
    with pytest.raises(ValueError, match="both"):
        write_pages(tmp_path, {"a": "x", "a.md": "y"})
    assert write_pages(tmp_path, {"sub/b": "text"}) == {"sub/b.md": "sub/b"}
    assert (tmp_path / "sub" / "b.md").read_text(encoding="utf-8") == "text"


def test_element_inner_html_takes_the_whole_element_with_nested_ones():
    html = '<body><div class="x"><div class="x y">a</div><div>b</div></div><p>c</p></body>'
    assert element_inner_html(html, "div", "x") == '<div class="x y">a</div><div>b</div>'
    assert element_inner_html(html, "div", "x y") == "a"
    with pytest.raises(RenderError):
        element_inner_html("<div class='x'>open", "div", "x")


def test_a_missing_tool_fails_under_ci_and_skips_otherwise(monkeypatch):
    import renderers

    monkeypatch.setitem(renderers.MISSING, "hugo", lambda: "hugo is not installed")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="hugo is not installed"):
        need("hugo")
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception, match="hugo is not installed"):
        need("hugo")
    monkeypatch.setattr(renderers.hugo_site, "hugo_missing", lambda: "no hugo here")
    with pytest.raises(ToolMissing, match="no hugo here"):
        render_hugo({"a.md": "x"})


# --- VitePress ---------------------------------------------------------------------------

VITEPRESS_PAGE = """\
---
title: Front matter title
outline: deep
---
# Getting started {#start}

[[toc]]

## Install

::: tip Heads up
Works on Node 20 :tada:
:::

::: details More
Hidden text.
:::

::: code-group
```sh [npm]
npm add -D vitepress
```
```sh [pnpm]
pnpm add -D vitepress
```
:::

```js{2}
const a = 1
const b = 2
```

After the containers.
"""


@pytest.fixture(scope="session")
def vitepress_pages() -> dict[str, str]:
    need("vitepress")
    broken = VITEPRESS_PAGE.replace("Node 20 :tada:\n:::\n", "Node 20 :tada:\n")
    return render_vitepress(with_copies(VITEPRESS_PAGE, broken))


def test_vitepress_containers_anchors_and_front_matter(vitepress_pages):
    html = vitepress_pages["page.md"]
    assert "Front matter title" not in html and "outline" not in html
    assert starts(html, "h1", id="start")
    assert text_after(html, "div", class_="tip custom-block") == "Heads up"
    assert starts(html, "p", class_="custom-block-title")
    assert text_after(html, "details", class_="details custom-block") == "More"
    assert "Works on Node 20 🎉" in texts(html)
    assert starts(html, "a", href="#install")
    assert starts(html, "nav", class_="table-of-contents")
    assert starts(html, "input", type="radio", name="group-1", id="tab-1")
    assert starts(html, "label", **{"data-title": "pnpm", "for": "tab-2"})
    assert starts(html, "span", class_="line highlighted")


def test_vitepress_copy_matches_and_missing_closer_does_not(vitepress_pages):
    assert_copies(vitepress_pages)
    # The tip's closer gone, the details' closer ends the tip: the tip swallows the details.
    tip = element_inner_html(vitepress_pages["broken.md"], "div", "tip custom-block")
    assert starts(tip, "details", class_="details custom-block")


# --- MkDocs Material -----------------------------------------------------------------------

MKDOCS_PAGE = """\
---
title: Front matter title
---
Intro with a footnote[^1] and an HTML abbreviation.

!!! note "Read this"
    Indented admonition body.

## Setup { #setup-id }

/// note | Block title
Block admonition body.
///

/// details | Summary
Folded text.
///

=== "Tab one"

    First tab.

=== "Tab two"

    Second tab.

- [x] done task

Term
:   Definition.

{* ../../docs_src/first_steps/tutorial001.py hl[3] *}

*[HTML]: Hyper Text Markup Language
[^1]: The footnote.
"""


@pytest.fixture(scope="session")
def mkdocs_pages() -> dict[str, str]:
    need("mkdocs-material")
    broken = MKDOCS_PAGE.replace("Block admonition body.\n///\n", "Block admonition body.\n")
    return render_mkdocs_material(with_copies(MKDOCS_PAGE, broken))


def test_mkdocs_material_admonitions_blocks_and_extensions(mkdocs_pages):
    html = mkdocs_pages["page.md"]
    assert "title:" not in html
    assert text_after(html, "h1") == "Front matter title"  # Material adds it from the title
    assert text_after(html, "div", class_="admonition note") == "Read this"
    assert starts(html, "p", class_="admonition-title")
    assert starts(html, "h2", id="setup-id")
    assert starts(html, "a", class_="headerlink", href="#setup-id")
    assert "Block title" in texts(html)
    assert text_after(html, "details") == "Summary"
    assert starts(html, "div", class_="tabbed-set tabbed-alternate")
    assert starts(html, "abbr", title="Hyper Text Markup Language")
    assert starts(html, "dl") and starts(html, "div", class_="footnote")
    assert starts(html, "input", type="checkbox", disabled=None, checked=None)
    # FastAPI's include markers are its own preprocessor's: here they stay text.
    assert "{* ../../docs_src/first_steps/tutorial001.py hl[3] *}" in texts(html)


def test_mkdocs_material_copy_matches_and_missing_closer_does_not(mkdocs_pages):
    assert_copies(mkdocs_pages)


def test_mkdocs_material_config_replaces_the_extension_list():
    need("mkdocs-material")
    html = render_mkdocs_material(
        {"a.md": '!!! note "T"\n    body\n'}, config={"markdown_extensions": ["tables"]}
    )["a.md"]
    assert not starts(html, "div", class_="admonition note")
    assert texts(html) == ["A", '!!! note "T" body']  # a plain paragraph


# --- Hugo ----------------------------------------------------------------------------------

HUGO_PAGE = """\
+++
title = "TOML front matter"
+++
# Heading {#head-id}

Intro "quoted" -- with <b>raw</b> HTML.
{.lead}

{{< hint warning >}}
**Careful** here.
{{< /hint >}}

Status: {{< badge "beta" >}}. See [YAML]({{< relref "yaml.md" >}}).

```go
fmt.Println("closed")
```

After the fence.
"""
HUGO_SHORTCODES = {"badge": '<span class="badge">{{ .Get 0 }}</span>'}


@pytest.fixture(scope="session")
def hugo_pages() -> dict[str, str]:
    need("hugo")
    broken = HUGO_PAGE.replace('"closed")\n```\n', '"closed")\n')
    pages = {
        **with_copies(HUGO_PAGE, broken),
        "yaml.md": "---\ntitle: YAML front matter\ndraft: true\n---\nYAML body\n",
        "sub/json.md": '{\n  "title": "JSON front matter"\n}\nJSON body\n',
    }
    return render_hugo(pages, shortcodes=HUGO_SHORTCODES)


def test_hugo_shortcodes_attributes_and_front_matter(hugo_pages):
    html = hugo_pages["page.md"]
    assert "front matter" not in html.lower()
    assert starts(html, "h1", id="head-id")
    assert starts(html, "p", class_="lead")
    assert "&ldquo;quoted&rdquo; &ndash;" in html  # typographer
    assert "<b>" not in html and "raw HTML omitted" in html  # unsafe = false
    assert text_after(html, "div", class_="hint warning") == "Careful"
    assert starts(html, "span", class_="badge")  # a shortcode the caller passed
    assert starts(html, "a", href="/yaml/")  # built-in relref
    assert texts(hugo_pages["yaml.md"]) == ["YAML body"]
    assert texts(hugo_pages["sub/json.md"]) == ["JSON body"]


def test_hugo_copy_matches_and_missing_closer_does_not(hugo_pages):
    assert_copies(hugo_pages)


def test_hugo_unclosed_shortcode_fails_naming_the_page():
    need("hugo")
    with pytest.raises(RenderError, match=r'"guide/unclosed\.md:3:1".*"hint" must be closed'):
        render_hugo({"guide/unclosed.md": "Text\n\n{{< hint >}}\nno closer\n"})


# --- Docusaurus ------------------------------------------------------------------------------

DOCUSAURUS_PAGE = """\
---
title: Front matter title
---
:::note[Read this]
Admonition body.
:::

## Sub {#sub-id}

```js title="hello.js"
console.log("hi")
```

After the admonition.
"""
DOCUSAURUS_MDX = """\
# MDX page

<details>
  <summary>Summary</summary>

  Folded **Markdown**.
</details>
"""


@pytest.fixture(scope="session")
def docusaurus_pages() -> dict[str, str]:
    need("docusaurus")
    broken = DOCUSAURUS_PAGE.replace("Admonition body.\n:::\n", "Admonition body.\n")
    return render_docusaurus({**with_copies(DOCUSAURUS_PAGE, broken), "jsx.mdx": DOCUSAURUS_MDX})


def test_docusaurus_admonitions_anchors_and_code_titles(docusaurus_pages):
    html = docusaurus_pages["page.md"]
    assert "title:" not in html
    assert text_after(html, "h1") == "Front matter title"  # Docusaurus adds it
    notes = [
        attrs for attrs in starts(html, "div") if "theme-admonition-note" in (attrs["class"] or "")
    ]
    assert notes
    assert "Read this" in texts(html) and "Admonition body." in texts(html)
    assert starts(html, "h2", id="sub-id")
    assert "hello.js" in texts(html)
    mdx = docusaurus_pages["jsx.mdx"]
    assert text_after(mdx, "summary") == "Summary"
    assert starts(mdx, "strong")


def test_docusaurus_copy_matches_and_missing_closer_does_not(docusaurus_pages):
    assert_copies(docusaurus_pages)
