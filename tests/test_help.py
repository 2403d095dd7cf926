"""Help and README: every command explains itself, and the README says what is true.

Every command's ``--help`` is rendered: no ``%%`` left from escaping, every option has a
help text, and an example paragraph of its own shows the command. The README lists every
command and every setting, says what ``make run`` runs (compared with ``make -n run``),
and its "Add an article" and "Add a locale" walkthroughs run as written.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from tolmach.cli import cli
from tolmach.config import SETTING_KEYS as CONFIG_KEYS

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text("utf-8")


def subcommand(group: click.Group, name: str) -> click.Command:
    """A command of a group, loaded as the CLI loads it (the main group loads lazily)."""
    command = group.get_command(click.Context(group), name)
    assert command is not None, name
    return command


def command_paths(group: click.Group = cli, prefix: tuple[str, ...] = ()):
    for name in group.list_commands(click.Context(group)):
        command = subcommand(group, name)
        path = (*prefix, name)
        yield path
        if isinstance(command, click.Group):
            yield from command_paths(command, path)


COMMANDS = [" ".join(path) for path in command_paths()]


def test_the_command_tree_is_complete():
    assert {"init", "locale add", "locale list", "update", "stats", "check", "publish",
            "preview", "screenshots", "glossary import", "tm search"} <= set(COMMANDS)


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_every_help_renders_cleanly_with_option_help_and_an_example(command):
    result = CliRunner().invoke(cli, [*command.split(), "--help"], terminal_width=100)
    assert result.exit_code == 0, result.output
    text = result.output
    assert "%%" not in text
    options = text.split("\nOptions:\n", 1)[1] if "\nOptions:\n" in text else ""
    for line in options.splitlines():
        if re.match(r"^  -", line):  # an option's first line must carry its help
            assert re.search(r"\S  +\S", line.strip()), f"{command}: no help for {line.strip()}"
    usage = ("tolmach " + command).strip()
    example = re.search(r"\n\n  (Examples?|Typical workflow on a project):\n((?:    .*\n)+)", text)
    assert example, f"`{usage} --help` has no example paragraph"
    assert usage in example.group(2) or not command, f"`{usage} --help`: example without it"


def test_options_declare_their_help():
    missing = []
    for path in command_paths():
        command = cli
        for name in path:
            command = subcommand(command, name)  # type: ignore[arg-type]
        for param in command.params:
            if isinstance(param, click.Option) and not param.help and param.name != "help":
                missing.append(f"{' '.join(path)} {param.opts[0]}")
    assert missing == []


def test_the_readme_documents_every_command():
    undocumented = [c for c in COMMANDS if f"tolmach {c}" not in README]
    assert undocumented == []


def test_the_readme_lists_every_setting():
    table = README.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    assert [key for key in CONFIG_KEYS if not any(f"`{key}`" in row for row in rows)] == []


def test_make_run_runs_what_the_readme_says():
    make = shutil.which("make")
    if make is None:
        if os.environ.get("CI"):
            pytest.fail("make not found")
        pytest.skip("make not installed")
    dry = subprocess.run([make, "-n", "run"], cwd=ROOT, capture_output=True, text=True)
    assert dry.returncode == 0, dry.stderr
    ran = [line.split("tolmach ", 1)[1].strip() for line in dry.stdout.splitlines()
           if re.search(r"/tolmach ", line)]
    sentence = re.search(r"`make run` runs (.+?)\.\s", README.replace("\n", " "))
    assert sentence, "the README has no sentence on make run"
    said = re.findall(r"`(?:tolmach )?([^`]+)`", sentence.group(1))
    assert said == ran


# --- the walkthroughs, run as written ----------------------------------------------


def walkthrough(title: str) -> str:
    section = re.split(r"\n##+ ", README.split(f"### {title}\n", 1)[1], maxsplit=1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, re.S)
    assert blocks, f"no sh block under {title}"
    return "\n".join(blocks)


@pytest.fixture(scope="module")
def seed_copy(tmp_path_factory) -> Path:
    """A copy of this repository's content project: settings, seeds and catalogs."""
    folder = tmp_path_factory.mktemp("project")
    shutil.copyfile(ROOT / "pyproject.toml", folder / "pyproject.toml")
    shutil.copytree(ROOT / "seeds", folder / "seeds")
    shutil.copytree(ROOT / "locales", folder / "locales")
    return folder


def run_script(script: str, folder: Path) -> str:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    result = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=folder, env=env,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout + result.stderr


def test_add_an_article_walkthrough(seed_copy):
    output = run_script(walkthrough("Add an article"), seed_copy)
    assert (seed_copy / "locales/rocm7-install.pot").is_file()
    assert "+3 new (1 suggested by memory)" in output
    assert (seed_copy / "output/de/rocm7-install.md").is_file()
    catalog = (seed_copy / "locales/de/LC_MESSAGES/rocm7-install.po").read_text("utf-8")
    assert "#. memory: 100% from rocm7.po, de" in catalog


def test_add_a_locale_walkthrough(seed_copy):
    run_script(walkthrough("Add a locale"), seed_copy)
    settings = (seed_copy / "pyproject.toml").read_text("utf-8")
    assert 'locales = ["en", "de", "zh_CN", "uk", "pt-BR"]' in settings
    assert (seed_copy / "locales/uk/LC_MESSAGES/rocm7.po").is_file()
    assert (seed_copy / "output/pt_BR/rocm7.md").is_file()
