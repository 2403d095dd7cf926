"""Glossary stage: the termbase, and whether a text and its translation respect it.

:mod:`~tolmach.glossary.terms` is the model (terms, targets, matches);
:mod:`~tolmach.glossary.termbase` reads ``locales/glossary.toml`` (its docstring is the
file format); :mod:`~tolmach.glossary.match` finds terms in Russian text by lemma
(pymorphy3) and in translations by stem; :mod:`~tolmach.glossary.compliance` decides
whether a translation uses the required terms; :mod:`~tolmach.glossary.candidates`
proposes new terms; :mod:`~tolmach.glossary.exchange` converts to and from TBX and CSV.
"""

from tolmach.glossary.compliance import (
    GlossaryViolation,
    check_entry,
    check_translation,
    describe_terms,
    waived_terms,
)
from tolmach.glossary.termbase import build_termbase, load_termbase, parse_termbase
from tolmach.glossary.terms import GlossaryError, Term, Termbase, TermMatch

__all__ = [
    "GlossaryError",
    "GlossaryViolation",
    "Term",
    "TermMatch",
    "Termbase",
    "build_termbase",
    "check_entry",
    "check_translation",
    "describe_terms",
    "load_termbase",
    "parse_termbase",
    "waived_terms",
]
