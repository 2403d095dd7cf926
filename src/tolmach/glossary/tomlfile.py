"""Writing ``glossary.toml`` without losing what people wrote in it.

The file carries its own documentation in comments, and its terms are grouped by hand.
So a write (``glossary import``, or any command that changes terms) edits the existing
document with tomlkit: a term that is still there keeps its place, its comments and the
layout of every value that did not change; a term that is gone is removed; a new term
is appended at the end. :func:`dump_termbase_toml` writes a new file from nothing.
"""

from __future__ import annotations

from typing import Any

import tomlkit
from tomlkit.items import AoT, Table

from tolmach.glossary.termbase import build_termbase, term_table
from tolmach.glossary.terms import Term, Termbase

__all__ = ["dump_termbase_toml", "term_identity", "update_termbase_toml"]

_HEADER = """\
# tolmach termbase (source language: Russian). Written by `tolmach glossary import`.
# Format: see the docstring of tolmach.glossary.termbase. Each [[term]] has source,
# kind ("keep" or "translate"), optional note, case-sensitive, variants, scope, domain,
# context, translations and forbidden (locale = "text" or ["preferred", "variant", ...]).
"""


def term_identity(term: Term) -> tuple:
    """What makes two entries the same term across a write: source and where it holds."""
    return (term.source.casefold(), term.scope, term.domains, term.context)


def dump_termbase_toml(termbase: Termbase) -> str:
    """The termbase as a new ``glossary.toml`` that :func:`load_termbase` reads back equal."""
    return update_termbase_toml(_HEADER, termbase)


def update_termbase_toml(text: str, termbase: Termbase) -> str:
    """``text`` (a glossary file) edited to hold exactly ``termbase``'s terms and ignores."""
    document = tomlkit.parse(text)
    _update_ignored(document, termbase.ignored)
    terms = document.get("term")
    if not isinstance(terms, AoT):
        terms = tomlkit.aot()
        if "term" in document:
            del document["term"]
        document.append("term", terms)
    _update_terms(terms, termbase.terms)
    if not terms.body:
        del document["term"]
    return tomlkit.dumps(document)


def _update_ignored(document: tomlkit.TOMLDocument, ignored: tuple[str, ...]) -> None:
    current = document.get("ignore", {}).get("phrases", [])
    if list(current) == list(ignored):
        return
    if not ignored:
        document.pop("ignore", None)
        return
    if "ignore" not in document:
        table = tomlkit.table()
        table["phrases"] = list(ignored)
        _insert_before_terms(document, "ignore", table)
    else:
        document["ignore"]["phrases"] = list(ignored)


def _insert_before_terms(document: tomlkit.TOMLDocument, key: str, table: Table) -> None:
    if "term" not in document:
        document.append(key, table)
        return
    position = list(document.keys()).index("term")
    document.add(key, table)  # added last, then moved before the terms
    keys = list(document.keys())
    items = {k: document[k] for k in keys}
    for k in keys:
        del document[k]
    order = [*keys[:position], key, *[k for k in keys[position:] if k != key]]
    for k in order:
        document.append(k, items[k])


def _update_terms(tables: AoT, terms: tuple[Term, ...]) -> None:
    wanted = {term_identity(t): t for t in terms}
    existing: dict[tuple, Table] = {}
    for table in list(tables.body):
        key = _table_identity(table)
        if key in wanted and key not in existing:
            existing[key] = table
            _update_table(table, term_table(wanted[key]))
        else:
            tables.body.remove(table)
    for key, term in wanted.items():
        if key not in existing:
            tables.append(_new_table(term_table(term)))


def _table_identity(table: Table) -> tuple:
    """The identity of a term table as written (read back through the validator)."""
    try:
        (term,) = build_termbase([(0, table.unwrap())]).terms
    except Exception:  # noqa: BLE001 - a table that does not read is replaced
        return ("<unreadable>", id(table))
    return term_identity(term)


def _update_table(table: Table, values: dict[str, Any]) -> None:
    for key in [k for k in table if k not in values]:
        del table[key]
    for key, value in values.items():
        if key not in table or _normalized(table[key]) != _normalized(value):
            table[key] = _item(value)


def _new_table(values: dict[str, Any]) -> Table:
    table = tomlkit.table()
    table.trivia.indent = "\n"  # a blank line between terms, as people write them
    for key, value in values.items():
        table[key] = _item(value)
    return table


def _item(value: Any):
    """Tables of locales and conditions are written inline, ``{ en = "x", de = "y" }``."""
    if isinstance(value, dict):
        cells = ", ".join(
            f"{key} = {tomlkit.item(item).as_string()}" for key, item in value.items()
        )
        return tomlkit.value(f"{{ {cells} }}")
    return value


def _normalized(value: Any) -> Any:
    """Compare what a value means, not how it is written (a string and a list of one)."""
    value = value.unwrap() if hasattr(value, "unwrap") else value
    if isinstance(value, dict):
        return {k: _normalized(v) for k, v in value.items()}
    if isinstance(value, list) and len(value) == 1:
        return value[0]
    return value
