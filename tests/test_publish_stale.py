"""Publish removes what it wrote before and no longer makes, and nothing else.

The site folder keeps a manifest (``.tolmach-manifest``) of the files the last publish
made; a removed document or locale, feeds and ``sitemap.xml`` after ``base-url`` is
gone, the search index after search is switched off: all removed on the next run. A
file someone else put into the folder is never touched.
"""

from __future__ import annotations

import os
from pathlib import Path

import polib
import pytest
from publish_scenario import extracted_and_filled

from tolmach import pseudo_translate
from tolmach.config import load_config
from tolmach.project import Project
from tolmach.publish import PublishOptions, publish_site
from tolmach.publish.manifest import MANIFEST, read_manifest
from tolmach.publish.search import search_available

DOCS = {"guide": "# Руководство\n\nПервый абзац.\n", "news": "# Новости\n\nКороткая заметка.\n"}
USER_FILES = ("CNAME", "de/custom.html", "assets/mine.png", "feeds/extra.xml", "articles/about.html")


def configure(root: Path, locales=("de", "en"), base_url: str | None = None,
              search: bool = False) -> Project:
    quoted = ", ".join(f'"{code}"' for code in locales)
    base = f'base-url = "{base_url}"\n' if base_url else ""
    (root / "pyproject.toml").write_text(
        f'[tool.tolmach]\nsource-locale = "ru"\nlocales = [{quoted}]\ndocuments = ["docs/*.md"]\n'
        f'search = {"true" if search else "false"}\n{base}', "utf-8")

    def fill(entry) -> None:
        entry.msgstr = entry.msgstr or pseudo_translate(entry.msgid)

    return extracted_and_filled(root, fill)


def make(root: Path, **settings) -> Project:
    (root / "docs").mkdir(parents=True)
    for name, text in DOCS.items():
        (root / "docs" / f"{name}.md").write_text(text, "utf-8")
    return configure(root, **settings)


def files_of(site: Path) -> set[str]:
    return {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}


def add_user_files(site: Path) -> None:
    for name in USER_FILES:
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text("not tolmach's\n", "utf-8")


def publish(project: Project):
    return publish_site(project, options=PublishOptions())


@pytest.fixture
def root(tmp_path) -> Path:
    return tmp_path / "project"


def test_the_manifest_lists_what_was_written(root):
    report = publish(make(root))
    site = root / "output" / "site"
    listed = read_manifest(site)
    assert listed == files_of(site) - {MANIFEST}
    assert {"ru/guide.html", "de/news.html", "en/guide.html", "index.html", "site.css"} <= listed
    assert len(report.published) == 6
    assert (site / MANIFEST).read_text("utf-8").startswith("# Written by `tolmach publish`")


def test_a_removed_document_takes_its_pages_with_it(root):
    publish(make(root))
    site = root / "output" / "site"
    add_user_files(site)
    (root / "docs" / "news.md").unlink()
    report = publish(configure(root))
    left = files_of(site)
    assert not {name for name in left if name.endswith("/news.html")}, left
    assert {site / f"{code}/news.html" for code in ("ru", "de", "en")} <= set(report.removed)
    assert {"ru/guide.html", "de/guide.html", *USER_FILES} <= left
    assert "news" not in (site / "articles" / "de.html").read_text("utf-8")


def test_a_removed_locale_takes_its_pages_and_lists_with_it(root):
    publish(make(root))
    site = root / "output" / "site"
    add_user_files(site)
    (site / "en" / "mine.html").write_text("someone's page\n", "utf-8")
    publish(configure(root, locales=("de",)))
    left = files_of(site)
    assert not {"en/guide.html", "en/news.html", "articles/en.html"} & left
    assert "en/mine.html" in left, "a file tolmach did not write stays"
    assert {"de/guide.html", "articles/de.html", *USER_FILES} <= left


def test_feeds_and_sitemap_go_when_base_url_goes(root):
    publish(make(root, base_url="https://example.org/docs/"))
    site = root / "output" / "site"
    assert {"sitemap.xml", "feeds/ru.xml", "feeds/de.xml", "feeds/en.xml"} <= files_of(site)
    add_user_files(site)
    report = publish(configure(root))
    left = files_of(site)
    assert not {"sitemap.xml", "feeds/ru.xml", "feeds/de.xml", "feeds/en.xml"} & left
    assert site / "sitemap.xml" in report.removed
    assert {*USER_FILES} <= left, "feeds/extra.xml is not tolmach's"


def test_a_page_withheld_later_is_removed(root):
    publish(make(root))
    site = root / "output" / "site"
    path = root / "locales" / "de" / "LC_MESSAGES" / "news.po"
    po = polib.pofile(str(path), wrapwidth=0)
    for entry in po:
        entry.msgstr = ""
    po.save()
    publish(Project(load_config(root)))
    assert not (site / "de" / "news.html").exists()
    assert (site / "en" / "news.html").is_file()


def test_a_site_without_a_manifest_is_swept_by_tolmachs_names_only(root):
    publish(make(root))
    site = root / "output" / "site"
    (site / MANIFEST).unlink()  # as an older tolmach left it
    add_user_files(site)
    (root / "docs" / "news.md").unlink()
    publish(configure(root))
    left = files_of(site)
    assert not {name for name in left if name.endswith("/news.html")}
    assert {*USER_FILES} <= left
    assert read_manifest(site) == left - {MANIFEST, *USER_FILES}


def test_a_manifest_cannot_lead_out_of_the_site(root):
    publish(make(root))
    site = root / "output" / "site"
    outside = root / "precious.txt"
    outside.write_text("keep me\n", "utf-8")
    with (site / MANIFEST).open("a", encoding="utf-8") as handle:
        handle.write("../../precious.txt\n/etc/hostname\n")
    publish(configure(root))
    assert outside.read_text("utf-8") == "keep me\n"


def test_reviewer_pages_of_a_removed_locale_are_removed(root):
    project = make(root)
    review = root / "output" / "review"
    publish_site(project, options=PublishOptions(review=review))
    assert (review / "en" / "guide.html").is_file()
    (review / "notes.txt").write_text("a reviewer's notes\n", "utf-8")
    publish_site(configure(root, locales=("de",)), options=PublishOptions(review=review))
    assert not (review / "en").exists()
    assert (review / "de" / "guide.html").is_file() and (review / "notes.txt").is_file()


def test_the_search_index_goes_when_search_is_switched_off(root):
    if not search_available():
        if os.environ.get("CI"):
            pytest.fail("pagefind is not installed (pip install 'tolmach[search]')")
        pytest.skip("pagefind is not installed")
    publish(make(root, search=True))
    site = root / "output" / "site"
    assert (site / "pagefind").is_dir() and (site / "search.js").is_file()
    publish(configure(root, search=False))
    left = files_of(site)
    assert not (site / "pagefind").exists()
    assert not {"search.js", "search/ru.html", "search/de.html"} & left
