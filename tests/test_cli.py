"""The ``tolmach`` command as translators and publishers use it."""

import shutil
from pathlib import Path

import polib
import pytest
from click.testing import CliRunner

from tolmach.cli import cli

ARTICLE = """# Заголовок

Первый абзац
в две строки.

> Цитата.

- пункт `код`
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.tolmach]\nsource-locale = "ru"\nlocales = ["en", "de"]\n', "utf-8"
    )
    (tmp_path / "seeds").mkdir()
    (tmp_path / "seeds" / "article.ru.md").write_text(ARTICLE, "utf-8")
    return tmp_path


def run(project: Path, *args: str, code: int = 0):
    result = CliRunner().invoke(cli, ["-C", str(project), *args], catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result


def translate(path: Path, mapping: dict[str, str]) -> None:
    po = polib.pofile(str(path))
    for entry in po:
        if entry.msgid in mapping:
            entry.msgstr = mapping[entry.msgid]
    po.save()


def test_extract_update_build_on_a_project(project):
    run(project, "extract")
    pot = polib.pofile(str(project / "locales" / "article.pot"))
    assert [e.msgid for e in pot] == ["Заголовок", "Первый абзац в две строки.", "Цитата.", "пункт `код`"]
    assert pot[1].occurrences == [("seeds/article.ru.md", "3")]
    assert pot[1].comment == 'paragraph, under "Заголовок"'

    run(project, "update", "-l", "en")
    po_path = project / "locales" / "en" / "LC_MESSAGES" / "article.po"
    po = polib.pofile(str(po_path))
    assert po.metadata["Language"] == "en"
    assert po.metadata["Plural-Forms"] == "nplurals=2; plural=(n != 1);"

    result = run(project, "build", "-l", "en")
    assert "below the threshold" in result.output
    assert not (project / "output" / "en" / "article.md").exists()

    run(project, "build", "-l", "en", "--threshold", "0")
    assert (project / "output" / "en" / "article.md").read_text("utf-8") == ARTICLE


def test_translations_fill_their_slots_and_fuzzy_ones_are_not_used(project):
    run(project, "extract")
    run(project, "update", "-l", "de")
    po_path = project / "locales" / "de" / "LC_MESSAGES" / "article.po"
    translate(po_path, {"Заголовок": "Überschrift", "Цитата.": "Zitat.", "пункт `код`": "Punkt `код`",
                        "Первый абзац в две строки.": "Erster Absatz."})
    po = polib.pofile(str(po_path))
    po.find("Цитата.").flags.append("fuzzy")
    po.save()
    run(project, "build", "-l", "de", "--threshold", "0")
    out = (project / "output" / "de" / "article.md").read_text("utf-8")
    assert out == "# Überschrift\n\nErster Absatz.\n\n> Цитата.\n\n- Punkt `код`\n"


def test_update_keeps_translations_and_marks_changed_sources_fuzzy(project):
    run(project, "extract")
    run(project, "update", "-l", "en")
    po_path = project / "locales" / "en" / "LC_MESSAGES" / "article.po"
    translate(po_path, {"Цитата.": "Quote.", "Заголовок": "Heading"})
    source = project / "seeds" / "article.ru.md"
    source.write_text(ARTICLE.replace("Цитата.", "Цитата!").replace("# Заголовок\n", "# Заголовок\n\nНовый.\n"), "utf-8")
    run(project, "extract")
    run(project, "update", "-l", "en")
    po = polib.pofile(str(po_path))
    assert po.find("Заголовок").msgstr == "Heading"
    changed = po.find("Цитата!")
    assert "fuzzy" in changed.flags and changed.msgstr == "Quote." and changed.previous_msgid == "Цитата."
    assert po.find("Новый.").msgstr == ""


def test_removed_strings_become_obsolete_with_their_translation(project):
    run(project, "extract")
    run(project, "update", "-l", "en")
    po_path = project / "locales" / "en" / "LC_MESSAGES" / "article.po"
    translate(po_path, {"Цитата.": "Quote."})
    (project / "seeds" / "article.ru.md").write_text(ARTICLE.replace("> Цитата.\n\n", ""), "utf-8")
    run(project, "extract")
    run(project, "update", "-l", "en")
    assert "#~ msgstr \"Quote.\"" in po_path.read_text("utf-8")


def test_update_offers_translations_of_other_documents_as_fuzzy(project):
    run(project, "extract")
    run(project, "update", "-l", "de")
    translate(project / "locales" / "de" / "LC_MESSAGES" / "article.po", {"Цитата.": "Zitat."})
    (project / "seeds" / "other.ru.md").write_text("# Другая\n\nЦитата.\n", "utf-8")
    run(project, "extract")
    run(project, "update", "-l", "de")
    other = polib.pofile(str(project / "locales" / "de" / "LC_MESSAGES" / "other.po"))
    offered = other.find("Цитата.")
    assert offered.msgstr == "Zitat." and "fuzzy" in offered.flags
    assert "memory" in offered.comment and "article" in offered.comment
    assert other.find("Другая").msgstr == ""


def test_a_second_run_changes_no_byte(project):
    run(project, "extract")
    run(project, "update")
    run(project, "build", "--threshold", "0")
    files = sorted(p for p in project.rglob("*") if p.is_file() and ".tolmach-cache" not in p.parts)
    before = {p: p.read_bytes() for p in files}
    result = run(project, "extract")
    run(project, "update")
    run(project, "build", "--threshold", "0")
    assert "wrote" not in result.output
    assert {p: p.read_bytes() for p in files} == before


def test_stats_show_segments_and_words(project):
    run(project, "extract")
    run(project, "update", "-l", "en")
    translate(project / "locales" / "en" / "LC_MESSAGES" / "article.po", {"Цитата.": "Quote."})
    result = run(project, "stats", "-l", "en")
    assert "en" in result.output and "article" in result.output
    assert "1/8" in result.output  # 1 of 8 source words translated


def test_single_file_commands(tmp_path):
    src = tmp_path / "a.md"
    src.write_text("Привет, **мир**!\n", "utf-8")
    pot, po, out = tmp_path / "a.pot", tmp_path / "a.po", tmp_path / "a.out.md"
    runner = CliRunner()
    assert runner.invoke(cli, ["extract", str(src), "-o", str(pot)]).exit_code == 0
    assert runner.invoke(cli, ["pseudo", str(pot), "-o", str(po)]).exit_code == 0
    assert polib.pofile(str(po))[0].msgstr == "Ƥŕííṽééŧ, **ɱííŕ**!"
    assert runner.invoke(cli, ["build", str(src), "--po", str(po), "-o", str(out)]).exit_code == 0
    assert out.read_text("utf-8") == "Ƥŕííṽééŧ, **ɱííŕ**!\n"


@pytest.mark.parametrize(
    "args, message",
    [
        (["update", "-l", "xx_YY"], "unknown locale 'xx_YY'"),
        (["update", "-l", "../evil"], "invalid locale code '../evil'"),
        (["build", "missing.md", "--po", "x.po", "-o", "y.md"], "missing.md: no such file"),
    ],
)
def test_bad_input_gives_one_clear_line_and_exit_code_1(project, args, message):
    result = run(project, *args, code=1)
    assert message in result.output


def test_broken_config_names_file_and_line(project):
    (project / "pyproject.toml").write_text('[tool.tolmach]\nlocales = ["en"]\nthreshhold = 5\n', "utf-8")
    result = run(project, "extract", code=1)
    assert "pyproject.toml:3: unknown setting 'threshhold'" in result.output


def test_malformed_po_is_reported_with_file_and_line(project):
    run(project, "extract")
    run(project, "update", "-l", "en")
    po_path = project / "locales" / "en" / "LC_MESSAGES" / "article.po"
    good = po_path.read_text("utf-8")
    po_path.write_text(good.replace('msgstr ""\n\n#.', 'msgstr "unterminated\n\n#.', 1), "utf-8")
    result = run(project, "build", "-l", "en", code=1)
    assert "article.po:" in result.output
    assert po_path.read_text("utf-8") != good  # left as the user wrote it, nothing overwritten


def test_a_catalog_for_another_document_is_refused(tmp_path):
    a, b = tmp_path / "a.md", tmp_path / "b.md"
    a.write_text("Один.\n", "utf-8")
    b.write_text("Два.\n", "utf-8")
    runner = CliRunner()
    runner.invoke(cli, ["extract", str(a), "-o", str(tmp_path / "a.pot")])
    runner.invoke(cli, ["pseudo", str(tmp_path / "a.pot"), "-o", str(tmp_path / "a.po")])
    result = runner.invoke(cli, ["build", str(b), "--po", str(tmp_path / "a.po"), "-o", str(tmp_path / "o.md")])
    assert result.exit_code == 1
    assert "does not belong to" in result.output


def test_every_command_help_shows_an_example():
    runner = CliRunner()
    commands = ["extract", "update", "build", "pseudo", "stats", "check", "publish", "preview",
                "screenshots", "glossary", "glossary list", "glossary candidates",
                "glossary export", "glossary import", "tm", "tm search", "tm export", "tm import",
                "tm rebuild"]
    for command in commands:
        result = runner.invoke(cli, [*command.split(), "--help"])
        assert result.exit_code == 0
        assert "tolmach " + command in result.output, command


def test_single_file_extract_in_a_project_writes_what_the_project_extract_writes(
    tmp_path, monkeypatch
):
    """The seed's own template, with its `#. glossary:` comments, from either form."""
    root = Path(__file__).resolve().parent.parent
    project = tmp_path / "p"
    project.mkdir()
    for name in ("pyproject.toml", "seeds", "locales"):
        source = root / name
        if source.is_dir():
            shutil.copytree(source, project / name)
        else:
            shutil.copy(source, project / name)
    out = tmp_path / "single.pot"
    monkeypatch.chdir(project)
    result = CliRunner().invoke(cli, ["extract", "seeds/rocm7.ru.md", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text("utf-8") == (project / "locales" / "rocm7.pot").read_text("utf-8")
    assert "#. glossary: " in out.read_text("utf-8")


def test_single_file_extract_outside_a_project_needs_none(tmp_path):
    (tmp_path / "a.md").write_text("# Заголовок про ROCm\n", "utf-8")
    result = CliRunner().invoke(cli, ["extract", str(tmp_path / "a.md"), "-o", "-"])
    assert result.exit_code == 0, result.output
    assert 'msgid "Заголовок про ROCm"' in result.output and "glossary:" not in result.output
