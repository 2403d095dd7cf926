"""What every command shares: the project it works on, and how errors are shown.

A command gets the project lazily through :data:`pass_state` (so ``--help``, ``init``
and the single-file forms never look for a project or read a configuration) and wraps
its body in :func:`reports_errors`, which turns the library's expected errors into one
line and exit code 1; anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

import contextlib
import functools
import sys
from collections.abc import Iterator
from pathlib import Path

import click

from tolmach.config import Config, load_config, locate_project
from tolmach.fileio import error_message, flushed_at_end, write_atomic

__all__ = [
    "DIALECT_NAMES",
    "AppState",
    "dialect_options",
    "emit",
    "error_line",
    "format_option",
    "is_terminal",
    "locale_option",
    "pass_state",
    "report_file",
    "reports_errors",
    "resolve_dialect_option",
    "run_options",
    "running",
    "shown",
]

# The library's expected errors, by class name: the modules that define them are
# imported only by the commands that need them.
EXPECTED_ERRORS = frozenset(
    {
        "BrowserMissing",
        "CatalogError",
        "CheckError",
        "ConfigError",
        "GlossaryError",
        "LocaleError",
        "OutsideError",
        "ProjectLocked",
        "ProjectNotFound",
        "PublishError",
        "SourceError",
        "TmxError",
        "TranslationMemoryError",
        "ValueError",
        "WriteError",
    }
)


class AppState:
    """Shared by all commands: where the project is, found when first asked for (from
    ``start`` upwards, as git finds a repository); its configuration, loaded lazily."""

    def __init__(self, root: Path | None = None, start: Path | None = None) -> None:
        self.found = Path(root).resolve() if root is not None else None
        self.start = start or Path.cwd()
        self.loaded: Config | None = None

    @property
    def root(self) -> Path:
        """The project folder; :class:`~tolmach.config.ProjectNotFound` when there is none."""
        if self.found is None:
            self.found = locate_project(self.start).resolve()
        return self.found

    @property
    def config(self) -> Config:
        if self.loaded is None:
            self.loaded = load_config(self.root)
        return self.loaded

    def project(self):
        from tolmach.project import Project

        return Project(self.config)


pass_state = click.make_pass_decorator(AppState)


def reports_errors(func):
    """Turn the library's expected errors into one clear line and exit code 1; the
    files the command wrote reach the disk once, at its end."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            with flushed_at_end():
                return func(*args, **kwargs)
        except Exception as exc:
            if any(cls.__name__ in EXPECTED_ERRORS for cls in type(exc).__mro__):
                raise click.ClickException(error_line(exc)) from None
            raise

    return wrapper


def error_line(exc: Exception) -> str:
    """The error as one line, its file named relative to the project root."""
    context = click.get_current_context(silent=True)
    state = context.find_object(AppState) if context is not None else None
    if state is None:
        return str(exc)
    # the project when one was found, else the folder it was looked for from (-C or here)
    return error_message(exc, state.found or state.start)


def locale_option(func):
    return click.option(
        "-l",
        "--locale",
        "locales",
        multiple=True,
        metavar="LOCALE",
        help="Configured target locale, as de_DE or de-DE (repeatable); default: all.",
    )(func)


def format_option(*choices: str, default: str, explained: str):
    """``--format``: how a command prints its result, for people or for scripts."""
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(choices),
        default=default,
        show_default=True,
        help=explained,
    )


def is_terminal() -> bool:
    """True when standard output is a terminal: tables are drawn only for people."""
    return sys.stdout.isatty()


#: The presets of :data:`tolmach.markdown.dialects.PRESETS`, by name: the options are
#: declared when the CLI loads, which must not load markdown-it and every dialect plugin
#: (``tolmach --version``); a test holds the two lists equal.
DIALECT_NAMES = (
    "commonmark", "gfm", "vitepress", "docusaurus", "mkdocs-material", "hugo", "jekyll",
    "mdbook", "javascript-info",
)


def dialect_options(func):
    """``--dialect`` and ``--syntax`` for the single-file forms (no project to read them from)."""
    func = click.option(
        "--syntax",
        "syntax",
        multiple=True,
        metavar="+NAME|-NAME",
        help="Adjust the dialect: +deflist adds a syntax, -linkify removes one (repeatable).",
    )(func)
    return click.option(
        "--dialect",
        type=click.Choice(DIALECT_NAMES),
        default="commonmark",
        show_default=True,
        metavar="NAME",
        help=f"Markdown dialect of the source (single-file mode): {', '.join(DIALECT_NAMES)}.",
    )(func)


def resolve_dialect_option(dialect: str, syntax: tuple[str, ...]):
    """The dialect the options name; a bad ``--syntax`` is a usage error."""
    from tolmach.markdown.dialects import resolve_dialect

    try:
        return resolve_dialect(dialect, syntax)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--syntax") from None


def shown(path: Path, root: Path) -> str:
    """A path as messages show it: relative to the project root when inside it."""
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


def emit(text: str, output: Path) -> None:
    """Write ``text`` to ``output`` atomically, or to standard output for ``-``."""
    if str(output) == "-":
        click.echo(text, nl=False)
        return
    write_atomic(output, text)
    click.echo(f"wrote {output}", err=True)


def report_file(state: AppState, path: Path, written: bool) -> None:
    click.echo(f"{'wrote' if written else 'unchanged'} {shown(path, state.root)}", err=True)


def run_options(*, shard: bool = True):
    """``-j N``, ``--shard K/N`` (if ``shard``), ``--force`` and ``--quiet``: how a
    project command runs its units of work."""

    def decorate(func):
        func = click.option("-q", "--quiet", is_flag=True,
                            help="No progress bar on a terminal, no summary line in a log.")(func)
        func = click.option("--force", is_flag=True,
                            help="Do every unit of work again, whatever the cache "
                            "(.tolmach-cache/results) remembers; the results are "
                            "remembered afresh.")(func)
        if shard:
            func = click.option("--shard", metavar="K/N", callback=_shard_option,
                                help="Work on the K-th of N shares of the documents, as a "
                                "CI matrix splits them (`publish` then assembles the "
                                "site).")(func)
        return click.option("-j", "--jobs", type=click.IntRange(1), metavar="N",
                            help="Processes that run the units of work (default: one per "
                            "core; 1: all in this process).")(func)

    return decorate


def _shard_option(ctx: click.Context, param: click.Parameter, value: str | None):
    if value is None:
        return None
    from tolmach.jobs.shard import parse_shard

    try:
        return parse_shard(value)
    except ValueError as error:
        raise click.BadParameter(str(error)) from None


@contextlib.contextmanager
def running(
    command: str, jobs: int | None, shard=None, force: bool = False, quiet: bool = False
) -> Iterator:
    """The :class:`~tolmach.jobs.executor.RunOptions` of one command: a process pool
    for ``-j N`` (the cores by default), the shard, ``--force``, and its progress display."""
    from tolmach.cli.progress import ProgressDisplay
    from tolmach.jobs.executor import RunOptions, default_jobs, process_pool

    jobs = jobs or default_jobs()
    executor = process_pool(jobs) if jobs > 1 else None
    display = ProgressDisplay(command, quiet=quiet, jobs=jobs)
    finished = False
    try:
        yield RunOptions(executor=executor, shard=shard, force=force, progress=display)
        finished = True
    finally:
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)
        if finished:
            display.close()
        else:
            display.quiet = True
            display.close()
