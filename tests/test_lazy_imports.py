"""Lean start-up: ``tolmach --version`` and every ``--help`` load no parser or library.

Counted, not timed: a fresh interpreter runs the command and lists the modules it
loaded; none of the heavy libraries (markdown-it and its plugins, polib, Babel,
pymorphy3, Jinja2, rapidfuzz, rich) may be among them. They load when a command
actually works on a document.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("markdown_it", "mdit_py_plugins", "polib", "babel", "pymorphy3", "jinja2", "rapidfuzz",
         "rich")

PROBE = """
import json, sys
from tolmach.cli import cli
for args in json.loads(sys.argv[1]):
    try:
        cli(args, prog_name="tolmach")
    except SystemExit:
        pass
print(json.dumps(sorted(sys.modules)))
"""


def modules_loaded_by(*commands: list[str]) -> list[str]:
    """Every module a fresh interpreter loaded to run ``commands`` in turn."""
    result = subprocess.run([sys.executable, "-c", PROBE, json.dumps(commands)],
                            capture_output=True, text=True, check=True)
    return json.loads(result.stdout.strip().splitlines()[-1])


def loaded_by(*commands: list[str]) -> list[str]:
    """The heavy libraries a fresh interpreter loaded to run ``commands`` in turn."""
    return sorted({name.split(".")[0] for name in modules_loaded_by(*commands)} & set(HEAVY))


def all_commands():
    from tolmach.cli import cli

    for name, command in sorted(cli.commands.items()):
        yield [name]
        for sub in sorted(getattr(command, "commands", {})):
            yield [name, sub]


def test_version_loads_no_heavy_library():
    assert loaded_by(["--version"]) == []


def test_every_help_loads_no_heavy_library():
    assert loaded_by(["--help"], *([*command, "--help"] for command in all_commands())) == []


@pytest.mark.parametrize("library", ["markdown_it", "polib"])
def test_the_probe_sees_a_library_a_command_loads(library, tmp_path):
    """The probe is not blind: a single-file extract parses Markdown and writes a template."""
    source = tmp_path / "a.md"
    source.write_text("# Title\n\nText.\n", "utf-8")
    assert library in loaded_by(["extract", str(source), "-o", str(tmp_path / "a.pot")])


def test_the_cli_lists_the_dialect_presets():
    from tolmach.cli.common import DIALECT_NAMES
    from tolmach.markdown.dialects import PRESETS

    assert tuple(PRESETS) == DIALECT_NAMES


def test_a_publish_with_nothing_to_do_loads_no_renderer_merger_or_morphology(tmp_path):
    """A no-op ``publish`` of a site reads its cache records: no page is rendered (Jinja2),
    no catalog merged (rapidfuzz), no glossary term lemmatized (pymorphy3)."""
    from publish_scenario import make_scenario

    root = tmp_path / "project"
    root.mkdir()
    make_scenario(root)
    publish = ["-C", str(root), "publish", "-j", "1", "-q", "--no-search"]
    assert "jinja2" in loaded_by(publish)  # the first run renders every page
    assert set(loaded_by(publish)) & {"jinja2", "rapidfuzz", "pymorphy3"} == set()


def test_an_update_parses_no_markdown(tmp_path):
    """``update`` merges catalogs with their templates, which ``extract`` made: it loads
    no Markdown parser (the default dialect, unadjusted, needs no check)."""
    from pipeline_project import make_project, run_command

    root = make_project(tmp_path / "project", documents=1)
    assert run_command(root, "extract", "-j", "1").exit_code == 0
    assert "markdown_it" in loaded_by(["-C", str(root), "extract", "-j", "1", "--force"])
    assert "markdown_it" not in loaded_by(["-C", str(root), "update", "-j", "1"])


def test_the_stemmers_load_when_a_word_is_first_stemmed():
    """Snowball's stemmers (every language's, slow to import) load for the first target
    word stemmed, not with the glossary's matching."""
    probe = (
        "import sys; import tolmach.glossary.match as m; "
        "before = 'snowballstemmer' in sys.modules; m.stem('de', 'Häuser'); "
        "print(before, 'snowballstemmer' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            check=True)
    assert result.stdout.split() == ["False", "True"]


def test_a_check_with_nothing_to_do_loads_no_check_and_no_parser(tmp_path):
    """A no-op ``check`` shows the findings it cached: the checks' families (and the
    Markdown parser they read translations with) are registered only when a catalog is
    checked again."""
    from pipeline_project import make_project, run_command

    root = make_project(tmp_path / "project", documents=2)
    for step in ("extract", "update"):
        assert run_command(root, step, "-j", "1").exit_code == 0
    check = ["-C", str(root), "check", "-j", "1", "-q"]
    assert "markdown_it" in loaded_by(check)  # the first run checks every catalog
    assert "markdown_it" not in loaded_by(check)


def test_the_checks_register_when_first_asked_for():
    """Every family registers its checks on the first look at the registry, in the order
    ``tolmach check --list`` shows: the lazy registry misses none."""
    probe = (
        "import sys; from tolmach.checks.registry import CHECKS, FAMILIES, registered; "
        "before = len(CHECKS); names = list(registered()); "
        "families = [sys.modules['tolmach.checks.' + f] for f in FAMILIES]; "
        "order = [next(f for f in FAMILIES if getattr(sys.modules['tolmach.checks.' + f], "
        "c.function.__name__, None) is c.function) for c in CHECKS.values()]; "
        "print(before, len(names), order == sorted(order, key=FAMILIES.index))"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            check=True)
    before, count, ordered = result.stdout.split()
    import tolmach.checks.registry as registry

    folder = Path(registry.__file__).parent
    declared = sum(
        line.startswith("@check(")
        for family in registry.FAMILIES
        for line in (folder / f"{family}.py").read_text("utf-8").splitlines()
    )
    assert (before, int(count), ordered) == ("0", declared, "True")


def test_a_hint_knows_every_check_before_any_catalog_is_checked():
    """The how-to-waive hint asks the lazy registry, not the checks registered so far: in
    a fresh interpreter, a per-entry check has its waiver line."""
    probe = ("from tolmach.checks.hints import how_to_waive; "
             "print(repr(how_to_waive('markup')))")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            check=True)
    assert "# tolmach: ignore markup" in result.stdout


def test_an_update_with_no_catalog_to_merge_reads_no_glossary(tmp_path):
    """A no-op ``update`` finds every catalog's record: the glossary, whose digest is in
    each record's key, was read fine when they were made, and is not read again."""
    from pipeline_project import make_project, run_command

    root = make_project(tmp_path / "project", documents=2)
    assert run_command(root, "extract", "-j", "1").exit_code == 0
    update = ["-C", str(root), "update", "-j", "1", "-q"]
    assert "tolmach.glossary.termbase" in modules_loaded_by(update)  # the first run merges
    assert "tolmach.glossary.termbase" not in modules_loaded_by(update)

