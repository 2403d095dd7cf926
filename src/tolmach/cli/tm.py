"""``tolmach tm``: search, import, export and rebuild the translation memory.

The lead command registers it with ``cli.add_command(tm)``; the project root
comes from the root context's ``obj.root`` when there is one, else the
current directory.
"""

from __future__ import annotations

from pathlib import Path

import click

from tolmach.cli.common import error_line


def _errors() -> tuple[type[Exception], ...]:
    """The errors a memory command reports in one line (imported when one runs)."""
    from tolmach.catalog.pofile import CatalogError
    from tolmach.fileio import WriteError
    from tolmach.memory.store import TranslationMemoryError
    from tolmach.memory.tmx import TmxError

    return (TranslationMemoryError, TmxError, CatalogError, WriteError)


def _project() -> tuple[Path, str, str]:
    """Root, source locale and locales folder of the project being worked on: the main
    CLI's, else the one the current folder is in. Outside a project the memory would be
    made in whatever folder the command ran in, so that is a one-line error."""
    from tolmach.config import ConfigError, ProjectNotFound, load_config, locate_project

    state = getattr(click.get_current_context().find_root(), "obj", None)
    try:
        root = Path(getattr(state, "root", None) or locate_project(Path.cwd()))
        config = load_config(root)
    except (ProjectNotFound, ConfigError) as error:
        raise click.ClickException(str(error)) from None
    return root, config.source_locale, config.locales_dir


def _gettext_name(locale: str | None) -> str | None:
    """The memory stores gettext names (de_DE); a BCP 47 tag (de-DE) names the same."""
    from tolmach.config import validate_locale

    if locale is None:
        return None
    try:
        return validate_locale(locale)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="-l") from None


def _open():
    from tolmach.memory.store import project_memory

    root, source, locales = _project()
    try:
        return project_memory(root, source, locales)
    except _errors() as error:
        raise click.ClickException(error_line(error)) from error


@click.group()
def tm() -> None:
    """Translation memory: every translation of the project, searchable and portable.

    \b
    Examples:
      tolmach tm search "Поддержка Windows" -l de
      tolmach tm export --format tmx -o memory.tmx
      tolmach tm import compendium.tmx
      tolmach tm rebuild
    """


@tm.command()
@click.argument("text")
@click.option("-l", "--locale", required=True, callback=lambda c, p, v: _gettext_name(v),
              help="Target locale, e.g. de, zh_CN or the BCP 47 tag zh-CN.")
@click.option(
    "--threshold",
    default=0.6,
    show_default=True,
    type=click.FloatRange(0, 1),
    help="Least similarity shown.",
)
@click.option("-n", "--limit", default=5, show_default=True, type=click.IntRange(1),
              help="How many matches to show at most.")
def search(text: str, locale: str, threshold: float, limit: int) -> None:
    """Show the best translations of TEXT into LOCALE, with score and origin.

    \b
    Example:
      tolmach tm search "Поддержка Windows" -l de
    """
    with _open() as memory:
        try:
            matches = memory.search(text, locale, threshold=threshold, limit=limit)
        except _errors() as error:
            raise click.ClickException(error_line(error)) from error
    if not matches:
        click.echo(f"No translation into {locale} at {threshold:.0%} or more.")
        return
    for match in matches:
        click.echo(f"{int(match.score * 100 + 1e-9):3d}%  {match.origin}")
        click.echo(f"      {match.source}")
        click.echo(f"      {match.target}")


@tm.command("export")
@click.option(
    "--format",
    "file_format",
    type=click.Choice(["tmx"]),
    default="tmx",
    show_default=True,
    help="Exchange format (TMX 1.4b).",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("memory.tmx"),
    show_default=True,
    help="File to write.",
)
@click.option("-l", "--locale", default=None, callback=lambda c, p, v: _gettext_name(v),
              help="Only this target locale (a gettext name or a BCP 47 tag).")
def export(file_format: str, output: Path, locale: str | None) -> None:
    """Write the memory as TMX 1.4b, for OmegaT and other CAT tools.

    \b
    Example:
      tolmach tm export --format tmx -o memory.tmx
    """
    from tolmach.memory.tmx import write_tmx

    _, source, _ = _project()
    with _open() as memory:
        try:
            written = write_tmx(memory.units(locale), output, source)
        except _errors() as error:
            raise click.ClickException(error_line(error)) from error
    click.echo(f"Wrote {written} translation units to {output} ({file_format.upper()} 1.4b).")


@tm.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def import_(file: Path) -> None:
    """Add a compendium (TMX or PO) to the memory; importing it again replaces it.

    \b
    Example:
      tolmach tm import compendium.tmx
    """
    from tolmach.memory.compendium import read_compendium

    _, source, _ = _project()
    try:
        units = read_compendium(file, source)
    except _errors() as error:
        raise click.ClickException(error_line(error)) from error
    with _open() as memory:
        try:
            added = memory.import_units(file.name, units)
        except _errors() as error:
            raise click.ClickException(error_line(error)) from error
    click.echo(f"Imported {added} translation units from {file.name}.")


@tm.command()
@click.option("-j", "--jobs", type=click.IntRange(1), metavar="N",
              help="Processes that learn the catalogs, one language each at a time "
              "(default: one per core; 1: all in this process).")
def rebuild(jobs: int | None) -> None:
    """Recreate the memory from the project's catalogs (imported compendia are dropped).

    \b
    Example:
      tolmach tm rebuild
    """
    from tolmach.cli.common import running
    from tolmach.fileio import write_error
    from tolmach.memory.store import CACHE_FILE, made_anew, part_maker, project_catalogs

    root, source, locales = _project()
    database = root / CACHE_FILE
    for leftover in (database, Path(f"{database}-wal"), Path(f"{database}-shm")):
        try:
            leftover.unlink(missing_ok=True)
        except OSError as error:
            failure = write_error(leftover, error, "the memory is as it was")
            raise click.ClickException(error_line(failure)) from None
    try:
        catalogs = project_catalogs(root, locales)
        with running("tm rebuild", jobs, quiet=True) as run, made_anew(
            database, source, catalogs, make_parts=part_maker(run.executor)
        ) as memory:
            count = memory.count()
        read = len(catalogs)
    except _errors() as error:
        raise click.ClickException(error_line(error)) from error
    click.echo(f"Rebuilt the translation memory: {count} segments from {read} catalogs.")
