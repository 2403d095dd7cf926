"""Publishing a site a publisher would put online: issue 16's scenario end to end.

The scenario (``publish_scenario.py``): a complete locale, a locale with a check error
on one page, a 0% locale, an image with a Ukrainian variant, a download, links between
the articles. What is public must be verified; every link, alternate and asset must
resolve; sitemap and feeds must validate.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import click
import pytest
from click.testing import CliRunner
from publish_scenario import BASE_URL, FIXED_DE_NEWS, fill, make_scenario

from tolmach.cli.publish import publish
from tolmach.config import load_config
from tolmach.project import Project
from tolmach.publish import PublishOptions, publish_site

SCHEMAS = Path(__file__).parent / "data" / "sitemap"
PUBLISHED = {"ru/guide.html", "ru/news.html", "en/guide.html", "en/news.html", "de/guide.html",
             "uk/guide.html"}


def run_publish(root: Path, *args: str):
    from tolmach.cli import AppState

    @click.group()
    @click.pass_context
    def group(ctx):
        ctx.obj = AppState(root=root)

    group.add_command(publish)
    return CliRunner().invoke(group, ["publish", *args])


@pytest.fixture(scope="module")
def scenario(tmp_path_factory) -> Path:
    """The scenario published by ``tolmach publish`` (default options)."""
    root = tmp_path_factory.mktemp("scenario")
    make_scenario(root)
    result = run_publish(root)
    assert result.exit_code == 0, result.output
    return root


def site_of(root: Path) -> Path:
    return root / "output" / "site"


def article_pages(site: Path) -> set[str]:
    return {p.relative_to(site).as_posix() for p in site.glob("*/*.html")
            if p.parent.name not in ("articles", "search", "review")}


def read(path: Path) -> str:
    return path.read_text("utf-8")


class Links(HTMLParser):
    """Every URL a page refers to, with the tag and attribute it is in, and every id."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.urls: list[tuple[str, str, dict]] = []
        self.ids: set[str] = set()
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        for name in ("href", "src"):
            if attrs.get(name):
                self.urls.append((tag, attrs[name], attrs))


# --- nothing unverified is public ---------------------------------------------------------


def test_only_pages_that_pass_the_threshold_and_the_checks_are_published(scenario):
    site = site_of(scenario)
    assert article_pages(site) == PUBLISHED
    assert not (site / "fr").exists(), "a 0% locale has no page"
    assert not (site / "articles" / "fr.html").exists()
    assert not (site / "review").exists(), "reviewer pages are not part of the public site"


def test_the_command_says_what_was_withheld_and_why(tmp_path):
    make_scenario(tmp_path)
    result = run_publish(tmp_path)
    assert result.exit_code == 0, result.output
    assert "  not published: de/news (1 check error)" in result.output
    assert "  not published: fr/guide (0% translated, below the threshold of 80%)" in result.output
    assert "  reviewer pages: output/review/index.html" in result.output


def test_reviewer_pages_show_why_a_page_is_withheld(scenario):
    review = scenario / "output" / "review"
    html = read(review / "de" / "news.html")
    assert "Not published: 1 check error." in html
    assert "number changed: 3.5 → 4,5" in html
    index = read(review / "index.html")
    assert "1 check error" in index and "0% translated" in index


def test_reviewer_pages_go_into_the_site_only_when_asked(tmp_path):
    make_scenario(tmp_path)
    result = run_publish(tmp_path, "--review", "in-site")
    assert result.exit_code == 0, result.output
    site = site_of(tmp_path)
    assert (site / "review" / "de" / "news.html").is_file()
    assert 'href="../review/en/guide.html"' in read(site / "en" / "guide.html")


def test_allow_errors_publishes_loudly(tmp_path):
    make_scenario(tmp_path)
    result = run_publish(tmp_path, "--allow-errors")
    assert result.exit_code == 0, result.output
    assert "Warning: de/news is published with 1 check error(s) (--allow-errors)" in result.output
    html = read(site_of(tmp_path) / "de" / "news.html")
    assert "Published with check errors." in html
    assert not (site_of(tmp_path) / "fr").exists(), "--allow-errors does not lift the threshold"


def test_a_locale_option_rebuilds_that_locale_and_keeps_every_list_complete(tmp_path):
    project = make_scenario(tmp_path)
    assert run_publish(tmp_path).exit_code == 0
    site = site_of(tmp_path)
    before = {name: (site / name).read_bytes() for name in article_pages(site)}
    fill(project, "de", FIXED_DE_NEWS)  # the German news now passes the checks
    result = run_publish(tmp_path, "-l", "de")
    assert result.exit_code == 0, result.output
    assert article_pages(site) == PUBLISHED | {"de/news.html"}
    index = read(site / "index.html")
    for page in PUBLISHED | {"de/news.html"}:
        assert f'href="{page}"' in index, page
    assert 'hreflang="de"' in read(site / "en" / "news.html"), "stale switchers are rewritten"
    assert (site / "en" / "guide.html").read_bytes() == before["en/guide.html"], \
        "a page of another locale whose links did not change is left alone"
    switcher = read(site / "de" / "news.html")
    for tag in ("ru", "en", "de"):
        assert f'hreflang="{tag}" lang="{tag}"' in switcher


def test_a_page_that_fails_later_is_taken_down(tmp_path):
    project = make_scenario(tmp_path)
    assert run_publish(tmp_path).exit_code == 0
    fill(project, "en", {"Вывод стал быстрее в 3.5 раза.": "Inference became 9 times faster."})
    result = run_publish(tmp_path, "-l", "en")
    assert result.exit_code == 0, result.output
    site = site_of(tmp_path)
    assert not (site / "en" / "news.html").exists()
    assert 'hreflang="en"' not in read(site / "ru" / "news.html")
    assert 'href="en/news.html"' not in read(site / "index.html")


# --- assets ----------------------------------------------------------------------------


def test_assets_are_copied_and_each_locale_gets_its_variant(scenario):
    site = site_of(scenario)
    uk, en = read(site / "uk" / "guide.html"), read(site / "en" / "guide.html")
    assert 'src="../assets/seeds/images/hip-flow.uk.png"' in uk, "picked automatically"
    assert 'src="../assets/seeds/images/chart.uk.png"' in uk, "named by the translator"
    assert 'src="../assets/seeds/images/hip-flow.png"' in en
    assert 'href="../assets/seeds/files/spec.pdf"' in en
    assert (site / "assets" / "seeds" / "images" / "hip-flow.uk.png").read_bytes() == (
        scenario / "seeds" / "images" / "hip-flow.uk.png").read_bytes()


def test_links_between_documents_lead_to_the_page_in_the_same_language(scenario):
    site = site_of(scenario)
    assert '<a href="../en/news.html">news</a>' in read(site / "en" / "guide.html")
    assert '<a href="../ru/news.html">новинах</a>' in read(site / "uk" / "guide.html"), \
        "to the original while the translation is not published"


def test_hashed_asset_names(tmp_path):
    make_scenario(tmp_path, extra_config="hashed-assets = true\n")
    assert run_publish(tmp_path).exit_code == 0
    html = read(site_of(tmp_path) / "en" / "guide.html")
    name = re.search(r'src="\.\./(assets/seeds/images/hip-flow\.[0-9a-f]{10}\.png)"', html).group(1)
    assert (site_of(tmp_path) / name).is_file()


def test_a_missing_asset_is_an_error_naming_the_line_and_nothing_is_written(tmp_path):
    make_scenario(tmp_path)
    (tmp_path / "seeds" / "images" / "chart.png").unlink()
    result = run_publish(tmp_path)
    assert result.exit_code == 1
    assert "seeds/guide.ru.md:18: image 'images/chart.png' not found" in result.output
    assert not site_of(tmp_path).exists()


def test_the_markup_check_accepts_only_an_existing_variant_of_the_same_image(tmp_path):
    project = make_scenario(tmp_path)
    assert not [f for f in project.check(["uk"]) if f.check == "markup"]
    for wrong in ("images/chart.de.png", "images/hip-flow.uk.png"):
        fill(project, "uk", {'![График](images/chart.png "Ускорение")':
                             f'![Графік]({wrong} "Прискорення")'})
        project = Project(load_config(tmp_path))
        messages = [f.message for f in project.check(["uk"]) if f.check == "markup"]
        assert messages == [f'image source changed: "images/chart.png" → "{wrong}"'], wrong


# --- every link, alternate and asset resolves -----------------------------------------


def site_file(site: Path, page: Path, url: str) -> Path | None:
    """The file a URL of ``page`` names in the site, or None for an outside address."""
    if url.startswith(BASE_URL):
        return site / unquote(urlsplit(url[len(BASE_URL):]).path or "index.html")
    parts = urlsplit(url)
    if parts.scheme or parts.netloc:
        return None
    if not parts.path:
        return page
    return (page.parent / unquote(parts.path)).resolve()


def test_every_link_alternate_and_asset_of_the_site_resolves(scenario):
    site = site_of(scenario).resolve()
    checked = 0
    for page in sorted(site.rglob("*.html")):
        if "pagefind" in page.relative_to(site).parts:
            continue
        links = Links(read(page))
        for tag, url, _ in links.urls:
            target = site_file(site, page, url)
            if target is None:
                continue
            assert target.is_file(), f"{page.relative_to(site)}: {tag} {url} → nothing"
            assert site in target.parents, f"{page.relative_to(site)}: {url} leaves the site"
            fragment = urlsplit(url).fragment
            if target == page and fragment:
                assert unquote(fragment) in links.ids, f"{page.relative_to(site)}: #{fragment}"
            checked += 1
    assert checked > 150
    for xml in ("sitemap.xml", "feeds/en.xml", "feeds/uk.xml"):
        for url in re.findall(r'(?:href="|<loc>)(https?://[^"<]+)', read(site / xml)):
            target = site_file(site, site / xml, url)
            assert target is not None and target.is_file(), f"{xml}: {url}"


def test_search_pages_and_bundle_are_there_for_each_published_language(scenario):
    site = site_of(scenario)
    for code in ("ru", "en", "de", "uk"):
        html = read(site / "search" / f"{code}.html")
        assert "script-src 'self' 'wasm-unsafe-eval'" in html.replace("&#39;", "'")
        bundles = re.search(r'data-bundles="([^"]+)"', html).group(1).split()
        assert bundles and all(b.startswith(f"../pagefind/{code}-") for b in bundles), bundles
        for bundle in bundles:
            entry = json.loads(read(site / "search" / bundle / "pagefind-entry.json"))
            assert list(entry["languages"]) == [code], (bundle, entry["languages"])
        assert (site / "search" / bundles[0] / "pagefind-ui.js").is_file()
    for page in ("en/guide.html", "index.html"):
        assert "<script" not in read(site / page), "article pages run no script"


# --- web standards ------------------------------------------------------------------------


def test_the_sitemap_validates_and_lists_alternates_for_every_published_page(scenario):
    xmlschema = pytest.importorskip("xmlschema")
    schema = xmlschema.XMLSchema(str(SCHEMAS / "sitemap.xsd"))
    sitemap = site_of(scenario) / "sitemap.xml"
    schema.validate(str(sitemap))
    text = read(sitemap)
    locs = re.findall(r"<loc>([^<]+)</loc>", text)
    assert sorted(locs) == sorted([BASE_URL] + [BASE_URL + p for p in PUBLISHED])
    entry = text[text.index(f"<loc>{BASE_URL}de/guide.html</loc>"):]
    entry = entry[:entry.index("</url>")]
    alternates = re.findall(r'hreflang="([^"]+)" href="([^"]+)"', entry)
    assert alternates == [("ru", BASE_URL + "ru/guide.html"), ("en", BASE_URL + "en/guide.html"),
                          ("de", BASE_URL + "de/guide.html"), ("uk", BASE_URL + "uk/guide.html"),
                          ("x-default", BASE_URL + "ru/guide.html")]
    assert "<lastmod>2025-08-01T10:00:00+00:00</lastmod>" in entry


def test_a_schema_invalid_sitemap_is_caught():
    """The schema is not a rubber stamp: a relative address fails it."""
    xmlschema = pytest.importorskip("xmlschema")
    schema = xmlschema.XMLSchema(str(SCHEMAS / "sitemap.xsd"))
    bad = ('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
           "<url><loc>de/guide.html</loc></url></urlset>")
    assert not schema.is_valid(bad)


def test_an_atom_feed_per_language_parses(scenario):
    feedparser = pytest.importorskip("feedparser")
    for code, titles in (("en", ["ROCm news", "A ROCm guide"]), ("de", ["Ein ROCm-Leitfaden"]),
                         ("uk", ["Посібник з ROCm"]), ("ru", ["Новости ROCm", "Руководство по ROCm"])):
        feed = feedparser.parse(read(site_of(scenario) / "feeds" / f"{code}.xml"))
        assert not feed.bozo, (code, feed.get("bozo_exception"))
        assert feed.version == "atom10"
        assert [e.title for e in feed.entries] == titles, code
        assert all(e.link.startswith(BASE_URL + f"{code}/") for e in feed.entries)
    en = feedparser.parse(read(site_of(scenario) / "feeds" / "en.xml"))
    assert en.entries[1].summary == "How to port CUDA code to HIP"
    assert en.feed.updated == "2025-08-01T10:00:00+00:00"


def test_canonical_open_graph_and_description_come_from_front_matter(scenario):
    html = read(site_of(scenario) / "uk" / "guide.html")
    assert f'<link rel="canonical" href="{BASE_URL}uk/guide.html">' in html
    assert '<meta name="description" content="Як перенести код CUDA на HIP">' in html
    assert '<meta property="og:locale" content="uk_UA">' in html
    alternates = re.findall(r'og:locale:alternate" content="([^"]+)"', html)
    assert alternates == ["ru_RU", "en_US", "de_DE"]
    assert f'<meta property="og:url" content="{BASE_URL}uk/guide.html">' in html


def test_each_article_has_a_table_of_contents_of_its_sections(scenario):
    html = read(site_of(scenario) / "en" / "guide.html")
    toc = html[html.index('<details class="toc">'):html.index("</details>")]
    assert re.findall(r'href="#([^"]+)">([^<]+)<', toc) == [
        ("how-it-works", "How it works"), ("results", "Results"), ("measurements", "Measurements")]
    assert '<h2 id="how-it-works">' in html


def test_the_interface_speaks_the_language_of_the_page(scenario):
    site = site_of(scenario)
    assert ">Усі статті<" in read(site / "uk" / "guide.html")
    assert ">Alle Artikel<" in read(site / "de" / "guide.html")
    assert ">All articles<" in read(site / "en" / "guide.html")
    assert ">Все статьи<" in read(site / "ru" / "guide.html")
    assert "<h1>Статьи и переводы</h1>" in read(site / "index.html")


def test_without_base_url_links_are_relative_and_no_sitemap_is_written(tmp_path):
    project = make_scenario(tmp_path)
    source = (tmp_path / "pyproject.toml").read_text("utf-8")
    (tmp_path / "pyproject.toml").write_text(
        "\n".join(ln for ln in source.splitlines() if not ln.startswith("base-url")) + "\n")
    project = Project(load_config(tmp_path))
    report = publish_site(project, tmp_path / "site", PublishOptions(search=False))
    assert any("no base-url" in note for note in report.notes)
    assert not (tmp_path / "site" / "sitemap.xml").exists()
    html = read(tmp_path / "site" / "en" / "guide.html")
    assert '<link rel="alternate" hreflang="de" href="../de/guide.html">' in html
    assert "canonical" not in html


def test_base_url_must_be_an_absolute_web_address(tmp_path):
    make_scenario(tmp_path)
    path = tmp_path / "pyproject.toml"
    path.write_text(path.read_text("utf-8").replace(BASE_URL, "example.org/docs"), "utf-8")
    with pytest.raises(Exception, match=r"pyproject.toml:6: base-url 'example.org/docs' must be"):
        load_config(tmp_path)


def test_output_is_byte_reproducible_with_search(tmp_path):
    project = make_scenario(tmp_path / "p")
    publish_site(project, tmp_path / "one")
    publish_site(project, tmp_path / "two")
    one = {p.relative_to(tmp_path / "one"): p.read_bytes() for p in (tmp_path / "one").rglob("*")
           if p.is_file()}
    two = {p.relative_to(tmp_path / "two"): p.read_bytes() for p in (tmp_path / "two").rglob("*")
           if p.is_file()}
    assert one == two


def test_publishing_refuses_an_unconfigured_locale(tmp_path):
    project = make_scenario(tmp_path)
    with pytest.raises(ValueError, match=r"locale 'it' is not configured"):
        publish_site(project, tmp_path / "site", PublishOptions(locales=("it",)))
    assert not (tmp_path / "site").exists()


def test_a_configured_variant_pattern_is_used(tmp_path):
    project = make_scenario(tmp_path, extra_config='localized-assets = "{locale}/{name}"\n')
    images = tmp_path / "seeds" / "images"
    (images / "uk").mkdir()
    for name in ("hip-flow", "chart"):
        (images / f"{name}.uk.png").rename(images / "uk" / f"{name}.png")
    fill(project, "uk", {'![График](images/chart.png "Ускорение")':
                         '![Графік](images/uk/chart.png "Прискорення")'})
    result = run_publish(tmp_path)
    assert result.exit_code == 0 and "not published: uk/guide" not in result.output, result.output
    uk = read(site_of(tmp_path) / "uk" / "guide.html")
    assert 'src="../assets/seeds/images/uk/hip-flow.png"' in uk
    assert 'src="../assets/seeds/images/uk/chart.png"' in uk


@pytest.mark.parametrize("pattern, message", [
    ("{stem}{suffix}", "must name a file beside the original and contain {locale}"),
    ("{stem}.{lang}{suffix}", "unknown placeholder 'lang'"),
    ("../{locale}/{name}", "must name a file beside the original"),
])
def test_a_bad_variant_pattern_is_an_error_at_its_line(tmp_path, pattern, message):
    (tmp_path / "pyproject.toml").write_text(
        f'[tool.tolmach]\nlocales = ["uk"]\nlocalized-assets = "{pattern}"\n', "utf-8")
    with pytest.raises(Exception, match=r"pyproject.toml:3: localized-assets") as caught:
        load_config(tmp_path)
    assert message in str(caught.value)


def test_a_link_inside_the_site_leading_out_is_refused_before_anything_is_written(tmp_path):
    make_scenario(tmp_path / "p")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    site = site_of(tmp_path / "p")
    site.mkdir(parents=True)
    (site / "de").symlink_to(elsewhere, target_is_directory=True)
    result = run_publish(tmp_path / "p")
    assert result.exit_code == 1
    assert "a symbolic link" in result.output and "output/site/de" in result.output
    assert sorted(p.name for p in site.iterdir()) == ["de"] and not any(elsewhere.iterdir())
