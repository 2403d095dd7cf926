"""Headless Chromium: screenshots of the site, and the browser the tests drive.

Chromium comes from the system (Debian: ``apt-get install chromium chromium-driver``);
selenium talks to it through chromedriver. Both paths are given explicitly, so
selenium never tries to download a browser. The flags keep a sandboxed CI machine
without network from hanging on background requests.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from tolmach.fileio import write_atomic
from tolmach.publish.preview import serve_directory

__all__ = [
    "INSTALL_HINT",
    "BrowserMissing",
    "chromium",
    "find_chromium",
    "screenshot_targets",
    "take_screenshots",
]

INSTALL_HINT = (
    "headless Chromium is needed: install it with `apt-get install chromium chromium-driver` "
    "(Debian/Ubuntu) and `pip install selenium`, or point TOLMACH_CHROMIUM and "
    "TOLMACH_CHROMEDRIVER at the browser and its driver"
)
CHROMIUM_FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--hide-scrollbars",
    "--force-color-profile=srgb",
)
_BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


class BrowserMissing(RuntimeError):
    """Chromium, chromedriver or selenium is not available."""


def find_chromium() -> tuple[str, str] | None:
    """Paths of the browser and its driver, or None when either is missing."""
    browser = os.environ.get("TOLMACH_CHROMIUM") or next(
        (found for name in _BROWSERS if (found := shutil.which(name))), None
    )
    driver = os.environ.get("TOLMACH_CHROMEDRIVER") or shutil.which("chromedriver")
    if browser and driver and Path(browser).exists() and Path(driver).exists():
        return browser, driver
    return None


@contextmanager
def chromium(width: int = 1280, height: int = 900) -> Iterator:
    """A headless Chromium driven by selenium, with a throw-away profile.

    The browser console is recorded (read it with ``driver.get_log("browser")``).
    """
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError as exc:
        raise BrowserMissing(f"selenium is not installed; {INSTALL_HINT}") from exc
    found = find_chromium()
    if found is None:
        raise BrowserMissing(INSTALL_HINT)
    browser, driver_path = found
    with tempfile.TemporaryDirectory(prefix="tolmach-chromium-") as profile:
        options = webdriver.ChromeOptions()
        options.binary_location = browser
        for flag in (*CHROMIUM_FLAGS, f"--user-data-dir={profile}",
                     f"--window-size={width},{height}"):
            options.add_argument(flag)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver = webdriver.Chrome(options=options, service=Service(executable_path=driver_path))
        try:
            set_viewport(driver, width, height)
            yield driver
        finally:
            driver.quit()


def set_viewport(driver, width: int, height: int) -> None:
    """Exact CSS viewport size, whatever the window decorations of the platform."""
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
    )


def screenshot_targets(project, locales: Iterable[str] = (),
                       site_dir: Path | None = None) -> list[tuple[str, str]]:
    """(PNG name, site-relative URL): the index and the first article in every language;
    with ``site_dir``, only pages that were published there."""
    source = project.config.source_locale
    targets = [c for c in project.select_locales(tuple(locales)) if c != source]
    shots = [("index.png", "index.html")]
    if project.documents:
        first = project.documents[0].name
        shots += [(f"{code}-{first}.png", f"{code}/{first}.html") for code in (source, *targets)]
    if site_dir is not None:
        shots = [(name, url) for name, url in shots if (site_dir / url).is_file()]
    return shots


def take_screenshots(
    site_dir: Path,
    targets: Iterable[tuple[str, str]],
    out_dir: Path,
    *,
    width: int = 1280,
    height: int = 900,
    full_page: bool = False,
) -> list[Path]:
    """Serve ``site_dir`` on localhost and save a PNG of each target into ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    with serve_directory(site_dir) as base, chromium(width, height) as driver:
        for name, url in targets:
            driver.get(base + url)
            if full_page:
                tall = driver.execute_script("return document.documentElement.scrollHeight")
                set_viewport(driver, width, max(height, int(tall)))
            path = out_dir / name
            write_atomic(path, driver.get_screenshot_as_png())
            set_viewport(driver, width, height)
            written.append(path)
    return written
