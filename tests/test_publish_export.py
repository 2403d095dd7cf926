"""``tolmach publish --to GENERATOR DIR``: the verified translations in each site
generator's own i18n layout, built with the real generator.

The layout tests need nothing but tolmach. The build tests run MkDocs (Material and
mkdocs-static-i18n, from PyPI), Hugo (Debian), VitePress and Docusaurus (npm, installed
by ``.ci/run`` into ``tests/renderers/<name>/node_modules``) on the issue 16 scenario and
read the HTML they make: every exported page exists in every language, ``<html lang>``
is right, and the generator's own language switcher links the translations. Without a
generator these tests skip with a hint; under CI (``CI`` set) they fail.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from publish_scenario import make_scenario

from tolmach.publish.export import export_site

GENERATORS_DIR = Path(__file__).parent / "renderers"
# What the scenario exports: the guide in ru, en, de, uk; the news in ru, en.
EXPORTED = {("guide", "ru"), ("guide", "en"), ("guide", "de"), ("guide", "uk"),
            ("news", "ru"), ("news", "en")}


def need(tool: str, found: bool, hint: str) -> None:
    if found:
        return
    if os.environ.get("CI"):
        pytest.fail(f"{tool} is missing under CI: {hint}")
    pytest.skip(f"{tool} is not installed: {hint}")


def node_bin(name: str, command: str) -> Path:
    path = GENERATORS_DIR / name / "node_modules" / ".bin" / command
    need(name, path.exists() and shutil.which("node") is not None,
         f"run `npm ci --prefix tests/renderers/{name}` (Node.js 18+)")
    return path


@pytest.fixture(scope="module")
def scenario(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("export")
    make_scenario(root)
    return root


def exported(scenario: Path, generator: str, target: Path, **kwargs):
    from tolmach.config import load_config
    from tolmach.project import Project

    return export_site(Project(load_config(scenario)), generator, target, **kwargs)


def html_lang(html: str) -> str:
    return re.search(r"<html[^>]*\slang=\"([^\"]+)\"", html).group(1)


# --- layouts -------------------------------------------------------------------------------


@pytest.mark.parametrize("generator, paths", [
    ("mkdocs", {"docs/ru/guide.md", "docs/en/guide.md", "docs/de/guide.md", "docs/uk/guide.md",
                "docs/ru/news.md", "docs/en/news.md"}),
    ("hugo", {"content/ru/guide/index.md", "content/en/guide/index.md",
              "content/de/guide/index.md", "content/uk/guide/index.md",
              "content/ru/news/index.md", "content/en/news/index.md"}),
    ("vitepress", {"docs/guide.md", "docs/en/guide.md", "docs/de/guide.md", "docs/uk/guide.md",
                   "docs/news.md", "docs/en/news.md"}),
    ("docusaurus", {"docs/guide.md", "docs/news.md"} | {
        f"i18n/{code}/docusaurus-plugin-content-docs/current/{name}.md"
        for name, code in EXPORTED if code != "ru"}),
])
def test_each_generator_gets_only_verified_pages_in_its_layout(scenario, tmp_path, generator,
                                                               paths):
    result = exported(scenario, generator, tmp_path)
    pages = {p.relative_to(tmp_path).as_posix() for p in result.pages}
    assert pages == paths
    assert {(o.doc.name, o.language.code) for o in result.withheld} == {
        ("guide", "fr"), ("news", "de"), ("news", "uk"), ("news", "fr")}
    assert result.config_file.is_file()


def test_assets_travel_with_the_pages_and_each_locale_gets_its_variant(scenario, tmp_path):
    exported(scenario, "vitepress", tmp_path)
    seeds = scenario / "seeds" / "images"
    assert (tmp_path / "docs/uk/images/hip-flow.png").read_bytes() == (
        seeds / "hip-flow.uk.png").read_bytes(), "the variant, under the name the page uses"
    assert (tmp_path / "docs/uk/images/chart.uk.png").is_file()
    assert (tmp_path / "docs/en/images/hip-flow.png").read_bytes() == (
        seeds / "hip-flow.png").read_bytes()
    assert (tmp_path / "docs/en/files/spec.pdf").is_file()


def test_links_between_documents_point_to_exported_pages(scenario, tmp_path):
    exported(scenario, "vitepress", tmp_path)
    assert "[новинах](../news.md)" in (tmp_path / "docs/uk/guide.md").read_text("utf-8")
    assert "[news](news.md)" in (tmp_path / "docs/en/guide.md").read_text("utf-8")
    exported(scenario, "hugo", tmp_path / "hugo")
    assert "[новинах](../../ru/news/)" in (
        tmp_path / "hugo/content/uk/guide/index.md").read_text("utf-8")


def test_config_snippets_declare_the_languages(scenario, tmp_path):
    mkdocs = exported(scenario, "mkdocs", tmp_path / "m").config_file.read_text("utf-8")
    assert "docs_structure: folder" in mkdocs and "- locale: uk" in mkdocs
    assert "default: true" in mkdocs.split("- locale: en")[0]
    hugo = exported(scenario, "hugo", tmp_path / "h").config_file.read_text("utf-8")
    assert 'defaultContentLanguage = "ru"' in hugo and '[languages."uk"]' in hugo
    assert "fr" not in hugo, "a language with nothing exported is not declared"
    docu = exported(scenario, "docusaurus", tmp_path / "d").config_file.read_text("utf-8")
    assert '"defaultLocale": "ru"' in docu and '"uk"' in docu


def test_an_mdx_source_stays_mdx(tmp_path):
    project = make_scenario(tmp_path, locales=("en",))
    source = tmp_path / "seeds" / "news.ru.md"
    source.rename(source.with_suffix(".mdx"))
    config = tmp_path / "pyproject.toml"
    config.write_text(config.read_text("utf-8").replace('"seeds/*.md"', '"seeds/*.md*"'), "utf-8")
    from tolmach.config import load_config
    from tolmach.project import Project

    project = Project(load_config(tmp_path))
    result = export_site(project, "docusaurus", tmp_path / "out")
    assert "docs/news.mdx" in {p.relative_to(tmp_path / "out").as_posix() for p in result.pages}


# --- real builds ------------------------------------------------------------------------


def test_mkdocs_material_with_static_i18n_builds_every_language(scenario, tmp_path):
    need("mkdocs", shutil.which("mkdocs") is not None or _has_module("mkdocs"),
         "pip install mkdocs-material mkdocs-static-i18n")
    result = exported(scenario, "mkdocs", tmp_path)
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: Scenario\ndocs_dir: docs\ntheme:\n  name: material\n"
        + result.config_file.read_text("utf-8"), "utf-8")
    run([sys.executable, "-m", "mkdocs", "build", "-q", "-d", "site"], tmp_path,
        env={"NO_MKDOCS_2_WARNING": "1"})
    site = tmp_path / "site"
    for name, code in EXPORTED:
        page = site / (f"{name}/index.html" if code == "ru" else f"{code}/{name}/index.html")
        html = page.read_text("utf-8")
        assert html_lang(html) == code, page
        switcher = re.findall(r'href="([^"]+)" hreflang="([^"]+)" class="md-select__link"', html)
        assert {lang for _, lang in switcher} == {"ru", "en", "de", "uk"}
    guide = (site / "uk/guide/index.html").read_text("utf-8")
    assert "Посібник з ROCm" in guide and "assets/" not in re.findall(r'src="([^"]+hip[^"]+)"', guide)[0]


def test_hugo_builds_every_language_and_links_the_translations(scenario, tmp_path):
    need("hugo", shutil.which("hugo") is not None, "apt-get install hugo")
    result = exported(scenario, "hugo", tmp_path)
    (tmp_path / "hugo.toml").write_text(
        'baseURL = "https://example.org/"\ntitle = "Scenario"\n'
        'disableKinds = ["taxonomy", "term", "RSS", "sitemap"]\n'
        + result.config_file.read_text("utf-8"), "utf-8")
    layouts = tmp_path / "layouts" / "_default"
    layouts.mkdir(parents=True)
    (layouts / "single.html").write_text(HUGO_SINGLE, "utf-8")
    (layouts / "list.html").write_text(HUGO_SINGLE, "utf-8")
    run(["hugo", "--quiet", "-d", "public"], tmp_path)
    for name, code in EXPORTED:
        html = (tmp_path / "public" / code / name / "index.html").read_text("utf-8")
        assert html_lang(html) == {"uk": "uk"}.get(code, code)
        links = dict(re.findall(r'<a href="([^"]+)" hreflang="([^"]+)">', html))
        expected = {f"/{c}/{name}/" for n, c in EXPORTED if n == name}
        assert set(links) == expected, (name, code)
    uk = tmp_path / "public" / "uk" / "guide"
    assert (uk / "images" / "hip-flow.png").read_bytes() == (
        scenario / "seeds" / "images" / "hip-flow.uk.png").read_bytes()


HUGO_SINGLE = """<!doctype html>
<html lang="{{ .Site.LanguageCode }}" dir="{{ .Language.LanguageDirection }}">
<head><meta charset="utf-8"><title>{{ .Title }}</title></head>
<body>
<nav>{{ range .AllTranslations }}<a href="{{ .RelPermalink }}" hreflang="{{ .Site.LanguageCode }}">{{ .Language.LanguageName }}</a>{{ end }}</nav>
<main>{{ .Content }}</main>
</body>
</html>
"""


def test_vitepress_builds_every_language_with_its_switcher(scenario, tmp_path):
    vitepress = node_bin("vitepress", "vitepress")
    result = exported(scenario, "vitepress", tmp_path)
    (tmp_path / "node_modules").symlink_to(vitepress.parent.parent)
    config = tmp_path / "docs" / ".vitepress" / "config.mjs"
    config.parent.mkdir(parents=True)
    config.write_text(f"import {{ locales }} from '../../{result.config_file.name}'\n"
                      "export default { title: 'Scenario', locales }\n", "utf-8")
    run([str(vitepress), "build", "docs"], tmp_path)
    dist = tmp_path / "docs" / ".vitepress" / "dist"
    for name, code in EXPORTED:
        page = dist / (f"{name}.html" if code == "ru" else f"{code}/{name}.html")
        html = page.read_text("utf-8")
        assert html_lang(html) == code, page
        targets = set(re.findall(r'href="(/(?:[a-z]{2}/)?' + name + r'\.html)"', html))
        expected = {f"/{name}.html" if c == "ru" else f"/{c}/{name}.html"
                    for n, c in EXPORTED if n == name}
        assert expected - {f"/{code}/{name}.html", f"/{name}.html"} <= targets, (page, targets)


def test_docusaurus_builds_every_language_with_its_locale_dropdown(scenario, tmp_path):
    docusaurus = node_bin("docusaurus", "docusaurus")
    result = exported(scenario, "docusaurus", tmp_path, locales=("uk",))
    (tmp_path / "node_modules").symlink_to(docusaurus.parent.parent)
    (tmp_path / "docusaurus.config.js").write_text(DOCUSAURUS_CONFIG % result.config_file.name,
                                                   "utf-8")
    (tmp_path / "src" / "pages").mkdir(parents=True)  # the home page the navbar links to
    (tmp_path / "src" / "pages" / "index.md").write_text("# Scenario\n", "utf-8")
    run([str(docusaurus), "build", "--out-dir", "build"], tmp_path, timeout=900)
    for name, code in (("guide", "ru"), ("news", "ru"), ("guide", "uk")):
        page = tmp_path / "build" / (f"docs/{name}/index.html" if code == "ru"
                                     else f"{code}/docs/{name}/index.html")
        html = page.read_text("utf-8")
        assert html_lang(html) == code, page
        dropdown = re.findall(r'href="([^"]+)"[^>]*class="dropdown__link[^"]*" lang="([^"]+)"', html)
        assert dict((lang, href) for href, lang in dropdown) == {
            "ru": f"/docs/{name}", "uk": f"/uk/docs/{name}"}, page


DOCUSAURUS_CONFIG = """module.exports = {
  title: 'Scenario', url: 'https://example.org', baseUrl: '/',
  i18n: require('./%s'),
  markdown: { format: 'detect' },
  onBrokenLinks: 'throw',
  presets: [['classic', { docs: { routeBasePath: '/docs', sidebarPath: false }, blog: false,
                          theme: {} }]],
  themeConfig: { navbar: { items: [{ type: 'localeDropdown', position: 'right' }] } },
};
"""


def _has_module(name: str) -> bool:
    from importlib.util import find_spec

    return find_spec(name) is not None


def run(command: list[str], cwd: Path, env: dict | None = None, timeout: int = 600) -> None:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
