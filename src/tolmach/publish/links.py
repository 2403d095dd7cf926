"""Links and local files of a published page: assets copied, documents linked as pages.

A destination naming a local file is resolved against the document's folder:

* another source document (``guide.ru.md#setup``) becomes the link to its page in the
  same language, or to the original when that translation is not published; a fragment
  naming a heading of the original (its slug, or its ``{#id}``) is turned into the id of
  the same heading on the translated page, whose id is the slug of the translated text
  (a fragment within the page, ``#setup``, likewise);
* any other file (an image, a download) is copied into ``assets/`` at the site's root,
  under its path in the project (``assets/seeds/images/hip-flow.png``), optionally with
  a content hash in its name, and a page in a locale that has a localized variant
  (``hip-flow.uk.png``) gets the variant;
* a file that does not exist is an error naming the document and line.
"""

from __future__ import annotations

import filecmp
import hashlib
import posixpath
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from urllib.parse import quote, unquote, urlsplit

from tolmach.fileio import write_atomic
from tolmach.markdown.assets import is_local_reference, local_path, variant_candidates
from tolmach.project import SourceDocument
from tolmach.publish.pages import Page
from tolmach.publish.web import url_path

__all__ = ["ASSETS", "SiteFiles", "copy_if_changed", "link_line"]

ASSETS = "assets"
_HASH_LENGTH = 10


@dataclass
class SiteFiles:
    """Everything a page may link to, and the assets the published pages use."""

    root: Path
    documents: list[SourceDocument]
    is_published: Callable[[str, str], bool]  # (document name, locale code)
    source_code: str
    pattern: str
    hashed: bool = False
    assets: dict[str, Path] = field(default_factory=dict)  # site path → source file
    problems: list[str] = field(default_factory=list)
    # (document name, locale code) → the heading ids of that published page, in order
    anchors: dict[tuple[str, str], Sequence[str]] = field(default_factory=dict)
    fragment_targets: set[str] = field(default_factory=set)  # documents linked with a fragment

    def __post_init__(self) -> None:
        self._by_path = {doc.path.resolve(): doc for doc in self.documents}
        self._resolved_root = self.root.resolve()

    def linker(self, page: Page) -> Callable[[str, str], str]:
        """The ``links`` callback of :func:`render_article` for one page."""
        return lambda kind, url: self.resolve(page, kind, url)

    def resolve(self, page: Page, kind: str, url: str, line: int | None = None) -> str:
        """Where a destination of ``page`` leads on the site; a missing file is noted as
        a problem at ``line`` of the source (found from the page when not given)."""
        if url.startswith("#") and kind == "link":
            return "#" + self.fragment(page.doc.name, page.language.code, url[1:])
        if not is_local_reference(url):
            return url
        parts = urlsplit(url)
        suffix = f"?{parts.query}" if parts.query else ""
        target = (page.doc.path.parent / local_path(url)).resolve()
        if target != self._resolved_root and self._resolved_root not in target.parents:
            self._problem(page, kind, url, "points outside the project", line)
            return url
        doc = self._by_path.get(target)
        if doc is not None:
            code = page.language.code
            if code != self.source_code and not self.is_published(doc.name, code):
                code = self.source_code
            if parts.fragment:
                suffix += "#" + self.fragment(doc.name, code, parts.fragment)
            return page.root + url_path(f"{code}/{doc.name}.html") + suffix
        suffix += f"#{parts.fragment}" if parts.fragment else ""
        if not target.is_file():
            self._problem(page, kind, url, "not found", line)
            return url
        chosen = self._variant(page, url, target)
        return page.root + url_path(self._publish_asset(chosen)) + suffix

    def fragment(self, name: str, code: str, fragment: str) -> str:
        """A fragment of a link to document ``name`` in ``code``: the id of the heading
        it names on that page. One naming a heading of the original becomes the id the
        same heading (by position) has in the translation; anything else is kept."""
        self.fragment_targets.add(name)
        wanted = unquote(fragment)
        target = self.anchors.get((name, code))
        original = self.anchors.get((name, self.source_code))
        if code == self.source_code or not target or not original or wanted in target \
                or wanted not in original or len(target) != len(original):
            return fragment
        return quote(target[list(original).index(wanted)], safe="-_.~")

    def _variant(self, page: Page, url: str, target: Path) -> Path:
        """The locale's variant of an asset, if there is one (a variant a translator named
        already has none of its own)."""
        code = page.language.code
        if code == self.source_code:
            return target
        for candidate in variant_candidates(target.name, code, self.pattern):
            path = target.parent / candidate
            if path.is_file():
                return path
        return target

    def _publish_asset(self, path: Path) -> str:
        relative = PurePosixPath(path.relative_to(self._resolved_root).as_posix())
        if self.hashed:
            digest = _file_hash(path)[:_HASH_LENGTH]
            relative = relative.with_name(f"{relative.stem}.{digest}{relative.suffix}")
        site_path = posixpath.join(ASSETS, str(relative))
        self.assets[site_path] = path
        return site_path

    def _problem(self, page: Page, kind: str, url: str, what: str, line: int | None) -> None:
        line = line or link_line(page, url)
        where = f"{page.doc.relpath}:{line}" if line else page.doc.relpath
        label = "image" if kind == "image" else "link target"
        in_translation = "" if page.progress is None else f" (in the {page.language.code} translation)"
        message = f"{where}: {label} {local_path(url)!r} {what}{in_translation}"
        if message not in self.problems:
            self.problems.append(message)


def link_line(page: Page, url: str) -> int | None:
    """The source line of the passage that holds a local destination: the translation's
    passage when a translator wrote it, else the line in the original."""
    if not is_local_reference(url):
        return None
    path = local_path(url)
    for passage in page.passages:
        if passage.translation and path in passage.translation:
            return passage.segment.line
    text = page.doc.path.read_text("utf-8", "replace")
    index = text.find(path)
    return text.count("\n", 0, index) + 1 if index >= 0 else None


def _file_hash(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 16), b""):
            digest.update(block)
    return digest.hexdigest()


def copy_if_changed(source: Path, target: Path) -> bool:
    """Copy a file through the atomic writer; leave ``target`` alone if it has the same
    bytes (compared in blocks, so an unchanged asset is never read whole)."""
    if target.is_file() and filecmp.cmp(source, target, shallow=False):
        return False
    return write_atomic(target, source.read_bytes(), regenerable=True)
