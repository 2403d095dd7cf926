"""The scenario's site in headless Chromium: a phone-sized screen, the basics a
Lighthouse audit looks at, and Pagefind search in every language.

Skipped without Chromium (with a hint), failed under CI.
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest
from publish_scenario import make_scenario
from test_publish_browser import _browser_available, console_errors, js

from tolmach.config import load_config
from tolmach.project import Project
from tolmach.publish import PublishOptions, publish_site
from tolmach.publish.preview import serve_directory
from tolmach.publish.screenshots import chromium, set_viewport

PHONE = 390
REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def browser():
    _browser_available()
    with chromium(PHONE, 844) as driver:
        yield driver


@pytest.fixture(scope="module")
def scenario_site(tmp_path_factory):
    """The scenario published with a search chunk of one page: each language's index
    lies in several bundles, which its search page merges."""
    root = tmp_path_factory.mktemp("scenario-browser")
    project = make_scenario(root, extra_config="search-chunk-pages = 1\n")
    site = root / "site"
    publish_site(project, site)
    with serve_directory(site) as base:
        yield base, site


def pages_of(site: Path) -> list[str]:
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html")
                  if "pagefind" not in p.relative_to(site).parts)


def test_the_index_fits_a_phone_and_shows_every_language(browser, scenario_site):
    base, _ = scenario_site
    set_viewport(browser, PHONE, 844)
    browser.get(base + "index.html")
    assert js(browser, "return document.documentElement.scrollWidth") <= PHONE
    chips = js(browser, """return [...document.querySelectorAll('.version')].map(e => {
        const r = e.getBoundingClientRect();
        return [e.textContent.trim().split(/\\s+/)[0], r.left >= 0 && r.right <= innerWidth,
                getComputedStyle(e).visibility];
    })""")
    assert len(chips) == 2 * 5  # two articles × (the original + four locales)
    assert all(inside and visible == "visible" for _, inside, visible in chips), chips


def settle_images(browser) -> None:
    """Wait until every image of the page has loaded or failed: on a busy machine the
    page is measured before a slow image arrives, which is not a broken image."""
    browser.set_script_timeout(30)
    browser.execute_async_script("""const done = arguments[arguments.length - 1];
        Promise.allSettled([...document.images].map(i => i.decode())).then(() => done());""")


def test_lighthouse_basics_on_every_page(browser, scenario_site):
    """lang, a title, a meta description, a viewport, alt text, no console errors and no
    sideways scrolling on a 390-pixel screen, for every page of the site."""
    base, site = scenario_site
    set_viewport(browser, PHONE, 844)
    console_errors(browser)
    problems = []
    for page in pages_of(site):
        browser.get(base + page)
        settle_images(browser)
        facts = js(browser, """return {
            lang: document.documentElement.lang,
            title: document.title.trim(),
            description: document.querySelector('meta[name=description]')?.content || '',
            viewport: !!document.querySelector('meta[name=viewport]'),
            imagesWithoutAlt: [...document.images].filter(i => !i.alt).length,
            brokenImages: [...document.images].filter(i => !i.complete || !i.naturalWidth).length,
            width: document.documentElement.scrollWidth,
        }""")
        expected_lang = {"en": "en", "de": "de", "uk": "uk"}.get(page.split("/")[0])
        if not facts["lang"] or (expected_lang and facts["lang"] != expected_lang):
            problems.append((page, "lang", facts["lang"]))
        for key in ("title", "viewport"):
            if not facts[key]:
                problems.append((page, key))
        if not facts["description"] and not page.startswith("search/"):
            problems.append((page, "description"))
        if facts["imagesWithoutAlt"] or facts["brokenImages"]:
            problems.append((page, "images", facts))
        if facts["width"] > PHONE:
            problems.append((page, "scrolls sideways", facts["width"]))
        errors = console_errors(browser)
        if errors:
            problems.append((page, "console", errors))
    assert not problems, "\n".join(map(str, problems))
    assert len(pages_of(site)) >= 15


SEARCHES = [
    ("ru", "перенос", "ru/guide.html"),
    ("en", "porting", "en/guide.html"),
    ("de", "Leitfaden", "de/guide.html"),
    ("uk", "перенесення", "uk/guide.html"),
    ("en", "inference", "en/news.html"),
]


@pytest.mark.parametrize("code, query, expected", SEARCHES)
def test_search_finds_the_article_in_its_language(browser, scenario_site, code, query, expected):
    base, _ = scenario_site
    assert search(browser, base, code, query) == [expected]


def test_search_finds_a_word_that_only_a_merged_bundle_holds(browser, scenario_site):
    """The English index is in two bundles: the word of the page in the second one (not
    the bundle the search page opens, one merged into it) is found, and only that page."""
    base, site = scenario_site
    html = (site / "search" / "en.html").read_text("utf-8")
    bundles = re.search(r'data-bundles="([^"]+)"', html).group(1).split()
    assert len(bundles) == 2
    words = {"en/guide.html": "porting", "en/news.html": "inference"}
    (merged,) = pages_indexed(site / "search" / bundles[1])
    assert search(browser, base, "en", words[merged]) == [merged]


def test_the_search_page_loads_every_bundle_before_the_reader_types(browser, scenario_site):
    """Loading a bundle (its module, worker and WebAssembly) is most of a first search over
    several bundles, so the page starts on all of them when it opens."""
    from selenium.webdriver.support.ui import WebDriverWait

    base, site = scenario_site
    html = (site / "search" / "en.html").read_text("utf-8")
    bundles = re.search(r'data-bundles="([^"]+)"', html).group(1).split()
    console_errors(browser)
    browser.get(f"{base}search/en.html")
    # Each bundle's own worker (which then fetches its index and WebAssembly itself).
    wanted = [f"pagefind/{bundle.split('pagefind/')[1]}pagefind-worker.js" for bundle in bundles]

    def fetched(driver):
        names = js(driver, "return performance.getEntriesByType('resource').map(e => e.name)")
        return all(any(name.endswith(entry) for name in names) for entry in wanted)

    WebDriverWait(browser, 20).until(fetched)
    assert js(browser, "return document.querySelector('.pagefind-ui__search-input').value") == ""
    assert console_errors(browser) == []


@pytest.fixture(scope="module")
def one_bundle_site(tmp_path_factory):
    """The same scenario as published by default: one bundle per language."""
    root = tmp_path_factory.mktemp("scenario-one-bundle")
    site = root / "site"
    publish_site(make_scenario(root), site)
    assert len(list((site / "pagefind").glob("en-*"))) == 1
    with serve_directory(site) as base:
        yield base


# A word, a beginning of one, a misspelt one (Pagefind falls back to the longest indexed
# word it begins with), two words, and a word only the other page of the language holds.
SAME_AS_ONE_INDEX = [("en", "inference"), ("en", "infer"), ("en", "inferencz"),
                     ("en", "introduc"), ("en", "rocm inference"), ("en", "porting code"),
                     ("de", "Inferenz"), ("de", "Leitfaden"), ("ru", "перенос")]


@pytest.mark.parametrize("code, query", SAME_AS_ONE_INDEX)
def test_search_over_merged_bundles_finds_what_one_index_finds(
        browser, scenario_site, one_bundle_site, code, query):
    base, _ = scenario_site
    one = search(browser, one_bundle_site, code, query)
    assert one and search(browser, base, code, query) == one


def pages_indexed(bundle: Path) -> list[str]:
    """The pages a bundle holds, read from its fragments (gzip, then Pagefind's marker)."""
    pages = []
    for fragment in sorted((bundle / "fragment").iterdir()):
        text = gzip.decompress(fragment.read_bytes()).decode("utf-8").removeprefix("pagefind_dcd")
        pages.append(json.loads(text)["url"].lstrip("/"))
    return pages


def test_search_finds_a_chinese_article_by_a_chinese_word(browser, tmp_path):
    """Pagefind's extended build segments Chinese, so a word inside a sentence is found."""
    project = Project(load_config(REPO))
    site = tmp_path / "site"
    publish_site(project, site, PublishOptions(review=None))
    with serve_directory(site) as base:
        assert search(browser, base, "zh_CN", "推理") == ["zh_CN/rocm7.html"]
        assert search(browser, base, "de", "Inferenz") == ["de/rocm7.html"]  # only the ROCm article


def search(browser, base: str, code: str, query: str) -> list[str]:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    console_errors(browser)
    browser.get(f"{base}search/{code}.html")
    box = WebDriverWait(browser, 20).until(
        lambda d: d.find_element(By.CSS_SELECTOR, ".pagefind-ui__search-input"))
    box.send_keys(query)
    WebDriverWait(browser, 20).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, ".pagefind-ui__result-link")
        or d.find_elements(By.CSS_SELECTOR, ".pagefind-ui__message"))
    links = WebDriverWait(browser, 20).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, ".pagefind-ui__result-link"))
    hrefs = [link.get_attribute("href").removeprefix(base).split("#")[0] for link in links]
    assert console_errors(browser) == []
    return sorted(set(hrefs))
