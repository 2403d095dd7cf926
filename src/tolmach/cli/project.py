"""``tolmach init`` and ``tolmach locale``: make a project, add and list its locales.

Thin over :func:`tolmach.project.init_project` and :meth:`tolmach.project.Project.add_locale`,
which edit the settings file with tomlkit, keeping its comments and layout.
"""

from __future__ import annotations

from pathlib import Path

import click

from tolmach.cli.common import AppState, pass_state, reports_errors, shown
from tolmach.fileio import project_lock

__all__ = ["init", "locale"]


def _split(values: tuple[str, ...]) -> list[str]:
    """Repeated options and comma-separated lists alike: ``-l de -l fr`` or ``-l de,fr``."""
    return [item.strip() for value in values for item in value.split(",") if item.strip()]


@click.command()
@click.argument("folder", required=False, default=".",
                type=click.Path(file_okay=False, path_type=Path))
@click.option("--source-locale", "source_locale", metavar="LOCALE",
              help="Language of the articles, e.g. ru or en-US (asked for when missing).")
@click.option("-l", "--locale", "locales", multiple=True, metavar="LOCALE",
              help="Target locale, repeatable or comma-separated (asked for when missing).")
@click.option("--documents", multiple=True, metavar="GLOB",
              help="Where the articles are, repeatable (default: seeds/*.md).")
@reports_errors
def init(folder: Path, source_locale: str | None, locales: tuple[str, ...],
         documents: tuple[str, ...]) -> None:
    """Make FOLDER (default: the current one) a tolmach project.

    Writes the settings ([tool.tolmach] in an existing pyproject.toml, else
    tolmach.toml), the documents folder, locales/ and an empty locales/glossary.toml.
    Options not given are asked for.

    \b
    Examples:
      tolmach init --source-locale ru -l en -l de-DE
      tolmach init docs-project --source-locale en -l fr,ja --documents "docs/**/*.md"
    """
    from tolmach.config import config_file
    from tolmach.project import init_project

    existing = config_file(folder)
    if existing is not None:
        raise click.ClickException(
            f"{shown(existing, Path.cwd().absolute())}: this folder is a tolmach project already"
        )
    folder.mkdir(parents=True, exist_ok=True)
    if source_locale is None:
        source_locale = click.prompt("Language of the articles (e.g. ru, en-US)")
    if not locales:
        answer = click.prompt("Target locales, comma-separated (e.g. en, de-DE)", default="",
                              show_default=False)
        locales = (answer,)
    patterns = _split(documents) or ["seeds/*.md"]
    made = init_project(folder.absolute(), source_locale, _split(locales), patterns)
    for path in made:
        click.echo(f"created {shown(path, Path.cwd().absolute())}{'/' if path.is_dir() else ''}")
    click.echo(f"next: put articles in {patterns[0]}, then `tolmach extract` and `tolmach update`")


@click.group()
def locale() -> None:
    """The project's target locales: list them, add one.

    \b
    Examples:
      tolmach locale list
      tolmach locale add de-DE
    """


@locale.command("add")
@click.argument("name", metavar="LOCALE")
@pass_state
@reports_errors
def add_locale(state: AppState, name: str) -> None:
    """Add LOCALE (a gettext name such as pt_BR or a BCP 47 tag such as pt-BR) to the
    settings and create its catalogs.

    The settings file keeps its comments and layout. Catalogs are made from the
    templates (run `tolmach extract` first when there are none).

    \b
    Example:
      tolmach locale add de-DE      # locales/de_DE/LC_MESSAGES/<doc>.po, HTML lang de-DE
    """
    from tolmach.catalog.progress import update_text

    project = state.project().add_locale(name)
    state.loaded = project.config
    code = project.target_locale(name)
    click.echo(f"added {name} to {shown(project.config.source, state.root)} (catalogs in "
               f"{shown(project.config.locales_path / code, state.root)}/)")
    if not project.config.document_paths():
        click.echo("no articles yet: `tolmach update` makes the catalogs once there are")
        return
    missing = [d for d in project.documents if not project.config.template_path(d.name).is_file()]
    with project_lock(state.root):
        if missing:
            project.extract()
        for result in project.update([code]):
            click.echo(update_text(project.catalog_row(result)))


@locale.command("list")
@pass_state
@reports_errors
def list_locales(state: AppState) -> None:
    """Show the source locale and every target: gettext name, BCP 47 tag and name.

    \b
    Example:
      tolmach locale list
    """
    from babel import Locale

    config = state.config
    for role, code in [("source", config.source_locale), *(("target", c) for c in config.locales)]:
        tag = code.replace("_", "-")
        click.echo(f"{code:<12} {tag:<12} {role:<7} {Locale.parse(code).english_name}")
