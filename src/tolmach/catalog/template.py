"""Document ↔ gettext catalogs: extract a template, update a locale's catalog, count.

These functions take and return polib objects; reading and writing files happens in
:mod:`tolmach.catalog.pofile` and in :mod:`tolmach.project`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

import polib
from babel import Locale
from babel.messages.plurals import get_plural

from tolmach.markdown.document import Document

__all__ = [
    "CatalogStats",
    "catalog_stats",
    "extract_template",
    "translations_of",
    "update_catalog",
    "word_count",
]

GENERATOR = "tolmach"
_WORD_RE = re.compile(r"\w+(?:[-'’]\w+)*")
_MARKUP_RE = re.compile(r"`[^`]*`|\]\([^)]*\)|<[^>]*>|&#?\w+;")


def extract_template(
    document: Document,
    source_path: str,
    *,
    project: str,
    describe_terms: Callable[[str], str | None] | None = None,
) -> polib.POFile:
    """The ``.pot`` of one document: entries in source order, identical texts merged.

    Each entry says where it lives (``#: path:LINE``) and what it is (``#.`` block type
    and heading); ``describe_terms`` adds the glossary terms found in the text.
    """
    pot = polib.POFile(wrapwidth=0)
    pot.metadata = _template_metadata(project)
    by_text: dict[str, polib.POEntry] = {}
    for seg in document.segments:
        entry = by_text.get(seg.text)
        if entry is None:
            entry = polib.POEntry(msgid=seg.text, msgstr="", occurrences=[], comment="")
            by_text[seg.text] = entry
            pot.append(entry)
        entry.occurrences.append((source_path, str(seg.line)))
        _add_comment_line(entry, seg.comment)
    if describe_terms is not None:
        for entry in pot:
            terms = describe_terms(entry.msgid)
            if terms:
                _add_comment_line(entry, terms)
    return pot


def _add_comment_line(entry: polib.POEntry, line: str) -> None:
    lines = entry.comment.split("\n") if entry.comment else []
    if line not in lines:
        lines.append(line)
    entry.comment = "\n".join(lines)


def _template_metadata(project: str) -> dict[str, str]:
    return {
        "Project-Id-Version": project,
        "Report-Msgid-Bugs-To": "",
        "PO-Revision-Date": "YEAR-MO-DA HO:MI+ZONE",
        "Last-Translator": "FULL NAME <EMAIL@ADDRESS>",
        "Language-Team": "LANGUAGE <LL@li.org>",
        "Language": "",
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "X-Generator": GENERATOR,
    }


def update_catalog(
    template: polib.POFile,
    old: polib.POFile | None,
    locale: str,
    *,
    fuzzy_threshold: float = 0.6,
    memory=None,
    document: str | None = None,
    now: datetime | None = None,
) -> polib.POFile:
    """Merge ``template`` into a locale's catalog (new when ``old`` is None).

    Translations are kept, changed sources become fuzzy with the previous msgid, vanished
    ones obsolete; the header is set from Babel's data for the locale. Nothing in the
    header changes unless the locale's data does, so an update without source changes
    rewrites no byte.
    """
    from tolmach.catalog.merge import merge_catalog

    merged = merge_catalog(
        old, template, threshold=fuzzy_threshold, memory=memory, locale=locale, document=document
    )
    merged.metadata = _catalog_metadata(template, old, locale, now)
    return merged


def _catalog_metadata(
    template: polib.POFile, old: polib.POFile | None, locale: str, now: datetime | None
) -> dict[str, str]:
    parsed = Locale.parse(locale)
    plural = get_plural(parsed)
    metadata = dict(old.metadata) if old is not None else {}
    if "PO-Revision-Date" not in metadata or metadata["PO-Revision-Date"].startswith("YEAR"):
        stamp = (now or datetime.now(UTC)).strftime("%Y-%m-%d %H:%M%z")
        metadata["PO-Revision-Date"] = stamp
    fresh = {
        "Project-Id-Version": template.metadata.get("Project-Id-Version", ""),
        "Report-Msgid-Bugs-To": template.metadata.get("Report-Msgid-Bugs-To", ""),
        "PO-Revision-Date": metadata["PO-Revision-Date"],
        "Last-Translator": metadata.get("Last-Translator", ""),
        "Language-Team": metadata.get("Language-Team") or parsed.english_name,
        "Language": locale,
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "Plural-Forms": plural.plural_forms,
        "X-Generator": GENERATOR,
    }
    extra = {k: v for k, v in metadata.items() if k not in fresh}
    return fresh | dict(sorted(extra.items()))


def translations_of(po: polib.POFile) -> dict[str, str]:
    """msgid → msgstr for the entries a build may use: translated, not fuzzy, not obsolete."""
    return {
        e.msgid: e.msgstr
        for e in po
        if e.msgstr and not e.obsolete and "fuzzy" not in e.flags and not e.msgid_plural
    }


def word_count(text: str) -> int:
    """Words a translator reads: markup such as code spans and URLs does not count."""
    return len(_WORD_RE.findall(_MARKUP_RE.sub(" ", text)))


@dataclass(frozen=True)
class CatalogStats:
    """Progress of one catalog, in entries and in source words."""

    translated: int = 0
    fuzzy: int = 0
    untranslated: int = 0
    translated_words: int = 0
    fuzzy_words: int = 0
    untranslated_words: int = 0
    obsolete: int = 0

    @property
    def total(self) -> int:
        return self.translated + self.fuzzy + self.untranslated

    @property
    def total_words(self) -> int:
        return self.translated_words + self.fuzzy_words + self.untranslated_words

    @property
    def percent(self) -> float:
        """Share of source words translated (fuzzy counts as not translated)."""
        if self.total_words:
            return 100.0 * self.translated_words / self.total_words
        return 100.0 if self.total == self.translated else 0.0


def catalog_stats(entries: Iterable[polib.POEntry]) -> CatalogStats:
    """Count translated, fuzzy and untranslated entries and their source words."""
    counts = [0] * 7
    for entry in entries:
        if entry.obsolete:
            counts[6] += 1
            continue
        words = word_count(entry.msgid)
        if "fuzzy" in entry.flags:
            slot = 1
        elif entry.translated():
            slot = 0
        else:
            slot = 2
        counts[slot] += 1
        counts[slot + 3] += words
    return CatalogStats(*counts)
