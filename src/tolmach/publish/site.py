"""Documents × locales → a static HTML site: article pages, an index, reviewer pages.

Every configured locale gets a page for every document, however little is translated:
untranslated, fuzzy and missing passages fall back to the source text, and the page
says so (a *partial* notice with the percentage, an *outdated* notice when the source
changed since the translation was made). Each page names the source revision it was
built from: the first hex digits of the SHA-256 of the source file.

Output is deterministic: the same sources and catalogs give the same bytes (no dates
but the catalogs' own ``PO-Revision-Date``, everything in configured order), and
unchanged files are not rewritten.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

import polib
from babel import Locale
from babel.core import parse_locale
from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from tolmach.catalog.status import translations_of, word_count
from tolmach.fileio import write_atomic
from tolmach.markdown.document import Document, Segment
from tolmach.markdown.verify import VerifiedBuild, verified_build
from tolmach.project import SourceDocument
from tolmach.publish.render import (
    Fallback,
    content_security_policy,
    plain_text,
    render_markdown,
    segment_key,
)

__all__ = ["Language", "PublishError", "language", "publish_site", "render_site",
           "source_revision", "write_site"]

REVISION_LENGTH = 12
STATIC_FILES = ("site.css", "favicon.svg")
TRANSLATED, FUZZY, UNTRANSLATED, MISSING = "translated", "fuzzy", "untranslated", "missing"
_FRONT_MATTER = "front matter: "


class PublishError(Exception):
    """The site cannot be published; the message says why and what to do."""


@dataclass(frozen=True)
class Language:
    """A locale as a page shows it: its code, BCP 47 tag, own name and direction."""

    code: str
    tag: str
    name: str
    english: str
    direction: str


def language(code: str) -> Language:
    """Names from Babel, built from the parts the code spells out, so ``zh_CN`` is
    "中文 (中国)" rather than the script-qualified "中文 (简体, 中国)".

    >>> language("de").name, language("ar").direction, language("zh_CN").tag
    ('Deutsch', 'rtl', 'zh-CN')
    """
    lang, territory, script, _ = parse_locale(code)
    own = Locale.parse(code)
    english = Locale("en")
    return Language(
        code=code,
        tag=code.replace("_", "-"),
        name=_display_name(own, lang, script, territory),
        english=_display_name(english, lang, script, territory),
        direction=own.text_direction,
    )


def _display_name(locale: Locale, lang: str, script: str | None, territory: str | None) -> str:
    name = locale.languages.get(lang, lang)
    details = [d for d in (locale.scripts.get(script or ""), locale.territories.get(territory or ""))
               if d]
    name = name[:1].upper() + name[1:]
    return f"{name} ({', '.join(details)})" if details else name


def source_revision(path: Path) -> str:
    """The revision a page was built from: a short SHA-256 of the source file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:REVISION_LENGTH]


# --- the model of a page ----------------------------------------------------------------


@dataclass(frozen=True)
class Passage:
    """One segment on one page: what the catalog holds for it and what checks found."""

    segment: Segment
    status: str
    translation: str | None = None
    findings: tuple = ()

    @property
    def worst(self) -> str | None:
        severities = {f.severity for f in self.findings if not f.waived}
        return next((s for s in ("error", "warning") if s in severities), None)


@dataclass(frozen=True)
class Progress:
    """How much of a page is translated, counted over its distinct source texts."""

    translated_words: int
    total_words: int
    translated: int
    fuzzy: int
    missing: int
    untranslated: int

    @property
    def total(self) -> int:
        return self.translated + self.fuzzy + self.missing + self.untranslated

    @property
    def fallbacks(self) -> int:
        return self.total - self.translated

    @property
    def complete(self) -> bool:
        return self.fallbacks == 0

    @property
    def outdated(self) -> bool:
        return self.fuzzy + self.missing > 0

    @property
    def percent(self) -> float:
        if self.total_words:
            return 100.0 * self.translated_words / self.total_words
        return 100.0 if self.complete else 0.0

    @property
    def percent_label(self) -> str:
        """Rounded down, so an incomplete page never claims 100 %."""
        shown = math.floor(self.percent)
        return f"{min(shown, 99) if not self.complete else 100}%"


@dataclass(frozen=True)
class Page:
    """One document in one language, ready for the templates."""

    doc: SourceDocument
    language: Language
    title: str
    description: str | None
    markdown: str
    revision: str
    passages: tuple[Passage, ...] = ()
    progress: Progress | None = None  # None: the source page
    catalog_revised: str | None = None
    catalog_findings: tuple = ()
    has_catalog: bool = False

    @property
    def url(self) -> str:
        return f"{self.language.code}/{self.doc.name}.html"

    @property
    def root(self) -> str:
        """The way from this page up to the site's root: one ``../`` per folder."""
        return "../" * self.url.count("/")

    @property
    def state(self) -> str:
        if self.progress is None:
            return "source"
        if self.progress.outdated:
            return "outdated"
        return "complete" if self.progress.complete else "partial"

    @property
    def state_label(self) -> str:
        return {"source": "original", "complete": "complete"}.get(self.state, self.state)


def source_page(doc, document: Document, lang: Language) -> Page:
    """The original: no notices, no fallbacks, the revision it was built from."""
    return Page(
        doc=doc,
        language=lang,
        title=_title(document, {}) or doc.name,
        description=_text_of(document, f"{_FRONT_MATTER}description", {}),
        markdown=document.text,
        revision=source_revision(doc.path),
    )


def translated_page(
    doc,
    document: Document,
    lang: Language,
    po: polib.POFile | None,
    findings: list,
    verified: VerifiedBuild | None = None,
) -> Page:
    """A page in ``lang``: the catalog's published translations, the source elsewhere.

    Only a verified build is published: a translation that would change the document's
    structure is shown in the source language, as an untranslated passage.
    """
    translations = translations_of(po) if po is not None else {}
    if verified is None:
        verified = verified_build(document, translations)
    rejected = frozenset(r.segment.text for r in verified.rejected)
    passages = tuple(_passages(document, po, findings, rejected))
    texts = {segment.text for segment in document.segments}
    catalog_findings = tuple(
        f for f in findings if not _is_entry_finding(f) or f.msgid not in texts
    )
    revised = po.metadata.get("PO-Revision-Date", "") if po is not None else ""
    return Page(
        doc=doc,
        language=lang,
        title=_title(document, translations) or doc.name,
        description=_text_of(document, f"{_FRONT_MATTER}description", translations),
        markdown=verified.text,
        revision=source_revision(doc.path),
        passages=passages,
        progress=_progress(passages),
        catalog_revised=None if not revised or revised.startswith("YEAR") else revised,
        catalog_findings=catalog_findings,
        has_catalog=po is not None,
    )


def _passages(
    document: Document, po: polib.POFile | None, findings: list, rejected: frozenset[str]
) -> Iterable[Passage]:
    entries: dict[str, polib.POEntry] = {}
    for entry in po or ():
        if not entry.obsolete and not entry.msgctxt:
            entries.setdefault(entry.msgid, entry)
    by_msgid: dict[str, list] = {}
    for finding in findings:
        if _is_entry_finding(finding):
            by_msgid.setdefault(finding.msgid, []).append(finding)
    for segment in document.segments:
        entry = entries.get(segment.text)
        status, text = _status(entry)
        if status == TRANSLATED and segment.text in rejected:
            status = UNTRANSLATED  # the build kept the source text: it changed the structure
        yield Passage(segment, status, text, tuple(by_msgid.get(segment.text, ())))


def _status(entry: polib.POEntry | None) -> tuple[str, str | None]:
    if entry is None:
        return MISSING, None
    if "fuzzy" in entry.flags:
        return FUZZY, entry.msgstr or None
    if entry.msgstr and not entry.msgid_plural:
        return TRANSLATED, entry.msgstr
    return UNTRANSLATED, None


def _progress(passages: Iterable[Passage]) -> Progress:
    """Counted over distinct texts and weighted by source words, like ``tolmach stats``."""
    status_of: dict[str, str] = {}
    for passage in passages:
        status_of.setdefault(passage.segment.text, passage.status)
    counts = Counter(status_of.values())
    return Progress(
        translated_words=sum(word_count(t) for t, s in status_of.items() if s == TRANSLATED),
        total_words=sum(word_count(t) for t in status_of),
        translated=counts[TRANSLATED], fuzzy=counts[FUZZY],
        missing=counts[MISSING], untranslated=counts[UNTRANSLATED],
    )


def _is_entry_finding(finding) -> bool:
    """Catalog-wide counts belong above the passages, not next to the first one."""
    try:
        from tolmach.checks import CHECKS
    except ImportError:
        return True
    check = CHECKS.get(finding.check)
    return check is None or getattr(check, "per", "entry") == "entry"


def _title(document: Document, translations: dict) -> str | None:
    """The page title: front matter ``title``, else the first level-1 heading."""
    return _text_of(document, f"{_FRONT_MATTER}title", translations) or _text_of(
        document, "heading 1", translations
    )


def _text_of(document: Document, kind: str, translations: dict) -> str | None:
    """Plain text of the first segment of ``kind``, translated where possible."""
    for segment in document.segments:
        if segment.kind == kind:
            return plain_text(translations.get(segment.text) or segment.text) or None
    return None


def _fallback_of(page: Page, source: Language) -> Fallback:
    texts = frozenset(
        segment_key(p.segment.text)
        for p in page.passages
        if p.status != TRANSLATED and not p.segment.kind.startswith(_FRONT_MATTER)
    )
    return Fallback(texts, source.tag, source.direction)


# --- the site -------------------------------------------------------------------------


def publish_site(project, out_dir: Path, locales: Iterable[str] = ()) -> list[Path]:
    """Write the site for ``locales`` (default: all configured) into ``out_dir``.

    Returns every file of the site; files whose content did not change are left alone.
    """
    files = render_site(project, tuple(locales))
    write_site(files, out_dir)
    return [out_dir / name for name in files]


def write_site(files: dict[str, str], out_dir: Path) -> list[Path]:
    """Write ``files`` (site-relative path → text); return the paths that changed."""
    changed = []
    for name, text in files.items():
        path = out_dir / name
        if write_atomic(path, text):
            changed.append(path)
    return changed


def render_site(
    project,
    locales: Iterable[str] = (),
    *,
    documents: Iterable[str] | None = None,
    live_reload: str | None = None,
) -> dict[str, str]:
    """Every file of the site as text, keyed by its path in the site.

    ``documents`` limits the article pages to those documents (the index and reviewer
    pages are always complete); ``live_reload`` is the URL of a preview script.
    """
    source = language(project.config.source_locale)
    targets = [language(c) for c in project.select_locales(tuple(locales)) if c != source.code]
    rows = [_pages_of(project, doc, source, targets) for doc in project.documents]
    wanted = None if documents is None else set(documents)
    env = _environment()
    common = {"source": source, "csp": content_security_policy(live_reload), "live_reload": live_reload,
              "revision_length": REVISION_LENGTH}
    files: dict[str, str] = {}
    for row in rows:
        for page in row:
            if wanted is None or page.doc.name in wanted:
                files[page.url] = _render_page(env, page, row, source, bool(targets), common)
    files["index.html"] = env.get_template("index.html").render(
        common, root="", html_lang=language("en"), languages=[source, *targets],
        rows=[{"source": row[0], "pages": row} for row in rows], reviews=targets,
    )
    for index, lang in enumerate(targets, start=1):
        sections = [_review_section(row[index]) for row in rows]
        files[f"review/{lang.code}.html"] = env.get_template("review.html").render(
            common, root="../", html_lang=language("en"), language=lang, sections=sections,
        )
    for name in STATIC_FILES:
        files[name] = resources.files("tolmach.publish").joinpath("static", name).read_text("utf-8")
    return files


def _pages_of(project, doc, source: Language, targets: list[Language]) -> list[Page]:
    """The source page of one document, then one page per target language."""
    document = project.load(doc)
    verifier = project.verifier(doc, document)
    pages = [source_page(doc, document, source)]
    for lang in targets:
        po = project.read_catalog(lang.code, doc.name)
        verified = verifier.build(translations_of(po) if po is not None else {})
        findings = _findings(project, lang.code, doc.name, po, verified)
        pages.append(translated_page(doc, document, lang, po, findings, verified))
    return pages


def _findings(
    project, locale: str, doc_name: str, po: polib.POFile | None, verified: VerifiedBuild
) -> list:
    """What ``tolmach check`` reports for the catalog, for the reviewer pages."""
    if po is None:
        return []
    try:
        import tolmach.checks  # noqa: F401
    except ImportError as exc:
        message = f"reviewer pages need the checks (tolmach.checks), not importable: {exc}"
        raise PublishError(message) from exc
    return list(project.check_catalog(locale, doc_name, po, verified=verified))


def _render_page(env: Environment, page: Page, row: list[Page], source: Language,
                 reviewed: bool, common: dict) -> str:
    """An article page. ``x-default`` points at the original: the one version every
    reader can be sent to, whatever language they ask for."""
    fallback = None if page.progress is None else _fallback_of(page, source)
    alternates = [
        {"hreflang": other.language.tag, "href": f"{page.root}{other.url}", "language": other.language,
         "current": other is page}
        for other in row
    ]
    alternates.append({"hreflang": "x-default", "href": f"{page.root}{row[0].url}", "language": None,
                       "current": False})
    review_href = None
    if page.progress is not None and reviewed:
        review_href = f"{page.root}review/{page.language.code}.html#{page.doc.name}"
    return env.get_template("page.html").render(
        common, root=page.root, html_lang=page.language, page=page, alternates=alternates,
        body=Markup(render_markdown(page.markdown, fallback)), review_href=review_href,
    )


def _review_section(page: Page) -> dict:
    counted = [f for p in page.passages for f in p.findings if not f.waived]
    counted += [f for f in page.catalog_findings if not f.waived]
    return {
        "page": page,
        "has_catalog": page.has_catalog,
        "catalog_findings": page.catalog_findings,
        "flagged": [(n, p) for n, p in enumerate(page.passages, start=1) if p.findings],
        "errors": sum(1 for f in counted if f.severity == "error"),
        "warnings": sum(1 for f in counted if f.severity == "warning"),
    }


@lru_cache(maxsize=1)
def _environment() -> Environment:
    return Environment(loader=PackageLoader("tolmach.publish", "templates"), autoescape=True,
                       undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                       keep_trailing_newline=True)
