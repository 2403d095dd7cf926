"""Finding the project, making one, and naming its locales: no silent success on a mistake.

Outside a project every project command says where it looked and suggests `tolmach init`
(exit 1, nothing written); `-l` must name a configured target (with a suggestion for a
near miss); BCP 47 tags (`de-DE`) name the gettext folders (`de_DE`); `tolmach locale
add` edits the settings with tomlkit and keeps every other byte.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from tolmach.cli import cli
from tolmach.config import ConfigError, canonical_locale, load_config, locale_tag

ARTICLE = "# Заголовок\n\nПервый абзац, версия 6.8.\n"
PYPROJECT = """\
# A content project.
[project]
name = "docs"   # not a Python package, really

[tool.tolmach]
source-locale = "ru"
# targets, in the order the site lists them
locales = [
    "en",  # first
    "de",
]

[tool.other]
key = 1
"""


def invoke(args: list[str], cwd: Path | None = None, input: str | None = None):
    old = Path.cwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        return CliRunner().invoke(cli, args, input=input, catch_exceptions=False)
    finally:
        os.chdir(old)


def files_in(folder: Path) -> set[Path]:
    return {p for p in folder.rglob("*")}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text(PYPROJECT, "utf-8")
    (tmp_path / "seeds").mkdir()
    (tmp_path / "seeds" / "article.ru.md").write_text(ARTICLE, "utf-8")
    return tmp_path


# --- 1. silent success where something is wrong -------------------------------------


@pytest.mark.parametrize(
    "args",
    [["extract"], ["update"], ["check"], ["build"], ["stats"], ["publish"], ["tm", "rebuild"],
     ["glossary", "list"], ["locale", "list"], ["locale", "add", "de"]],
)
def test_outside_a_project_every_command_says_where_it_looked(tmp_path, args):
    folder = tmp_path / "not-a-project" / "deeper"
    folder.mkdir(parents=True)
    (tmp_path / "not-a-project" / "pyproject.toml").write_text("[project]\nname='x'\n", "utf-8")
    before = files_in(tmp_path)
    result = invoke(args, cwd=folder)
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert str(folder) in lines[0] and "tolmach init" in lines[0]
    assert files_in(tmp_path) == before  # no output/site, no .tolmach-cache


def test_the_project_is_found_from_a_subfolder(project):
    sub = project / "seeds"
    result = invoke(["extract"], cwd=sub)
    assert result.exit_code == 0, result.output
    assert (project / "locales" / "article.pot").is_file()


def test_a_tolmach_toml_makes_a_project_too(tmp_path):
    (tmp_path / "tolmach.toml").write_text('source-locale = "ru"\nlocales = ["en"]\n', "utf-8")
    (tmp_path / "seeds").mkdir()
    (tmp_path / "seeds" / "a.md").write_text(ARTICLE, "utf-8")
    (tmp_path / "docs").mkdir()
    assert invoke(["extract"], cwd=tmp_path / "docs").exit_code == 0
    assert (tmp_path / "locales" / "a.pot").is_file()
    assert load_config(tmp_path).locales == ("en",)


def test_a_tolmach_toml_mistake_names_its_line(tmp_path):
    (tmp_path / "tolmach.toml").write_text('source-locale = "ru"\nthreshhold = 5\n', "utf-8")
    result = invoke(["extract"], cwd=tmp_path)
    assert result.exit_code == 1
    assert "tolmach.toml:2: unknown setting 'threshhold'" in result.output


def test_documents_that_match_nothing_are_an_error(project):
    (project / "seeds" / "article.ru.md").unlink()
    for command in (["extract"], ["update"], ["build"], ["stats"], ["check"]):
        result = invoke(["-C", str(project), *command])
        assert result.exit_code == 1, command
        assert "pyproject.toml: documents 'seeds/*.md' (the default) match no Markdown file" in (
            result.output
        )


def test_one_glob_of_several_that_matches_nothing_is_a_warning(project):
    text = PYPROJECT.replace('source-locale = "ru"', 'source-locale = "ru"\n'
                             'documents = ["seeds/*.md", "docs/**/*.mdx"]')
    (project / "pyproject.toml").write_text(text, "utf-8")
    result = invoke(["-C", str(project), "extract"])
    assert result.exit_code == 0
    assert "warning: documents pattern 'docs/**/*.mdx' matches no file" in result.output


@pytest.mark.parametrize(
    "args, message",
    [
        (["check", "-l", "fr"], "locale 'fr' is not configured (targets: en, de); "
                                "add it with `tolmach locale add fr`"),
        (["stats", "-l", "fr"], "locale 'fr' is not configured"),
        (["update", "-l", "uk"], "add it with `tolmach locale add uk`"),
        (["update", "-l", "DE"], "locale 'DE' is not configured; did you mean 'de'?"),
        (["build", "-l", "EN"], "did you mean 'en'?"),
        (["update", "-l", "ru"], "'ru' is the source locale, not a target (targets: en, de)"),
        (["publish", "-l", "ru"], "'ru' is the source locale"),
    ],
)
def test_a_locale_must_be_a_configured_target(project, args, message):
    before = files_in(project)
    result = invoke(["-C", str(project), *args])
    assert result.exit_code == 1
    assert message in result.output
    assert files_in(project) == before  # no locales/UK/, no ru catalogs


def test_a_miscased_locale_gets_the_configured_spelling_suggested(project):
    text = PYPROJECT.replace('"de",', '"zh_CN",')
    (project / "pyproject.toml").write_text(text, "utf-8")
    result = invoke(["-C", str(project), "check", "-l", "zh_cn"])
    assert result.exit_code == 1
    assert "locale 'zh_cn' is not configured; did you mean 'zh_CN'?" in result.output


# --- 2. locales: BCP 47 tags, the source locale, locale add ---------------------------


def test_bcp47_tags_name_gettext_folders_everywhere(project):
    text = PYPROJECT.replace('"de",', '"de-DE",\n    "pt_BR",')
    (project / "pyproject.toml").write_text(text, "utf-8")
    assert load_config(project).locales == ("en", "de_DE", "pt_BR")
    assert invoke(["-C", str(project), "extract"]).exit_code == 0
    result = invoke(["-C", str(project), "update", "-l", "pt-BR", "-l", "de_DE"])
    assert result.exit_code == 0, result.output
    assert (project / "locales/pt_BR/LC_MESSAGES/article.po").is_file()
    assert (project / "locales/de_DE/LC_MESSAGES/article.po").is_file()
    stats = invoke(["-C", str(project), "stats", "-l", "de-DE", "--format", "json"])
    assert '"tag": "de-DE"' in stats.output and '"locale": "de_DE"' in stats.output
    publish = invoke(["-C", str(project), "publish", "-l", "de-DE", "--threshold", "0"])
    assert publish.exit_code == 0, publish.output
    page = (project / "output/site/de_DE/article.html").read_text("utf-8")
    assert '<html lang="de-DE"' in page and 'hreflang="de-DE"' in page


def test_locale_spellings():
    assert canonical_locale("zh_cn") == "zh_CN" and canonical_locale("PT-br") == "pt_BR"
    assert locale_tag("zh_Hans_CN") == "zh-Hans-CN"


@pytest.mark.parametrize(
    "locales, message",
    [
        ('["ru", "en"]', "'ru' is the source locale; it cannot be a target as well"),
        ('["zh_cn"]', "locale 'zh_cn' is written 'zh_CN'"),
        ('["de-de"]', "locale 'de-de' is written 'de-DE'"),
        ('["en", "en"]', "locale 'en' is listed twice"),
    ],
)
def test_configured_locales_are_checked(tmp_path, locales, message):
    (tmp_path / "pyproject.toml").write_text(
        f'[tool.tolmach]\nsource-locale = "ru"\nlocales = {locales}\n', "utf-8"
    )
    with pytest.raises(ConfigError, match="pyproject.toml:3: " + message):
        load_config(tmp_path)


def test_locale_add_keeps_every_other_byte_and_makes_the_catalogs(project):
    assert invoke(["-C", str(project), "extract"]).exit_code == 0
    result = invoke(["-C", str(project), "locale", "add", "pt-BR"])
    assert result.exit_code == 0, result.output
    text = (project / "pyproject.toml").read_text("utf-8")
    assert text == PYPROJECT.replace('    "de",\n', '    "de",\n    "pt-BR",\n')
    assert "created locales/pt_BR/LC_MESSAGES/article.po: +2 new" in result.output
    assert (project / "locales/pt_BR/LC_MESSAGES/article.po").is_file()
    assert load_config(project).locales == ("en", "de", "pt_BR")


@pytest.mark.parametrize(
    "name, message",
    [
        ("ru", "'ru' is the source locale"),
        ("de", "locale 'de' is configured already"),
        ("xx_YY", "unknown locale 'xx_YY'"),
        ("PT-br", "locale 'PT-br' is written 'pt-BR'"),
    ],
)
def test_locale_add_refuses_what_is_not_a_new_target(project, name, message):
    before = (project / "pyproject.toml").read_bytes()
    result = invoke(["-C", str(project), "locale", "add", name])
    assert result.exit_code == 1 and message in result.output
    assert (project / "pyproject.toml").read_bytes() == before


def test_locale_add_works_on_tolmach_toml_without_a_locales_key(tmp_path):
    (tmp_path / "tolmach.toml").write_text('# mine\nsource-locale = "en"\n', "utf-8")
    result = invoke(["locale", "add", "fr"], cwd=tmp_path)
    assert result.exit_code == 0, result.output
    assert "no articles yet" in result.output
    text = (tmp_path / "tolmach.toml").read_text("utf-8")
    assert text.startswith('# mine\nsource-locale = "en"\n') and 'locales = ["fr"]' in text


# --- tolmach init ----------------------------------------------------------------------


def test_init_from_flags_scaffolds_a_project(tmp_path):
    result = invoke(["init", "--source-locale", "ru", "-l", "en,de-DE"], cwd=tmp_path)
    assert result.exit_code == 0, result.output
    assert load_config(tmp_path).locales == ("en", "de_DE")
    assert (tmp_path / "seeds").is_dir() and (tmp_path / "locales" / "glossary.toml").is_file()
    assert "created tolmach.toml" in result.output
    again = invoke(["init", "--source-locale", "ru"], cwd=tmp_path)
    assert again.exit_code == 1 and "a tolmach project already" in again.output


def test_init_asks_for_what_flags_do_not_say(tmp_path):
    result = invoke(["init"], cwd=tmp_path, input="en\nfr, ja\n")
    assert result.exit_code == 0, result.output
    config = load_config(tmp_path)
    assert (config.source_locale, config.locales) == ("en", ("fr", "ja"))


def test_init_adds_the_table_to_an_existing_pyproject(tmp_path):
    original = '[project]\nname = "site"  # keep me\n'
    (tmp_path / "pyproject.toml").write_text(original, "utf-8")
    result = invoke(["init", "--source-locale", "ru", "-l", "en", "--documents", "docs/**/*.md"],
                    cwd=tmp_path)
    assert result.exit_code == 0, result.output
    text = (tmp_path / "pyproject.toml").read_text("utf-8")
    assert text.startswith(original) and "[tool.tolmach]" in text
    assert not (tmp_path / "tolmach.toml").exists() and (tmp_path / "docs").is_dir()
    assert load_config(tmp_path).documents == ("docs/**/*.md",)


def test_init_refuses_the_source_locale_as_a_target(tmp_path):
    result = invoke(["init", "--source-locale", "ru", "-l", "ru"], cwd=tmp_path)
    assert result.exit_code == 1 and "'ru' is the source locale" in result.output
    assert not (tmp_path / "tolmach.toml").exists()
