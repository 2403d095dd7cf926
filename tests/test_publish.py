"""Publishing: what `tolmach publish` writes, and what a hostile translation cannot do.

Each test builds a small project of its own in ``tmp_path`` (two Russian articles, a
complete English catalog, a partial and outdated German one, a partial Arabic one for
right-to-left, and Chinese with no catalog at all), so nothing here depends on the
project's real catalogs.
"""

from __future__ import annotations

import hashlib
import re
import sys
import time
import urllib.request
from html.parser import HTMLParser
from pathlib import Path

import click
import polib
import pytest
from click.testing import CliRunner

from tolmach.cli.publish import publish
from tolmach.config import load_config
from tolmach.markdown.dialects import PRESETS, resolve_dialect
from tolmach.markdown.document import markdown_parser, parse_document
from tolmach.project import Project
from tolmach.publish import PublishError, PublishOptions, publish_site
from tolmach.publish.constructs import SHAPES_RULE
from tolmach.publish.preview import LIVE_SCRIPT, VERSION_URL, Preview, serve_directory
from tolmach.publish.render import (
    publishing_parser,
    render_markdown,
    safe_destination,
)
from tolmach.publish.site import language

VECTORS_FILE = Path(__file__).parent / "data" / "xss-vectors.txt"

GUIDE = """\
---
title: Руководство по ускорителям
description: Как выбрать ускоритель
---
# Ускорители

Первый абзац про **ускорители**.

Второй абзац, который ещё не переведён.

| Модель | Память |
|:--|--:|
| MI300X | 192 ГБ |

```python
print("код")
```

- Пункт один
- Пункт два
"""

NEWS = "# Новости\n\nКороткая заметка.\n"

EN_GUIDE = {
    "Руководство по ускорителям": "A guide to accelerators",
    "Как выбрать ускоритель": "How to choose an accelerator",
    "Ускорители": "Accelerators",
    "Первый абзац про **ускорители**.": "The first paragraph about **accelerators**.",
    "Второй абзац, который ещё не переведён.": "The second paragraph.",
    "Модель": "Model",
    "Память": "Memory",
    "MI300X": "MI300X",
    "192 ГБ": "192 GB",
    "Пункт один": "Item one",
    "Пункт два": "Item two",
}
DE_GUIDE = {
    "Руководство по ускорителям": "Ein Leitfaden zu Beschleunigern",
    "Ускорители": "Beschleuniger",
    "Первый абзац про **ускорители**.": "Der erste Absatz über **Beschleuniger**.",
    "Второй абзац, который ещё не переведён.": "",
    "Пункт один": "Punkt eins (veraltet)",  # fuzzy: the source changed since
    "Пункт два": "",  # missing: added to the source after the last `tolmach update`
}
AR_GUIDE = {
    "Руководство по ускорителям": "دليل المسرعات",
    "Ускорители": "المسرعات",
    "Первый абзац про **ускорители**.": "الفقرة الأولى عن **المسرعات**.",
    "192 ГБ": "129 GB",  # a wrong number: the reviewer page must flag it
}


def write_catalog(root: Path, locale: str, doc: str, translations: dict[str, str],
                  fuzzy: tuple[str, ...] = (), missing: tuple[str, ...] = (),
                  revised: str = "2025-06-01 12:00+0000") -> None:
    """A catalog as `tolmach update` leaves it: an entry for every source text (empty
    when not translated), except those in ``missing``, which came after the update."""
    source = (root / "seeds" / f"{doc}.ru.md").read_text("utf-8")
    po = polib.POFile(wrapwidth=0)
    po.metadata = {"Language": locale, "Content-Type": "text/plain; charset=UTF-8",
                   "PO-Revision-Date": revised}
    for msgid in dict.fromkeys(seg.text for seg in parse_document(source).segments):
        if msgid not in missing:
            po.append(polib.POEntry(msgid=msgid, msgstr=translations.get(msgid, ""),
                                    flags=["fuzzy"] if msgid in fuzzy else []))
    path = root / "locales" / locale / "LC_MESSAGES" / f"{doc}.po"
    path.parent.mkdir(parents=True, exist_ok=True)
    po.save(str(path))


def make_project(root: Path, *, locales=("en", "de", "ar", "zh_CN"), guide: str = GUIDE,
                 catalogs: bool = True) -> Project:
    """The demo project described in the module docstring."""
    root.mkdir(parents=True, exist_ok=True)
    quoted = ", ".join(f'"{code}"' for code in locales)
    (root / "pyproject.toml").write_text(
        f'[tool.tolmach]\nsource-locale = "ru"\nlocales = [{quoted}]\n', "utf-8"
    )
    (root / "seeds").mkdir(exist_ok=True)
    (root / "seeds" / "guide.ru.md").write_text(guide, "utf-8")
    (root / "seeds" / "news.ru.md").write_text(NEWS, "utf-8")
    if catalogs:
        write_catalog(root, "en", "guide", EN_GUIDE)
        write_catalog(root, "en", "news", {"Новости": "News", "Короткая заметка.": "A short note."})
        write_catalog(root, "de", "guide", DE_GUIDE, fuzzy=("Пункт один",),
                      missing=("Пункт два",))
        write_catalog(root, "ar", "guide", AR_GUIDE)
    return Project(load_config(root))


DRAFTS = PublishOptions(drafts=True)


@pytest.fixture
def site(tmp_path) -> Path:
    """Every page of the demo project, published or not (as the preview shows them)."""
    project = make_project(tmp_path / "project")
    out = tmp_path / "site"
    publish_site(project, out, DRAFTS)
    return out


@pytest.fixture
def reviewed(tmp_path) -> Path:
    """The demo project published for real, with reviewer pages in ``review/``."""
    project = make_project(tmp_path / "project")
    publish_site(project, tmp_path / "site", PublishOptions(review=tmp_path / "review"))
    return tmp_path


def read(site: Path, name: str) -> str:
    return (site / name).read_text("utf-8")


class Tags(HTMLParser):
    """Every start tag of a page with its attributes, as a browser's parser sees them."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def find(self, tag: str, **attrs) -> list[dict]:
        return [a for t, a in self.tags if t == tag
                and all(a.get(k.replace("_", "-")) == v for k, v in attrs.items())]


def root_tag(html: str) -> dict:
    return Tags(html).find("html")[0]


# --- the pages ----------------------------------------------------------------------


def test_one_page_per_document_and_locale_plus_the_source_language(site):
    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html")
                   if not p.relative_to(site).as_posix().startswith(("articles/", "search/")))
    assert pages == [
        "ar/guide.html", "ar/news.html", "de/guide.html", "de/news.html",
        "en/guide.html", "en/news.html", "index.html",
        "ru/guide.html", "ru/news.html", "zh_CN/guide.html", "zh_CN/news.html",
    ]
    assert (site / "site.css").is_file()


def test_same_inputs_give_the_same_bytes_and_a_second_run_rewrites_nothing(tmp_path):
    project = make_project(tmp_path / "project")
    first, second = tmp_path / "one", tmp_path / "two"
    publish_site(project, first, DRAFTS)
    publish_site(project, second, DRAFTS)
    for path in first.rglob("*"):
        if path.is_file():
            assert path.read_bytes() == (second / path.relative_to(first)).read_bytes(), path
    assert publish_site(project, first, DRAFTS).written == []


def test_html_lang_and_dir_come_from_the_locale(site):
    assert root_tag(read(site, "de/guide.html")) == {"lang": "de", "dir": "ltr"}
    assert root_tag(read(site, "ar/guide.html")) == {"lang": "ar", "dir": "rtl"}
    assert root_tag(read(site, "zh_CN/guide.html")) == {"lang": "zh-CN", "dir": "ltr"}
    assert root_tag(read(site, "ru/guide.html")) == {"lang": "ru", "dir": "ltr"}


def test_every_page_links_its_alternates_by_hreflang_plus_x_default(site):
    tags = Tags(read(site, "de/guide.html"))
    alternates = {a["hreflang"]: a["href"] for a in tags.find("link", rel="alternate")}
    assert alternates == {
        "ru": "../ru/guide.html", "en": "../en/guide.html", "de": "../de/guide.html",
        "ar": "../ar/guide.html", "zh-CN": "../zh_CN/guide.html",
        "x-default": "../ru/guide.html",
    }


def test_the_switcher_names_each_locale_in_its_own_language(site):
    html = read(site, "en/guide.html")
    switcher = html[html.index('<nav class="switcher"'):html.index("</nav>")]
    names = re.findall(r">([^<>]+)</a>", switcher)
    assert names == ["Русский", "English", "Deutsch", "العربية", "中文 (中国)"]
    assert 'hreflang="en" lang="en" dir="ltr" aria-current="page"' in switcher
    assert 'href="../ar/guide.html" hreflang="ar" lang="ar" dir="rtl"' in switcher


def test_locale_names_come_from_babel_without_an_implied_script():
    assert language("zh_CN").name == "中文 (中国)"
    assert language("pt_BR").name == "Português (Brasil)"
    assert language("he").direction == "rtl"


def test_the_title_is_the_front_matter_title_else_the_first_heading(site):
    assert "<title>A guide to accelerators</title>" in read(site, "en/guide.html")
    assert "<title>News</title>" in read(site, "en/news.html")
    assert '<meta name="description" content="How to choose an accelerator">' in read(
        site, "en/guide.html")


def test_a_complete_translation_has_no_notice(site):
    html = read(site, "en/guide.html")
    assert "notice" not in html
    assert "untranslated" not in html


def test_a_partial_page_gives_the_percentage_and_marks_the_fallbacks(site):
    html = read(site, "ar/guide.html")
    assert "Partial translation: 38% translated." in html
    assert ("7 of 11 passages are shown in the original language (Russian) and marked with a "
            "yellow line.") in html
    assert '<aside class="notice notice-partial" role="note" lang="en" dir="ltr">' in html
    assert '<p lang="ru" dir="ltr" class="untranslated">Второй абзац' in html
    assert '<td class="align-left untranslated" lang="ru" dir="ltr">MI300X</td>' in html
    assert '<span lang="ru" dir="ltr" class="untranslated">Пункт один</span>' in html


def test_an_outdated_translation_counts_fuzzy_and_missing_passages_and_names_the_revision(
    site, tmp_path
):
    html = read(site, "de/guide.html")  # the interface speaks German: de has a catalog
    revision = hashlib.sha256(GUIDE.encode()).hexdigest()[:12]
    assert "Veraltete Übersetzung." in html
    assert "1 geänderter Abschnitt wartet auf Prüfung." in html
    assert "1 neuer Abschnitt ist noch nicht übersetzt." in html
    assert f'Quellrevision <code class="source-revision">{revision}</code>' in html
    assert "Übersetzung überarbeitet am 2025-06-01 12:00+0000." in html
    assert "Punkt eins (veraltet)" not in html, "a fuzzy translation is never published"


def test_a_locale_without_catalog_is_published_in_the_source_language(site):
    html = read(site, "zh_CN/guide.html")
    assert "尚未翻译。" in html
    assert "<title>Руководство по ускорителям</title>" in html


def test_every_page_names_the_source_revision_it_was_built_from(site):
    revision = hashlib.sha256(NEWS.encode()).hexdigest()[:12]
    for locale in ("ru", "en", "de", "ar", "zh_CN"):
        assert f'<code class="source-revision">{revision}</code>' in read(site, f"{locale}/news.html")


def test_pages_need_no_script_and_no_network_resource(site):
    for page in ("index.html", "de/guide.html", "articles/de.html"):
        tags = Tags(read(site, page))
        assert not tags.find("script")
        for _, attrs in tags.tags:
            for name in ("href", "src"):
                assert not (attrs.get(name) or "").startswith(("http:", "https:", "//"))
        csp = tags.find("meta", http_equiv="Content-Security-Policy")[0]["content"]
        assert "script-src 'none'" in csp and "default-src 'none'" in csp


def test_the_index_lists_documents_by_locales_with_completion_and_links(site):
    html = read(site, "index.html")
    links = [a["href"] for a in Tags(html).find("a") if a["href"].endswith(".html")]
    for doc in ("guide", "news"):
        for locale in ("ru", "en", "de", "ar", "zh_CN"):
            assert f"{locale}/{doc}.html" in links
    assert re.search(r'<li class="version complete">\s*<a href="en/guide.html" hreflang="en">'
                     r'.*?<span class="state">100%</span>', html, re.DOTALL)
    assert re.search(r'<li class="version outdated">\s*<a href="de/guide.html"', html)
    assert re.search(r'<li class="version partial">\s*<a href="ar/guide.html" hreflang="ar">'
                     r'.*?<span class="state">38%</span>', html, re.DOTALL)


def test_the_reviewer_page_shows_source_and_translation_side_by_side_with_findings(reviewed):
    review = reviewed / "review"
    html = read(review, "ar/guide.html")
    assert "Not published: 38% translated, below the threshold of 80%." in html
    row = re.search(r'<div class="passage status-translated error" id="s\d+">.*?</ul>',
                    html, re.DOTALL).group()
    assert '<div class="src" lang="ru" dir="ltr">192 ГБ</div>' in row
    assert '<div class="tgt" lang="ar" dir="rtl">129 GB' in row
    assert '<code>numbers</code>' in row
    assert '<div class="tgt" lang="ar" dir="rtl">دليل المسرعات' in html
    de = read(review, "de/guide.html")
    fuzzy = r'class="passage status-fuzzy".*?Пункт один.*?Punkt eins \(veraltet\)'
    assert re.search(fuzzy, de, re.DOTALL)
    assert re.search(r'class="passage status-missing".*?Пункт два', de, re.DOTALL)


def test_a_missing_checks_package_is_a_clear_error(tmp_path, monkeypatch):
    project = make_project(tmp_path)
    monkeypatch.setitem(sys.modules, "tolmach.checks", None)
    with pytest.raises(PublishError, match="needs the checks"):
        publish_site(project, tmp_path / "site")


def test_publish_command_writes_the_site_and_reports(tmp_path):
    from tolmach.cli import AppState

    make_project(tmp_path)

    @click.group()
    @click.pass_context
    def root(ctx):
        ctx.obj = AppState(root=tmp_path)

    root.add_command(publish)
    result = CliRunner().invoke(root, ["publish", "-l", "de", "-q"])  # no summary line, however long it takes
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("output/site: ") and lines[1] == "  published: ru 2, en 2"
    assert "  not published: de/guide (31% translated, below the threshold of 80%)" in lines
    assert "  not published: zh_CN/news (no catalog)" in lines
    assert "  reviewer pages: output/review/index.html" in lines
    site = tmp_path / "output" / "site"
    assert (site / "en" / "guide.html").is_file(), "-l limits what is rebuilt, not what is listed"
    assert not (site / "de").exists()
    assert (tmp_path / "output" / "review" / "de" / "guide.html").is_file()
    assert not (tmp_path / "output" / "review" / "en").exists()
    bad = CliRunner().invoke(root, ["publish", "-l", "xx_YY"])
    assert bad.exit_code == 1 and "unknown locale" in bad.output


# --- rendering --------------------------------------------------------------------


def test_the_publishing_parser_reads_the_syntax_extraction_reads():
    assert publishing_parser().get_active_rules() == markdown_parser().get_active_rules()
    assert publishing_parser().options["html"] is False
    for name in PRESETS:
        dialect = resolve_dialect(name)
        rules = publishing_parser(dialect).get_active_rules()
        rules["core"] = [rule for rule in rules["core"] if rule != SHAPES_RULE]
        assert rules == dialect.parser().get_active_rules(), name
        assert publishing_parser(dialect).options["html"] is False


@pytest.mark.parametrize("url, allowed", [
    ("https://example.org/x", True), ("http://example.org", True),
    ("mailto:team@example.org", True), ("../de/guide.html#top", True), ("#fn1", True),
    ("?page=a:b", True), ("//example.org/x", True),
    ("javascript:alert(1)", False), ("JAVASCRIPT:alert(1)", False),
    ("%20javascript:alert(1)", False), ("java%0Ascript:alert(1)", False),
    ("vbscript:msgbox(1)", False), ("data:text/html,x", False),
    ("data:image/png;base64,AAAA", False), ("file:///etc/passwd", False),
    ("jav\u200bascript:alert(1)", False), ("unknown-scheme:x", False),
])
def test_only_relative_and_web_destinations_are_allowed(url, allowed):
    assert safe_destination(url) is allowed


def test_raw_html_even_in_the_source_is_shown_as_text():
    html = render_markdown('Текст <b onclick="x()">жирный</b>\n\n<div>блок</div>\n')
    assert "<b" not in html and "<div>" not in html
    assert "&lt;b onclick=&quot;x()&quot;&gt;" in html


def test_table_alignment_is_a_class_not_a_style_attribute():
    html = render_markdown("| a | b |\n|:-:|--:|\n| 1 | 2 |\n")
    assert "style=" not in html
    assert '<th class="align-center">a</th>' in html
    assert '<div class="table-wrap">' in html


# --- hostile translations ----------------------------------------------------------------


def xss_vectors() -> list[str]:
    """The corpus: one vector a line, ``\\n`` for a line break, ``#`` for comments."""
    lines = VECTORS_FILE.read_text("utf-8").splitlines()
    return [ln.replace("\\n", "\n") for ln in lines if ln.strip() and not ln.startswith("#")]


ALLOWED_TAGS = {
    "html", "head", "meta", "title", "link", "body", "header", "div", "a", "nav", "ul",
    "li", "main", "aside", "p", "strong", "code", "article", "h1", "footer", "span", "em",
    "br", "pre", "blockquote", "ol", "h2", "h3", "sup", "section", "hr", "table", "thead",
    "tbody", "tr", "th", "td", "details", "summary",
}
ALLOWED_ATTRIBUTES = {
    "lang", "dir", "charset", "name", "content", "http-equiv", "rel", "href", "hreflang",
    "type", "class", "aria-label", "aria-current", "aria-hidden", "scope", "role", "id",
    "title", "start", "property", "data-pagefind-body",
}


def test_the_corpus_covers_the_classic_tricks():
    vectors = xss_vectors()
    assert len(vectors) >= 25
    for needle in ("<script", "onerror", "javascript:", "vbscript:", "data:", "&#", "<svg",
                   "<iframe", "<object", "<style", "]: ", "<javascript:", "JaVaScRiPt"):
        assert any(needle.lower() in v.lower() for v in vectors), needle


def hostile_project(root: Path, vectors: list[str]) -> Project:
    """One paragraph per vector, the vector as its translation; the title too."""
    source = "# Заголовок\n\n" + "".join(f"Абзац номер {i}.\n\n" for i in range(len(vectors)))
    project = make_project(root, locales=("en",), guide=source, catalogs=False)
    translations = {"Заголовок": '<script>window.__xss=1</script>"><img src=x onerror=alert(1)>'}
    translations |= {f"Абзац номер {i}.": v for i, v in enumerate(vectors)}
    write_catalog(root, "en", "guide", translations)
    return project


def test_hostile_translations_produce_no_markup_of_their_own(tmp_path):
    vectors = xss_vectors()
    out = tmp_path / "site"
    project = hostile_project(tmp_path / "project", vectors)
    report = publish_site(project, out)
    assert report.withheld[0].verdict.reason.endswith("check errors")
    assert not (out / "en" / "guide.html").exists(), "hostile catalogs fail the checks"
    publish_site(project, out, PublishOptions(drafts=True, review=out / "review"))
    for page in ("en/guide.html", "review/en/guide.html", "index.html"):
        tags = Tags(read(out, page))
        assert {t for t, _ in tags.tags} <= ALLOWED_TAGS, page
        for tag, attrs in tags.tags:
            assert set(attrs) <= ALLOWED_ATTRIBUTES, (page, tag, attrs)
            if "href" in attrs:
                assert safe_destination(attrs["href"] or ""), (page, attrs)
    html = read(out, "en/guide.html")
    assert "<title>&lt;script&gt;window.__xss=1&lt;/script&gt;&#34;&gt;&lt;img src=x" in html


# --- preview --------------------------------------------------------------------------


def wait_for(condition, timeout: float = 15.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


def test_preview_rebuilds_a_page_when_its_catalog_is_saved(tmp_path):
    make_project(tmp_path / "project")
    reports: list[str] = []
    session = Preview(tmp_path / "project", "de", tmp_path / "preview", report=reports.append)
    session.build()
    page = tmp_path / "preview" / "de" / "guide.html"
    assert LIVE_SCRIPT in page.read_text("utf-8")
    assert not (tmp_path / "preview" / "en").exists()
    with serve_directory(tmp_path / "preview", version=session.version) as base:
        session.start_watching()
        try:
            time.sleep(0.5)
            write_catalog(tmp_path / "project", "de", "guide",
                          DE_GUIDE | {"Второй абзац, который ещё не переведён.": "Zweiter Absatz."},
                          fuzzy=("Пункт один",), missing=("Пункт два",))
            assert wait_for(lambda: "Zweiter Absatz." in page.read_text("utf-8"))
            assert wait_for(lambda: "rebuilt de/guide.html" in reports), reports
            with urllib.request.urlopen(base + "de/guide.html") as response:
                assert "Zweiter Absatz." in response.read().decode()
            with urllib.request.urlopen(base + VERSION_URL.lstrip("/")) as response:
                assert int(response.read()) >= 2
        finally:
            session.stop()


def test_preview_reports_a_broken_catalog_and_keeps_the_last_good_page(tmp_path):
    make_project(tmp_path / "project")
    reports: list[str] = []
    session = Preview(tmp_path / "project", "de", tmp_path / "preview", report=reports.append)
    session.build()
    catalog = tmp_path / "project" / "locales" / "de" / "LC_MESSAGES" / "guide.po"
    catalog.write_text('msgid "unterminated\n', "utf-8")
    assert session.rebuild([catalog]) == []
    assert reports and reports[0].startswith("not rebuilt:")
    assert (tmp_path / "preview" / "de" / "guide.html").is_file()
    assert session.rebuild([tmp_path / "project" / "locales" / "en" / "x.po"]) == []
