"""``tolmach publish``, ``preview`` and ``screenshots``: thin commands over tolmach.publish.

Registered on the main group by :mod:`tolmach.cli`; the shared state (project root,
configuration) comes from the root context's ``obj``.
"""

from __future__ import annotations

import tempfile
import threading
from pathlib import Path

import click

from tolmach.cli.common import AppState, reports_errors, run_options, running, shown

__all__ = ["preview", "publish", "screenshots"]


GENERATORS = ("mkdocs", "hugo", "vitepress", "docusaurus")


@click.command()
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path),
              help="Folder of the site (default: <output-dir>/site of the project).")
@click.option("-l", "--locale", "locales", multiple=True, metavar="LOCALE",
              help="Rebuild only this locale's pages (repeatable); the index, switchers, "
                   "feeds and sitemap still list every published page.")
@click.option("--threshold", type=click.FloatRange(0, 100), metavar="PERCENT",
              help="Minimum share of source words translated (default: the project's).")
@click.option("--allow-errors", is_flag=True,
              help="Publish translations with check errors too (each is reported).")
@click.option("--review", "review", type=click.Choice(["separate", "in-site", "none"]), metavar="WHERE",
              default="separate", show_default=True,
              help="Reviewer pages: in <output-dir>/review, inside the site, or none.")
@click.option("--no-search", is_flag=True, help="No Pagefind search index.")
@click.option("--to", "export", type=(click.Choice(GENERATORS), click.Path(file_okay=False,
              path_type=Path)), metavar="GENERATOR DIR", default=None,
              help="Instead of a site, write the localized Markdown into DIR in the i18n "
                   "layout of mkdocs, hugo, vitepress or docusaurus, plus its config snippet.")
@run_options(shard=False)
@reports_errors
def publish(output: Path | None, locales: tuple[str, ...], threshold: float | None,
            allow_errors: bool, review: str, no_search: bool,
            export: tuple[str, Path] | None, jobs: int | None, force: bool,
            quiet: bool) -> None:
    """Publish the verified translations as a static HTML site, in every language.

    \b
    A translation is published when it reaches the threshold and has no check errors;
    the others are listed with the reason, and their reviewer pages say what to fix.
    Only what changed is judged and written again: a document whose source and
    catalogs did not change keeps its verdicts, a page whose text and links did not
    change is not rendered, the index only when a title or state changed. After a CI
    matrix ran `--shard K/N` on each machine, one `publish` assembles the whole site.

    \b
    Examples:
      tolmach publish                  # output/site/index.html, <locale>/<doc>.html
      tolmach publish -l de            # rebuild German pages; lists stay complete
      tolmach publish --review in-site -o public
      tolmach publish --to mkdocs site-src/   # Markdown for mkdocs-static-i18n
    """
    from tolmach.publish.site import PublishOptions, publish_site, site_folder

    state = click.get_current_context().find_object(AppState)
    project = state.project()
    if export is not None:
        _export(project, state.root, *export, locales, threshold, allow_errors)
        return
    out = site_folder(project, output)
    review_dir = {"separate": project.config.output_path / "review",
                  "in-site": out / "review", "none": None}[review]
    options = PublishOptions(locales=locales, threshold=threshold, allow_errors=allow_errors,
                             review=review_dir, search=False if no_search else None)
    with running("publish", jobs, None, force, quiet) as run:
        report = publish_site(project, out, options, run)
    _print_report(report, state.root, review_dir)


def _print_report(report, root: Path, review_dir: Path | None) -> None:
    removed = f", {len(report.removed)} removed" if report.removed else ""
    click.echo(f"{shown(report.out_dir, root)}: {report.files} files, "
               f"{len(report.written)} changed{removed}")
    counts: dict[str, int] = {}
    for outcome in report.published:
        counts[outcome.language.code] = counts.get(outcome.language.code, 0) + 1
    click.echo("  published: " + ", ".join(f"{code} {n}" for code, n in counts.items()))
    for outcome in report.withheld:
        click.echo(f"  not published: {outcome.language.code}/{outcome.doc.name} "
                   f"({outcome.verdict.reason})")
    for outcome in report.published:
        if outcome.verdict.forced:
            click.echo(f"Warning: {outcome.language.code}/{outcome.doc.name} is published with "
                       f"{outcome.verdict.errors} check error(s) (--allow-errors)", err=True)
    for note in report.notes:
        click.echo(f"  note: {note}")
    if review_dir is not None and review_dir.is_dir():
        click.echo(f"  reviewer pages: {shown(review_dir / 'index.html', root)}")
    click.echo(f"  open {shown(report.out_dir / 'index.html', root)}")


def _export(project, root: Path, generator: str, folder: Path,
            locales: tuple[str, ...], threshold: float | None, allow_errors: bool) -> None:
    from tolmach.publish.export import export_site

    result = export_site(project, generator, folder, locales=locales, threshold=threshold,
                         allow_errors=allow_errors)
    click.echo(f"{shown(folder, root)}: {generator} layout, {len(result.pages)} pages, "
               f"{len(result.assets)} assets, {len(result.written)} changed")
    for outcome in result.withheld:
        click.echo(f"  not exported: {outcome.language.code}/{outcome.doc.name} "
                   f"({outcome.verdict.reason})")
    click.echo(f"  config: {shown(result.config_file, root)} (merge it into your "
               f"{result.config_target})")


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
    """Publish into a temporary folder and save PNGs of the index and one article per
    published language (needs headless Chromium).

    \b
    Example:
      tolmach screenshots -o screenshots/
    """
    from tolmach.publish.screenshots import screenshot_targets, take_screenshots
    from tolmach.publish.site import PublishOptions, publish_site

    state = click.get_current_context().find_object(AppState)
    project = state.project()
    out = output if output.is_absolute() else Path.cwd() / output
    with tempfile.TemporaryDirectory(prefix="tolmach-site-") as folder:
        publish_site(project, Path(folder), PublishOptions(search=False))
        targets = screenshot_targets(project, locales, Path(folder))
        written = take_screenshots(Path(folder), targets, out,
                                   width=width, height=height, full_page=full_page)
    for path in written:
        click.echo(shown(path, Path.cwd()))
