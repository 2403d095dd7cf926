"""The tricks of issue 12 through the commands a translator and a publisher run.

A catalog carries a carriage return in a heading, a blank line and a table in a list
item, indented code in a quote, a ``|`` in a header cell and a backslash ending a link
title. Before the build verified what it writes, ``check`` passed it, ``build --strict``
wrote it and ``publish`` put a second ``<h1>`` and a table inside an ``<li>`` on the page.
"""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from click.testing import CliRunner

from tolmach.catalog.pofile import read_po
from tolmach.cli import cli
from tolmach.markdown.compare import same_structure

ARTICLE = """# Заголовок

- Пункт списка
- Второй пункт

> Цитата из доклада

| Флаг | Значение |
|---|---|
| a | b |

См. [документацию][r].

[r]: https://rocm.docs.amd.com "Документация"
"""
SOURCE = "seeds/article.ru.md"
CATALOG = "locales/en/LC_MESSAGES/article.po"
HOSTILE = {
    "Заголовок": "Heading one\r# Injected heading",
    "Пункт списка": "List item\n\n| x | y |\n|---|---|",
    "Второй пункт": "Second item",
    "Цитата из доклада": "A quote\n\n    indented code",
    "Флаг": "Flag | x",
    "Значение": "Value",
    "См. [документацию][r].": "See the [docs][r].",
    "Документация": "Docs\\",
}
REJECTED = ("Пункт списка", "Цитата из доклада", "Флаг")


def run(root: Path, *args: str, code: int = 0):
    result = CliRunner().invoke(cli, ["-C", str(root), *args], catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.tolmach]\nsource-locale = "ru"\nlocales = ["en"]\n', "utf-8"
    )
    (tmp_path / "seeds").mkdir()
    (tmp_path / SOURCE).write_text(ARTICLE, "utf-8")
    run(tmp_path, "extract")
    run(tmp_path, "update")
    po = polib.pofile(str(tmp_path / CATALOG))
    for entry in po:
        entry.msgstr = HOSTILE.get(entry.msgid, entry.msgid)
    po.save()
    return tmp_path


def entry_line(root: Path, msgid: str) -> int:
    """The line ``tolmach`` names for an entry (its reader's, as in every message)."""
    return next(e.linenum for e in read_po(root / CATALOG) if e.msgid == msgid)


def source_line(msgid: str) -> int:
    return next(n for n, line in enumerate(ARTICLE.splitlines(), 1) if msgid in line)


def test_check_names_every_trick_at_its_entry_and_source_line(project):
    output = run(project, "check", code=1).output
    for msgid in REJECTED:
        expected = f"{CATALOG}:{entry_line(project, msgid)}: error: [structure] {SOURCE}:{source_line(msgid)}:"
        assert expected in output, output
    assert f"{CATALOG}:{entry_line(project, 'Заголовок')}: error: [line-breaks] carriage return" in output


def test_strict_build_refuses_the_document(project):
    output = run(project, "build", "--strict", code=1).output
    assert not (project / "output" / "en" / "article.md").exists()
    for msgid in REJECTED:
        assert f"{CATALOG}:{entry_line(project, msgid)}: {SOURCE}:{source_line(msgid)}:" in output
    assert "the document is not written" in output


def test_build_falls_back_to_the_source_for_each_offender_and_says_so(project):
    output = run(project, "build").output
    built = (project / "output" / "en" / "article.md").read_text("utf-8")
    assert same_structure(ARTICLE, built)
    for msgid in REJECTED:
        line = f"{CATALOG}:{entry_line(project, msgid)}: {SOURCE}:{source_line(msgid)}: the translation changes the structure"
        assert line in output and "the source text is used" in output
        assert msgid in built
    assert f"{CATALOG}:{entry_line(project, 'Заголовок')}: {SOURCE}:1: carriage return" in output
    assert built.startswith("# Heading one # Injected heading\n")
    assert "Second item" in built and "See the [docs][r]." in built and "Value" in built
    assert '"Docs\\\\"' in built  # the backslash escaped: the definition still holds


def test_publish_shows_the_source_structure(project):
    run(project, "publish")
    page = (project / "output" / "site" / "en" / "article.html").read_text("utf-8")
    body = page[page.index("<article") :]
    assert len(re.findall(r"<h1\b", body)) == 1
    assert len(re.findall(r"<table\b", body)) == 1 and len(re.findall(r"<th\b", body)) == 2
    assert "<pre" not in body
    assert re.search(r"<li[^>]*>(?:(?!</li>).)*<table", body, re.S) is None
    assert 'href="https://rocm.docs.amd.com"' in body


def test_single_file_build_verifies_too(project, tmp_path):
    out = tmp_path / "out.md"
    src, po = project / SOURCE, project / CATALOG
    result = run(project, "build", str(src), "--po", str(po), "-o", str(out))
    assert same_structure(ARTICLE, out.read_text("utf-8"))
    assert result.output.count("the source text is used") == len(REJECTED)
    strict_out = tmp_path / "strict.md"
    result = run(project, "build", str(src), "--po", str(po), "-o", str(strict_out), "--strict", code=1)
    assert not strict_out.exists()
    assert result.output.count("the document is not written") == len(REJECTED)
