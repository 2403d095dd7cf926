"""``tolmach preview``: the site for one locale on localhost, rebuilt as files change.

A translator saves a ``.po`` in Poedit and sees the sentence in its page a moment
later. The preview builds into a folder of its own (never ``output/site``), watches the
locale's catalogs, the source documents and the glossary with watchfiles, and rebuilds
the affected pages in a background thread. Preview pages carry one small script of our
own that reloads the page when a rebuild changed something; published pages have none.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from tolmach.config import load_config
from tolmach.fileio import error_message
from tolmach.project import Project
from tolmach.publish.site import PublishOptions, publish_site

__all__ = ["LIVE_SCRIPT", "Preview", "SiteServer", "serve_directory"]

LIVE_SCRIPT = "/__tolmach/live.js"
VERSION_URL = "/__tolmach/version"
DEBOUNCE_MS = 300
_LIVE_JS = """\
(function () {
  var seen = null;
  function poll() {
    fetch("@VERSION@", {cache: "no-store"})
      .then(function (r) { return r.text(); })
      .then(function (v) { if (seen !== null && v !== seen) { location.reload(); } seen = v; })
      .catch(function () {})
      .finally(function () { setTimeout(poll, 700); });
  }
  poll();
})();
""".replace("@VERSION@", VERSION_URL)


class _Handler(SimpleHTTPRequestHandler):
    """Static files without caching, plus the live-reload script and build counter."""

    version: Callable[[], str] | None = None

    def do_GET(self) -> None:
        if self.version is not None and self.path == VERSION_URL:
            self._send_text(self.version(), "text/plain")
        elif self.version is not None and self.path == LIVE_SCRIPT:
            self._send_text(_LIVE_JS, "text/javascript")
        else:
            super().do_GET()

    def _send_text(self, text: str, kind: str) -> None:
        body = text.encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", f"{kind}; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format: str, *args) -> None:
        """Quiet: the terminal is for rebuild messages."""


class SiteServer:
    """A folder served on 127.0.0.1 from a background thread.

    The port is bound on creation (so a busy port fails before anything starts);
    entering the ``with`` block starts serving and gives the base URL.
    """

    def __init__(self, directory: Path, port: int = 0,
                 version: Callable[[], str] | None = None):
        attrs = {"version": staticmethod(version) if version else None}
        handler = type("Handler", (_Handler,), attrs)

        def make(*args):
            return handler(*args, directory=str(directory))

        self._server = ThreadingHTTPServer(("127.0.0.1", port), make)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever,
                                        name="tolmach-http", daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_port}/"

    def __enter__(self) -> str:
        self._thread.start()
        return self.url

    def __exit__(self, *exc_info) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()


def serve_directory(
    directory: Path, port: int = 0, *, version: Callable[[], str] | None = None
) -> SiteServer:
    """Serve ``directory``; use as ``with serve_directory(folder) as base_url: ...``.

    Port 0 picks a free port. ``version`` enables the live-reload endpoints.
    """
    return SiteServer(directory, port, version)


class Preview:
    """The preview site of one locale: build it, watch its inputs, rebuild what changed."""

    def __init__(self, root: Path, locale: str, out_dir: Path,
                 report: Callable[[str], None] = print):
        self.root = root
        self.locale = locale
        self.out_dir = out_dir
        self.report = report
        self.builds = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.project().select_locales([locale])  # validates the locale early

    def project(self) -> Project:
        """A fresh project each time: configuration and document list may have changed."""
        return Project(load_config(self.root))

    def version(self) -> str:
        return str(self.builds)

    def build(self, documents: Iterable[str] | None = None) -> list[Path]:
        """Write the site for the locale (all pages, or those of ``documents``)."""
        options = PublishOptions(
            locales=(self.locale,),
            documents=None if documents is None else frozenset(documents),
            drafts=True,
            live_reload=LIVE_SCRIPT,
        )
        changed = publish_site(self.project(), self.out_dir, options).written
        if changed:
            self.builds += 1
        return changed

    def first_page(self) -> str:
        """Site-relative URL of the locale's first article, or the index if none."""
        documents = self.project().documents
        return f"{self.locale}/{documents[0].name}.html" if documents else "index.html"

    def watched_folders(self) -> list[Path]:
        project = self.project()
        folders = {project.config.locales_path, *(doc.path.parent for doc in project.documents)}
        return sorted(folder for folder in folders if folder.is_dir())

    def affected(self, paths: Iterable[Path]) -> set[str] | None:
        """Documents whose pages depend on ``paths``: None means all, empty means none."""
        project = self.project()
        changed = {Path(p).resolve() for p in paths}
        if project.config.glossary_path.resolve() in changed:
            return None
        return {
            doc.name
            for doc in project.documents
            if doc.path.resolve() in changed
            or project.catalog_path(self.locale, doc.name).resolve() in changed
        }

    def rebuild(self, paths: Iterable[Path]) -> list[Path]:
        """Rebuild after a change; a broken file is reported, the old page stays."""
        try:  # a half-saved catalog, a broken or refused source must not stop the preview
            documents = self.affected(paths)
            if documents is not None and not documents:
                return []
            changed = self.build(documents)
        except Exception as exc:  # noqa: BLE001
            self.report(f"not rebuilt: {error_message(exc, self.root)}")
            return []
        for path in changed:
            if path.suffix == ".html":
                self.report(f"rebuilt {path.relative_to(self.out_dir).as_posix()}")
        return changed

    def start_watching(self) -> None:
        self._thread = threading.Thread(target=self._watch, name="tolmach-watch", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def _watch(self) -> None:
        from watchfiles import watch

        for changes in watch(*self.watched_folders(), stop_event=self._stop,
                             debounce=DEBOUNCE_MS, step=50, rust_timeout=500,
                             yield_on_timeout=False):
            self.rebuild(Path(path) for _, path in changes)
