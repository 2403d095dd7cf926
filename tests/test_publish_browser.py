"""The published site in a real browser: headless Chromium driven by selenium.

A reader opens the index, follows a link to an article and the language switcher to
another language; the page says which language and direction it is in, links its
alternates and shows the notices, and the console stays clean. Then the hostile
corpus: no vector runs and none leaves an element or attribute in the DOM.

Without Chromium these tests are skipped with a hint how to install it; under CI
(the ``CI`` environment variable set) a missing browser is a failure.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from test_publish import DE_GUIDE, hostile_project, make_project, write_catalog, xss_vectors

from tolmach.publish import PublishOptions, publish_site
from tolmach.publish.preview import Preview, serve_directory
from tolmach.publish.screenshots import (
    INSTALL_HINT,
    chromium,
    find_chromium,
    screenshot_targets,
    take_screenshots,
)


def _browser_available() -> None:
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing = "selenium is not installed"
    else:
        missing = None if find_chromium() else "Chromium or chromedriver not found"
    if missing is None:
        return
    if os.environ.get("CI"):
        pytest.fail(f"{missing} under CI: {INSTALL_HINT}")
    pytest.skip(f"{missing}; {INSTALL_HINT}")


@pytest.fixture(scope="module")
def browser():
    _browser_available()
    with chromium() as driver:
        yield driver


@pytest.fixture(scope="module")
def demo_site(tmp_path_factory):
    """The demo project of test_publish, published and served on localhost."""
    root = tmp_path_factory.mktemp("browser")
    out = root / "site"
    publish_site(make_project(root / "project"), out, DRAFTS)
    with serve_directory(out) as base:
        yield base


DRAFTS = PublishOptions(drafts=True, review=None)


def drafts_with_review(out: Path) -> PublishOptions:
    return PublishOptions(drafts=True, review=out / "review")


def console_errors(driver) -> list[str]:
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def js(driver, script: str, *args):
    return driver.execute_script(script, *args)


def test_index_article_and_language_switcher(browser, demo_site):
    from selenium.webdriver.common.by import By

    console_errors(browser)  # start with an empty log
    browser.get(demo_site + "index.html")
    assert browser.title == "Статьи и переводы"
    browser.find_element(By.CSS_SELECTOR, 'a[href="de/guide.html"]').click()

    assert browser.current_url == demo_site + "de/guide.html"
    assert js(browser, "return document.documentElement.lang") == "de"
    assert js(browser, "return document.documentElement.dir") == "ltr"
    hreflangs = js(browser, "return [...document.querySelectorAll('link[rel=alternate]')]"
                            ".map(l => l.hreflang)")
    assert hreflangs == ["ru", "en", "de", "ar", "zh-CN", "x-default"]
    partial = browser.find_element(By.CSS_SELECTOR, ".notice-partial").text
    assert "% übersetzt" in partial
    assert "Veraltete Übersetzung." in browser.find_element(By.CSS_SELECTOR, ".notice-outdated").text

    browser.find_element(By.CSS_SELECTOR, 'nav.switcher a[hreflang="ar"]').click()
    assert browser.current_url == demo_site + "ar/guide.html"
    assert js(browser, "return document.documentElement.lang") == "ar"
    assert js(browser, "return getComputedStyle(document.body).direction") == "rtl"
    current = browser.find_element(By.CSS_SELECTOR, 'nav.switcher a[aria-current="page"]')
    assert current.text == "العربية"
    assert "38% translated" in browser.find_element(By.CSS_SELECTOR, ".notice-partial").text
    fallback = browser.find_element(By.CSS_SELECTOR, "p.untranslated")
    assert js(browser, "return getComputedStyle(arguments[0]).direction", fallback) == "ltr"

    browser.find_element(By.CSS_SELECTOR, 'nav.switcher a[hreflang="en"]').click()
    assert browser.find_elements(By.CSS_SELECTOR, ".notice") == []
    assert console_errors(browser) == []


def test_the_stylesheet_applies_and_nothing_leaves_the_site(browser, tmp_path):
    out = tmp_path / "site"
    publish_site(make_project(tmp_path / "project"), out, drafts_with_review(out))
    with serve_directory(out) as base:
        _check_review_page(browser, base)


def _check_review_page(browser, demo_site: str) -> None:
    browser.get(demo_site + "review/ar/guide.html")
    font = js(browser, "return getComputedStyle(document.body).fontFamily")
    assert "system-ui" in font, "site.css did not load (Content-Security-Policy?)"
    origins = js(browser, "return performance.getEntriesByType('resource')"
                          ".map(e => new URL(e.name).origin)")
    assert set(origins) <= {demo_site.rstrip("/")}
    flagged = browser.find_elements("css selector", ".passage.error .finding.error")
    assert flagged and "numbers" in flagged[0].text
    assert console_errors(browser) == []


def test_a_page_opened_from_disk_is_styled_too(browser, tmp_path):
    out = tmp_path / "site"
    publish_site(make_project(tmp_path / "project"), out, DRAFTS)
    browser.get((out / "de" / "guide.html").as_uri())
    assert "system-ui" in js(browser, "return getComputedStyle(document.body).fontFamily")


def test_no_hostile_translation_runs_or_reaches_the_dom(browser, tmp_path):
    from selenium.common.exceptions import NoAlertPresentException

    out = tmp_path / "site"
    vectors = xss_vectors()
    publish_site(hostile_project(tmp_path / "project", vectors), out, drafts_with_review(out))
    with serve_directory(out) as base:
        console_errors(browser)
        for page in ("review/en/guide.html", "en/guide.html"):
            browser.get(base + page)
            with pytest.raises(NoAlertPresentException):
                browser.switch_to.alert.text  # noqa: B018
            assert js(browser, "return window.__xss") is None
            assert js(browser, INJECTED) == [], page
        paragraphs = js(browser, "return document.querySelectorAll('article p').length")
        assert paragraphs >= len(vectors), "every vector is shown, as text"
        assert console_errors(browser) == []


# Elements and attributes a vector could bring, and links a browser would run.
INJECTED = """
const found = [];
const forbidden = 'script, iframe, frame, object, embed, svg, math, style, base, form, input,'
  + ' button, details, noscript, img, video, audio, source, template, body *[style]';
for (const el of document.querySelectorAll(forbidden)) found.push(el.outerHTML.slice(0, 80));
for (const el of document.body.querySelectorAll('*')) {
  for (const attr of el.attributes) {
    if (/^on|^style$|^srcdoc$|^formaction$|^xlink:/i.test(attr.name))
      found.push(el.tagName + ' ' + attr.name);
  }
}
for (const el of document.querySelectorAll('[href], [src]')) {
  const url = new URL(el.getAttribute('href') || el.getAttribute('src'), location.href);
  if (!['http:', 'https:', 'mailto:', 'file:'].includes(url.protocol))
    found.push(el.tagName + ' ' + url.href);
}
const metas = [...document.querySelectorAll('meta')].map(m => m.getAttribute('http-equiv'));
if (metas.includes('refresh')) found.push('meta refresh');
return found;
"""


def test_preview_reloads_the_open_page_when_the_catalog_is_saved(browser, tmp_path):
    from selenium.webdriver.support.ui import WebDriverWait

    make_project(tmp_path / "project")
    session = Preview(tmp_path / "project", "de", tmp_path / "preview", report=lambda _: None)
    session.build()
    with serve_directory(tmp_path / "preview", version=session.version) as base:
        session.start_watching()
        try:
            console_errors(browser)
            browser.get(base + "de/guide.html")
            js(browser, "window.__before_reload = true")
            time.sleep(1)
            write_catalog(tmp_path / "project", "de", "guide",
                          DE_GUIDE | {"Второй абзац, который ещё не переведён.": "Neu übersetzt."},
                          fuzzy=("Пункт один",), missing=("Пункт два",))
            WebDriverWait(browser, 15).until(
                lambda driver: "Neu übersetzt." in driver.find_element("tag name", "article").text
            )
            assert js(browser, "return window.__before_reload") is None, "the page reloaded"
            assert console_errors(browser) == []
        finally:
            session.stop()


def test_screenshots_of_the_index_and_one_article_per_locale(tmp_path):
    _browser_available()
    project = make_project(tmp_path / "project")
    site = tmp_path / "site"
    publish_site(project, site, DRAFTS)
    targets = screenshot_targets(project, site_dir=site)
    assert [name for name, _ in targets][:6] == [
        "index.png", "ru-guide.png", "en-guide.png", "de-guide.png", "ar-guide.png",
        "zh_CN-guide.png",
    ]
    written = take_screenshots(site, targets, tmp_path / "shots", width=800, height=600)
    assert [p.name for p in written] == [name for name, _ in targets]
    for path in written:
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert Path(written[0]).stat().st_size > 5000
