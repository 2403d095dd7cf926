"""What every renderer shares: page files, running a generator once, cutting out content.

A batch is a dict of page name to Markdown. A name is the page's path in the docs folder
(``"guide/intro.md"``); a name without ``.md`` (or ``.mdx`` where allowed) gets ``.md``
added for the file, and the result is keyed by the name as given.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath

import pytest

__all__ = [
    "HERE",
    "RenderError",
    "ToolMissing",
    "element_inner_html",
    "need_tool",
    "node_package_missing",
    "page_file",
    "run_generator",
    "write_pages",
]

HERE = Path(__file__).resolve().parent
#: A site build of a few hundred pages takes seconds; minutes mean something hangs.
TIMEOUT = 600


class RenderError(RuntimeError):
    """A generator failed on the batch; the message names the page where it can."""


class ToolMissing(RenderError):
    """A generator is not installed; the message says how to install it."""


def page_file(name: str, suffixes: Sequence[str] = (".md",)) -> PurePosixPath:
    """The file a page name is written to, relative to the docs folder.

    >>> str(page_file("guide/intro")), str(page_file("guide/intro.md"))
    ('guide/intro.md', 'guide/intro.md')
    """
    path = PurePosixPath(name)
    if not name or path.is_absolute() or ".." in path.parts or name.endswith("/"):
        raise ValueError(f"page name must be a relative path inside the docs folder: {name!r}")
    return path if path.suffix in suffixes else path.with_name(path.name + ".md")


def write_pages(
    folder: Path, pages: Mapping[str, str], suffixes: Sequence[str] = (".md",)
) -> dict[str, str]:
    """Write each page under ``folder``; return file (relative, POSIX) -> page name."""
    names: dict[str, str] = {}
    for name, text in pages.items():
        relative = str(page_file(name, suffixes))
        if relative in names:
            raise ValueError(f"pages {names[relative]!r} and {name!r} are both {relative}")
        names[relative] = name
        target = folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return names


def run_generator(
    command: Sequence[str],
    *,
    cwd: Path,
    what: str,
    scratch: Path,
    pages_folder: Path | None = None,
    stdin: str | None = None,
    env: Mapping[str, str] | None = None,
) -> str:
    """Run one generator command; its stdout, or RenderError with the end of its output.

    The batch's temporary folders (``pages_folder``, where the pages are, then
    ``scratch``) are cut from the message so it names pages as the caller does.
    """
    result = subprocess.run(
        list(command),
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=TIMEOUT,
        env={**os.environ, **(env or {})},
    )
    if result.returncode != 0:
        output = (result.stderr.strip() or result.stdout.strip())[-4000:]
        for folder in [pages_folder, scratch]:
            if folder is not None:
                output = output.replace(f"{folder}{os.sep}", "").replace(str(folder), ".")
        raise RenderError(f"{what} failed (exit code {result.returncode}):\n{output}")
    return result.stdout


def node_package_missing(folder: Path, package: str) -> str | None:
    """Why the node renderer in ``folder`` cannot run, or None when it can."""
    if shutil.which("node") is None:
        return "node is not installed (Debian: apt-get install nodejs npm)"
    if not (folder / "node_modules" / package / "package.json").is_file():
        relative = folder.relative_to(HERE.parents[1]).as_posix()
        return f"{package} is not installed: run `npm ci --prefix {relative}`"
    return None


def need_tool(missing: str | None) -> None:
    """In a test: fail when a tool is missing under CI (CI set), skip otherwise."""
    if missing is None:
        return
    if os.environ.get("CI"):
        pytest.fail(
            f"{missing} (CI is set, so this fails instead of skipping; .ci/run installs it)"
        )
    pytest.skip(missing)


class _ElementFinder(HTMLParser):
    """Offsets of the inside of the first element with a given tag and class list."""

    def __init__(self, html: str, tag: str, classes: str):
        super().__init__(convert_charrefs=False)
        self.tag = tag
        self.classes = classes.split()
        self.line_starts = [0]
        for line in html.splitlines(keepends=True):
            self.line_starts.append(self.line_starts[-1] + len(line))
        self.depth = 0
        self.start: int | None = None
        self.end: int | None = None

    def _offset(self) -> int:
        line, column = self.getpos()
        return self.line_starts[line - 1] + column

    def handle_starttag(self, tag, attrs):
        if tag != self.tag or self.end is not None:
            return
        if self.start is not None:
            self.depth += 1
        elif (dict(attrs).get("class") or "").split() == self.classes:
            self.start = self._offset() + len(self.get_starttag_text() or "")

    def handle_endtag(self, tag):
        if tag != self.tag or self.start is None or self.end is not None:
            return
        if self.depth:
            self.depth -= 1
        else:
            self.end = self._offset()


def element_inner_html(html: str, tag: str, classes: str) -> str:
    """The HTML inside the first ``<tag class="classes">``, stripped of outer blank space.

    >>> element_inner_html('<main><div class="a b"> <div>x</div> </div></main>', "div", "a b")
    '<div>x</div>'
    """
    finder = _ElementFinder(html, tag, classes)
    finder.feed(html)
    finder.close()
    if finder.start is None or finder.end is None:
        raise RenderError(f'no complete <{tag} class="{classes}"> element in the page')
    return html[finder.start : finder.end].strip()
