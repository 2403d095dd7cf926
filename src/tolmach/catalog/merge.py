"""Merge a catalog with its new template, as GNU msgmerge does, only faster.

Semantics (``merge_catalog(old, template)`` returns a new catalog):

* Entries come in template order, with the template's msgctxt, msgid,
  msgid_plural, references and extracted comments.
* An exact match (same msgctxt and msgid) keeps its translation, translator
  comments (``# ``) and flags.  It stays fuzzy, with its ``#|`` previous msgid,
  only if it was fuzzy before.  Waivers in its comments are pinned to its msgid
  (:mod:`tolmach.catalog.waivers`).
* A changed source string gets the closest previous translation, flagged
  ``fuzzy``, with the old msgid in ``#| msgid`` so editors show the difference,
  and an extracted comment ``fuzzy match: 87% (previous translation)``.  The
  comment goes away once a translator clears the fuzzy flag.  Its waivers stay
  pinned to the old msgid, so they lapse visibly.
* Without a close previous translation, the translation memory (if given) is
  asked; its suggestions are fuzzy too, even exact ones from other documents,
  and say their origin: ``memory: 100% from other.po, de``.  Until a translator
  confirms one, it counts as not translated yet (:mod:`tolmach.catalog.status`).
* Old entries missing from the template become obsolete (``#~``), after the
  live ones, in their old order, unless they became a fuzzy match (msgmerge
  keeps no second copy either); an obsolete entry whose msgid returns comes
  back to life with its translation, and obsolete entries are fuzzy candidates.
* The header comes from the old catalog (from the template when there is none).

Similarity is the one GNU msgmerge uses (``fstrcmp``): twice the number of
characters in the longest common subsequence over the sum of both lengths,
0 to 1 (rapidfuzz's Indel ratio).  ``threshold`` is the least similarity a
fuzzy proposal needs; msgmerge's own is 0.6.  Candidates are not compared
pairwise: an index of word prefixes (and pairs of them) picks a short list,
which is then scored; `FuzzyIndex` explains how.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

import polib
from babel import Locale
from babel.messages.plurals import get_plural
from rapidfuzz import fuzz

from tolmach.catalog.pofile import GENERATOR
from tolmach.catalog.poreader import carry_text
from tolmach.catalog.similarity import EXACT, FuzzyIndex
from tolmach.catalog.status import MEMORY_NOTE, is_memory_suggestion
from tolmach.catalog.waivers import flags_as_comment, pin_waivers
from tolmach.fileio import no_garbage_collection

FUZZY_NOTE = "fuzzy match: "
_MEMORY_ORIGIN = "memory: "
_NOTES = (FUZZY_NOTE, MEMORY_NOTE)
_NEW_ENTRY = polib.POEntry.__new__
_CONTEXT_BONUS = 1e-5  # a fitting context wins among equally close proposals
_NEAR_TIE = 10 * _CONTEXT_BONUS  # proposals further below the best cannot win: none asked


@dataclass(frozen=True)
class UpdateSummary:
    """What an update did to one catalog, as msgmerge users expect to read it."""

    new: int = 0  # source strings the catalog did not have (memory suggestions included)
    fuzzy: int = 0  # changed source strings, offered their previous translation
    obsolete: int = 0  # translated strings whose source is gone
    kept: int = 0  # strings the catalog had already
    memory: int = 0  # of the new ones, how many got a suggestion from the memory

    def __add__(self, other: UpdateSummary) -> UpdateSummary:
        return UpdateSummary(*(a + b for a, b in zip(self.counts(), other.counts(), strict=True)))

    def counts(self) -> tuple[int, int, int, int, int]:
        return (self.new, self.fuzzy, self.obsolete, self.kept, self.memory)

    def __str__(self) -> str:
        """``+3 new, ~2 fuzzy, −1 obsolete, 40 kept``, as sphinx-intl and msgmerge read."""
        memory = f" ({self.memory} suggested by memory)" if self.memory else ""
        return (
            f"+{self.new} new{memory}, ~{self.fuzzy} fuzzy, −{self.obsolete} obsolete, "
            f"{self.kept} kept"
        )


@dataclass(frozen=True)
class Proposal:
    """A translation offered for a changed or new source string."""

    score: float
    origin: str
    source: polib.POEntry  # msgid, msgctxt, msgid_plural, translations, comments


class MemoryLookup(Protocol):
    """What merging asks of a translation memory (:class:`tolmach.memory.store.TranslationMemory`)."""

    def best(self, text: str, locale: str, *, threshold: float, exclude_document: str | None):
        """The closest stored translation of ``text`` (with ``source``, ``target``,
        ``context``, ``score`` and ``origin``), or None."""


def update_catalog(
    template: polib.POFile,
    old: polib.POFile | None,
    locale: str,
    *,
    fuzzy_threshold: float = 0.6,
    memory=None,
    document: str | None = None,
    now: datetime | None = None,
    keep_obsolete: bool = True,
    fuzzy: bool = True,
) -> polib.POFile:
    """Merge ``template`` into a locale's catalog (new when ``old`` is None).

    Translations are kept, changed sources become fuzzy with the previous msgid, vanished
    ones obsolete (or dropped, without ``keep_obsolete``, as ``msgmerge --no-obsolete``);
    the header is set from Babel's data for the locale. Nothing in the header changes
    unless the locale's data does, so an update without source changes rewrites no byte.
    Without ``fuzzy``, only exact matches are proposed, as ``msgmerge -N`` does.
    """
    merged = merge_catalog(
        old, template, threshold=fuzzy_threshold, memory=memory, locale=locale, document=document,
        fuzzy=fuzzy,
    )
    if not keep_obsolete:
        for entry in [entry for entry in merged if entry.obsolete]:
            merged.remove(entry)
    merged.metadata = _catalog_metadata(template, old, locale, now)
    return merged


def summarize_update(old: polib.POFile | None, merged: polib.POFile) -> UpdateSummary:
    """Count what :func:`update_catalog` did: new, fuzzy, obsolete and kept strings."""
    before = {(e.msgctxt, e.msgid): e for e in old or () if not e.obsolete}
    gone = {(e.msgctxt, e.msgid) for e in old or () if e.obsolete and _translated(e)}
    counts = {"new": 0, "fuzzy": 0, "kept": 0, "memory": 0}
    still, proposed_from = set(), set()
    for entry in merged:
        if entry.obsolete:
            continue
        key = (entry.msgctxt, entry.msgid)
        still.add(key)
        if key in before:
            counts["kept"] += 1
            continue
        proposed_from.add((entry.previous_msgctxt, entry.previous_msgid))
        if key in gone and _translated(entry):
            counts["kept"] += 1
        elif is_memory_suggestion(entry):
            counts["new"] += 1
            counts["memory"] += 1
        elif "fuzzy" in entry.flags and _translated(entry):
            counts["fuzzy"] += 1
        else:
            counts["new"] += 1
    obsolete = sum(
        1
        for key, entry in before.items()
        if key not in still and key not in proposed_from and _translated(entry)
    )
    return UpdateSummary(obsolete=obsolete, **counts)



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


def merge_catalog(
    old: polib.POFile | None,
    template: polib.POFile,
    *,
    threshold: float = 0.6,
    memory: MemoryLookup | None = None,
    locale: str | None = None,
    document: str | None = None,
    fuzzy: bool = True,
) -> polib.POFile:
    """Bring a catalog up to date with its template; see the module docstring.

    Without ``fuzzy`` (``msgmerge -N``), a new or changed entry is offered only a
    translation of its very text: its own previous one, or the memory's of the same
    source; the old entry it replaces becomes obsolete with its translation."""
    with no_garbage_collection():
        return _merge(old, template, threshold if fuzzy else EXACT, memory, locale, document)


def _merge(
    old: polib.POFile | None,
    template: polib.POFile,
    threshold: float,
    memory: MemoryLookup | None,
    locale: str | None,
    document: str | None,
) -> polib.POFile:
    old_entries = list(old) if old is not None else []
    result = _empty_like(old if old is not None else template)
    plurals = _plural_count(result)
    exact = {(entry.msgctxt, entry.msgid): entry for entry in old_entries if not entry.obsolete}
    for entry in old_entries:
        if entry.obsolete:  # revives when nothing live matches
            exact.setdefault((entry.msgctxt, entry.msgid), entry)
    finder = _ProposalFinder(old_entries, threshold, template)  # EXACT: no index is built
    used: set[int] = set()
    for wanted in template:
        if wanted.obsolete or (wanted.msgid == "" and wanted.msgctxt is None):
            continue
        found = exact.get((wanted.msgctxt, wanted.msgid))
        if found is not None:
            used.add(id(found))
        merged = _from_template(wanted)
        if found is not None and _translated(found):
            _carry_exact(merged, found, plurals)
        else:
            if found is not None:
                _carry_notes(merged, found)
            proposal = finder.best(wanted) or _ask_memory(
                memory, wanted, threshold, locale, document
            )
            if proposal is not None:
                _apply_proposal(merged, proposal, plurals)
                if not proposal.origin.startswith(_MEMORY_ORIGIN):
                    used.add(id(proposal.source))  # lives on as the fuzzy entry
            else:
                _leave_untranslated(merged, plurals)
        result.append(merged)
    result.extend(_obsolete(entry) for entry in old_entries if id(entry) not in used)
    return result


def _key(entry: polib.POEntry) -> tuple[str | None, str]:
    return (entry.msgctxt, entry.msgid)


def _translated(entry: polib.POEntry) -> bool:
    if entry.msgid_plural:
        return any(entry.msgstr_plural.values())
    return bool(entry.msgstr)


def _empty_like(model: polib.POFile) -> polib.POFile:
    """A catalog with the header of `model` and no entries."""
    result = polib.POFile(wrapwidth=getattr(model, "wrapwidth", 79))
    result.header = model.header
    result.metadata = dict(model.metadata)
    result.metadata_is_fuzzy = model.metadata_is_fuzzy
    return result


def _plural_count(po: polib.POFile) -> int:
    """nplurals from the Plural-Forms header, 2 when absent."""
    found = re.search(r"nplurals\s*=\s*(\d+)", po.metadata.get("Plural-Forms", ""))
    return int(found.group(1)) if found else 2


def _from_template(wanted: polib.POEntry) -> polib.POEntry:
    """A fresh entry with everything the template decides (attributes set as
    ``POEntry(...)`` sets them, without its keyword-argument constructor)."""
    made = _NEW_ENTRY(polib.POEntry)
    made.__dict__.update(
        msgid=wanted.msgid,
        msgstr="",
        msgid_plural=wanted.msgid_plural,
        msgstr_plural={},
        msgctxt=wanted.msgctxt,
        obsolete=False,
        encoding=polib.default_encoding,
        comment=_without_fuzzy_note(wanted.comment),
        tcomment="",
        occurrences=list(wanted.occurrences),
        flags=[flag for flag in wanted.flags if flag != "fuzzy"],
        previous_msgctxt=None,
        previous_msgid=None,
        previous_msgid_plural=None,
        linenum=None,
    )
    return made


def _without_fuzzy_note(comment: str) -> str:
    if not any(note in comment for note in _NOTES):
        return comment
    return "\n".join(line for line in comment.split("\n") if not line.startswith(_NOTES))


def _fuzzy_note(comment: str) -> str | None:
    return next((line for line in comment.split("\n") if line.startswith(_NOTES)), None)


def _carry_notes(merged: polib.POEntry, old: polib.POEntry) -> None:
    """Translator comments and flags survive; fuzzy is decided elsewhere.

    Waivers are pinned to the msgid they were given for. When the source text changed,
    ``ignore-<check>`` flags become pinned comments too, so that they lapse visibly.
    """
    if (old.msgctxt, old.msgid) == (merged.msgctxt, merged.msgid):
        flags, merged.tcomment = old.flags, pin_waivers(old.tcomment or "", old.msgid)
    else:
        flags, merged.tcomment = flags_as_comment(old, old.msgid)
    for flag in flags:
        if flag != "fuzzy" and flag not in merged.flags:
            merged.flags.append(flag)


def _carry_exact(merged: polib.POEntry, old: polib.POEntry, plurals: int) -> None:
    """Keep the old translation; it stays fuzzy only if it was fuzzy."""
    _carry_notes(merged, old)
    _copy_translation(merged, old, plurals)
    carry_text(merged, old)
    changed_plural = bool(merged.msgid_plural) != bool(old.msgid_plural) or (
        merged.msgid_plural and merged.msgid_plural != old.msgid_plural
    )
    if "fuzzy" in old.flags or changed_plural:
        merged.flags.insert(0, "fuzzy")
        merged.previous_msgctxt = old.previous_msgctxt
        merged.previous_msgid = old.previous_msgid
        merged.previous_msgid_plural = old.previous_msgid_plural
        if changed_plural and old.previous_msgid is None:
            merged.previous_msgid = old.msgid
            merged.previous_msgid_plural = old.msgid_plural or None
        note = _fuzzy_note(old.comment)
        if note is None and merged.previous_msgid is not None:
            score = fuzz.ratio(merged.previous_msgid, merged.msgid) / 100
            note = _note(score, "previous translation")
        if note:
            merged.comment = "\n".join(filter(None, [merged.comment, note]))


def _note(score: float, origin: str) -> str:
    """The extracted comment that says how close a fuzzy proposal is, and whence:
    ``fuzzy match: 87% (previous translation)``, ``memory: 100% from other.po, de``."""
    percent = int(score * 100 + 1e-9)
    if origin.startswith(_MEMORY_ORIGIN):
        return f"{MEMORY_NOTE}{percent}% from {origin[len(_MEMORY_ORIGIN):]}"
    return f"{FUZZY_NOTE}{percent}% ({origin})"


def _copy_translation(merged: polib.POEntry, source: polib.POEntry, plurals: int) -> None:
    """Copy msgstr or msgstr[n], converting between singular and plural forms."""
    if merged.msgid_plural:
        forms = source.msgstr_plural if source.msgid_plural else {}
        singular = source.msgstr if not source.msgid_plural else forms.get(0, "")
        merged.msgstr_plural = {n: forms.get(n, singular) for n in range(plurals)}
    else:
        merged.msgstr = source.msgstr_plural.get(0, "") if source.msgid_plural else source.msgstr


def _apply_proposal(merged: polib.POEntry, proposal: Proposal, plurals: int) -> None:
    """Fill a new or changed entry with a proposal, fuzzy, saying where it comes from."""
    source = proposal.source
    _copy_translation(merged, source, plurals)
    if proposal.origin.startswith("previous"):
        _carry_notes(merged, source)
    merged.flags.insert(0, "fuzzy")
    merged.previous_msgctxt = source.msgctxt
    merged.previous_msgid = source.msgid
    merged.previous_msgid_plural = source.msgid_plural or None
    note = _note(proposal.score, proposal.origin)
    merged.comment = "\n".join(filter(None, [merged.comment, note]))


def _leave_untranslated(merged: polib.POEntry, plurals: int) -> None:
    if merged.msgid_plural:
        merged.msgstr_plural = {n: "" for n in range(plurals)}


def _obsolete(entry: polib.POEntry) -> polib.POEntry:
    """The old entry as an obsolete one: its places in the document are gone."""
    kept = polib.POEntry(
        msgctxt=entry.msgctxt,
        msgid=entry.msgid,
        msgid_plural=entry.msgid_plural,
        msgstr=entry.msgstr,
        msgstr_plural=dict(entry.msgstr_plural),
        obsolete=True,
        tcomment=entry.tcomment,
        comment=entry.comment,
        flags=list(entry.flags),
        previous_msgctxt=entry.previous_msgctxt,
        previous_msgid=entry.previous_msgid,
        previous_msgid_plural=entry.previous_msgid_plural,
    )
    carry_text(kept, entry)
    return kept


def _ask_memory(
    memory: MemoryLookup | None,
    wanted: polib.POEntry,
    threshold: float,
    locale: str | None,
    document: str | None,
) -> Proposal | None:
    """The memory's best proposal for a singular entry (plural forms are not stored)."""
    if memory is None or locale is None or wanted.msgid_plural:
        return None
    match = memory.best(wanted.msgid, locale, threshold=threshold, exclude_document=document)
    if match is None:
        return None
    source = polib.POEntry(msgid=match.source, msgstr=match.target, msgctxt=match.context)
    return Proposal(match.score, f"{_MEMORY_ORIGIN}{match.origin}", source)


class _ProposalFinder:
    """The closest translated entry of the old catalog (live or obsolete).

    An unreviewed (fuzzy) translation is offered only when its own text has left the
    template: one that stays would otherwise be proposed again for other entries on the
    next run, so a second ``update`` with nothing changed would change the catalog. It is
    still offered to the text it was proposed from (its ``#|`` msgid), when that text
    returns: the proposal is where that text's translation lives on.
    """

    def __init__(
        self, old_entries: list[polib.POEntry], threshold: float, template: polib.POFile
    ) -> None:
        self.threshold = threshold
        self.old_entries, self.template = old_entries, template
        self.candidates: list[polib.POEntry] = []
        self.carried: dict[tuple, polib.POEntry] = {}
        self._ready = False  # sorted out on first use: exact matches need none of it
        self._index: FuzzyIndex | None = None

    def _sort_out(self) -> None:
        staying = {(e.msgctxt, e.msgid) for e in self.template}
        for entry in self.old_entries:
            if not _translated(entry):
                continue
            if "fuzzy" not in entry.flags or _key(entry) not in staying:
                self.candidates.append(entry)
            elif entry.previous_msgid is not None:
                self.carried.setdefault((entry.previous_msgctxt, entry.previous_msgid), entry)
        self._ready = True

    @property
    def index(self) -> FuzzyIndex:
        """Built on first use: a catalog whose entries all match exactly needs none."""
        if self._index is None:
            self._index = FuzzyIndex([entry.msgid for entry in self.candidates])
        return self._index

    def best(self, wanted: polib.POEntry) -> Proposal | None:
        if not self._ready:
            self._sort_out()
        carried = self.carried.get(_key(wanted))
        if carried is not None:
            return Proposal(fuzz.ratio(wanted.msgid, carried.msgid) / 100, "previous translation", carried)
        if not self.candidates or self.threshold >= EXACT:
            return None
        found = self.index.search(wanted.msgid, self.threshold, limit=8, within=_NEAR_TIE)
        if not found:
            return None
        # msgmerge prefers, among equals, an entry without context or with the same one
        score, number = min(
            found,
            key=lambda pair: (
                -pair[0]
                - (_CONTEXT_BONUS if self.candidates[pair[1]].msgctxt in (None, wanted.msgctxt)
                   else 0),
                pair[1],
            ),
        )
        source = self.candidates[number]
        origin = "previous translation" + (", obsolete" if source.obsolete else "")
        return Proposal(score, origin, source)


__all__ = [
    "FUZZY_NOTE",
    "Proposal",
    "UpdateSummary",
    "merge_catalog",
    "summarize_update",
    "update_catalog",
]
