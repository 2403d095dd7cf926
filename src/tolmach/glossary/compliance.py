"""Checking a translation against the termbase, waivers, and the translators' hint line."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass

from babel import Locale

from tolmach.glossary.match import TargetText, verbatim_pattern
from tolmach.glossary.terms import Term, Termbase, TermMatch, quote_term, term_key

__all__ = [
    "GlossaryViolation",
    "check_entry",
    "check_translation",
    "describe_terms",
    "waived_terms",
]


@dataclass(frozen=True)
class GlossaryViolation:
    """A broken glossary rule; ``rule`` is keep, required, forbidden or waiver."""

    term: str
    rule: str
    message: str


_WAIVER_RE = re.compile(
    r"^\s*glossary-waive:\s*(?P<term>.*?)(?:\s+(?:—|–|--|-)\s*(?P<reason>.*?))?\s*$"
)

# --- checking translations -----------------------------------------------------------


def check_translation(
    termbase: Termbase,
    source: str,
    target: str,
    locale: str,
    waived: Iterable[str] = frozenset(),
) -> list[GlossaryViolation]:
    """Glossary rules broken by ``target``, the ``locale`` translation of ``source``."""
    if not target.strip():
        return []
    skip = {term_key(w) for w in waived}
    prepared = TargetText(target, _language(locale))
    violations: list[GlossaryViolation] = []
    for term in _unique_terms(termbase.find_in_source(source)):
        if term_key(term.source) not in skip:
            violations.extend(_check_term(term, prepared, locale))
    return violations


def check_entry(
    termbase: Termbase, source: str, target: str, locale: str, translator_comment: str = ""
) -> list[GlossaryViolation]:
    """Like :func:`check_translation`, honouring the entry's ``glossary-waive`` comments."""
    waivers = waived_terms(translator_comment)
    problems = [
        GlossaryViolation(term, "waiver", f"waiver for {quote_term(term)} gives no reason")
        for term in _unreasoned_waivers(translator_comment)
    ]
    found = {term_key(m.term.source) for m in termbase.find_in_source(source)}
    problems += [
        GlossaryViolation(
            term, "waiver", f"waiver for {quote_term(term)} names no glossary term of this entry"
        )
        for term in waivers
        if term_key(term) not in found
    ]
    return problems + check_translation(termbase, source, target, locale, waivers)


def waived_terms(translator_comment: str) -> dict[str, str]:
    """Terms waived by ``glossary-waive: TERM — reason`` lines, mapped to their reasons."""
    found = (_WAIVER_RE.match(line) for line in (translator_comment or "").splitlines())
    return {m["term"]: m["reason"] for m in found if m and m["term"] and m["reason"]}


def _unreasoned_waivers(translator_comment: str) -> list[str]:
    found = (_WAIVER_RE.match(line) for line in (translator_comment or "").splitlines())
    return [m["term"] or "?" for m in found if m and not (m["term"] and m["reason"])]


@functools.lru_cache(maxsize=256)
def _language(locale: str) -> str:
    return Locale.parse(locale).language


def _unique_terms(matches: Iterable[TermMatch]) -> list[Term]:
    return list({id(m.term): m.term for m in matches}.values())


def _check_term(term: Term, target: TargetText, locale: str) -> list[GlossaryViolation]:
    required = term.targets_for(locale)
    if required:
        found = _check_required(term, required, target, locale)
    elif term.kind == "keep":
        found = _check_verbatim(term, target)
    else:
        found = []
    return found + _check_forbidden(term, target, locale)


def _check_verbatim(term: Term, target: TargetText) -> list[GlossaryViolation]:
    if target.find_verbatim(verbatim_pattern(term.source, term.case_sensitive, plurals=True)):
        return []
    other_case = target.find_verbatim(verbatim_pattern(term.source, False, plurals=True))
    detail = f'found "{other_case}"' if other_case else "missing in the translation"
    return [
        GlossaryViolation(term.source, "keep", f"{term.display} must stay as written ({detail})")
    ]


def _check_required(
    term: Term, required, target: TargetText, locale: str
) -> list[GlossaryViolation]:
    if any(target.find_translation(phrase) for phrase in required):
        return []
    wanted = " or ".join(f'"{phrase}"' for phrase in required)
    return [
        GlossaryViolation(
            term.source, "required", f"{term.display} must be translated as {wanted} in {locale}"
        )
    ]


def _check_forbidden(term: Term, target: TargetText, locale: str) -> list[GlossaryViolation]:
    violations = []
    for phrase in term.forbidden_for(locale):
        found = target.find_translation(phrase)
        if found is not None:
            seen = "" if found.casefold() == phrase.casefold() else f' (found "{found}")'
            message = f'forbidden translation "{phrase}" for {term.display}{seen}'
            violations.append(GlossaryViolation(term.source, "forbidden", message))
    return violations


# --- telling translators -------------------------------------------------------------


def describe_terms(termbase: Termbase, text: str, locale: str | None = None) -> str | None:
    """The ``#.`` comment line for an entry: ``glossary: ускоритель → accelerator; ROCm (keep)``.

    Targets are those of ``locale``; a .pot (no locale) shows the English ones.
    """
    terms = _unique_terms(termbase.find_in_source(text))
    if not terms:
        return None
    return "glossary: " + "; ".join(_describe(term, locale or "en") for term in terms)


def _describe(term: Term, locale: str) -> str:
    targets = term.targets_for(locale)
    if targets:
        return f"{term.source} → {' / '.join(targets)}"
    return f"{term.source} (keep)" if term.kind == "keep" else term.source
