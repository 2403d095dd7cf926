"""``tolmach publish``, ``preview`` and ``screenshots``: thin commands over tolmach.publish.

Registered on the main group by :mod:`tolmach.cli`; the shared state (project root,
configuration) comes from the root context's ``obj``.
"""

from __future__ import annotations

import tempfile
import threading
from pathlib import Path

import click

from tolmach.cli.common import AppState, reports_errors, shown

__all__ = ["preview", "publish", "screenshots"]


@click.command()
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path),
              help="Folder of the site (default: <output-dir>/site of the project).")
@click.option("-l", "--locale", "locales", multiple=True, metavar="LOCALE",
              help="Target locale (repeatable); default: all configured locales.")
@reports_errors
def publish(output: Path | None, locales: tuple[str, ...]) -> None:
    """Publish the articles as a static HTML site, in every language.

    Incomplete catalogs are fine: untranslated passages show the source text and the
    page says how much is translated and whether the translation is outdated.

    \b
    Examples:
      tolmach publish                  # output/site/index.html, <locale>/<doc>.html
      tolmach publish -l de -o public
    """
    from tolmach.publish.site import render_site, site_folder, write_site

    state = click.get_current_context().find_object(AppState)
    project = state.project()
    out = site_folder(project, output)
    files = render_site(project, locales)
    changed = write_site(files, out)
    click.echo(f"{shown(out, state.root)}: {len(files)} files, {len(changed)} changed")
    click.echo(f"  open {shown(out / 'index.html', state.root)}")


@click.command()
@click.option("-l", "--locale", required=True, metavar="LOCALE", help="The locale to preview.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="Port on 127.0.0.1 (0: any free port).")
@reports_errors
def preview(locale: str, port: int) -> None:
    """Serve one locale's pages on localhost; rebuild them when a catalog,
    source or the glossary changes. Ctrl-C stops.

    \b
    Example:
      tolmach preview -l de            # then open the printed URL; save in Poedit
    """
    from tolmach.publish.preview import Preview, serve_directory

    state = click.get_current_context().find_object(AppState)
    with tempfile.TemporaryDirectory(prefix="tolmach-preview-") as folder:
        session = Preview(state.root, locale, Path(folder), report=click.echo)
        session.build()
        try:
            server = serve_directory(Path(folder), port, version=session.version)
        except OSError as exc:
            raise click.ClickException(f"cannot listen on 127.0.0.1:{port}: {exc}") from None
        with server as base:
            try:
                click.echo(f"Previewing {locale} at {base}{session.first_page()}")
                click.echo("Watching catalogs, sources and glossary; Ctrl-C stops.")
                session.start_watching()
                threading.Event().wait()
            except KeyboardInterrupt:
                click.echo("stopped")
            finally:
                session.stop()


@click.command()
@click.option("-o", "--output", default=Path("screenshots"), show_default=True,
              type=click.Path(file_okay=False, path_type=Path), help="Folder for the PNGs.")
@click.option("-l", "--locale", "locales", multiple=True, metavar="LOCALE",
              help="Target locale (repeatable); default: all configured locales.")
@click.option("--width", default=1280, show_default=True, type=click.IntRange(320, 4000),
              help="Width of the browser window, in CSS pixels.")
@click.option("--height", default=900, show_default=True, type=click.IntRange(240, 4000),
              help="Height of the browser window (the first screen), in CSS pixels.")
@click.option("--full-page", is_flag=True, help="Capture whole pages, not the first screen.")
@reports_errors
def screenshots(output: Path, locales: tuple[str, ...], width: int, height: int,
                full_page: bool) -> None:
    """Publish into a temporary folder and save PNGs of the index, one article per
    language and the reviewer pages (needs headless Chromium).

    \b
    Example:
      tolmach screenshots -o screenshots/
    """
    from tolmach.publish.screenshots import screenshot_targets, take_screenshots
    from tolmach.publish.site import render_site, write_site

    state = click.get_current_context().find_object(AppState)
    project = state.project()
    out = output if output.is_absolute() else Path.cwd() / output
    with tempfile.TemporaryDirectory(prefix="tolmach-site-") as folder:
        write_site(render_site(project, locales), Path(folder))
        written = take_screenshots(Path(folder), screenshot_targets(project, locales), out,
                                   width=width, height=height, full_page=full_page)
    for path in written:
        click.echo(shown(path, Path.cwd()))
