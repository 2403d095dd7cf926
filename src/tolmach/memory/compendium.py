"""Compendia: translations made elsewhere (TMX or PO) that the memory can import.

A compendium is only useful if it translates from the project's source language, so
its source strings must be written in that language's script.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from pathlib import Path

from tolmach.catalog.pofile import read_po
from tolmach.memory.store import TranslationMemoryError, language_of
from tolmach.memory.tmx import TranslationUnit, read_tmx

__all__ = ["read_compendium"]

_SCRIPTS = {
    "ru": "CYRILLIC",
    "uk": "CYRILLIC",
    "be": "CYRILLIC",
    "bg": "CYRILLIC",
    "sr": "CYRILLIC",
    "mk": "CYRILLIC",
    "kk": "CYRILLIC",
    "el": "GREEK",
    "zh": "CJK",
    "ja": "CJK",
    "ko": "HANGUL",
    "ar": "ARABIC",
    "fa": "ARABIC",
    "he": "HEBREW",
}


def read_compendium(path: Path, source_locale: str) -> list[TranslationUnit]:
    """The units of a TMX or PO compendium translated from `source_locale`.

    A PO compendium names its target language in its Language header; its
    source strings must be written in the script of the project's source
    language (a compendium translated from English is refused for Russian).
    """
    path = Path(path)
    if path.suffix.lower() == ".tmx":
        return read_tmx(path, source_locale)
    po = read_po(path)
    locale = po.metadata.get("Language", "").strip()
    if not locale:
        raise TranslationMemoryError(
            path, "no Language header, so the language of its translations is unknown"
        )
    units = [
        TranslationUnit(
            entry.msgid,
            entry.msgstr_plural.get(0, "") if entry.msgid_plural else entry.msgstr,
            locale,
            entry.msgctxt,
            path.name,
        )
        for entry in po
        if "fuzzy" not in entry.flags and not entry.obsolete
    ]
    units = [unit for unit in units if unit.target]
    _check_source_script(path, [unit.source for unit in units], source_locale)
    return units


def _check_source_script(path: Path, sources: list[str], source_locale: str) -> None:
    """Refuse source strings written in another script than the source language's."""
    expected = _SCRIPTS.get(language_of(source_locale), "LATIN")
    scripts = Counter(_script(char) for text in sources for char in text if char.isalpha())
    if sum(scripts.values()) < 20:
        return
    dominant, count = scripts.most_common(1)[0]
    if dominant != expected and count > sum(scripts.values()) / 2:
        raise TranslationMemoryError(
            path,
            f"its source strings are in {dominant.title()} script, but the project "
            f"translates from {source_locale} ({expected.title()}): not a compendium for "
            "this project"
        )


def _script(char: str) -> str:
    """The script of a letter, from its Unicode name (CYRILLIC SMALL LETTER A)."""
    name = unicodedata.name(char, "UNKNOWN")
    for script in ("CJK", "HIRAGANA", "KATAKANA"):
        if name.startswith(script):
            return "CJK"
    return name.split(" ")[0]
