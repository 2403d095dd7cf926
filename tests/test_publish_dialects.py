"""Published pages are rendered in their document's dialect, and stay safe there.

A small project per preset (the dialect fixtures of ``tests/data/dialects/``, every
catalog pseudo-translated): the site shows each construct as HTML — a box, a
``<details>``, a definition list — and none of its markers as text, in the original and
in the translation. Hostile translations inside dialect constructs come out as text.
"""

from __future__ import annotations

import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from publish_scenario import extracted_and_filled

from tolmach import pseudo_translate
from tolmach.markdown.dialects import resolve_dialect
from tolmach.project import Project
from tolmach.publish import PublishOptions, publish_site
from tolmach.publish.render import render_markdown

DIALECTS = Path(__file__).parent / "data" / "dialects"

# preset → (markers that must not be visible text, HTML that must be on the page)
CASES = {
    "gfm": (["[!NOTE]", "[!CAUTION]", "$$"],
            ['<div class="markdown-alert markdown-alert-note">', '<span class="math inline">',
             '<div class="math block">', 'class="task-list-item"']),
    "vitepress": ([":::", "{#installation}"],
                  ['<aside class="admonition tip">\n<p class="admonition-title">Tip</p>',
                   '<aside class="admonition warning">\n<p class="admonition-title">',
                   '<details class="admonition details" open>\n<summary class="admonition-title">',
                   '<div class="container code-group">', 'id="installation"']),
    "docusaurus": ([":::", "[]"],
                   ['<aside class="admonition tip">\n<p class="admonition-title">',
                    '<aside class="admonition danger">', 'id="intro"']),
    "mkdocs-material": (["!!!", "???", '=== "', "///", "*[HTML]", "{ #"],
                        ['<aside class="admonition note">\n<p class="admonition-title">',
                         '<details class="admonition warning">\n<summary class="admonition-title">',
                         '<details class="admonition tip" open>',
                         '<div class="tab" data-flags="">\n<p class="tab-label">', "<dl>\n<dt>",
                         '<div class="block details">', '<dl class="abbreviation"><dt><abbr>HTML</abbr>',
                         'id="reference"']),
    "hugo": (["{{<", "+++"], ['<div class="shortcode"', "<dl>\n<dt>"]),
    "jekyll": (["{%", "*[YAML]", "$$"], ['<div class="math block">', "<dl>\n<dt>"]),
    "mdbook": (["[!WARNING]", "{{#playground", "{#example"],
               ['<div class="markdown-alert markdown-alert-warning">', 'id="example"']),
    "javascript-info": (["```smart", "```warn", 'header="', "[iframe"],
                        ['<div class="callout smart"', '<p class="callout-title">', "<dl>\n<dt>"]),
}


class Body(HTMLParser):
    """The article's visible text, and every tag and attribute inside it."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.inside = 0
        self.text: list[str] = []
        self.tags: list[tuple[str, dict]] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        if tag == "article":
            self.inside += 1
        elif self.inside:
            self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        if tag == "article":
            self.inside -= 1

    def handle_data(self, data):
        if self.inside:
            self.text.append(data)

    @property
    def visible(self) -> str:
        return "".join(self.text)


def dialect_project(root: Path, preset: str, translate=pseudo_translate,
                    sources: dict[str, str] | None = None) -> Project:
    """The preset's fixture documents (or ``sources``) in a project with locale de,
    every entry translated by ``translate``."""
    (root / "docs").mkdir(parents=True)
    if sources is None:
        for path in (DIALECTS / preset).glob("*.md*"):
            shutil.copy(path, root / "docs" / path.name)
    else:
        for name, text in sources.items():
            (root / "docs" / name).write_text(text, "utf-8")
    (root / "pyproject.toml").write_text(
        '[tool.tolmach]\nsource-locale = "ru"\nlocales = ["de"]\n'
        f'documents = ["docs/*.md", "docs/*.mdx"]\ndialect = "{preset}"\nsearch = false\n', "utf-8")

    def fill(entry) -> None:
        entry.msgstr = translate(entry.msgid)

    return extracted_and_filled(root, fill)


@pytest.mark.parametrize("preset", sorted(CASES))
def test_each_dialect_is_rendered_as_html_not_as_its_source(tmp_path, preset):
    project = dialect_project(tmp_path, preset)
    report = publish_site(project, options=PublishOptions(allow_errors=True, search=False))
    pages = sorted(o.site_path for o in report.published)
    assert {p.split("/")[0] for p in pages} == {"ru", "de"}, pages
    markers, wanted = CASES[preset]
    by_language: dict[str, str] = {}
    for site_path in pages:
        html = (tmp_path / "output" / "site" / site_path).read_text("utf-8")
        by_language[site_path.split("/")[0]] = by_language.get(site_path.split("/")[0], "") + html
        visible = Body(html).visible
        for marker in markers:
            assert marker not in visible, f"{site_path}: {marker!r} shown as text"
    for code, html in by_language.items():
        for element in wanted:
            assert element in html, f"{code}: no {element!r}"


def test_a_translated_title_is_the_title_of_the_box(tmp_path):
    project = dialect_project(tmp_path, "vitepress", sources={
        "guide.md": "# Руководство\n\n::: warning Осторожно\nТекст предупреждения.\n:::\n"})
    publish_site(project, options=PublishOptions(search=False))
    html = (tmp_path / "output" / "site" / "de" / "guide.html").read_text("utf-8")
    title = pseudo_translate("Осторожно")
    assert f'<aside class="admonition warning">\n<p class="admonition-title">{title}</p>' in html


HOSTILE = ['<img src=x onerror=alert(1)>', '<script>alert(1)</script>',
           '" onmouseover="alert(1)', "[x](javascript:alert(1))", "{onclick=alert(1)}"]


@pytest.mark.parametrize("preset,source", [
    ("vitepress", "# Руководство\n\n::: tip Совет\nТело совета.\n:::\n\n"
                  "::: details Подробнее\nСкрытый текст.\n:::\n"),
    ("docusaurus", "# Руководство\n\n:::note[Заметка]\nТело заметки.\n:::\n"),
    ("mkdocs-material", '# Руководство\n\n!!! note "Примечание"\n    Тело примечания.\n\n'
                        '??? tip "Совет"\n    Скрытый совет.\n\n=== "Вкладка"\n    Текст вкладки.\n\n'
                        "Термин\n:   Определение.\n\n*[HTML]: Язык разметки\n"),
    ("gfm", "# Руководство\n\n> [!WARNING]\n> Осторожно с этим.\n"),
    ("javascript-info", '# Руководство\n\n```smart header="Заголовок"\nТело подсказки.\n```\n'),
])
@pytest.mark.parametrize("payload", HOSTILE)
def test_hostile_translations_inside_dialect_constructs_stay_text(tmp_path, preset, source, payload):
    project = dialect_project(tmp_path, preset, translate=lambda msgid: f"{payload} {msgid}",
                              sources={"guide.md": source})
    report = publish_site(project, options=PublishOptions(allow_errors=True, search=False))
    assert "de/guide.html" in {o.site_path for o in report.published}
    html = (tmp_path / "output" / "site" / "de" / "guide.html").read_text("utf-8")
    body = Body(html)
    for tag, attrs in body.tags:
        assert tag not in ("script", "img", "iframe"), (tag, attrs)
        assert not [name for name in attrs if name.startswith("on")], (tag, attrs)
        assert not str(attrs.get("href", "")).lower().startswith("javascript"), (tag, attrs)
    # Shown as text, or refused by the build's verification (the source text is kept).
    assert "alert(1)" in body.visible or "Руководство" in body.visible


def test_attribute_blocks_keep_only_harmless_attributes():
    vitepress = resolve_dialect("vitepress")
    html = render_markdown('## Раздел {#part onclick="alert(1)" style="color:red" .wide}\n\n'
                           '[ссылка](/ok){href="javascript:alert(1)" onmouseover="x()" .btn}\n',
                           dialect=vitepress)
    assert 'id="part"' in html and 'class="wide"' in html and 'class="btn"' in html
    for unsafe in ("onclick", "onmouseover", "style=", "javascript:"):
        assert unsafe not in html, html
