"""How to act on a finding: one short instruction per check, and how to waive it.

A finding a translator cannot act on is noise; every line ``tolmach check`` prints ends
with what to do (``— write 6,9 … or waive: # tolmach: ignore numbers — reason``).
"""

from __future__ import annotations

from tolmach.checks.registry import registered

__all__ = ["FIXES", "how_to_fix", "how_to_waive"]

FIXES: dict[str, str] = {
    "markup": "copy code spans, link targets, HTML and emphasis markers from the source as they are",
    "unsafe": "remove the script-capable HTML or link; translations are published as they are",
    "numbers": "write each number of the source with its value, in the target language's notation",
    "glossary": "use the translation the glossary prescribes (tolmach glossary list)",
    "punctuation": "end as the source ends, with no space before . , ; : ! ?",
    "structure": "keep the source's blocks: no new lines that start a heading, list, table, quote or code",
    "line-breaks": "write the text on the lines the source has; no carriage return or Unicode line separator",
    "typography": "use the locale's apostrophe and quotation marks (’ “…”), not straight ' and \"",
    "whitespace": "start and end the translation with the whitespace of the source",
    "spacing": "use single spaces between words",
    "repeated-word": "delete the repeated word",
    "brackets": "open and close brackets and quotation marks as often as the source does",
    "quotes": "use the target language's quotation marks",
    "length": "check that nothing was left out or added",
    "untranslated": "translate them in a PO editor (Poedit, Lokalize, Weblate)",
    "fuzzy": "review them and clear the fuzzy flag (Poedit: “Needs work” off)",
    "obsolete": "delete the #~ entries, or run `tolmach update --no-obsolete`",
    "identical": "translate it, or waive it if the text is the same in both languages",
    "waiver": "name a check that `tolmach check --list` shows",
}
_PER_ENTRY_WAIVER = "or waive: # tolmach: ignore {check} — reason"
_GENERIC = "correct the translation"


def how_to_fix(check: str) -> str:
    """What to do about a finding of ``check``, and how to waive it when it is per entry."""
    fix = FIXES.get(check, _GENERIC)
    waive = how_to_waive(check)
    return f"{fix}; {waive}" if waive else fix


def how_to_waive(check: str) -> str:
    """The waiver for ``check`` on one entry; empty for checks counted per catalog."""
    known = registered().get(check)  # the families register when first asked for
    if known is None or known.per != "entry":
        return ""
    return _PER_ENTRY_WAIVER.format(check=check)
