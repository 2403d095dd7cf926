"""Links with a fragment lead to the heading on the translated page.

A heading's id is the slug of its text, so a translated heading has another id than
the original: ``guide.md#установка`` must become ``../de/guide.html#installation`` on
the German pages, and a fragment within a page likewise. An author's ``{#id}`` is the
same in every language; a fragment naming no heading is left alone.
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import polib
import pytest

from tolmach.config import load_config
from tolmach.project import Project
from tolmach.publish import PublishOptions, publish_site

GUIDE = "# Руководство\n\n## Установка\n\nТекст установки.\n\n## Запуск {#run}\n\nТекст запуска.\n"
NEWS = ("# Новости\n\nСм. [установку](guide.md#установка), [запуск](guide.md#run), "
        "[сноску](guide.md#нет-такого) и [начало](#новости).\n")
DE = {
    "Руководство": "Leitfaden", "Установка": "Installation", "Текст установки.": "Installationstext.",
    "Запуск": "Start", "Текст запуска.": "Starttext.", "Новости": "Neuigkeiten",
    "См. [установку](guide.md#установка), [запуск](guide.md#run), [сноску](guide.md#нет-такого) "
    "и [начало](#новости).":
    "Siehe [Installation](guide.md#установка), [Start](guide.md#run), "
    "[Fußnote](guide.md#нет-такого) und [Anfang](#новости).",
}


class Hrefs(HTMLParser):
    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.hrefs: dict[str, str] = {}  # link text → href, inside the article
        self.ids: set[str] = set()
        self._open: str | None = None
        self._inside = False
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self._inside = self._inside or tag == "article"
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag == "a" and self._inside:
            self._open = attrs.get("href")

    def handle_data(self, data):
        if self._open is not None:
            self.hrefs[data] = self._open
            self._open = None


def project_with(root: Path, de_guide: bool = True) -> Project:
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "guide.md").write_text(GUIDE, "utf-8")
    (root / "docs" / "news.md").write_text(NEWS, "utf-8")
    (root / "pyproject.toml").write_text(
        '[tool.tolmach]\nsource-locale = "ru"\nlocales = ["de"]\ndocuments = ["docs/*.md"]\n'
        'dialect = "vitepress"\nsearch = false\n', "utf-8")
    project = Project(load_config(root))
    project.extract()
    project.update()
    for path in (root / "locales").rglob("*.po"):
        if path.stem == "guide" and not de_guide:
            continue
        po = polib.pofile(str(path), wrapwidth=0)
        for entry in po:
            entry.msgstr = DE[entry.msgid]
        po.save()
    return Project(load_config(root))


def links_of(root: Path, site_path: str) -> Hrefs:
    return Hrefs((root / "output" / "site" / site_path).read_text("utf-8"))


def test_a_fragment_leads_to_the_translated_heading(tmp_path):
    report = publish_site(project_with(tmp_path), options=PublishOptions(search=False))
    assert {o.site_path for o in report.published} == {
        "ru/guide.html", "ru/news.html", "de/guide.html", "de/news.html"}
    guide = links_of(tmp_path, "de/guide.html")
    assert {"installation", "run"} <= guide.ids
    news = links_of(tmp_path, "de/news.html")
    assert news.hrefs["Installation"] == "../de/guide.html#installation"
    assert news.hrefs["Start"] == "../de/guide.html#run", "an author's {#id} is kept"
    assert news.hrefs["Fußnote"].endswith("#%D0%BD%D0%B5%D1%82-%D1%82%D0%B0%D0%BA%D0%BE%D0%B3%D0%BE"), \
        "a fragment naming no heading is left as written"
    assert news.hrefs["Anfang"] == "#neuigkeiten", "a fragment within the page, too"
    assert "neuigkeiten" in news.ids
    original = links_of(tmp_path, "ru/news.html")
    assert original.hrefs["установку"] == "../ru/guide.html#%D1%83%D1%81%D1%82%D0%B0%D0%BD%D0%BE%D0%B2%D0%BA%D0%B0"


def test_a_link_to_an_unpublished_translation_keeps_the_originals_fragment(tmp_path):
    publish_site(project_with(tmp_path, de_guide=False), options=PublishOptions(search=False))
    news = links_of(tmp_path, "de/news.html")
    assert news.hrefs["Installation"] == \
        "../ru/guide.html#%D1%83%D1%81%D1%82%D0%B0%D0%BD%D0%BE%D0%B2%D0%BA%D0%B0"


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_renamed_heading_rewrites_the_pages_that_link_to_it(tmp_path, jobs):
    from tolmach.jobs.executor import RunOptions, process_pool

    pool = process_pool(jobs) if jobs > 1 else None

    def run() -> RunOptions:  # two workers: the heading ids travel to them
        return RunOptions(executor=pool, inline_below=0)

    project = project_with(tmp_path)
    publish_site(project, options=PublishOptions(search=False), run=run())
    path = tmp_path / "locales" / "de" / "LC_MESSAGES" / "guide.po"
    po = polib.pofile(str(path), wrapwidth=0)
    po.find("Установка").msgstr = "Einrichtung"
    po.save()
    publish_site(Project(load_config(tmp_path)), options=PublishOptions(search=False), run=run())
    if pool is not None:
        pool.shutdown()
    assert links_of(tmp_path, "de/news.html").hrefs["Installation"] == "../de/guide.html#einrichtung"
