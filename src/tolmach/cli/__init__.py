"""The ``tolmach`` command: parse options, call the library, print.

One module per command group — :mod:`~tolmach.cli.pipeline` (extract, update, build,
pseudo, stats, check), :mod:`~tolmach.cli.glossary`, :mod:`~tolmach.cli.tm` and
:mod:`~tolmach.cli.publish` (publish, preview, screenshots) — each a thin layer over the
library; :mod:`~tolmach.cli.common` holds what they share. The library never imports
this package.
"""

from __future__ import annotations

import gc
import importlib
from pathlib import Path

import click

from tolmach.cli.common import AppState

__all__ = ["AppState", "cli", "main"]

# Each command's module, loaded when the command runs (or a help lists it): `tolmach
# --version` and a single command then import only what they use.
COMMAND_MODULES = {
    "init": "tolmach.cli.project",
    "locale": "tolmach.cli.project",
    "extract": "tolmach.cli.pipeline",
    "update": "tolmach.cli.pipeline",
    "check": "tolmach.cli.pipeline",
    "build": "tolmach.cli.pipeline",
    "stats": "tolmach.cli.pipeline",
    "pseudo": "tolmach.cli.pipeline",
    "publish": "tolmach.cli.publish",
    "preview": "tolmach.cli.publish",
    "screenshots": "tolmach.cli.publish",
    "glossary": "tolmach.cli.glossary",
    "tm": "tolmach.cli.tm",
}


class LazyGroup(click.Group):
    """A group whose commands are imported on first use (click's documented pattern)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *COMMAND_MODULES})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in self.commands and name in COMMAND_MODULES:
            self.add_command(getattr(importlib.import_module(COMMAND_MODULES[name]), name))
        return self.commands.get(name)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "-C",
    "--project",
    "project_dir",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Look for the project from this folder up (default: the current folder): the "
    "nearest pyproject.toml with [tool.tolmach], or tolmach.toml.",
)
@click.version_option(package_name="tolmach")
@click.pass_context
def cli(ctx: click.Context, project_dir: Path | None) -> None:
    """tolmach: translate Markdown articles through gettext catalogs.

    \b
    Typical workflow on a project:
      tolmach init --source-locale ru -l de   # settings, seeds/, locales/
      tolmach extract            # seeds/*.md  -> locales/<doc>.pot
      tolmach update -l de       # .pot        -> locales/de/LC_MESSAGES/<doc>.po
      (translate the .po in Poedit, Lokalize or Weblate)
      tolmach check -l de        # markup, numbers, glossary ...
      tolmach build -l de        # .po         -> output/de/<doc>.md
      tolmach stats
    """
    ctx.obj = AppState(start=(project_dir or Path.cwd()).absolute())


def main() -> None:
    try:
        cli(prog_name="tolmach")
    finally:
        # The process ends: its last full collection would walk every object only to
        # find no garbage worth freeing (a tenth of a second after a large run).
        gc.freeze()
