"""Documents × locales → a static multilingual site that holds only verified pages.

Publishing runs in two passes over the documents, one document at a time, so memory
holds a line of facts per page rather than the site:

1. **judge**: every document in every configured locale is read, checked and given a
   :class:`~tolmach.publish.gate.Verdict`; its links and assets are resolved (a missing
   file stops publishing before anything is written);
2. **write**: the pages of the locales being rebuilt (``-l``; default all) are rendered
   and written one by one; a page of another locale is rewritten only when what it
   links to changed. What the last publish wrote and this one no longer makes is
   removed (:mod:`tolmach.publish.manifest`).

Then the index, one article list, Atom feed and search page per locale, ``sitemap.xml``
and the Pagefind search index are written from the verdicts, so they always list every
published page, whatever ``-l`` rebuilt. Reviewer pages (source and translation side by
side with the findings) go to their own folder, outside the public site unless asked.

Output is deterministic: the same sources and catalogs give the same bytes (dates come
from front matter and the catalogs' ``PO-Revision-Date``), and unchanged files are not
rewritten.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import re
import shutil
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, wait
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from markupsafe import Markup

from tolmach.catalog.status import translations_of
from tolmach.fileio import (
    LinkGuard,
    ensure_inside,
    move_into_place,
    no_garbage_collection,
    write_atomic,
)
from tolmach.jobs.cache import MISS, content_digest, key_of
from tolmach.jobs.executor import RunOptions, workers_of
from tolmach.jobs.units import Fresh, Unit, run_units
from tolmach.project import SourceDocument, recorded_findings
from tolmach.publish.drafts import DraftAt, DraftFile, read_draft
from tolmach.publish.gate import Verdict, error_count, judge
from tolmach.publish.interface import Interface, interface_for
from tolmach.publish.links import ASSETS, SiteFiles, copy_if_changed, link_line
from tolmach.publish.manifest import read_manifest, remove_unlisted, write_manifest
from tolmach.publish.pages import (
    REVISION_LENGTH,
    Language,
    Page,
    fallback_of,
    language,
    source_page,
    translated_page,
)
from tolmach.publish.search import (
    MERGE,
    MERGE_SCRIPT,
    PAGEFIND,
    Chunk,
    index_chunks,
    index_chunks_meanwhile,
    plan_chunks,
    remove_stale_bundles,
    search_available,
)
from tolmach.publish.templating import Listed, contents, environment, static_text
from tolmach.publish.web import FeedEntry, SitemapEntry, absolute, atom_feed, sitemap, url_path

if TYPE_CHECKING:  # parsers and templates load when a page is judged or rendered, not on a no-op
    from jinja2 import Environment

    from tolmach.markdown.document import ParsedText
    from tolmach.markdown.verify import VerifiedBuild, Verifier
    from tolmach.publish.render import Rendered

__all__ = ["Outcome", "PublishError", "PublishOptions", "PublishReport", "language", "publish_site",
           "site_folder", "verified_pages"]

STATIC_FILES = ("site.css", "favicon.svg")
SEARCH_SCRIPT = "search.js"
_SEARCH_FORMAT = 2  # a chunk's bundle; 2: the index in chunks (search.py)
_JUDGE_FORMAT = 3  # the shape of a judged document's record; 2: heading ids; 3: as rendered with fallbacks
_LINKS_META = re.compile(r'<meta name="tolmach-links" content="([0-9a-f]+)">')
#: Where pass 1 keeps the articles it rendered for pass 2 (:mod:`tolmach.publish.drafts`),
#: one folder per run; removed when the run ends. A destination waits in a draft as
#: ``tolmachlink<run>x<n>x``.
DRAFTS = Path(".tolmach-cache") / "publish-drafts"
_PLACEHOLDER = "tolmachlink"


class PublishError(Exception):
    """The site cannot be published; the message says why and what to do."""


@dataclass(frozen=True)
class PublishOptions:
    """What to publish and how; the defaults publish every verified page."""

    locales: tuple[str, ...] = ()  # locales whose pages are rebuilt; () = all configured
    documents: frozenset[str] | None = None  # only these documents' pages are rebuilt
    threshold: float | None = None  # default: the project's threshold
    allow_errors: bool = False  # publish pages with check errors too (loudly)
    drafts: bool = False  # every page, whatever its state (the translator's preview)
    review: Path | None = None  # folder for reviewer pages; None: no reviewer pages
    search: bool | None = None  # Pagefind index; default: the project's ``search`` setting
    live_reload: str | None = None  # preview only: URL of the reload script


@dataclass
class Outcome:
    """One document in one language: the facts the index, switchers and feeds need."""

    doc: SourceDocument
    language: Language
    verdict: Verdict
    title: str
    description: str | None
    updated: str | None
    percent_label: str | None  # None: the original
    state: str
    fingerprint: str = ""

    @property
    def site_path(self) -> str:
        return f"{self.language.code}/{self.doc.name}.html"


@dataclass
class PublishReport:
    """What a publish did: files written and removed, and every page's verdict."""

    out_dir: Path
    written: list[Path] = field(default_factory=list)
    removed: list[Path] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    files: int = 0  # of the site
    reviewed: list[Path] = field(default_factory=list)  # reviewer pages written

    @property
    def published(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.verdict.published]

    @property
    def withheld(self) -> list[Outcome]:
        return [o for o in self.outcomes if not o.verdict.published]


def publish_site(project, out_dir: Path | None = None,
                 options: PublishOptions | None = None,
                 run: RunOptions | None = None) -> PublishReport:
    """Publish the project's verified pages into ``out_dir`` (default:
    ``<output-dir>/site``); see the module docstring. ``run``: the executor, ``--force``
    and progress (default: in this process, the cache used)."""
    publisher = _Publisher(project, site_folder(project, out_dir), options or PublishOptions(),
                           run or RunOptions())
    return publisher.run()


def site_folder(project, chosen: Path | None = None) -> Path:
    """Where the site goes: ``chosen`` (relative to the current folder) or ``<output-dir>/site``.

    A folder named inside the project stays inside it: one that a symbolic link leads out
    of the project is refused, as ``build`` refuses its outputs. A folder the user names
    outside the project is theirs to choose.
    """
    folder = Path(os.path.abspath(chosen if chosen is not None else
                                  project.config.output_path / "site"))
    root = Path(os.path.abspath(project.root))
    if folder == root or root in folder.parents:
        ensure_inside(root, folder, where="the project", refused="nothing is written through it")
    return folder


def _inside_folder(folder: Path, path: Path, where: str) -> Path:
    """``path``, unless a symbolic link inside ``folder`` would put it elsewhere."""
    return ensure_inside(folder, path, where=where, refused="nothing is written through it")


def verified_pages(project, *, threshold: float | None = None,
                   allow_errors: bool = False) -> Iterator[tuple[Page, Verdict]]:
    """Every document in every configured language with its verdict, one document at a
    time (the source page first): what an export to a site generator writes."""
    options = PublishOptions(threshold=threshold, allow_errors=allow_errors, search=False)
    publisher = _Publisher(project, project.config.output_path / "site", options)
    for doc in project.documents:
        document = project.load(doc, verifying=True)
        for page in publisher._pages(doc, document):
            yield page, publisher._verdict(page)
        publisher.findings.clear()
        publisher.verified.clear()


class _Publisher:
    def __init__(self, project, out_dir: Path, options: PublishOptions,
                 run: RunOptions | None = None):
        config = project.config
        self.project, self.out, self.options = project, out_dir, options
        self.run_options = run or RunOptions()
        self.published: set[tuple[str, str]] | None = None  # in a worker: every published page
        self.links: dict[tuple[str, str], list] = {}  # a published page's destinations, in order
        self.cache = None
        self.token = os.urandom(8).hex()
        self.drafts: Path | None = None  # pass 1's rendered articles, for pass 2 (see _draft)
        self.draft_file: DraftFile | None = None  # in a worker: the batch's drafts (pass 1)
        self.draft_at: dict[tuple[str, str], DraftAt] = {}  # a page's draft (pass 2)
        self.source = language(config.source_locale)
        requested = project.select_locales(options.locales)
        unknown = [c for c in requested if c not in config.locales and c != self.source.code]
        if unknown:
            raise PublishError(f"locale {unknown[0]!r} is not configured in [tool.tolmach] "
                               f"locales; configured: {', '.join(config.locales) or 'none'}")
        codes = requested if options.drafts and options.locales else config.locales
        self.targets = [language(c) for c in codes if c != self.source.code]
        self.rebuilt = set(requested) if options.locales else {t.code for t in self.targets}
        self.threshold = config.threshold if options.threshold is None else options.threshold
        self.base_url = config.base_url
        wanted = config.search if options.search is None else options.search
        self.search = wanted and not options.drafts and search_available()
        self.report = PublishReport(out_dir)
        if wanted and not options.drafts and not self.search:
            self.report.notes.append("search index skipped: the pagefind package is not installed")
        self.outcomes: dict[tuple[str, str], Outcome] = {}
        self._chunks: list[Chunk] | None = None  # the search index's, once the verdicts are in
        self.shown: list[Language] = []
        self.findings: dict[tuple[str, str], list] = {}
        self.verified: dict[tuple[str, str], VerifiedBuild] = {}
        self.files = SiteFiles(project.root, project.documents, self._is_published,
                               self.source.code, config.localized_assets, config.hashed_assets)
        self._bases: dict[str, str] = {}  # see _page_basis
        self._guard = LinkGuard()  # see _kept_inside

    def _kept_inside(self, folder: Path, path: Path, where: str) -> Path:
        """:func:`_inside_folder` for the many files this publisher writes or copies: each
        folder's links are followed once, a file's own link is looked at every time."""
        return self._guard.inside(folder, path, where=where, refused="nothing is written through it")

    @cached_property
    def _review_inside(self) -> bool:
        """Whether the reviewer pages go inside the site folder (asked once per page)."""
        review = self.options.review
        return review is not None and _inside(review, self.out)

    @property
    def languages(self) -> list[Language]:
        return [self.source, *self.targets]

    def _is_published(self, name: str, code: str) -> bool:
        if self.published is not None:
            return (name, code) in self.published
        outcome = self.outcomes.get((name, code))
        return outcome is not None and outcome.verdict.published

    def run(self) -> PublishReport:
        self.cache = self.project.result_cache(self.run_options)
        staging = self._staging_folder()
        self.drafts = self.project.root / DRAFTS / self.token
        try:
            try:
                judged = self._judge_documents(staging)
                self._resolve_links()
                self._refuse_links_out()
                self._install_reviews(judged)
            finally:
                if staging is not None:
                    shutil.rmtree(staging, ignore_errors=True)
                    _remove_if_empty(staging.parent)
            self._write_pages()
        finally:
            shutil.rmtree(self.drafts, ignore_errors=True)
            _remove_empty_folders(self.drafts.parent)
        indexing = self._start_search() if self.search else None
        try:
            self._write_lists()
            self._copy_assets()
            self._writestatic_text()
            if self.options.review is not None:
                self._write_review_index()
        except BaseException:
            if indexing is not None:
                wait([indexing.runs])  # no run is left writing once the command ends
            raise
        if indexing is not None:
            self._finish_search(indexing)
        self._remove_stale()
        self.project.save_cache(self.cache)
        self.report.outcomes = list(self.outcomes.values())
        self.project.remember_glossary_matches()
        return self.report

    def _refuse_links_out(self) -> None:
        """Before anything is written: no folder of the site is a link leading out of it."""
        tops = [lang.code for lang in self.languages] + [
            "articles", "search", "feeds", ASSETS, "pagefind", "index.html", "sitemap.xml"]
        for name in tops:
            _inside_folder(self.out, self.out / name, "the site folder")
        if self.options.review is not None:
            for lang in self.targets:
                _inside_folder(self.options.review, self.options.review / lang.code,
                               "the reviewer pages' folder")

    # --- pass 1: verdicts --------------------------------------------------------------
    #
    # One unit per document, run on the executor and remembered in the cache: its pages
    # judged (read, verified, checked), the destinations of its published pages listed,
    # its reviewer pages made (kept aside until nothing can stop the publish).

    def _judge_documents(self, staging: Path | None) -> list[dict]:
        digest = self.cache.digest if self.cache is not None else (lambda path: "?")
        project = self.project
        glossary = digest(project.glossary_file())
        review = self.options.review
        common = key_of(
            self.threshold, self.options.allow_errors, self.options.drafts, self.source.code,
            [t.code for t in self.targets], sorted(self.rebuilt), self.search,
            self.options.live_reload, project.shown(review) if review is not None else None,
            project.shown(self.out), glossary,
        )
        units = [
            Unit(doc.name,
                 key_of("judge", _JUDGE_FORMAT, common, doc.relpath, self._selected(doc), digest(doc.path),
                        [digest(project.catalog_path(t.code, doc.name)) for t in self.targets]),
                 _Judging(doc), doc.name)
            for doc in project.documents
        ]

        def take_checked(stale: list[Unit]) -> None:
            for unit in stale:  # what `check` found in its catalogs goes with it
                unit.item.checked = self._checked(unit.item.doc, glossary)

        context = (*self._context(), str(staging) if staging else None, str(self.drafts))
        judged = run_units(
            "publish-judge", units, _work_judge, context, self.cache, self.run_options,
            restore=lambda unit, payload: payload, holds=project.probe_holds, what="documents",
            before_work=take_checked,
        )
        for doc, payload in zip(project.documents, judged, strict=True):
            for code, at in payload.get("drafts", {}).items():
                self.draft_at[(doc.name, code)] = at
            for row in payload["pages"]:
                code, verdict, facts, links, anchors = row
                lang = self.source if code == self.source.code else self._target(code)
                self.outcomes[(doc.name, code)] = Outcome(doc, lang, Verdict(*verdict), *facts)
                if links is not None:
                    self.links[(doc.name, code)] = links
                if anchors:
                    self.files.anchors[(doc.name, code)] = tuple(anchors)
        self._order_outcomes()
        return judged

    def _order_outcomes(self) -> None:
        """Verdicts in document × language order, whichever were judged in this process
        first (a stale document's come in as it is judged): reports and keys follow it."""
        documents = {doc.name: n for n, doc in enumerate(self.project.documents)}
        codes = {lang.code: n for n, lang in enumerate((self.source, *self.targets))}
        self.outcomes = dict(sorted(self.outcomes.items(), key=lambda item: (
            documents.get(item[0][0], len(documents)), codes.get(item[0][1], len(codes)))))

    def _context(self) -> tuple:
        """What a worker needs to act as this publisher (this very object in process)."""
        _PUBLISHERS[self.token] = self
        return (self.token, self.project.run_context(), self.out, self.options)

    def _checked(self, doc: SourceDocument, glossary: str) -> dict[str, str]:
        """By language, where ``check`` keeps its findings for the document's catalog as it
        is now: judging takes them instead of checking the catalog again (the same checks
        of the same build find the same), so a ``check`` then ``publish`` pipeline checks
        each catalog once."""
        files = {}
        for target in self.targets:
            path = self.project.findings_file(self.cache, doc, target.code, glossary)
            if path is not None:
                files[target.code] = str(path)
        return files

    def _target(self, code: str) -> Language:
        return next(t for t in self.targets if t.code == code)

    def _judge_one(
        self, doc: SourceDocument, staging: Path | None, checked: dict[str, str] | None = None
    ) -> Fresh:
        """In a worker: one document's pages judged, their destinations listed, its
        reviewer pages made into ``staging``; ``checked``: where ``check`` keeps findings of
        its catalogs (see :meth:`_checked`)."""
        document = self.project.load(doc, verifying=True)
        pages, rows, drafts = [], [], {}
        held: list[list] = []  # the conditions of the findings check kept
        with self.project.noting_probes() as probes:
            for page in self._pages(doc, document, checked or {}, held):
                verdict = self._verdict(page)
                outcome = Outcome(
                    doc, page.language, verdict, page.title, page.description, page.updated,
                    page.progress.percent_label if page.progress else None, page.state)
                self.outcomes[(doc.name, page.language.code)] = outcome
                links, anchors = None, None
                if verdict.published:
                    links, anchors, drafts[page.language.code] = self._destinations(
                        page, self._parse_of(page, document))
                facts = [page.title, page.description, page.updated, outcome.percent_label,
                         page.state]
                rows.append([page.language.code, [verdict.published, verdict.reason,
                                                  verdict.errors], facts, links, anchors])
                pages.append(page)
        conditions = (*probes, *held)
        reviews, outputs = [], {}
        if self.options.review is not None and self._selected(doc):
            for page in pages:
                if page.progress is not None and page.language.code in self.rebuilt:
                    reviews.append(self._stage_review(page, staging))
                    outputs[Path(reviews[-1][0])] = reviews[-1][2]
        self.findings.clear()
        self.verified.clear()
        drafts = {code: at for code, at in drafts.items() if at is not None}
        return Fresh({"pages": rows, "reviews": reviews, "drafts": drafts},
                     {"pages": rows, "reviews": []}, outputs, conditions)

    def _parse_of(self, page: Page, document) -> ParsedText | None:
        """The parse that read the page's text on the way here (the source's, or the one
        that verified the build), which its rendering may reuse."""
        if page.language == self.source:
            return self.project.source_parse(document)
        verified = self.verified.get((page.doc.name, page.language.code))
        return verified.parsed if verified is not None else None

    def _destinations(
        self, page: Page, parsed: ParsedText | None = None
    ) -> tuple[list, list[str], DraftAt | None]:
        """Every destination of a page, in order, with the source line of a local one:
        what its link fingerprint and its assets are made from; its heading ids, which
        links with a fragment to it are resolved against; and where the article rendered
        on the way is kept as a draft for pass 2, each destination a placeholder until
        every verdict is known (see :meth:`_draft`), if it was kept. ``parsed``: the
        page's text as already parsed (:func:`~tolmach.publish.render.render_article`)."""
        found: list = []

        def note(kind: str, url: str) -> str:
            found.append([kind, url, link_line(page, url)])
            return f"{_PLACEHOLDER}{self.token}x{len(found) - 1}x"

        from tolmach.publish.render import render_article

        fallback = None if page.progress is None else fallback_of(page, self.source)
        rendered = render_article(page.markdown, fallback, note, dialect=self._dialect(page.doc),
                                  parsed=parsed)
        at = None
        if self.draft_file is not None:
            draft = (_page_facts(page), rendered, [(kind, url) for kind, url, _ in found])
            at = self.draft_file.add(draft)
        return found, [heading.anchor for heading in rendered.headings], at

    def _draft(self, doc: SourceDocument, code: str) -> tuple[Page, Rendered] | None:
        """In pass 2: the page and article pass 1 rendered, its links resolved now — or
        None when pass 1 came from the cache (the page is then made again).

        Rendering an article is most of a page's cost; doing it once, with placeholders
        where the destinations go, halves a cold publish's work. A destination replaces
        its placeholder escaped as the renderer escapes an attribute, so the bytes are
        those of rendering with the resolved links."""
        at = self.draft_at.get((doc.name, code))
        if self.drafts is None or at is None:
            return None
        from markdown_it.common.utils import escapeHtml

        from tolmach.publish.render import Rendered

        draft = read_draft(self.drafts, at)
        if draft is None:
            return None
        page, rendered, found = draft
        linker = self.files.linker(page)
        hrefs = [escapeHtml(linker(kind, url)) for kind, url in found]
        placeholder = re.compile(rf"{_PLACEHOLDER}{self.token}x(\d+)x")
        html = placeholder.sub(lambda match: hrefs[int(match.group(1))], rendered.html)
        return page, Rendered(html, rendered.headings)

    def _dialect(self, doc: SourceDocument):
        """The document's dialect: the page is parsed as its source is."""
        return self.project.segment_options(doc).dialect

    def _resolve_links(self) -> None:
        """Every published page's links resolved, now that every verdict is known: its
        fingerprint, the assets the site needs, and the files that are missing."""
        for (name, code), links in self.links.items():
            outcome = self.outcomes[(name, code)]
            ref = _PageRef(outcome.doc, outcome.language,
                           None if outcome.language == self.source else True)
            hrefs = [f"{a['hreflang']} {a['href']}" for a in self._alternates(ref)]
            hrefs += [self.files.resolve(ref, kind, url, line) for kind, url, line in links]
            outcome.fingerprint = hashlib.sha256("\n".join(hrefs).encode()).hexdigest()[:16]
        if self.files.problems and not self.options.drafts:
            raise PublishError("\n".join(self.files.problems))
        self.report.notes.extend(self.files.problems)

    def _pages(
        self, doc: SourceDocument, document, checked: dict[str, str] | None = None,
        held: list[list] | None = None,
    ) -> Iterable[Page]:
        """The document's pages, source first; ``checked``: where ``check`` keeps findings
        of its catalogs (see :meth:`_checked`), whose conditions go into ``held``."""
        yield source_page(doc, document, self.source)
        verifier = None
        for lang in self.targets:
            po = self.project.read_catalog(lang.code, doc.name)
            key = (doc.name, lang.code)
            if key not in self.findings:  # a page's text is always the verified build
                verifier = verifier or self.project.verifier(doc, document)
                self.verified[key] = verifier.build(
                    translations_of(po) if po else {},
                    same_image=self.project.same_image(doc, lang.code),
                )
                kept = None
                if checked and lang.code in checked and po is not None:
                    kept = recorded_findings(Path(checked[lang.code]), self.project.probe_holds)
                if kept is not None:
                    self.findings[key], conditions = kept
                    if held is not None:
                        held.extend(conditions)
                else:
                    self.findings[key] = self._check(lang.code, doc.name, po, self.verified[key])
            yield translated_page(doc, document, lang, po, self.findings[key], self.verified[key])

    def _check(self, code: str, name: str, po, verified: VerifiedBuild) -> list:
        if po is None:
            return []
        try:
            import tolmach.checks  # noqa: F401
        except ImportError as exc:
            raise PublishError(f"publishing needs the checks (tolmach.checks), not importable: "
                               f"{exc}") from exc
        return list(self.project.check_catalog(code, name, po, verified=verified))

    def _verdict(self, page: Page) -> Verdict:
        if self.options.drafts:
            return Verdict(True, errors=error_count(page) if page.progress else 0)
        return judge(page, self.threshold, allow_errors=self.options.allow_errors)

    # --- pass 2: pages -----------------------------------------------------------------
    #
    # A published page is rendered again when what it is made of changed (its document's
    # unit, its language row, its link fingerprint); a page of a locale not being rebuilt
    # (``-l``) only when its links went stale.

    def _write_pages(self) -> None:
        units = []
        for doc in self.project.documents:
            row = [self.outcomes[(doc.name, lang.code)] for lang in self.languages]
            shown = [[o.language.code, o.verdict.published] for o in row]
            for outcome in row:
                if not outcome.verdict.published:
                    continue
                path = self.out / outcome.site_path
                chosen = (outcome.language == self.source or outcome.language.code in self.rebuilt) \
                    and self._selected(doc)
                key = key_of("page", self._page_basis(doc), outcome.language.code, shown,
                             outcome.fingerprint, outcome.verdict.errors, outcome.title)
                if not chosen and not self._links_stale(outcome, path):
                    key = "current"  # left alone: only stale links rewrite it
                at = self.draft_at.get((doc.name, outcome.language.code))
                units.append(Unit(outcome.site_path, key, (doc, outcome.language.code, row, at),
                                  doc.name))
        published = {key for key, o in self.outcomes.items() if o.verdict.published}
        linked = self.files.fragment_targets  # the heading ids a worker may need
        anchors = {key: ids for key, ids in self.files.anchors.items() if key[0] in linked}
        context = (*self._context(), published, anchors, str(self.drafts))
        done = run_units(
            "publish-page", [u for u in units if u.key != "current"], _work_pages, context,
            self.cache, self.run_options, restore=lambda unit, payload: None, what="pages",
        )
        self.report.files += len(units)
        self.report.written.extend(path for path in done if path is not None)

    def _page_basis(self, doc: SourceDocument) -> str:
        """What every page of a document is made from besides its links: the sources of
        its judgement, and the options that shape a page."""
        digest = self.cache.digest if self.cache is not None else (lambda path: "?")
        review = self.options.review
        basis = self._bases.get(doc.name)
        if basis is None:
            inside = self._review_inside
            basis = self._bases[doc.name] = key_of(
                doc.relpath, self.project.shown(self.out), digest(doc.path),
                [digest(self.project.catalog_path(t.code, doc.name)) for t in self.targets],
                self.search, self.options.live_reload, self.options.drafts,
                review.relative_to(self.out).as_posix() if inside else None)
        return basis

    def _render_document(self, doc: SourceDocument, codes: list[str]) -> list[Fresh]:
        """In a worker: the chosen published pages of one document, rendered and written."""
        document = verifier = None
        fresh = []
        for code in codes:
            lang = self.source if code == self.source.code else self._target(code)
            outcome = self.outcomes[(doc.name, code)]
            draft = self._draft(doc, code)
            if draft is None:
                if document is None:
                    document = self.project.load(doc, verifying=True)
                    verifier = self.project.verifier(doc, document)
                page, rendered = self._page(doc, document, lang, verifier), None
            else:
                page, rendered = draft
            text = self._render_page(page, outcome, rendered)
            path = self._kept_inside(self.out, self.out / outcome.site_path, "the site folder")
            written = write_atomic(path, text, regenerable=True)
            fresh.append(Fresh(path if written else None, None, {path: content_digest(text)}))
        return fresh

    def _links_stale(self, outcome: Outcome, path: Path) -> bool:
        """Whether a page of a locale not rebuilt must be written again for its links."""
        if not path.is_file():
            return True
        with path.open("r", encoding="utf-8") as handle:
            head = handle.read(4096)
        match = _LINKS_META.search(head)
        return match is None or match.group(1) != outcome.fingerprint

    def _selected(self, doc: SourceDocument) -> bool:
        return self.options.documents is None or doc.name in self.options.documents

    def _page(self, doc: SourceDocument, document, lang: Language,
              verifier: Verifier | None = None) -> Page:
        """A published page's model, its text verified as it was judged; its findings
        are not needed (the verdict is known)."""
        if lang == self.source:
            return source_page(doc, document, lang)
        po = self.project.read_catalog(lang.code, doc.name)
        verifier = verifier or self.project.verifier(doc, document)
        verified = verifier.build(translations_of(po) if po else {},
                                  same_image=self.project.same_image(doc, lang.code))
        return translated_page(doc, document, lang, po, [], verified)

    def _alternates(self, page: Page) -> list[dict]:
        """``<link rel=alternate>`` of a page: every published language, then x-default."""
        row = [self.outcomes[(page.doc.name, lang.code)] for lang in self.languages]
        shown = [o for o in row if o.verdict.published]
        links = [{"hreflang": o.language.tag, "href": self._href(page.root, o.site_path)}
                 for o in shown]
        if len(shown) > 1:
            links.append({"hreflang": "x-default", "href": self._href(page.root, row[0].site_path)})
        return links

    def _href(self, root: str, site_path: str) -> str:
        return absolute(self.base_url, site_path) if self.base_url else root + url_path(site_path)

    def _render_page(self, page: Page, outcome: Outcome, rendered: Rendered | None = None) -> str:
        from tolmach.publish.render import render_article

        ui = interface_for(page.language.code)
        if rendered is None:
            fallback = None if page.progress is None else fallback_of(page, self.source)
            rendered = render_article(page.markdown, fallback, self.files.linker(page),
                                      dialect=self._dialect(page.doc))
        row = [self.outcomes[(page.doc.name, lang.code)] for lang in self.languages]
        switcher = [{"href": page.root + url_path(o.site_path), "language": o.language,
                     "current": o.language == page.language}
                    for o in row if o.verdict.published]
        review_href = None
        review = self.options.review
        if page.progress is not None and self._review_inside:
            folder = review.relative_to(self.out).as_posix()
            review_href = f"{page.root}{folder}/{url_path(page.language.code + '/' + page.doc.name)}.html"
        verdict_note = None
        if outcome.verdict.forced:
            verdict_note = (f"{outcome.verdict.errors} finding(s) of tolmach check were overridden "
                            "with --allow-errors; this translation has not passed review.")
        toc = contents(rendered.headings)
        return self._env(ui).get_template("page.html").render(
            self._common(ui, page.language, page.root),
            page=page,
            description=page.description,
            canonical=absolute(self.base_url, outcome.site_path) if self.base_url else None,
            alternates=self._alternates(page),
            languages=switcher,
            og_alternates=[o.language.og_locale for o in row
                           if o.verdict.published and o.language != page.language],
            body=Markup(rendered.html),
            toc=toc if sum(1 + len(s["children"]) for s in toc) > 1 else [],
            page_lang_attrs=Markup("") if ui.matches_page else Markup(
                f' lang="{page.language.tag}" dir="{page.language.direction}"'),
            review_href=review_href,
            verdict_note=verdict_note,
            links_fingerprint=outcome.fingerprint,
        )

    def _common(self, ui: Interface, lang: Language, root: str) -> dict:
        from tolmach.publish.render import content_security_policy

        return {
            "ui": ui,
            "html_lang": lang,
            "root": root,
            "source": self.source,
            "source_name": ui.language_name(self.source.code),
            "csp": content_security_policy(self.options.live_reload),
            "live_reload": self.options.live_reload,
            "revision_length": REVISION_LENGTH,
            "home_href": f"{root}articles/{url_path(lang.code)}.html",
            "search_href": f"{root}search/{url_path(lang.code)}.html" if self.search else None,
            "feed_href": f"{root}feeds/{url_path(lang.code)}.xml" if self.base_url else None,
            "description": None,
            "canonical": None,
            "alternates": [],
            "links_fingerprint": None,
        }

    def _write(self, site_path: str, text: str | bytes) -> None:
        path = self._kept_inside(self.out, self.out / site_path, "the site folder")
        self.report.files += 1
        if self._changes(path, text) and write_atomic(path, text, regenerable=True):
            self.report.written.append(path)
            if self.cache is not None:  # _changes remembered the bytes it replaced
                self.cache.wrote(path)

    def _changes(self, path: Path, content: str | bytes) -> bool:
        """Whether ``path`` does not hold ``content`` yet (by digest: nothing is read when
        its size and time are as the cache last saw them)."""
        if self.cache is None:
            return True
        return self.cache.digest(path) != content_digest(content)

    # --- lists, feeds, sitemap ---------------------------------------------------------

    def _published_in(self, lang: Language) -> list[Outcome]:
        return [self.outcomes[(d.name, lang.code)] for d in self.project.documents
                if self._is_published(d.name, lang.code)]

    def _write_lists(self) -> None:
        """The index, the lists, feeds and sitemap, made again only when a line of them
        changed: a page's title, description, date, state or verdict."""
        shown = [lang for lang in self.languages if self._published_in(lang)]
        self.shown = shown
        if not self.base_url:
            self.report.notes.append("no base-url: canonical and hreflang links are relative; "
                                     "sitemap.xml and feeds are not written")
        facts = [[name, code, o.verdict.published, o.title, o.description, o.updated,
                  o.percent_label, o.state] for (name, code), o in self.outcomes.items()]
        bundles = [chunk.name for chunk in self._search_chunks()] if self.search else None
        key = key_of("lists", facts, [lang.code for lang in shown], self.search, bundles,
                     self.options.live_reload, self.project.shown(self.out))
        paths = self._list_paths(shown)
        if self.cache is not None and self.cache.get("publish-lists", "lists", key) is not MISS:
            self.report.files += len(paths)
            return
        for lang in shown:
            self._write_locale_index(lang, shown)
            if self.search:
                self._write_search_page(lang, shown)
        self._write_index(shown)
        if self.base_url:
            for lang in shown:
                self._write_feed(lang)
            self._write("sitemap.xml", "".join(sitemap(self._sitemap_entries())))
        if self.cache is not None:
            self.cache.put("publish-lists", "lists", key,
                           outputs={path: self.cache.digest(path) for path in paths})

    def _list_paths(self, shown: list[Language]) -> list[Path]:
        paths = [self.out / "index.html"]
        for lang in shown:
            paths.append(self.out / "articles" / f"{lang.code}.html")
            if self.search:
                paths.append(self.out / "search" / f"{lang.code}.html")
            if self.base_url:
                paths.append(self.out / "feeds" / f"{lang.code}.xml")
        if self.base_url:
            paths.append(self.out / "sitemap.xml")
        return paths

    def _switch(self, shown: list[Language], folder: str, current: Language) -> list[dict]:
        return [{"href": f"../{folder}/{url_path(lang.code)}.html", "language": lang,
                 "current": lang == current} for lang in shown]

    def _write_locale_index(self, lang: Language, shown: list[Language]) -> None:
        ui = interface_for(lang.code)
        pages = [{"href": "../" + url_path(o.site_path), "page": o}
                 for o in self._published_in(lang)]
        site_path = f"articles/{lang.code}.html"
        text = self._env(ui).get_template("locale_index.html").render(
            self._common(ui, lang, "../"), pages=[
                {"href": p["href"], "page": Listed(p["page"])} for p in pages],
            languages=self._switch(shown, "articles", lang),
            canonical=absolute(self.base_url, site_path) if self.base_url else None,
            description=f"{ui.translations.gettext('Articles')}: {lang.name}",
        )
        self._write(site_path, text)

    def _write_search_page(self, lang: Language, shown: list[Language]) -> None:
        ui = interface_for(lang.code)
        from tolmach.publish.render import content_security_policy

        common = self._common(ui, lang, "../")
        common["csp"] = content_security_policy(search=True)
        bundles = [f"../{PAGEFIND}/{chunk.name}/" for chunk in self._search_chunks()
                   if chunk.language == lang.code]
        text = self._env(ui).get_template("search.html").render(
            common, languages=self._switch(shown, "search", lang), bundles=bundles)
        self._write(f"search/{lang.code}.html", text)

    def _write_index(self, shown: list[Language]) -> None:
        ui = interface_for(self.source.code)
        rows = []
        for doc in self.project.documents:
            cells = []
            for lang in self.languages:
                o = self.outcomes[(doc.name, lang.code)]
                cells.append({"language": lang, "state": o.state if o.verdict.published else "withheld",
                              "percent": o.percent_label,
                              "href": url_path(o.site_path) if o.verdict.published else None})
            rows.append({"source": Listed(self.outcomes[(doc.name, self.source.code)],
                                           url_path(f"{self.source.code}/{doc.name}.html")),
                         "cells": cells})
        indexes = [{"href": f"articles/{url_path(lang.code)}.html", "language": lang,
                    "feed": f"feeds/{url_path(lang.code)}.xml" if self.base_url else None}
                   for lang in shown]
        common = self._common(ui, self.source, "")
        common["home_href"] = "index.html"
        common["feed_href"] = None
        text = self._env(ui).get_template("index.html").render(
            common, rows=rows, locale_indexes=indexes,
            languages=[{"href": i["href"], "language": i["language"], "current": False}
                       for i in indexes],
            canonical=self.base_url,
            description=ui.translations.gettext("Articles and translations"),
        )
        self._write("index.html", text)

    def _write_feed(self, lang: Language) -> None:
        ui = interface_for(lang.code)
        entries = [FeedEntry(o.title, absolute(self.base_url, o.site_path), o.updated,
                             o.description) for o in self._published_in(lang)]
        site_path = f"feeds/{lang.code}.xml"
        title = f"{ui.translations.gettext('Articles')}: {lang.name}"
        self._write(site_path, atom_feed(
            title=title, feed_url=absolute(self.base_url, site_path),
            site_url=absolute(self.base_url, f"articles/{lang.code}.html"), lang=lang.tag,
            entries=entries))

    def _sitemap_entries(self) -> Iterable[SitemapEntry]:
        yield SitemapEntry(self.base_url, ())
        for doc in self.project.documents:
            row = [self.outcomes[(doc.name, lang.code)] for lang in self.languages]
            shown = [o for o in row if o.verdict.published]
            alternates = tuple((o.language.tag, absolute(self.base_url, o.site_path)) for o in shown)
            if len(shown) > 1:
                alternates += (("x-default", absolute(self.base_url, row[0].site_path)),)
            else:
                alternates = ()
            for o in shown:
                yield SitemapEntry(absolute(self.base_url, o.site_path), alternates, o.updated)

    # --- files -------------------------------------------------------------------------

    def _copy_assets(self) -> None:
        for site_path, source in sorted(self.files.assets.items()):
            self.report.files += 1
            target = self._kept_inside(self.out, self.out / site_path, "the site folder")
            if self.cache is not None and self.cache.digest(source) == self.cache.digest(target):
                continue
            if copy_if_changed(source, target):
                self.report.written.append(target)
                if self.cache is not None:
                    self.cache.wrote(target)

    def _writestatic_text(self) -> None:
        names = STATIC_FILES + ((SEARCH_SCRIPT,) if self.search else ())
        for name in names:
            self._write(name, static_text(name))

    def _search_chunks(self) -> list[Chunk]:
        """The published pages of each language in the chunks Pagefind indexes one by one."""
        if self._chunks is None:
            self._chunks = plan_chunks(sorted((o.language.code, o.site_path)
                                              for o in self.outcomes.values() if o.verdict.published),
                                       self.project.config.search_chunk_pages)
        return self._chunks

    def _start_search(self) -> _Indexing:
        """The Pagefind index, chunk by chunk: a chunk is indexed again only when one of
        its pages changed (or its set of pages did), as many at once as the command has
        processes. With more than one, the runs start now and go on while this process
        writes the lists and assets (:func:`~tolmach.publish.search.index_chunks_meanwhile`);
        :meth:`_finish_search` takes their bundles in."""
        _inside_folder(self.out, self.out / PAGEFIND, "the site folder")
        digest = self.cache.digest if self.cache is not None else (lambda path: "?")
        shown = self.project.shown(self.out)
        chunks = self._search_chunks()
        stale: dict[str, str] = {}  # chunk name → the key its new bundle is recorded under
        for chunk in chunks:
            _inside_folder(self.out, self.out / PAGEFIND / chunk.name, "the site folder")
            key = key_of("search", _SEARCH_FORMAT, shown, chunk.name,
                         [[page, digest(self.out / page)] for page in chunk.pages])
            if self.cache is None or self.cache.get("publish-search", f"search:{chunk.name}", key) is MISS:
                stale[chunk.name] = key
        unchanged = len(chunks) - len(stale)
        report = functools.partial(self.run_options.report, "search chunks", total=len(chunks),
                                   cached=unchanged)
        report(unchanged)

        def progress(done: int) -> None:
            report(unchanged + done)

        workers = workers_of(self.run_options.executor)
        chosen = [c for c in chunks if c.name in stale]
        if workers > 1 and chosen:
            runs = index_chunks_meanwhile(self.out, chosen, workers, progress)
        else:  # one process: one thing at a time, as -j 1 promises
            runs = Future()
            runs.set_result(index_chunks(self.out, chosen, workers, progress))
        return _Indexing(chunks, stale, runs)

    def _finish_search(self, indexing: _Indexing) -> None:
        """Once the Pagefind runs are over: their bundles recorded, the first failure
        raised; the module that merges the bundles written, bundles of chunks no longer
        made removed."""
        indexed = indexing.runs.result()
        for chunk, failed in indexed:
            if failed is None and self.cache is not None:
                self._remember_bundle(chunk, indexing.stale[chunk.name])
        failure = next((failed for _, failed in indexed if failed is not None), None)
        if failure is not None:
            raise PublishError(failure)
        self._write(f"{PAGEFIND}/{MERGE}/pagefind.js", static_text(MERGE_SCRIPT))
        self._remove_all(remove_stale_bundles(self.out, indexing.chunks))

    def _remember_bundle(self, chunk: Chunk, key: str) -> None:
        """Record ``chunk``'s new bundle under ``key``, with the digests of its files."""
        files = sorted(p for p in (self.out / PAGEFIND / chunk.name).rglob("*") if p.is_file())
        for path in files:  # looked at (as missing) when the record was checked
            self.cache.files.forget(path)
        self.cache.put("publish-search", f"search:{chunk.name}", key,
                       outputs={path: self.cache.digest(path) for path in files})

    # --- reviewer pages --------------------------------------------------------------------

    def _review_root(self, depth: int) -> str:
        return "../" * depth

    def _staging_folder(self) -> Path | None:
        """Where a run keeps the reviewer pages it made until nothing can stop it: in the
        reviewer pages' folder, so that moving them in is a rename."""
        review = self.options.review
        if review is None:
            return None
        _inside_folder(review.parent, review, "the reviewer pages' folder")
        return review / f".staging-{os.getpid()}"

    def _stage_review(self, page: Page, staging: Path | None) -> list:
        """In a worker: a reviewer page made and, if its bytes are new, written aside;
        ``[target, staged or None, digest]``."""
        text = self._review_html(page)
        review = self.options.review
        assert review is not None
        site_path = f"{page.language.code}/{page.doc.name}.html"
        target = self._kept_inside(review, review / site_path, "the reviewer pages' folder")
        digest = content_digest(text)
        if target.is_file() and content_digest(target.read_bytes()) == digest:
            return [str(target), None, digest]
        if staging is None:  # in this process, with no folder aside: write it now
            write_atomic(target, text, regenerable=True)
            return [str(target), None, digest]
        staged = staging / _flat_name(site_path, ".html")  # flat: see _flat_name
        write_atomic(staged, text, regenerable=True)
        return [str(target), str(staged), digest]

    def _install_reviews(self, judged: list[dict]) -> None:
        """Move the reviewer pages made aside into place (each a rename)."""
        for payload in judged:
            for target, staged, _ in payload["reviews"]:
                if staged is not None:
                    move_into_place(Path(staged), Path(target))
                    self.report.reviewed.append(Path(target))

    def _review_html(self, page: Page) -> str:
        """A reviewer page: the template makes its frame; its passages and findings, most
        of its bytes, are made in Python (:mod:`tolmach.publish.review`), much
        faster than a template loop, every value escaped the same way."""
        from tolmach.publish.review import findings_html, jump_html, passages_html

        rows = self._review_rows.of(page.passages, self.source)
        return self._review_template.render(
            self._review_context(page), jump=jump_html(page),
            catalog_findings=findings_html(page.catalog_findings),
            passages=passages_html(page, rows))

    @cached_property
    def _review_rows(self):
        """The source halves of the passage rows, made once per document for its locales."""
        from tolmach.publish.review import SourceRows

        return SourceRows()

    @cached_property
    def _review_template(self):
        """Looked up once: each lookup checks whether the file changed, and it does not
        during a run."""
        return self._env(interface_for("en")).get_template("review.html")

    def _review_frame(self, depth: int) -> dict:
        """What every reviewer page ``depth`` folders down shows around its document: the
        same for all of them, so made once per depth (Babel's names are not cheap)."""
        frame = self._review_frames.get(depth)
        if frame is None:
            root = self._review_root(depth)
            frame = self._common(interface_for("en"), language("en"), root)
            frame.update(home_href=f"{root}index.html", search_href=None, feed_href=None)
            self._review_frames[depth] = frame
        return frame

    @cached_property
    def _review_frames(self) -> dict[int, dict]:
        return {}

    def _review_context(self, page: Page) -> dict:
        """What the reviewer page's template shows besides the passages and findings."""
        review = self.options.review
        assert review is not None
        site_path = f"{page.language.code}/{page.doc.name}.html"
        depth = site_path.count("/")
        counted = [f for p in page.passages for f in p.findings if not f.waived]
        counted += [f for f in page.catalog_findings if not f.waived]
        outcome = self.outcomes[(page.doc.name, page.language.code)]
        public = None
        if outcome.verdict.published and self._review_inside:
            public = "../" * (depth + len(review.relative_to(self.out).parts)) + url_path(site_path)
        return dict(
            self._review_frame(depth), page=page, verdict=outcome.verdict, public_href=public,
            errors=sum(1 for f in counted if f.severity == "error"),
            warnings=sum(1 for f in counted if f.severity == "warning"))

    def _write_review_index(self) -> None:
        review = self.options.review
        assert review is not None
        rows = []
        for doc in self.project.documents:
            cells = []
            for lang in self.targets:
                o = self.outcomes[(doc.name, lang.code)]
                path = f"{lang.code}/{doc.name}.html"
                cells.append({"verdict": o.verdict, "percent": o.percent_label,
                              "href": url_path(path) if os.path.isfile(f"{review}/{path}") else None})
            rows.append({"name": doc.name, "cells": cells})
        facts = [[row["name"], [[c["verdict"].published, c["verdict"].reason, c["verdict"].errors,
                                 c["percent"], c["href"]] for c in row["cells"]]] for row in rows]
        key = key_of("review-index", facts, [t.code for t in self.targets], self.search,
                     self.options.live_reload)
        if self.cache is not None and self.cache.get("publish-lists", "review-index", key) is not MISS:
            return  # what the index shows is as it was, and so are its files
        ui = interface_for("en")
        common = self._common(ui, language("en"), "")
        common.update(home_href="index.html", search_href=None, feed_href=None)
        text = self._env(ui).get_template("review_index.html").render(
            common, rows=rows, languages=self.targets)
        outputs = {}
        for name, content in (("index.html", text), *((n, static_text(n)) for n in STATIC_FILES)):
            target = self._kept_inside(review, review / name, "the reviewer pages' folder")
            if self._changes(target, content) and write_atomic(target, content, regenerable=True):
                self.report.reviewed.append(target)
            outputs[target] = content_digest(content)
        if self.cache is not None:
            self.cache.put("publish-lists", "review-index", key, outputs=outputs)

    # --- clean-up ---------------------------------------------------------------------------

    def _remove_stale(self) -> None:
        """Nothing unverified stays public, nothing of someone else's goes: what the last
        publish wrote here (its manifest) and this one no longer makes is removed — pages
        no longer published, a removed document or locale, feeds and ``sitemap.xml``
        once ``base-url`` is gone, the search index once search is off, unused assets.
        A site made before manifests existed is swept by the names tolmach gives."""
        produced = self._produced()
        before = read_manifest(self.out)
        if before is None:
            before = self._legacy_files()
        self._remove_all(remove_unlisted(self.out, before, produced,
                                         lambda p: _inside_folder(self.out, p, "the site folder")))
        if (self.out.is_dir() or produced) and produced != before:
            write_manifest(self.out, produced)
        review = self.options.review
        if review is not None and not self._review_inside and review.is_dir():
            kept = self._review_files()
            old = read_manifest(review)
            self._remove_all(remove_unlisted(
                review, old or set(), kept,
                lambda p: _inside_folder(review, p, "the reviewer pages' folder")))
            if kept != old:
                write_manifest(review, kept)

    def _produced(self) -> set[str]:
        """Every file this publish makes in the site folder (``pagefind/``: a folder)."""
        files = {o.site_path for o in self.outcomes.values() if o.verdict.published}
        files |= {p.relative_to(self.out).as_posix() for p in self._list_paths(self.shown)}
        files |= set(self.files.assets)
        files |= set(STATIC_FILES) | ({SEARCH_SCRIPT, f"{PAGEFIND}/"} if self.search else set())
        review = self.options.review
        if self._review_inside:
            folder = review.relative_to(self.out).as_posix()
            files |= {f"{folder}/{name}" for name in self._review_files()}
        return files

    def _review_files(self) -> set[str]:
        """The reviewer pages' folder as it should be: its index and styles, and the page
        of every document × target locale that has one."""
        review = self.options.review
        assert review is not None
        pages = {f"{lang.code}/{doc.name}.html" for lang in self.targets
                 for doc in self.project.documents}
        return {"index.html", *STATIC_FILES} | {p for p in pages if os.path.isfile(f"{review}/{p}")}

    def _legacy_files(self) -> set[str]:
        """Files of a site that has no manifest yet, by the names tolmach gives: article
        pages (any that carries tolmach's link fingerprint), the lists, feeds, sitemap and
        reviewer pages an older version put inside the site. Assets are left: a file
        under ``assets/`` may be anyone's until a manifest says otherwise."""
        names = {p.relative_to(self.out).as_posix() for p in self.out.glob("*/*.html")
                 if _written_by_tolmach(p)}
        names |= {f"{folder}/{lang.code}.{ext}" for lang in self.languages
                  for folder, ext in (("articles", "html"), ("search", "html"), ("feeds", "xml"))}
        names |= {"sitemap.xml", SEARCH_SCRIPT, "review/index.html"}
        names |= {f"review/{lang.code}/{doc.name}.html" for lang in self.targets
                  for doc in self.project.documents}
        return {name for name in names if (self.out / name).is_file()}

    def _remove_all(self, removed: list[Path]) -> None:
        self.report.removed.extend(removed)

    @staticmethod
    def _env(ui: Interface) -> Environment:
        return environment(ui.locale)


def _page_facts(page: Page) -> Page:
    """A page as its draft keeps it: what pass 2 puts around the article (title, state,
    revision …), not the Markdown, passages or findings it was judged by, which made most
    of a draft's bytes."""
    return replace(page, markdown="", passages=(), catalog_findings=())


def _flat_name(path: str, suffix: str) -> str:
    """A file name standing for ``path`` in a flat folder: a digest of it (making and
    removing a folder per document's path costs milliseconds each on some disks)."""
    return hashlib.sha256(path.encode()).hexdigest()[:32] + suffix


def _written_by_tolmach(page: Path) -> bool:
    """Whether an article page carries the link fingerprint tolmach writes into each."""
    with page.open("r", encoding="utf-8", errors="replace") as handle:
        return _LINKS_META.search(handle.read(4096)) is not None


def _inside(path: Path, folder: Path) -> bool:
    path, folder = path.resolve(), folder.resolve()
    return path == folder or folder in path.parents


def _remove_empty_folders(folder: Path) -> None:
    if not folder.is_dir():
        return
    for path in sorted((p for p in folder.rglob("*") if p.is_dir()), reverse=True):
        if not any(path.iterdir()):
            path.rmdir()
    if not any(folder.iterdir()):
        folder.rmdir()


def _remove_if_empty(folder: Path) -> None:
    """Remove the reviewer pages' folder when staging alone made it: a publish that stops
    leaves nothing behind. (Folders a removed page empties go with it, see
    :func:`~tolmach.publish.manifest.remove_unlisted`; the rest of the tree is not walked.)"""
    with contextlib.suppress(OSError):
        folder.rmdir()


@dataclass(frozen=True)
class _Indexing:
    """The search index on its way: every chunk, the stale ones' keys, and their runs."""

    chunks: list[Chunk]
    stale: dict[str, str]  # chunk name → the key its new bundle is recorded under
    runs: Future  # of index_chunks' answer


@dataclass(frozen=True)
class _PageRef:
    """A published page as link resolution sees it, without its text."""

    doc: SourceDocument
    language: Language
    progress: object  # None for the original
    passages: tuple = ()

    @property
    def root(self) -> str:
        return "../" * f"{self.language.code}/{self.doc.name}.html".count("/")


# --- the workers' side ---------------------------------------------------------------------

_PUBLISHERS: dict[str, _Publisher] = {}


def _worker_publisher(context: tuple) -> _Publisher:
    """The publisher of a run: the very one in this process or a forked worker, else
    made once per process from what the batch carries."""
    token, project_context, out, options = context[:4]
    publisher = _PUBLISHERS.get(token)
    if publisher is None:
        from tolmach.project import worker_project

        _PUBLISHERS.clear()
        publisher = _PUBLISHERS[token] = _Publisher(worker_project(project_context), out, options)
    return publisher


@dataclass
class _Judging:
    """What a worker is given to judge one document: the document, and where ``check``
    keeps findings of its catalogs, looked up once the document is known to be judged."""

    doc: SourceDocument
    checked: dict[str, str] | None = None


def _work_judge(batch: tuple) -> list[Fresh]:
    context, items = batch
    publisher = _worker_publisher(context)
    staging = Path(context[4]) if context[4] else None
    publisher.drafts = Path(context[5])
    publisher.draft_file = DraftFile(publisher.drafts)
    try:
        with no_garbage_collection():  # catalogs, parses and findings: many objects, no cycles
            return [publisher._judge_one(item.doc, staging, item.checked) for item in items]
    finally:
        publisher.draft_file.close()
        publisher.draft_file = None


def _work_pages(batch: tuple) -> list[Fresh]:
    context, items = batch
    publisher = _worker_publisher(context)
    publisher.published = context[4]  # every page's verdict, for links between pages
    publisher.files.anchors = context[5]  # heading ids of the pages linked with a fragment
    publisher.drafts = Path(context[6])
    fresh: list[Fresh] = []
    by_document: dict[str, tuple] = {}
    for doc, code, row, at in items:
        publisher.outcomes.update({(doc.name, o.language.code): o for o in row})
        if at is not None:
            publisher.draft_at[(doc.name, code)] = at
        by_document.setdefault(doc.name, (doc, []))[1].append(code)
    for doc, codes in by_document.values():
        fresh.extend(publisher._render_document(doc, codes))
    return fresh
