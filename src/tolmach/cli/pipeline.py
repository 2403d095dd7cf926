"""The pipeline commands: ``extract``, ``update``, ``build``, ``pseudo``, ``stats``, ``check``.

Project forms work on the configured documents × locales; the single-file forms
(``extract SRC.md -o OUT.pot``, ``build SRC.md --po FILE.po -o OUT.md``,
``pseudo IN.pot -o OUT.po``) need no project at all.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from tolmach.cli.common import (
    AppState,
    dialect_options,
    emit,
    format_option,
    is_terminal,
    locale_option,
    pass_state,
    report_file,
    reports_errors,
    resolve_dialect_option,
    run_options,
    running,
)
from tolmach.fileio import project_lock

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
@run_options()
@pass_state
@reports_errors
def extract(
    state: AppState, source: Path | None, output: Path | None, dialect: str,
    syntax: tuple[str, ...], jobs: int | None, shard, force: bool, quiet: bool,
) -> None:
    """Extract translatable segments into .pot templates.

    Lines that look like a syntax the document's dialect does not parse (a ::: container
    in CommonMark, say) are reported as warnings with the presets that handle them. A
    document whose source (and the glossary) did not change since the last run is
    neither read nor written again.

    \b
    Examples:
      tolmach extract                              # every configured document
      tolmach extract -j 4 --shard 1/3             # a third of them, on 4 processes
      tolmach extract article.md -o article.pot    # one file; a project around it
                                                   # gives its glossary comments
      tolmach extract guide.md -o guide.pot --dialect vitepress
    """
    if source is None:
        project = state.project()
        with project_lock(state.root), running("extract", jobs, shard, force, quiet) as run:
            results = project.extract(run)
        for result in results:
            report_file(state, result.path, result.written)
            for warning in result.warnings:
                click.echo(f"warning: {warning}", err=True)
        for pattern in project.unmatched_patterns():
            click.echo(f"warning: documents pattern {pattern!r} matches no file", err=True)
        return
    if output is None:
        raise click.UsageError("single-file extract needs -o OUT.pot")
    from tolmach.catalog.pofile import format_po
    from tolmach.catalog.template import extract_template
    from tolmach.fileio import read_source
    from tolmach.markdown.document import SegmentOptions, parse_document

    options = SegmentOptions(dialect=resolve_dialect_option(dialect, syntax))
    document = parse_document(read_source(source), options, hints=True)
    for hint in document.hints:
        click.echo(f"warning: {source.as_posix()}:{hint.line}: {hint.message}", err=True)
    project = _project_around(state, source)
    name = project.name_of(source) if project is not None else source.stem
    pot = extract_template(document, source.as_posix(), project=name)
    if project is not None:
        project.add_glossary_comments(pot, name)
    emit(format_po(pot), output)


def _project_around(state: AppState, source: Path):
    """The project a single file belongs to (``-C``, else found from the file's folder),
    for its glossary; None when the file is in no project."""
    from tolmach.config import ProjectNotFound, locate_project

    if state.found is None:
        try:
            state.found = locate_project(source.resolve().parent).resolve()
        except ProjectNotFound:
            return None
    return state.project()


@click.command()
@locale_option
@click.option("--obsolete/--no-obsolete", "keep_obsolete", default=None,
              help="Keep removed strings as #~ entries, or drop them as msgmerge "
              "--no-obsolete does (default: the keep-obsolete setting, on).")
@click.option("--fuzzy/--no-fuzzy", " /-N", "fuzzy_matching", default=None,
              help="Offer translations of similar strings as fuzzy, or only of the same "
              "string, as msgmerge -N does (default: the fuzzy-matching setting, on).")
@format_option("text", "json", default="text",
               explained="text: one line per catalog and a total; json: for scripts.")
@run_options()
@pass_state
@reports_errors
def update(
    state: AppState, locales: tuple[str, ...], keep_obsolete: bool | None,
    fuzzy_matching: bool | None, fmt: str, jobs: int | None, shard, force: bool, quiet: bool,
) -> None:
    """Create or update the .po catalogs of each locale from the templates.

    Existing translations are kept; changed source strings become fuzzy with the
    previous msgid (#|); removed ones become obsolete (#~). New strings get suggestions
    from the translation memory (fuzzy, `#. memory: 92% from <doc>`). Prints per catalog
    and in total: `+3 new, ~2 fuzzy, −1 obsolete, 40 kept`.

    A catalog whose template, own text, the glossary and (if its last merge asked it)
    the translation memory did not change is neither read nor written again.

    \b
    Examples:
      tolmach update -l en -l de
      tolmach update --no-obsolete --format json
      tolmach update --no-fuzzy                    # exact matches only, as msgmerge -N
      tolmach update --shard 2/4                   # one machine of four in CI
    """
    from tolmach.catalog.merge import UpdateSummary
    from tolmach.catalog.progress import update_json, update_text

    project = state.project()
    locales = tuple(project.select_locales(locales))  # a mistake stops before the lock
    with project_lock(state.root), running("update", jobs, shard, force, quiet) as run:
        results = project.update(locales, keep_obsolete=keep_obsolete,
                                 fuzzy_matching=fuzzy_matching, run=run)
    rows = [project.catalog_row(result) for result in results]
    if fmt == "json":
        click.echo(update_json(rows))
        return
    for row in rows:
        click.echo(update_text(row))
    total = sum((row.summary or UpdateSummary() for row in rows), UpdateSummary())
    written = sum(1 for row in rows if row.written)
    click.echo(f"total: {total} ({len(rows)} catalogs, {written} written)")


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
    help="Minimum percentage of source words translated to write a locale "
    "(default: the threshold setting, 80).",
)
@click.option(
    "--strict",
    is_flag=True,
    help="Refuse to write a locale whose catalog has check errors or whose translations "
    "would change the document's structure.",
)
@dialect_options
@run_options()
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
    jobs: int | None,
    shard,
    force: bool,
    quiet: bool,
) -> None:
    """Write localized Markdown from the catalogs.

    Fuzzy entries are never used; untranslated segments fall back to the source text.
    Every build is verified: a translation that would change the document's structure
    (a heading, list, table, code block or definition added, lost or changed) is
    replaced by the source text, with one line naming the entry and the source line;
    with --strict the document is not written instead. A document whose source and
    catalog did not change since it was last built is not built again.

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
    project = state.project()
    locales = tuple(project.select_locales(locales))  # a mistake stops before the lock
    with project_lock(state.root), running("build", jobs, shard, force, quiet) as run:
        results = project.build(locales, threshold=threshold, strict=strict, run=run)
    for result in results:
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
    from tolmach.catalog.pofile import read_po
    from tolmach.catalog.status import entry_lines, translations_of
    from tolmach.fileio import read_source
    from tolmach.markdown.document import SegmentOptions, parse_document
    from tolmach.markdown.verify import verified_build

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
    from tolmach.catalog.pofile import CatalogError

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
    from tolmach.catalog.pofile import format_po, read_po
    from tolmach.markdown.pseudo import pseudo_catalog

    chosen = resolve_dialect_option(dialect, syntax)
    po = pseudo_catalog(read_po(template), chosen.atoms if chosen.atom_labels else None)
    po.metadata["Language"] = locale
    emit(format_po(po), output)


@click.command()
@locale_option
@format_option(
    "table",
    "json",
    "csv",
    default="table",
    explained="table: for people (plain columns when not a terminal); json, csv: for scripts.",
)
@run_options()
@pass_state
@reports_errors
def stats(state: AppState, locales: tuple[str, ...], fmt: str, jobs: int | None, shard,
          force: bool, quiet: bool) -> None:
    """Show translation progress per locale and document, in entries and source words.

    A memory suggestion counts as untranslated until a translator confirms it. Words are
    counted as a translator reads them: see "Word counts" in the README.

    The waived column counts the waivers a catalog declares: ``#, ignore-<check>``
    flags and ``# glossary-waive:`` comments.

    \b
    Examples:
      tolmach stats -l de
      tolmach stats --format json | jq '.total.percent'
      tolmach stats --format csv > progress.csv
    """
    from tolmach.catalog.progress import (
        STATS_COLUMNS,
        stats_cells,
        stats_csv,
        stats_json,
        stats_text,
    )

    project = state.project()
    with running("stats", jobs, shard, force, quiet) as run:
        results = project.stats(locales, run)
    rows = [project.catalog_row(result) for result in results]
    if fmt == "json":
        click.echo(stats_json(rows))
    elif fmt == "csv":
        click.echo(stats_csv(rows), nl=False)
    elif not is_terminal():
        click.echo(stats_text(rows), nl=False)
    else:
        from rich.console import Console
        from rich.table import Table

        table = Table(title="Translation progress", title_justify="left")
        for number, column in enumerate(STATS_COLUMNS):
            table.add_column(column, justify="left" if number < 2 else "right")
        for cells in stats_cells(rows):
            table.add_row(*cells)
        Console().print(table)


@click.command()
@locale_option
@format_option("human", "json", default="human",
               explained="json: a stable schema for CI and editors (as stats --format json).")
@click.option("--list", "list_only", is_flag=True,
              help="List the checks with severity and explanation.")
@click.option("--annotate", "annotate_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Also write a copy of each catalog, findings as translator comments, "
              "to DIR/<locale>/<doc>.po for a PO editor.")
@run_options()
@pass_state
@reports_errors
def check(
    state: AppState, locales: tuple[str, ...], fmt: str, list_only: bool,
    annotate_dir: Path | None, jobs: int | None, shard, force: bool, quiet: bool,
) -> None:
    """Check translations: markup, numbers, glossary, punctuation, length, completeness.

    Prints `path.po:LINE (source.md:LINE): severity: [check] message — how to fix` per
    finding (editors jump to the line), then waivers and a summary. Exit code 1 when
    there are errors. Waive a check on one entry with a translator comment:
    `# tolmach: ignore numbers — reason`. A catalog whose text, source, the glossary
    and the check settings did not change is not checked again: its findings are the
    ones recorded.

    \b
    Examples:
      tolmach check                 # every locale
      tolmach check -l de --format json
      tolmach check -l de --annotate review/   # review/de/<doc>.po, open in Poedit
      tolmach check --list
    """
    from rich.console import Console

    from tolmach.checks.report import has_errors, list_checks, render_human, render_json

    if list_only:
        for name, severity, explanation in list_checks(_check_config(state)):
            click.echo(f"{name:<16} {severity:<8} {explanation}")
        return
    project = state.project()
    with running("check", jobs, shard, force, quiet) as run:
        findings = project.check(locales, run)
        progress = None
        if fmt == "json":
            progress = {row.path: row for row in map(project.catalog_row, project.stats(locales, run))}
    catalogs = project.catalogs(locales, run)
    paths = [project.shown(path) for _, _, path in catalogs]
    if fmt == "json":
        click.echo(render_json(findings, paths, progress))
    else:
        render_human(findings, Console(width=120, highlight=False), paths)
    if annotate_dir is not None:
        _annotate(state, project, catalogs, findings, annotate_dir)
    if has_errors(findings):
        sys.exit(1)


def _check_config(state: AppState):
    """The project's check settings; the defaults outside a project (``check --list``)."""
    from tolmach.checks import CheckConfig
    from tolmach.config import ProjectNotFound

    try:
        return state.project().check_config
    except ProjectNotFound:
        return CheckConfig()


def _annotate(state: AppState, project, catalogs, findings, folder: Path) -> None:
    from tolmach.catalog.pofile import read_po, write_po
    from tolmach.checks.annotate import annotate_catalog

    for locale, doc, path in catalogs:
        if not path.is_file():
            continue
        shown = project.shown(path)
        own = [f for f in findings if f.path == shown]
        target = folder / locale / f"{doc}.po"
        write_po(annotate_catalog(read_po(path), own), target, width=project.config.po_width)
        click.echo(f"annotated {shown} → {shown_path(target)}", err=True)


def shown_path(path: Path) -> str:
    """A path as the user typed it, relative to the working directory when inside it."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(path)
