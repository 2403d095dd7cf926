"""Glossary stage: the termbase, and whether a text and its translation respect it.

:mod:`~tolmach.glossary.terms` is the model (terms, targets, matches);
:mod:`~tolmach.glossary.senses` says where a term holds (documents, domains, contexts);
:mod:`~tolmach.glossary.termbase` reads ``locales/glossary.toml`` (its docstring is the
file format) and :mod:`~tolmach.glossary.tomlfile` edits it keeping comments and order;
:mod:`~tolmach.glossary.match` finds terms in Russian text by lemma (pymorphy3) and in
translations by stem and compound head; :mod:`~tolmach.glossary.compliance` decides
whether a translation uses the required terms; :mod:`~tolmach.glossary.candidates`
lists names and phrases a termbase must cover and :mod:`~tolmach.glossary.discovery`
ranks term candidates (with :mod:`~tolmach.glossary.baseline` and
:mod:`~tolmach.glossary.alignment`); :mod:`~tolmach.glossary.exchange` converts to and
from TBX, CSV and OmegaT.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tolmach.glossary.compliance import (
        GlossaryViolation,
        check_entry,
        check_translation,
        describe_terms,
        waived_terms,
    )
    from tolmach.glossary.termbase import build_termbase, load_termbase, parse_termbase
    from tolmach.glossary.terms import GlossaryError, Term, Termbase, TermMatch

_EXPORTS = {
    "GlossaryViolation": "tolmach.glossary.compliance",
    "check_entry": "tolmach.glossary.compliance",
    "check_translation": "tolmach.glossary.compliance",
    "describe_terms": "tolmach.glossary.compliance",
    "waived_terms": "tolmach.glossary.compliance",
    "build_termbase": "tolmach.glossary.termbase",
    "load_termbase": "tolmach.glossary.termbase",
    "parse_termbase": "tolmach.glossary.termbase",
    "GlossaryError": "tolmach.glossary.terms",
    "Term": "tolmach.glossary.terms",
    "Termbase": "tolmach.glossary.terms",
    "TermMatch": "tolmach.glossary.terms",
}

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


def __getattr__(name: str):
    """Load an exported name on first use, so importing the package stays cheap."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
