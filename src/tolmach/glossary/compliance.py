"""Checking a translation against the termbase, waivers, and the translators' hint line."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from babel import Locale

from tolmach.glossary.match import TargetText, is_cyrillic, verbatim_pattern
from tolmach.glossary.terms import Term, Termbase, TermMatch, quote_term, term_key

__all__ = [
    "GlossaryViolation",
    "check_entry",
    "check_translation",
    "declared_waivers",
    "describe_terms",
    "waived_terms",
    "waiver_hint",
]


@dataclass(frozen=True)
class GlossaryViolation:
    """A broken glossary rule; ``rule`` is keep, required, forbidden or waiver.

    ``waived`` marks a violation a ``glossary-waive`` comment excuses: it is still
    reported, apart, so every waiver is seen and counted. ``hint`` tells how to waive
    a term that may have been found where the word means something else.
    """

    term: str
    rule: str
    message: str
    waived: bool = False
    hint: str = ""


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
    heading: bool = False,
) -> list[GlossaryViolation]:
    """Glossary rules broken by ``target``, the ``locale`` translation of ``source``.

    Terms named in ``waived`` are not checked; ``heading`` says the entry is a heading
    (some terms hold only in headings, or never in them).
    """
    return [
        v for v in _violations(termbase, source, target, locale, waived, heading) if not v.waived
    ]


def check_entry(
    termbase: Termbase,
    source: str,
    target: str,
    locale: str,
    translator_comment: str = "",
    heading: bool = False,
) -> list[GlossaryViolation]:
    """Like :func:`check_translation`, with the entry's ``glossary-waive`` comments.

    What a waiver excuses comes back marked ``waived``; a waiver that excuses nothing
    comes back too (waived), so reviewers see every waiver.
    """
    if not translator_comment or "glossary-waive" not in translator_comment:
        return _violations(termbase, source, target, locale, (), heading)
    waivers = waived_terms(translator_comment)
    problems = [
        GlossaryViolation(term, "waiver", f"waiver for {quote_term(term)} gives no reason")
        for term in _unreasoned_waivers(translator_comment)
    ]
    found = {term_key(m.term.source) for m in termbase.find_in_source(source, heading)}
    problems += [
        GlossaryViolation(
            term, "waiver", f"waiver for {quote_term(term)} names no glossary term of this entry"
        )
        for term in waivers
        if term_key(term) not in found
    ]
    violations = _violations(termbase, source, target, locale, waivers, heading)
    excused = {term_key(v.term) for v in violations if v.waived}
    unused = [
        GlossaryViolation(
            term, "waiver", f"glossary-waive: {quote_term(term)}: nothing to waive", waived=True
        )
        for term in waivers
        if term_key(term) in found and term_key(term) not in excused and target.strip()
    ]
    return problems + violations + unused


def _violations(
    termbase: Termbase,
    source: str,
    target: str,
    locale: str,
    waived: Iterable[str],
    heading: bool,
) -> list[GlossaryViolation]:
    if not target.strip():
        return []
    terms = _unique_terms(termbase.find_in_source(source, heading))
    if not terms:
        return []
    skip = {term_key(w) for w in waived}
    prepared = TargetText(target, _language(locale))
    violations: list[GlossaryViolation] = []
    for term in terms:
        found = _check_term(term, prepared, locale)
        if found and skip and term_key(term.source) in skip:
            found = [replace(v, waived=True) for v in found]
        elif found and _may_be_a_false_hit(term):
            hint = waiver_hint(term)
            found = [GlossaryViolation(v.term, v.rule, v.message, hint=hint) for v in found]
        violations.extend(found)
    return violations


def _may_be_a_false_hit(term: Term) -> bool:
    """A Russian word (not a name) may mean something else where it was found."""
    return term.kind == "translate" and is_cyrillic(term.source) and not term.case_sensitive


def waiver_hint(term: Term) -> str:
    """How to waive a term found where it means something else."""
    return (
        f"if {term.display} means something else here, add the translator comment "
        f"'glossary-waive: {term.source} — <reason>' (or give the term a scope or "
        "context in the glossary)"
    )


def waived_terms(translator_comment: str) -> dict[str, str]:
    """Terms waived by ``glossary-waive: TERM — reason`` lines, mapped to their reasons."""
    found = (_WAIVER_RE.match(line) for line in (translator_comment or "").splitlines())
    return {m["term"]: m["reason"] for m in found if m and m["term"] and m["reason"]}


def declared_waivers(translator_comment: str) -> list[str]:
    """Every term a ``glossary-waive`` line names, with a reason or not."""
    found = (_WAIVER_RE.match(line) for line in (translator_comment or "").splitlines())
    return [m["term"] or "?" for m in found if m]


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
    for spelling in term.spellings:
        if target.find_verbatim(verbatim_pattern(spelling, term.case_sensitive, plurals=True)):
            return []
    other_case = next(
        (
            found
            for spelling in term.spellings
            if (found := target.find_verbatim(verbatim_pattern(spelling, False, plurals=True)))
        ),
        None,
    )
    detail = f'found "{other_case}"' if other_case else "missing in the translation"
    return [
        GlossaryViolation(term.source, "keep", f"{term.display} must stay as written ({detail})")
    ]


def _check_required(
    term: Term, required, target: TargetText, locale: str
) -> list[GlossaryViolation]:
    if any(target.find_translation(phrase, first_parts=True) for phrase in required):
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


def describe_terms(
    termbase: Termbase, text: str, locale: str | None = None, heading: bool = False
) -> str | None:
    """The ``#.`` comment line for an entry: ``glossary: ускоритель → accelerator; ROCm (keep)``.

    Targets are those of ``locale``; a .pot (no locale) shows the English ones.
    """
    terms = _unique_terms(termbase.find_in_source(text, heading))
    if not terms:
        return None
    return "glossary: " + "; ".join(_describe(term, locale or "en") for term in terms)


def _describe(term: Term, locale: str) -> str:
    targets = term.targets_for(locale)
    if targets:
        return f"{term.source} → {' / '.join(targets)}"
    return f"{term.source} (keep)" if term.kind == "keep" else term.source
