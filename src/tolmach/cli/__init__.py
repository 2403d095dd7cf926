"""The ``tolmach`` command: parse options, call the library, print.

One module per command group — :mod:`~tolmach.cli.pipeline` (extract, update, build,
pseudo, stats, check), :mod:`~tolmach.cli.glossary`, :mod:`~tolmach.cli.tm` and
:mod:`~tolmach.cli.publish` (publish, preview, screenshots) — each a thin layer over the
library; :mod:`~tolmach.cli.common` holds what they share. The library never imports
this package.
"""

from __future__ import annotations

from pathlib import Path

import click

from tolmach.cli.common import AppState
from tolmach.cli.glossary import glossary
from tolmach.cli.pipeline import build, check, extract, pseudo, stats, update
from tolmach.cli.publish import preview, publish, screenshots
from tolmach.cli.tm import tm
from tolmach.config import find_project_root

__all__ = ["cli", "main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "-C",
    "--project",
    "project_dir",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Project folder (default: the nearest folder with [tool.tolmach] in pyproject.toml).",
)
@click.version_option(package_name="tolmach")
@click.pass_context
def cli(ctx: click.Context, project_dir: Path | None) -> None:
    """tolmach: translate Markdown articles through gettext catalogs.

    \b
    Typical workflow on a project:
      tolmach extract            # seeds/*.md  -> locales/<doc>.pot
      tolmach update -l de       # .pot        -> locales/de/LC_MESSAGES/<doc>.po
      (translate the .po in Poedit, Lokalize or Weblate)
      tolmach check -l de        # markup, numbers, glossary ...
      tolmach build -l de        # .po         -> output/de/<doc>.md
      tolmach stats
    """
    root = project_dir or find_project_root(Path.cwd()) or Path.cwd()
    ctx.obj = AppState(root=root.resolve())


for _command in (extract, update, build, pseudo, stats, check, glossary, tm, publish, preview, screenshots):
    cli.add_command(_command)


def main() -> None:
    cli(prog_name="tolmach")
