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
from tolmach.fileio import error_message, write_atomic

__all__ = [
    "AppState",
    "emit",
    "error_line",
    "locale_option",
    "pass_state",
    "report_file",
    "reports_errors",
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
        "OutsideError",
        "ProjectLocked",
        "PublishError",
        "SourceError",
        "TmxError",
        "TranslationMemoryError",
        "ValueError",
        "WriteError",
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
                raise click.ClickException(error_line(exc)) from None
            raise

    return wrapper


def error_line(exc: Exception) -> str:
    """The error as one line, its file named relative to the project root."""
    context = click.get_current_context(silent=True)
    state = context.find_object(AppState) if context is not None else None
    return error_message(exc, state.root) if state is not None else str(exc)


def locale_option(func):
    return click.option(
        "-l",
        "--locale",
        "locales",
        multiple=True,
        metavar="LOCALE",
        help="Target locale (repeatable); default: all configured locales.",
    )(func)


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
