"""The model of a published page: a document in one language, and how much of it is translated.

Every locale gets a page model for every document, however little is translated:
untranslated, fuzzy and missing passages fall back to the source text. Whether a page
is *published* is decided elsewhere (:mod:`tolmach.publish.gate`); reviewer pages show
every model.
"""

from __future__ import annotations

import functools
import hashlib
import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import polib
from babel import Locale
from babel.core import get_global, parse_locale

from tolmach.catalog.status import is_memory_suggestion, translations_of, word_count
from tolmach.project import SourceDocument

if TYPE_CHECKING:  # the parser and renderer load when a page is made, not on a no-op run
    from tolmach.markdown.document import Document, Segment
    from tolmach.markdown.verify import VerifiedBuild
    from tolmach.publish.render import Fallback

__all__ = [
    "FUZZY",
    "MISSING",
    "TRANSLATED",
    "UNTRANSLATED",
    "Language",
    "Page",
    "Passage",
    "Progress",
    "front_matter_value",
    "language",
    "source_page",
    "source_revision",
    "translated_page",
]

REVISION_LENGTH = 12
TRANSLATED, FUZZY, UNTRANSLATED, MISSING = "translated", "fuzzy", "untranslated", "missing"
_FRONT_MATTER = "front matter: "
_DATE_RE = re.compile(r"^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2})(?::\d{2})?\s*(Z|[+-]\d{2}:?\d{2})?)?")


@dataclass(frozen=True)
class Language:
    """A locale as a page shows it: its code, BCP 47 tag, own name and direction."""

    code: str
    tag: str
    name: str
    english: str
    direction: str
    territory_code: str = ""

    @property
    def og_locale(self) -> str:
        """Open Graph spells a locale ``language_TERRITORY``: ``de`` is ``de_DE``."""
        return self.territory_code


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
        territory_code=_likely_locale(lang, territory),
    )


def _likely_locale(lang: str, territory: str | None) -> str:
    """``de`` → ``de_DE``, ``uk`` → ``uk_UA``, ``zh_CN`` → ``zh_CN`` (CLDR likely subtags)."""
    if not territory:
        likely = get_global("likely_subtags").get(lang, lang)
        territory = parse_locale(likely)[1]
    return f"{lang}_{territory}" if territory else lang


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
    rejected: bool = False  # translated, but the verified build kept the source text

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
    updated: str | None = None  # ISO 8601: front matter date, else the catalog's revision

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
        updated=_source_date(document),
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

    Its text is the verified build (``verified``, made here if not given): a translation
    that would change the document's structure is shown in the source language, marked
    as such (the checks report it, so the page is withheld unless errors are allowed).
    """
    translations = translations_of(po) if po is not None else {}
    if verified is None:
        from tolmach.markdown.verify import verified_build

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
        updated=max(filter(None, (_source_date(document), iso_date(revised))), default=None),
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
        yield Passage(segment, status, text, tuple(by_msgid.get(segment.text, ())),
                      rejected=segment.text in rejected)


def _status(entry: polib.POEntry | None) -> tuple[str, str | None]:
    if entry is None:
        return MISSING, None
    if is_memory_suggestion(entry):  # a suggestion for a new text: not translated yet
        return UNTRANSLATED, None
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
    words = {text: _words_of(text) for text in status_of}
    return Progress(
        translated_words=sum(words[t] for t, s in status_of.items() if s == TRANSLATED),
        total_words=sum(words.values()),
        translated=counts[TRANSLATED], fuzzy=counts[FUZZY],
        missing=counts[MISSING], untranslated=counts[UNTRANSLATED],
    )


#: :func:`word_count` remembered: a document's texts are counted for each of its
#: languages, and counting was most of the time of making a page's model.
_words_of = functools.lru_cache(maxsize=2048)(word_count)  # a document's texts, and more


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
    from tolmach.publish.render import plain_text

    for segment in document.segments:
        if segment.kind == kind:
            return plain_text(translations.get(segment.text) or segment.text) or None
    return None


def front_matter_value(document: Document, key: str) -> str | None:
    """A top-level scalar of the front matter, unquoted (``date: 2025-06-01`` → ``2025-06-01``)."""
    text = document.text.removeprefix("\ufeff")
    if not text.startswith("---"):
        return None
    for line in text.splitlines()[1:]:
        if line.rstrip() in ("---", "..."):
            break
        name, colon, value = line.partition(":")
        if colon and name == key:
            return value.strip().strip("'\"") or None
    return None


def _source_date(document: Document) -> str | None:
    return iso_date(front_matter_value(document, "updated") or front_matter_value(document, "date"))


def iso_date(text: str | None) -> str | None:
    """A date as Atom and sitemaps want it (RFC 3339), from front matter or a PO header.

    >>> iso_date("2025-06-01 12:00+0000"), iso_date("2025-06-01"), iso_date("YEAR-MO-DA")
    ('2025-06-01T12:00:00+00:00', '2025-06-01T00:00:00+00:00', None)
    """
    match = _DATE_RE.match(text or "")
    if match is None:
        return None
    day, time, zone = match.groups()
    zone = zone or "+00:00"
    if zone == "Z":
        zone = "+00:00"
    elif ":" not in zone:
        zone = f"{zone[:3]}:{zone[3:]}"
    return f"{day}T{time or '00:00'}:00{zone}"


def fallback_of(page: Page, source: Language) -> Fallback:
    from tolmach.publish.render import Fallback, segment_key

    texts = frozenset(
        segment_key(p.segment.text)
        for p in page.passages
        if (p.status != TRANSLATED or p.rejected) and not p.segment.kind.startswith(_FRONT_MATTER)
    )
    return Fallback(texts, source.tag, source.direction)


