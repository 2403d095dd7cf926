"""``tolmach tm``: search, import, export and rebuild the translation memory.

The lead command registers it with ``cli.add_command(tm)``; the project root
comes from the root context's ``obj.root`` when there is one, else the
current directory.
"""

from __future__ import annotations

from pathlib import Path

import click

from tolmach.catalog.pofile import CatalogError
from tolmach.cli.common import error_line
from tolmach.fileio import WriteError, write_error
from tolmach.memory.compendium import read_compendium
from tolmach.memory.store import (
    CACHE_FILE,
    TranslationMemory,
    TranslationMemoryError,
    project_catalogs,
    project_memory,
)
from tolmach.memory.tmx import TmxError, write_tmx

_ERRORS = (TranslationMemoryError, TmxError, CatalogError, WriteError)


def _project() -> tuple[Path, str, str]:
    """Root, source locale and locales folder of the project being worked on."""
    state = getattr(click.get_current_context().find_root(), "obj", None)
    root = Path(getattr(state, "root", None) or Path.cwd())
    try:
        config = state.config if state is not None else None
    except Exception:  # noqa: BLE001 - a broken config still lets the memory work
        config = None
    source = getattr(config, "source_locale", None)
    if source is None:
        try:
            from tolmach.config import load_config

            config = load_config(root)
            source = config.source_locale
        except Exception:  # noqa: BLE001 - no pyproject: defaults
            source = "ru"
    return root, source, getattr(config, "locales_dir", "locales")


def _open() -> TranslationMemory:
    root, source, locales = _project()
    try:
        return project_memory(root, source, locales)
    except _ERRORS as error:
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
@click.option("-l", "--locale", required=True, help="Target locale, e.g. de or zh_CN.")
@click.option(
    "--threshold",
    default=0.6,
    show_default=True,
    type=click.FloatRange(0, 1),
    help="Least similarity shown.",
)
@click.option("-n", "--limit", default=5, show_default=True, type=click.IntRange(1))
def search(text: str, locale: str, threshold: float, limit: int) -> None:
    """Show the best translations of TEXT into LOCALE, with score and origin.

    \b
    Example:
      tolmach tm search "Поддержка Windows" -l de
    """
    with _open() as memory:
        try:
            matches = memory.search(text, locale, threshold=threshold, limit=limit)
        except _ERRORS as error:
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
    "--format", "file_format", type=click.Choice(["tmx"]), default="tmx", show_default=True
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("memory.tmx"),
    show_default=True,
)
@click.option("-l", "--locale", default=None, help="Only this target locale.")
def export(file_format: str, output: Path, locale: str | None) -> None:
    """Write the memory as TMX 1.4b, for OmegaT and other CAT tools.

    \b
    Example:
      tolmach tm export --format tmx -o memory.tmx
    """
    _, source, _ = _project()
    with _open() as memory:
        try:
            written = write_tmx(memory.units(locale), output, source)
        except _ERRORS as error:
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
    _, source, _ = _project()
    try:
        units = read_compendium(file, source)
    except _ERRORS as error:
        raise click.ClickException(error_line(error)) from error
    with _open() as memory:
        try:
            added = memory.import_units(file.name, units)
        except _ERRORS as error:
            raise click.ClickException(error_line(error)) from error
    click.echo(f"Imported {added} translation units from {file.name}.")


@tm.command()
def rebuild() -> None:
    """Recreate the memory from the project's catalogs (imported compendia are dropped).

    \b
    Example:
      tolmach tm rebuild
    """
    root, source, locales = _project()
    database = root / CACHE_FILE
    for leftover in (database, Path(f"{database}-wal"), Path(f"{database}-shm")):
        try:
            leftover.unlink(missing_ok=True)
        except OSError as error:
            failure = write_error(leftover, error, "the memory is as it was")
            raise click.ClickException(error_line(failure)) from None
    try:
        with TranslationMemory(database, source) as memory:
            read = memory.refresh(project_catalogs(root, locales))
            count = memory.count()
    except _ERRORS as error:
        raise click.ClickException(error_line(error)) from error
    click.echo(f"Rebuilt the translation memory: {count} segments from {read} catalogs.")
