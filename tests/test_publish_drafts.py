"""Pass 1 of publish renders each article once and keeps it as a draft for pass 2.

Pass 1 needs the rendered article anyway (its destinations and heading ids); pass 2
used to parse, build and render the same article again only to put the resolved links
in. A draft keeps a placeholder where each destination goes; pass 2 puts the resolved
destination in, escaped as the renderer escapes an attribute. The pages must be the
bytes that rendering from scratch gives — that is what a publish whose pass 1 came from
the cache does — for links between documents, fragments, images, query strings with
``&`` and ``"``, and partly translated pages whose untranslated passages are marked.

Drafts lie many to a file (a file each cost a millisecond to make and remove on some
disks), and a draft keeps only what pass 2 puts around the article; one that cannot be
read whole is made again from scratch.
"""

from __future__ import annotations

from pathlib import Path

from publish_scenario import extracted_and_filled

from tolmach import pseudo_translate
from tolmach.config import load_config
from tolmach.project import Project
from tolmach.publish import PublishOptions, publish_site
from tolmach.publish import drafts as drafts_module
from tolmach.publish import site as site_module
from tolmach.publish.drafts import DraftFile, read_draft

GUIDE = """# Руководство

Смотрите [новости](news.md#итоги) и [внешнюю страницу](https://example.org/a?x=1&y="2").

![Схема](diagram.png "Схема узла")

## Итоги раздела

Второй абзац со ссылкой на [начало](#руководство).

Третий абзац остаётся без перевода.
"""
NEWS = """# Новости

## Итоги

Короткая заметка, ссылка на [руководство](guide.md).
"""


def make_project(root: Path) -> Project:
    docs = root / "docs"
    docs.mkdir(parents=True)
    (docs / "guide.md").write_text(GUIDE, "utf-8")
    (docs / "news.md").write_text(NEWS, "utf-8")
    (docs / "diagram.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(64))
    (root / "pyproject.toml").write_text(
        '[tool.tolmach]\nsource-locale = "ru"\nlocales = ["de"]\ndocuments = ["docs/*.md"]\n'
        "search = false\n", "utf-8")

    def fill(entry) -> None:
        if "без перевода" not in entry.msgid:
            entry.msgstr = pseudo_translate(entry.msgid)

    return extracted_and_filled(root, fill)


def site_bytes(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes()
            for p in sorted(site.rglob("*")) if p.is_file()}


def test_pages_from_drafts_are_the_bytes_of_pages_rendered_again(tmp_path, monkeypatch):
    project = make_project(tmp_path / "project")
    from_drafts = tmp_path / "from-drafts"
    publish_site(project, from_drafts, PublishOptions(threshold=0.0))
    drafts_used = []
    real = site_module._Publisher._draft

    def counted(self, doc, code):
        found = real(self, doc, code)
        drafts_used.append(found is not None)
        return found

    monkeypatch.setattr(site_module._Publisher, "_draft", counted)
    again = tmp_path / "again"
    publish_site(Project(load_config(tmp_path / "project")), again, PublishOptions(threshold=0.0))
    assert drafts_used and all(drafts_used)  # every page of a fresh judgement had its draft

    monkeypatch.setattr(site_module._Publisher, "_draft", lambda self, doc, code: None)
    rendered = tmp_path / "rendered"
    publish_site(Project(load_config(tmp_path / "project")), rendered, PublishOptions(threshold=0.0))

    pages = site_bytes(from_drafts)
    assert pages == site_bytes(rendered)
    page = pages["de/guide.html"].decode()
    assert 'href="https://example.org/a?x=1&amp;y=%222%22"' in page
    assert 'lang="ru"' in page  # the untranslated passage is marked as the original's
    assert "tolmachlink" not in "".join(p.decode("utf-8", "replace") for p in pages.values())
    assert not (tmp_path / "project" / site_module.DRAFTS).exists()  # removed after the run


def test_drafts_lie_many_to_a_file_each_found_by_its_place(tmp_path, monkeypatch):
    monkeypatch.setattr(drafts_module, "FILE_BYTES", 2_000)
    drafts = DraftFile(tmp_path / "drafts")
    kept = {n: drafts.add({"page": n, "html": "<p>" + "слово " * 100 + "</p>"}) for n in range(9)}
    drafts.close()
    files = sorted(p.name for p in (tmp_path / "drafts").iterdir())
    assert 1 < len(files) < len(kept)  # a new file once one holds FILE_BYTES: not one per draft
    assert sorted({at.file for at in kept.values()}) == files
    for number, at in kept.items():
        assert read_draft(tmp_path / "drafts", at)["page"] == number


def test_a_draft_cut_short_or_gone_is_read_as_missing(tmp_path):
    drafts = DraftFile(tmp_path / "drafts")
    first, second = drafts.add(["first"] * 100), drafts.add(["second"] * 100)
    drafts.close()
    path = tmp_path / "drafts" / first.file
    path.write_bytes(path.read_bytes()[: second.offset + second.length // 2])
    assert read_draft(tmp_path / "drafts", first) == ["first"] * 100
    assert read_draft(tmp_path / "drafts", second) is None
    path.unlink()
    assert read_draft(tmp_path / "drafts", first) is None


def test_a_draft_keeps_what_goes_around_the_article_not_what_judged_it(tmp_path, monkeypatch):
    project = make_project(tmp_path / "project")
    kept = []
    real = DraftFile.add

    def add(self, draft):
        kept.append(draft[0])
        return real(self, draft)

    monkeypatch.setattr(DraftFile, "add", add)
    publish_site(project, tmp_path / "site", PublishOptions(threshold=0.0))
    translated = next(page for page in kept if page.language.code == "de")
    assert translated.title and translated.progress is not None
    assert (translated.markdown, translated.passages, translated.catalog_findings) == ("", (), ())
