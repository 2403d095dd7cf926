"""A documentation tree is a project: documents are named by their path, not their file name.

Real docs trees (VitePress, Docusaurus, Hugo, MkDocs) are full of ``index.md``; each
gets its own catalog, output and page, mirroring the tree.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import polib
import pytest
from click.testing import CliRunner

from tolmach.cli import cli

PAGES = {
    "docs/index.md": "# Главная\n\nДобро пожаловать.\n",
    "docs/guide/index.md": "# Руководство\n\nС чего начать.\n",
    "docs/guide/intro/index.md": "# Введение\n\nПервые шаги.\n",
    "docs/guide/intro/setup.ru.md": "# Установка\n\nКоманда для установки.\n",
    "docs/api/index.mdx": "# Справочник\n\nВсе функции.\n",
}


def make_tree(root: Path, pages: dict[str, str], extra_config: str = "") -> Path:
    config = '[tool.tolmach]\nsource-locale = "ru"\nlocales = ["en", "de"]\n'
    config += 'documents = ["docs/**/*.md", "docs/**/*.mdx"]\nthreshold = 0\n' + extra_config
    (root / "pyproject.toml").write_text(config, "utf-8")
    for relpath, text in pages.items():
        path = root / relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    return root


def run(project: Path, *args: str, code: int = 0):
    result = CliRunner().invoke(cli, ["-C", str(project), *args], catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result


def translate_all(project: Path, locale: str) -> None:
    for path in (project / "locales" / locale / "LC_MESSAGES").rglob("*.po"):
        po = polib.pofile(str(path))
        for entry in po:
            entry.msgstr = f"[{locale}] {entry.msgid}"
        po.save()


def broken_links(site: Path) -> list[str]:
    """Every href/src of every page that does not lead to a file of the site."""
    broken = []
    for page in site.rglob("*.html"):
        for target in re.findall(r'(?:href|src)="([^"]+)"', page.read_text("utf-8")):
            parts = urlsplit(target)
            if parts.scheme or target.startswith(("#", "//", "data:", "mailto:")):
                continue
            resolved = (page.parent / unquote(parts.path)).resolve()
            if not resolved.is_file():
                broken.append(f"{page.relative_to(site)} → {target}")
    return broken


def test_a_tree_of_index_files_goes_end_to_end(tmp_path):
    project = make_tree(tmp_path, PAGES)
    run(project, "extract")
    templates = sorted(p.relative_to(project / "locales").as_posix() for p in (project / "locales").rglob("*.pot"))
    assert templates == [
        "api/index.pot", "guide/index.pot", "guide/intro/index.pot", "guide/intro/setup.pot", "index.pot",
    ]
    pot = polib.pofile(str(project / "locales" / "guide" / "intro" / "index.pot"))
    assert pot.metadata["Project-Id-Version"] == "guide/intro/index"
    assert pot[0].occurrences == [("docs/guide/intro/index.md", "1")]

    run(project, "update")
    translate_all(project, "de")
    run(project, "update")  # the memory now holds nested catalogs: it must read them
    run(project, "build", "-l", "de")
    assert (project / "output/de/guide/intro/index.md").read_text("utf-8").startswith("# [de] Введение")
    assert (project / "output/de/guide/intro/setup.md").is_file()
    assert (project / "output/de/api/index.mdx").is_file(), "an .mdx source gives an .mdx output"

    run(project, "publish")
    site = project / "output" / "site"
    assert (site / "de" / "guide" / "intro" / "index.html").is_file()
    assert broken_links(site) == []


def test_the_translation_memory_sees_catalogs_in_folders(tmp_path):
    pages = {"docs/a/index.md": "# Введение\n\nПервые шаги.\n"}
    project = make_tree(tmp_path, pages)
    run(project, "extract")
    run(project, "update", "-l", "de")
    translate_all(project, "de")
    (project / "docs/b").mkdir()
    (project / "docs/b/index.md").write_text("# Введение\n", "utf-8")
    run(project, "extract")
    run(project, "update", "-l", "de")
    po = polib.pofile(str(project / "locales/de/LC_MESSAGES/b/index.po"))
    assert po[0].msgstr == "[de] Введение"
    assert "a/index.po" in po[0].comment


def test_a_flat_project_keeps_its_names(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.tolmach]\nlocales = ["en"]\n', "utf-8")
    (tmp_path / "seeds").mkdir()
    (tmp_path / "seeds" / "rocm7.ru.md").write_text("# Заголовок\n", "utf-8")
    run(tmp_path, "extract")
    assert (tmp_path / "locales" / "rocm7.pot").is_file()


def test_two_roots_giving_one_name_is_an_error_that_says_what_to_do(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.tolmach]\nlocales = ["en"]\ndocuments = ["a/*.md", "b/*.md"]\n', "utf-8"
    )
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "index.md").write_text("# Заголовок\n", "utf-8")
    result = run(tmp_path, "extract", code=1)
    assert "b/index.md: document name 'index' is also the name of a/index.md" in result.output
    assert "source-root" in result.output
    assert not (tmp_path / "locales").exists()


def test_source_root_names_documents_from_one_folder(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.tolmach]\nlocales = ["en"]\ndocuments = ["a/*.md", "b/*.md"]\nsource-root = "."\n',
        "utf-8",
    )
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "index.md").write_text("# Заголовок\n", "utf-8")
    run(tmp_path, "extract")
    assert (tmp_path / "locales/a/index.pot").is_file()
    assert (tmp_path / "locales/b/index.pot").is_file()


def test_a_name_starting_with_a_locale_folder_is_refused(tmp_path):
    project = make_tree(tmp_path, {"docs/en/index.md": "# Title\n"})
    result = run(project, "extract", code=1)
    assert "would start with the locale folder 'en'" in result.output


@pytest.mark.parametrize("folder", ["output/de", ".git", "node_modules/pkg"])
def test_outputs_and_tool_folders_are_never_sources(tmp_path, folder):
    project = make_tree(tmp_path, {"docs/index.md": "# Главная\n"}, "")
    (project / "pyproject.toml").write_text(
        '[tool.tolmach]\nlocales = ["de"]\ndocuments = ["**/*.md"]\n', "utf-8"
    )
    (project / folder).mkdir(parents=True)
    (project / folder / "stray.md").write_text("# Чужой\n", "utf-8")
    run(project, "extract")
    assert sorted(p.name for p in (project / "locales").rglob("*.pot")) == ["index.pot"]
