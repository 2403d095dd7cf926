"""``tolmach glossary``: list, find candidates, export and import the termbase.

A click group of its own; the main CLI registers it with ``cli.add_command(glossary)``.
The project root comes from the root context's ``obj.root`` when the main CLI set one,
else the current directory.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from tolmach.config import Config, ConfigError, ProjectNotFound, load_config, locate_project
from tolmach.fileio import write_atomic

__all__ = ["glossary"]

# As tolmach.glossary.exchange names them (tests/test_help.py holds them equal); written
# out here so that the command line starts without the glossary's libraries.
MULTILINGUAL_FORMATS = ("tbx", "csv")
PAIR_FORMATS = ("csv-pairs", "omegat")
_FORMATS = (*MULTILINGUAL_FORMATS, *PAIR_FORMATS)
_SUFFIXES = {".tbx": "tbx", ".csv": "csv", ".txt": "omegat", ".tab": "omegat", ".utf8": "omegat"}


def _config() -> Config:
    """The project's configuration (from the main CLI's state, else the project the
    current folder is in); no project is a one-line error, not a glossary made anywhere."""
    obj = click.get_current_context().find_root().obj
    try:
        config = getattr(obj, "config", None)
        if isinstance(config, Config):
            return config
        return load_config(getattr(obj, "root", None) or locate_project(Path.cwd()))
    except (ProjectNotFound, ConfigError) as error:
        raise click.ClickException(str(error)) from None


def _shown(path: Path) -> str:
    """A path as the user would type it: relative to the working directory if possible."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(path)


def _glossary_path() -> Path:
    return _config().glossary_path


def _load():
    from tolmach.glossary import GlossaryError, load_termbase

    path = _glossary_path()
    if not path.exists():
        raise click.ClickException(
            f"{_shown(path)}: no glossary (create it or run 'glossary import')"
        )
    try:
        return load_termbase(_shown(path))
    except GlossaryError as error:
        raise click.ClickException(str(error)) from None


@click.group()
def glossary() -> None:
    """The termbase in locales/glossary.toml: terms that must be kept or translated one way.

    \b
    Examples:
      tolmach glossary list
      tolmach glossary candidates
      tolmach glossary export --format tbx -o glossary.tbx
      tolmach glossary export --format omegat -l de -o glossary.de.txt
      tolmach glossary import glossary.csv
    """


@glossary.command("list")
def list_terms() -> None:
    """Show every term with its kind, translations and note.

    \b
    Example:
      tolmach glossary list | grep keep
    """
    termbase = _load()
    if sys.stdout.isatty():
        _print_table(termbase)
        return
    for term in termbase.terms:
        targets = "; ".join(f"{loc}: {' / '.join(t)}" for loc, t in term.translations)
        forbidden = "; ".join(f"{loc}: {' / '.join(t)}" for loc, t in term.forbidden)
        line = f"{term.source} ({term.kind})"
        line += f" → {targets}" if targets else ""
        line += f" [not: {forbidden}]" if forbidden else ""
        click.echo(line + (f" — {term.note}" if term.note else ""))


def _print_table(termbase) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    locales = termbase.locales
    table = Table("term", "kind", *locales, "note", title=f"{len(termbase.terms)} terms")
    for term in termbase.terms:
        translations, forbidden = dict(term.translations), dict(term.forbidden)
        cells = []
        for loc in locales:
            cell = escape(" / ".join(translations.get(loc, ())))
            if forbidden.get(loc):
                cell += f"\n[red]not {escape(' / '.join(forbidden[loc]))}[/red]"
            cells.append(cell)
        table.add_row(escape(term.source), term.kind, *cells, escape(term.note))
    Console().print(table)


@glossary.command()
@click.argument("sources", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--top", default=30, show_default=True, help="How many candidates to show (0: all).")
@click.option("--min-count", default=1, show_default=True, help="How often a candidate must occur.")
def candidates(sources: tuple[Path, ...], top: int, min_count: int) -> None:
    """Words and phrases of the sources that look like terms the termbase lacks.

    Russian nouns and noun phrases (adjective + noun, noun + genitive), hyphenated
    forms such as Docker-образ, and Latin-script names, ranked by termhood: how much
    more the documents use them than general Russian does, how often, and how close
    to known terms. Each shows where it occurs and, when catalogs hold translations,
    the target words seen with it. Default sources: the configured documents.

    \b
    Examples:
      tolmach glossary candidates
      tolmach glossary candidates --top 50
      tolmach glossary candidates drafts/new-article.ru.md
    """
    from tolmach.glossary.discovery import discover_terms

    config = _config()
    segments, translations, termbase = _discovery_input(config, sources)
    found = [c for c in discover_terms(termbase, segments, translations) if c.count >= min_count][
        : top or None
    ]
    if not found:
        click.echo("no candidates: the termbase covers the sources")
        return
    for rank, candidate in enumerate(found, start=1):
        click.echo(
            f"{rank:>3}. {candidate.text}  ({candidate.kind}; {candidate.count}× in "
            f"{candidate.documents} document(s), score {candidate.score:.2f})"
        )
        places = ", ".join(f"{o.document}:{o.line} «{o.form}»" for o in candidate.occurrences[:4])
        more = f", … {candidate.count - 4} more" if candidate.count > 4 else ""
        click.echo(f"      in {places}{more}")
        for locale, words in candidate.aligned:
            click.echo(f"      {locale}: {', '.join(words)}")


def _discovery_input(config: Config, sources: tuple[Path, ...]):
    """Source segments (with headings marked), translated entries, and the termbase."""
    from tolmach.config import document_name
    from tolmach.fileio import read_source
    from tolmach.glossary import GlossaryError, Termbase
    from tolmach.glossary.discovery import SourceSegment, TranslatedEntry
    from tolmach.markdown.document import parse_document
    from tolmach.project import Project

    project = Project(config)
    try:
        termbase = project.termbase
    except GlossaryError as error:
        raise click.ClickException(str(error)) from None
    if termbase is None:
        termbase = Termbase()
    if sources:
        documents = [
            (document_name(p.name, config.source_locale), parse_document(read_source(p)))
            for p in sources
        ]
    else:
        documents = [(d.name, project.load(d)) for d in project.documents]
    if not documents:
        raise click.ClickException("no sources: no configured document exists")
    segments = [
        SourceSegment(name, s.line, s.text, s.kind.startswith("heading"))
        for name, document in documents
        for s in document.segments
    ]
    translations = []
    for name, _ in documents:
        for locale in config.locales:
            po = project.read_catalog(locale, name)
            for entry in po or ():
                if entry.msgstr and not entry.obsolete and "fuzzy" not in entry.flags:
                    translations.append(TranslatedEntry(locale, entry.msgid, entry.msgstr))
    return segments, translations, termbase


def markdown_texts(markdown: str) -> list[str]:
    """The prose of a Markdown document: inline content, without code blocks or front matter."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.front_matter import front_matter_plugin

    parser = MarkdownIt("commonmark").enable("table").use(front_matter_plugin)
    return [token.content for token in parser.parse(markdown) if token.type == "inline"]


_LOCALE_HELP = "Target locale of a csv-pairs or omegat file (one locale a file)."


def _pair_locale(fmt: str, locale: str | None) -> str | None:
    if fmt in PAIR_FORMATS and not locale:
        raise click.BadParameter(f"{fmt} holds one target locale; name it with -l", param_hint="-l")
    if fmt in MULTILINGUAL_FORMATS and locale:
        raise click.BadParameter(f"{fmt} holds every locale; drop -l", param_hint="-l")
    return locale


@glossary.command()
@click.option(
    "--format", "fmt", type=click.Choice(_FORMATS), required=True, metavar="FORMAT",
    help=f"Exchange format: {', '.join(_FORMATS)}."
)
@click.option("-l", "--locale", help=_LOCALE_HELP)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="File to write (default: stdout).",
)
def export(fmt: str, locale: str | None, output: Path | None) -> None:
    """Write the termbase for CAT tools: TBX-Basic, CSV, CSV pairs or an OmegaT glossary.

    tbx and csv hold every locale; csv-pairs (source,target,description,...) and
    omegat (source<TAB>target<TAB>comment) hold one, named with -l.

    \b
    Examples:
      tolmach glossary export --format tbx -o glossary.tbx
      tolmach glossary export --format csv > glossary.csv
      tolmach glossary export --format csv-pairs -l de -o glossary.de.csv
      tolmach glossary export --format omegat -l zh_CN -o glossary.zh_CN.txt
    """
    from tolmach.glossary.exchange import write_csv, write_omegat, write_pairs, write_tbx

    locale = _pair_locale(fmt, locale)
    termbase = _load()
    writers = {
        "tbx": lambda: write_tbx(termbase),
        "csv": lambda: write_csv(termbase),
        "csv-pairs": lambda: write_pairs(termbase, locale),
        "omegat": lambda: write_omegat(termbase, locale),
    }
    try:
        text = writers[fmt]()
    except ValueError as error:
        raise click.ClickException(str(error)) from None
    if output is None:
        click.echo(text, nl=False)
        return
    write_atomic(output, text)
    click.echo(f"wrote {_shown(output)} ({len(termbase.terms)} terms)", err=True)


@glossary.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--format", "fmt", type=click.Choice(_FORMATS), metavar="FORMAT",
              help=f"{', '.join(_FORMATS)}; default: from the file name.")
@click.option("-l", "--locale", help=_LOCALE_HELP)
def import_terms(file: Path, fmt: str | None, locale: str | None) -> None:
    """Bring terms from a TBX, CSV, CSV pairs or OmegaT file into locales/glossary.toml.

    tbx and csv replace every term; csv-pairs and omegat replace the targets of one
    locale (-l) and add the terms the glossary lacks. The file is edited in place: its
    comments, the order of its terms and its [ignore] phrases stay. Nothing is written
    if the import has errors.

    \b
    Examples:
      tolmach glossary import glossary.tbx
      tolmach glossary import --format omegat -l de glossary.de.txt
    """
    from tolmach.glossary import GlossaryError, Termbase
    from tolmach.glossary.exchange import (
        dump_termbase_toml,
        merge_locale,
        read_csv,
        read_omegat,
        read_pairs,
        read_tbx,
        update_termbase_toml,
    )

    fmt = fmt or _format_of(file, locale)
    locale = _pair_locale(fmt, locale)
    target = _glossary_path()
    current = _load() if target.exists() else Termbase()
    text = file.read_text(encoding="utf-8")
    try:
        if fmt in PAIR_FORMATS:
            reader = read_pairs if fmt == "csv-pairs" else read_omegat
            termbase = merge_locale(
                current, reader(text, locale, _shown(file)), locale, _shown(file)
            )
        else:
            reader = read_tbx if fmt == "tbx" else read_csv
            termbase = reader(text, _shown(file), current.ignored)
    except GlossaryError as error:
        raise click.ClickException(str(error)) from None
    if target.exists():
        new_text = update_termbase_toml(target.read_text(encoding="utf-8"), termbase)
    else:
        new_text = dump_termbase_toml(termbase)
    written = write_atomic(target, new_text)
    state = "wrote" if written else "unchanged"
    click.echo(f"{state} {_shown(target)} ({len(termbase.terms)} terms)", err=True)


def _format_of(file: Path, locale: str | None) -> str:
    """The format a file name suggests; a .csv with -l is a pairs file."""
    fmt = _SUFFIXES.get(file.suffix.lower())
    if fmt == "csv" and locale:
        return "csv-pairs"
    if fmt is None:
        raise click.BadParameter(
            f"cannot tell the format of {file.name}; use --format", param_hint="--format"
        )
    return fmt
