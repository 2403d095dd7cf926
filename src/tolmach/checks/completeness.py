"""Completeness: what is not translated yet, what waits for review, what is left over.

``untranslated``, ``fuzzy`` and ``obsolete`` are catalog checks: they see every entry
and the runner reports one finding per catalog with the count and the first lines, since
a finding per empty entry would bury everything else. ``identical`` is per entry: a
translation equal to its source is a mistake only when the source has words to
translate, and a deliberate one deserves a visible ``#, ignore-identical``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from tolmach.catalog.status import is_memory_suggestion
from tolmach.checks.registry import EntryContext, check

__all__ = ["fuzzy", "has_translatable_words", "identical", "obsolete", "untranslated"]

_WORD_RE = re.compile(r"[^\W\d_]+")


def _entry_state(ctx: EntryContext) -> tuple[bool, bool]:
    """(obsolete, fuzzy) of the entry behind ``ctx``; a suggestion of the translation
    memory is not fuzzy but untranslated, as ``tolmach stats`` counts it."""
    entry = ctx.entry
    if entry is None:
        return False, False
    return bool(entry.obsolete), "fuzzy" in entry.flags and not is_memory_suggestion(entry)


@check("untranslated", severity="warning", per="catalog", summary="untranslated entries: {n}")
def untranslated(ctx: EntryContext) -> Iterator[str]:
    """Entries with no translation yet, memory suggestions included (counted per catalog)."""
    obsolete_entry, fuzzy_entry = _entry_state(ctx)
    suggestion = ctx.entry is not None and is_memory_suggestion(ctx.entry)
    if not obsolete_entry and not fuzzy_entry and (suggestion or not ctx.target.strip()):
        yield "untranslated"


@check("fuzzy", severity="warning", per="catalog", summary="fuzzy entries: {n}")
def fuzzy(ctx: EntryContext) -> Iterator[str]:
    """Entries marked fuzzy: not published until a translator confirms them (counted)."""
    obsolete_entry, fuzzy_entry = _entry_state(ctx)
    if fuzzy_entry and not obsolete_entry:
        yield "fuzzy"


@check("obsolete", severity="warning", per="catalog", summary="obsolete entries: {n}")
def obsolete(ctx: EntryContext) -> Iterator[str]:
    """Obsolete entries (#~) whose source text is gone: merge or delete them (counted)."""
    if _entry_state(ctx)[0]:
        yield "obsolete"


@check("identical", severity="warning")
def identical(ctx: EntryContext) -> Iterator[str]:
    """Translation identical to a source that has words to translate."""
    if ctx.target.strip() == ctx.source.strip() and has_translatable_words(ctx.source_markup.text):
        yield "translation is identical to the source"


def has_translatable_words(text: str) -> bool:
    """True when ``text`` has an ordinary lowercase word, not only names and acronyms.

    >>> has_translatable_words("ROCm 7: MI300X")
    False
    >>> has_translatable_words("Windows как first-class citizen")
    True
    """
    for word in _WORD_RE.findall(text):
        if word.islower() and (len(word) > 1 or not word.isascii()):
            return True
    return False
