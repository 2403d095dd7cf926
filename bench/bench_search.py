"""What a reader waits for on a search page: the first and a second search, in Chromium.

Usage:  .venv/bin/python bench/bench_search.py SITE [SITE ...] [--runs 3] [--pause 1.5]

Each SITE is a published site folder (``output/site``), e.g. one published with
``search-chunk-pages = 0`` (one bundle per language) beside one with the default chunks.
Each is served over HTTP and searched in a fresh headless Chromium: the search page is
opened, the first query typed ``--pause`` seconds after the box appears (0: at once, before
the bundles had time to load), the time until the first result shows is taken; then the
box is cleared and a second query typed. Medians over ``--runs``; the figures include
Pagefind UI's own wait after a keystroke (300 ms). Needs the test extras (selenium) and a
Chromium with its driver, as the browser tests do.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

# (language, first query, second query): words of the javascript.info articles.
QUERIES = [("ru", "замыкание", "прототип"), ("en", "function", "closure"), ("de", "Funktion", "Objekt")]


def result_links(driver) -> list:
    from selenium.webdriver.common.by import By

    return driver.find_elements(By.CSS_SELECTOR, ".pagefind-ui__result-link")


def timed_query(driver, box, query: str) -> float:
    from selenium.webdriver.support.ui import WebDriverWait

    start = time.perf_counter()
    box.send_keys(query)
    WebDriverWait(driver, 60, poll_frequency=0.02).until(result_links)
    return time.perf_counter() - start


def searches(driver, base: str, code: str, first: str, second: str, pause: float) -> tuple[float, float]:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(f"{base}search/{code}.html")
    box = WebDriverWait(driver, 60).until(
        lambda d: d.find_element(By.CSS_SELECTOR, ".pagefind-ui__search-input"))
    time.sleep(pause)
    opening = timed_query(driver, box, first)
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(Keys.BACKSPACE)
    WebDriverWait(driver, 60, poll_frequency=0.02).until(lambda d: not result_links(d))
    return opening, timed_query(driver, box, second)


def bundles_of(site: Path, code: str) -> int:
    return sum(1 for p in (site / "pagefind").glob(f"{code}-*-of-*") if p.is_dir())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sites", nargs="+", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pause", type=float, default=0.0,
                        help="seconds between the box appearing and the first keystroke")
    args = parser.parse_args()
    missing = [s for s in args.sites if not (s / "search").is_dir()]
    if missing:
        parser.error(f"{missing[0]}: no search/ folder: not a site published with search")

    from tolmach.publish.preview import serve_directory
    from tolmach.publish.screenshots import chromium

    times: dict[tuple[Path, str], list[tuple[float, float]]] = {}
    for _ in range(args.runs):
        for site in args.sites:  # alternated, so a change of load hits both alike
            with serve_directory(site) as base, chromium() as driver:
                for code, first, second in QUERIES:
                    times.setdefault((site, code), []).append(
                        searches(driver, base, code, first, second, args.pause))
    print(f"| site | language | bundles | first search (median of {args.runs}) | second search |")
    print("|---|---|---:|---:|---:|")
    for (site, code), samples in times.items():
        first = statistics.median(s[0] for s in samples)
        second = statistics.median(s[1] for s in samples)
        print(f"| {site} | {code} | {bundles_of(site, code)} | {first:.2f} s | {second:.2f} s |")


if __name__ == "__main__":
    main()
