"""Dialects in a project: settings, overrides per glob, warnings, checks, the CLI."""

from __future__ import annotations

from pathlib import Path

import polib
import pytest
from click.testing import CliRunner

from tolmach.cli import cli
from tolmach.config import load_config

VITEPRESS = """# Гайд {#guide}

::: tip Совет
Счётчик равен {{ count }}.
:::
"""

MDX = """---
sidebar_label: Боковая метка
---

import X from './x';

<Figure alt="Схема" />

Текст {props.value}.
"""


def make_project(root: Path, config: str, files: dict[str, str]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text(
        '[tool.tolmach]\nsource-locale = "ru"\nlocales = ["de"]\n' + config, "utf-8"
    )
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, "utf-8")
    return root


def run(root: Path, *args: str, code: int = 0):
    result = CliRunner().invoke(cli, ["-C", str(root), *args], catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result


def msgids(root: Path, name: str) -> list[str]:
    return [e.msgid for e in polib.pofile(str(root / "locales" / f"{name}.pot"))]


def test_a_project_dialect_and_an_override_per_glob(tmp_path):
    root = make_project(
        tmp_path,
        'documents = ["docs/*.md", "docs/*.mdx"]\ndialect = "vitepress"\n'
        '[[tool.tolmach.overrides]]\ndocuments = "docs/**/*.mdx"\ndialect = "docusaurus"\n',
        {"docs/guide.md": VITEPRESS, "docs/intro.mdx": MDX},
    )
    run(root, "extract")
    assert msgids(root, "guide") == ["Гайд", "Совет", "Счётчик равен {{ count }}."]
    # the override's preset adds its front-matter key (sidebar_label) and parses MDX
    assert msgids(root, "intro") == ["Боковая метка", "Схема", "Текст {props.value}."]
    config = load_config(root)
    assert config.settings_for("docs/intro.mdx").dialect.name == "docusaurus"
    assert config.settings_for("docs/guide.md").dialect.name == "vitepress"


def test_an_override_without_a_dialect_adjusts_the_document_s_dialect(tmp_path):
    root = make_project(
        tmp_path,
        'dialect = "gfm"\n[[tool.tolmach.overrides]]\ndocuments = "seeds/terms.md"\nsyntax = ["+deflist"]\n',
        {"seeds/terms.md": "Термин\n: Определение\n", "seeds/other.md": "Термин\n: Определение\n"},
    )
    config = load_config(root)
    assert config.settings_for("seeds/terms.md").dialect.label == "gfm +deflist"
    assert config.settings_for("seeds/other.md").dialect.label == "gfm"
    run(root, "extract")
    assert msgids(root, "terms") == ["Термин", "Определение"]
    assert msgids(root, "other") == ["Термин : Определение"]


def test_the_old_translate_html_blocks_key_still_works_as_html_text(tmp_path):
    root = make_project(
        tmp_path, "translate-html-blocks = true\n", {"seeds/a.md": '<p title="Заголовок">Текст</p>\n'}
    )
    run(root, "extract")
    assert msgids(root, "a") == ["Заголовок", "Текст"]


def test_extract_warns_where_the_dialect_misses_a_syntax(tmp_path):
    root = make_project(tmp_path, "", {"seeds/guide.md": VITEPRESS})
    result = run(root, "extract")
    assert (
        "warning: seeds/guide.md:1: looks like heading anchors ## Title {#id}" in result.output
    )
    assert 'seeds/guide.md:3: looks like ::: containers (VitePress, Docusaurus)' in result.output
    assert "(vitepress, docusaurus)" in result.output
    quiet = make_project(tmp_path / "v", 'dialect = "vitepress"\n', {"seeds/guide.md": VITEPRESS})
    assert "warning" not in run(quiet, "extract").output


def test_the_markup_check_wants_every_dialect_atom_back(tmp_path):
    root = make_project(tmp_path, 'dialect = "vitepress"\n', {"seeds/guide.md": VITEPRESS})
    run(root, "extract")
    run(root, "update")
    po_path = root / "locales" / "de" / "LC_MESSAGES" / "guide.po"
    po = polib.pofile(str(po_path))
    for entry in po:
        entry.msgstr = {"Гайд": "Anleitung", "Совет": "Tipp"}.get(entry.msgid, "Zähler ist {{ cuont }}.")
    po.save()
    result = run(root, "check", code=1)
    assert "[markup] expression changed: «{{ count }}» → «{{ cuont }}»" in result.output
    refused = run(root, "build", "--strict", code=1)
    assert "skipped de/guide" in refused.output
    assert not (root / "output" / "de" / "guide.md").exists()


@pytest.mark.parametrize("dialect", ["vitepress", "jekyll"])
def test_single_file_forms_take_a_dialect(tmp_path, dialect):
    source = tmp_path / "a.md"
    source.write_text("Значение {{ site.title }} и [ссылка](https://example.org).\n", "utf-8")
    pot, po, out = tmp_path / "a.pot", tmp_path / "a.po", tmp_path / "a.out.md"
    runner = CliRunner()
    for args in (
        ["extract", str(source), "-o", str(pot), "--dialect", dialect],
        ["pseudo", str(pot), "-o", str(po), "--dialect", dialect],
        ["build", str(source), "--po", str(po), "-o", str(out), "--dialect", dialect],
    ):
        result = runner.invoke(cli, args, catch_exceptions=False)
        assert result.exit_code == 0, result.output
    built = out.read_text("utf-8")
    assert "{{ site.title }}" in built and "(https://example.org)" in built
    assert "Значение" not in built


def test_a_bad_syntax_option_is_a_usage_error(tmp_path):
    source = tmp_path / "a.md"
    source.write_text("Текст.\n", "utf-8")
    result = CliRunner().invoke(cli, ["extract", str(source), "-o", "-", "--syntax", "deflist"])
    assert result.exit_code == 2
    assert "must be +NAME or -NAME" in result.output
