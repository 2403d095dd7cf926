"""The pipeline commands: ``extract``, ``update``, ``build``, ``pseudo``, ``stats``, ``check``.

Project forms work on the configured documents × locales; the single-file forms
(``extract SRC.md -o OUT.pot``, ``build SRC.md --po FILE.po -o OUT.md``,
``pseudo IN.pot -o OUT.po``) need no project at all.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from tolmach.catalog.pofile import CatalogError, format_po, read_po
from tolmach.catalog.status import entry_lines, translations_of
from tolmach.catalog.template import extract_template
from tolmach.cli.common import (
    AppState,
    dialect_options,
    emit,
    locale_option,
    pass_state,
    report_file,
    reports_errors,
    resolve_dialect_option,
)
from tolmach.fileio import project_lock, read_source
from tolmach.markdown.document import SegmentOptions, parse_document
from tolmach.markdown.pseudo import pseudo_catalog
from tolmach.markdown.verify import verified_build

__all__ = ["build", "check", "extract", "pseudo", "stats", "update"]


@click.command()
@click.argument("source", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Where to write the .pot (single-file mode; '-' for standard output).",
)
@dialect_options
@pass_state
@reports_errors
def extract(
    state: AppState, source: Path | None, output: Path | None, dialect: str, syntax: tuple[str, ...]
) -> None:
    """Extract translatable segments into .pot templates.

    Lines that look like a syntax the document's dialect does not parse (a ::: container
    in CommonMark, say) are reported as warnings with the presets that handle them.

    \b
    Examples:
      tolmach extract                              # every configured document
      tolmach extract article.md -o article.pot    # one file, no project needed
      tolmach extract guide.md -o guide.pot --dialect vitepress
    """
    if source is None:
        with project_lock(state.root):
            for result in state.project().extract():
                report_file(state, result.path, result.written)
                for warning in result.warnings:
                    click.echo(f"warning: {warning}", err=True)
        return
    if output is None:
        raise click.UsageError("single-file extract needs -o OUT.pot")
    options = SegmentOptions(dialect=resolve_dialect_option(dialect, syntax))
    document = parse_document(read_source(source), options, hints=True)
    for hint in document.hints:
        click.echo(f"warning: {source.as_posix()}:{hint.line}: {hint.message}", err=True)
    pot = extract_template(document, source.as_posix(), project=source.stem)
    emit(format_po(pot), output)


@click.command()
@locale_option
@pass_state
@reports_errors
def update(state: AppState, locales: tuple[str, ...]) -> None:
    """Create or update the .po catalogs of each locale from the templates.

    Existing translations are kept; changed source strings become fuzzy with the
    previous msgid (#|); removed ones become obsolete (#~).

    \b
    Example:
      tolmach update -l en -l de
    """
    with project_lock(state.root):
        for result in state.project().update(locales):
            report_file(state, result.path, result.written)


@click.command()
@click.argument("source", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--po",
    "po_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Catalog with the translations (single-file mode).",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Where to write the Markdown (single-file mode; '-' for standard output).",
)
@locale_option
@click.option(
    "--threshold",
    type=click.FloatRange(0, 100),
    default=None,
    help="Minimum %% of source words translated to write a locale (default from config, 80).",
)
@click.option(
    "--strict",
    is_flag=True,
    help="Refuse to write a locale whose catalog has check errors or whose translations "
    "would change the document's structure.",
)
@dialect_options
@pass_state
@reports_errors
def build(
    state: AppState,
    source: Path | None,
    po_path: Path | None,
    output: Path | None,
    locales: tuple[str, ...],
    threshold: float | None,
    strict: bool,
    dialect: str,
    syntax: tuple[str, ...],
) -> None:
    """Write localized Markdown from the catalogs.

    Fuzzy entries are never used; untranslated segments fall back to the source text.
    Every build is verified: a translation that would change the document's structure
    (a heading, list, table, code block or definition added, lost or changed) is
    replaced by the source text, with one line naming the entry and the source line;
    with --strict the document is not written instead.

    \b
    Examples:
      tolmach build -l de                         # output/de/<doc>.md
      tolmach build --threshold 0                 # write even incomplete locales
      tolmach build article.md --po de.po -o article.de.md
    """
    if source is not None:
        if po_path is None or output is None:
            raise click.UsageError("single-file build needs --po FILE.po and -o OUT.md")
        _build_single(source, po_path, output, strict, resolve_dialect_option(dialect, syntax))
        return
    failed = False
    with project_lock(state.root):
        for result in state.project().build(locales, threshold=threshold, strict=strict):
            label = f"{result.locale}/{result.document}"
            for note in result.notes:
                click.echo(note, err=True)
            if result.skipped:
                failed = failed or result.refused
                click.echo(f"skipped {label}: {result.skipped}", err=True)
            else:
                report_file(state, result.path, result.written)
    if strict and failed:
        sys.exit(1)


def _build_single(source: Path, po_path: Path, output: Path, strict: bool, dialect) -> None:
    """One file: verified as a project build is; with ``strict``, a translation that
    changes the structure stops the build (nothing is written)."""
    document = parse_document(read_source(source), SegmentOptions(dialect=dialect))
    po = read_po(po_path)
    _ensure_catalog_matches(po, po_path, source, document)
    verified = verified_build(document, translations_of(po))
    for note in verified.notes(po_path.as_posix(), source.as_posix(), entry_lines(po), refused=strict):
        click.echo(note, err=True)
    if strict and verified.rejected:
        sys.exit(1)
    emit(verified.text, output)


def _ensure_catalog_matches(po, po_path: Path, source: Path, document) -> None:
    """Refuse a catalog made for another document: none of its strings are in this one."""
    msgids = {e.msgid for e in po if not e.obsolete}
    if not msgids:
        return
    segments = {s.text for s in document.segments}
    if not msgids & segments:
        raise CatalogError(
            po_path,
            None,
            f"this catalog does not belong to {source}: none of its "
            f"{len(msgids)} strings occur in it",
        )


@click.command()
@click.argument("template", type=click.Path(dir_okay=False, exists=True, path_type=Path))
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Where to write the pseudo-localized .po ('-' for standard output).",
)
@click.option("-l", "--locale", default="en", show_default=True, help="Language of the header.")
@dialect_options
@reports_errors
def pseudo(template: Path, output: Path, locale: str, dialect: str, syntax: tuple[str, ...]) -> None:
    """Pseudo-translate a template: letters accented and lengthened, markup untouched.

    Build with the result to see every translatable string and check layouts before
    real translations exist.

    \b
    Example:
      tolmach pseudo locales/rocm7.pot -o /tmp/rocm7.pseudo.po
      tolmach build seeds/rocm7.ru.md --po /tmp/rocm7.pseudo.po -o /tmp/rocm7.pseudo.md
      tolmach pseudo guide.pot -o guide.pseudo.po --dialect vitepress   # keeps {{ expr }}
    """
    chosen = resolve_dialect_option(dialect, syntax)
    po = pseudo_catalog(read_po(template), chosen.atoms if chosen.atom_labels else None)
    po.metadata["Language"] = locale
    emit(format_po(po), output)


@click.command()
@locale_option
@pass_state
@reports_errors
def stats(state: AppState, locales: tuple[str, ...]) -> None:
    """Show translation progress per locale and document, in segments and words.

    \b
    Example:
      tolmach stats -l de
    """
    from rich.console import Console
    from rich.table import Table

    table = Table(title="Translation progress", title_justify="left")
    for column in ("locale", "document", "translated", "fuzzy", "untranslated", "words done", "%"):
        table.add_column(column, justify="left" if column in ("locale", "document") else "right")
    for result in state.project().stats(locales):
        s = result.stats
        table.add_row(
            result.locale,
            result.document,
            str(s.translated),
            str(s.fuzzy),
            str(s.untranslated),
            f"{s.translated_words}/{s.total_words}",
            f"{s.percent:.0f}",
        )
    Console(width=100).print(table)


@click.command()
@locale_option
@click.option("--format", "fmt", type=click.Choice(["human", "json"]), default="human",
              show_default=True, help="json: a stable schema for CI and editors.")
@click.option("--list", "list_only", is_flag=True, help="List the checks with severity and explanation.")
@pass_state
@reports_errors
def check(state: AppState, locales: tuple[str, ...], fmt: str, list_only: bool) -> None:
    """Check translations: markup, numbers, glossary, punctuation, length, completeness.

    Prints `path.po:LINE: severity: [check] message` per finding (editors jump to the
    line), then waivers and a summary. Exit code 1 when there are errors.

    \b
    Examples:
      tolmach check                 # every locale
      tolmach check -l de --format json
      tolmach check --list
    """
    from rich.console import Console

    from tolmach.checks.report import has_errors, list_checks, render_human, render_json

    project = state.project()
    if list_only:
        for name, severity, explanation in list_checks(project.check_config):
            click.echo(f"{name:<16} {severity:<8} {explanation}")
        return
    findings = project.check(locales)
    if fmt == "json":
        click.echo(render_json(findings))
    else:
        render_human(findings, Console(width=120, highlight=False))
    if has_errors(findings):
        sys.exit(1)
