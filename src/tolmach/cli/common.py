"""What every command shares: the project it works on, and how errors are shown.

A command gets the project lazily through :data:`pass_state` (so ``--help`` and the
single-file forms never read a configuration) and wraps its body in
:func:`reports_errors`, which turns the library's expected errors into one line and
exit code 1; anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import click

from tolmach.config import Config, load_config
from tolmach.fileio import write_atomic

__all__ = [
    "AppState",
    "dialect_options",
    "emit",
    "locale_option",
    "pass_state",
    "report_file",
    "reports_errors",
    "resolve_dialect_option",
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
        "ProjectLocked",
        "PublishError",
        "SourceError",
        "TmxError",
        "TranslationMemoryError",
        "ValueError",
    }
)


@dataclass
class AppState:
    """Shared by all commands: where the project is; its configuration, loaded lazily."""

    root: Path
    loaded: Config | None = None

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
    """Turn the library's expected errors into one clear line and exit code 1."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except Exception as exc:
            if any(cls.__name__ in EXPECTED_ERRORS for cls in type(exc).__mro__):
                raise click.ClickException(str(exc)) from None
            raise

    return wrapper


def locale_option(func):
    return click.option(
        "-l",
        "--locale",
        "locales",
        multiple=True,
        metavar="LOCALE",
        help="Target locale (repeatable); default: all configured locales.",
    )(func)


def dialect_options(func):
    """``--dialect`` and ``--syntax`` for the single-file forms (no project to read them from)."""
    from tolmach.markdown.dialects import PRESETS

    func = click.option(
        "--syntax",
        "syntax",
        multiple=True,
        metavar="+NAME|-NAME",
        help="Adjust the dialect: +deflist adds a syntax, -linkify removes one (repeatable).",
    )(func)
    return click.option(
        "--dialect",
        type=click.Choice(list(PRESETS)),
        default="commonmark",
        show_default=True,
        help="Markdown dialect of the source (single-file mode).",
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
