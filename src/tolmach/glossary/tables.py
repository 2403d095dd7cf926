"""The termbase as rows: multilingual CSV, bilingual CSV pairs, and OmegaT's glossary.

**CSV** (``csv``) is one row per term, locales as columns, the layout of Crowdin's and
Phrase's multilingual glossary import: ``term,description,translatable,case_sensitive,
[variants,scope,domain,context,]<locale>...,forbidden:<locale>...``. Variants share a
cell, separated by `` | ``; the bracketed columns appear only when a term needs them.

**CSV pairs** (``csv-pairs``) is the bilingual layout most CAT tools import, one file
per target locale: ``source,target,description`` first, then ``status`` (preferred,
admitted, forbidden, or keep for a name that stays as written) and the term's other
fields. A term with several targets has one row per target.

**OmegaT** (``omegat``) is OmegaT's tab-separated glossary, also one file per locale:
``source<TAB>target<TAB>comment``. The comment is the note; what OmegaT has no column
for (status, kind, scope, context) follows it as ``⟦tolmach {...}⟧``, a JSON object.

A bilingual file replaces the targets of its locale: ``merge_locale`` puts it into an
existing termbase, so importing every locale's file rebuilds the whole termbase.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from babel import Locale, UnknownLocaleError

from tolmach.glossary.senses import CONTEXT_KEYS
from tolmach.glossary.termbase import build_termbase, term_table
from tolmach.glossary.terms import GlossaryError, Term, Termbase

__all__ = [
    "merge_locale",
    "read_csv",
    "read_omegat",
    "read_pairs",
    "write_csv",
    "write_omegat",
    "write_pairs",
]

_VARIANT_SEPARATOR = " | "
_FORBIDDEN_PREFIX = "forbidden:"
_CSV_FIXED = ("term", "description", "translatable", "case_sensitive")
_CSV_OPTIONAL = ("variants", "scope", "domain", "context")
_PAIR_COLUMNS = ("source", "target", "description", "status", "kind", "case_sensitive",
                 *_CSV_OPTIONAL)  # fmt: skip
_STATUSES = ("preferred", "admitted", "forbidden", "keep")
_OMEGAT_TAIL_RE = re.compile(r"\s*⟦tolmach (\{.*\})⟧\s*$")

# --- cells -----------------------------------------------------------------------------


def _join(values: Iterable[str], term: Term) -> str:
    values = list(values)
    if any("|" in v for v in values):
        raise ValueError(f"term {term.source!r}: a value contains '|', which CSV cannot keep")
    return _VARIANT_SEPARATOR.join(values)


def _split(cell: str) -> list[str]:
    return [v.strip() for v in (cell or "").split("|") if v.strip()]


def _context_cell(term: Term) -> str:
    """``not-next: данные, результат; headings: never``."""
    parts = []
    for key, value in term.context.items():
        words = [value] if isinstance(value, str) else list(value)
        if any(re.search(r"[;:,|]", w) for w in words):
            raise ValueError(f"term {term.source!r}: a context word contains ; : , or |")
        parts.append(f"{key}: {', '.join(words)}")
    return "; ".join(parts)


def _context_table(cell: str, path, line: int) -> dict[str, Any]:
    table: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in (cell or "").split(";"))):
        key, _, words = part.partition(":")
        key = key.strip()
        if key not in CONTEXT_KEYS:
            raise GlossaryError(path, line, None, f"unknown context condition {key!r}")
        values = [w.strip() for w in words.split(",") if w.strip()]
        table[key] = values[0] if key == "headings" and values else values
    return table


def _optional_cells(term: Term) -> dict[str, str]:
    return {
        "variants": _join(term.variants, term),
        "scope": _join(term.scope, term),
        "domain": _join(term.domains, term),
        "context": _context_cell(term),
    }


def _optional_fields(row: dict[str, str], path, line: int) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    for column, key in (("variants", "variants"), ("scope", "scope"), ("domain", "domain")):
        values = _split(row.get(column, ""))
        if values:
            fields[key] = values
    context = _context_table(row.get("context", ""), path, line)
    if context:
        fields["context"] = context
    return fields


def _boolean(cell: str | None, default: bool) -> bool:
    value = (cell or "").strip().lower()
    return value in ("true", "yes", "1") if value else default


# --- multilingual CSV ------------------------------------------------------------------


def write_csv(termbase: Termbase) -> str:
    """One row per term, a column per locale (and per locale's forbidden list)."""
    locales = termbase.locales
    optional = [c for c in _CSV_OPTIONAL if any(_optional_cells(t)[c] for t in termbase.terms)]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        [*_CSV_FIXED, *optional, *locales, *(_FORBIDDEN_PREFIX + loc for loc in locales)]
    )
    for term in termbase.terms:
        translations, forbidden = dict(term.translations), dict(term.forbidden)
        cells = _optional_cells(term)
        writer.writerow(
            [
                term.source,
                term.note,
                "false" if term.kind == "keep" else "true",
                "true" if term.case_sensitive else "false",
                *(cells[c] for c in optional),
                *(_join(translations.get(loc, ()), term) for loc in locales),
                *(_join(forbidden.get(loc, ()), term) for loc in locales),
            ]
        )
    return out.getvalue()


def read_csv(text: str, path: str | Path = "<csv>", ignored: Iterable[str] = ()) -> Termbase:
    """A multilingual CSV glossary (``term`` column, one column per locale)."""
    reader = csv.DictReader(io.StringIO(text))
    columns = reader.fieldnames or []
    if "term" not in columns:
        raise GlossaryError(path, 1, None, "CSV glossary needs a 'term' column")
    known = {*_CSV_FIXED, *_CSV_OPTIONAL, "part_of_speech"}
    for column in columns:
        if column not in known and not _is_locale(column.removeprefix(_FORBIDDEN_PREFIX)):
            raise GlossaryError(path, 1, None, f"unknown CSV column {column!r}")
    tables = []
    for row in reader:
        if not any((value or "").strip() for value in row.values()):
            continue
        tables.append((reader.line_num, _row_table(row, columns, known, path, reader.line_num)))
    return build_termbase(tables, ignored, path)


def _row_table(row: dict[str, str], columns: list[str], known: set, path, line: int) -> dict:
    kind = "keep" if (row.get("translatable") or "true").strip().lower() == "false" else "translate"
    table: dict[str, Any] = {
        "source": row["term"] or "",
        "kind": kind,
        "note": (row.get("description") or "").strip(),
        "case-sensitive": _boolean(row.get("case_sensitive"), kind == "keep"),
        "translations": {},
        "forbidden": {},
        **_optional_fields(row, path, line),
    }
    for column in columns:
        cell = (row.get(column) or "").strip()
        if column in known or not cell:
            continue
        field, locale = "translations", column
        if column.startswith(_FORBIDDEN_PREFIX):
            field, locale = "forbidden", column.removeprefix(_FORBIDDEN_PREFIX)
        table[field][locale] = _split(cell)
    return table


def _is_locale(code: str) -> bool:
    try:
        Locale.parse(code)
    except (ValueError, UnknownLocaleError):
        return False
    return "-" not in code


# --- bilingual rows (CSV pairs and OmegaT) ---------------------------------------------


@dataclass(frozen=True)
class PairRow:
    """One source → target row of a bilingual glossary, with the term's fields."""

    source: str
    target: str
    description: str
    status: str
    fields: dict[str, str]  # kind, case_sensitive, variants, scope, domain, context


def pair_rows(termbase: Termbase, locale: str) -> Iterator[PairRow]:
    """The rows of one locale: each target with its status; a kept name maps to itself."""
    for term in termbase.terms:
        fields = {
            "kind": term.kind,
            "case_sensitive": "true" if term.case_sensitive else "false",
            **_optional_cells(term),
        }
        targets = dict(term.translations).get(locale, ())
        rows = [(t, "preferred" if i == 0 else "admitted") for i, t in enumerate(targets)]
        if not rows and term.kind == "keep":
            rows = [(term.source, "keep")]
        rows += [(t, "forbidden") for t in dict(term.forbidden).get(locale, ())]
        for target, status in rows:
            yield PairRow(term.source, target, term.note, status, fields)


def write_pairs(termbase: Termbase, locale: str) -> str:
    """``source,target,description,status,...`` for one locale."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(_PAIR_COLUMNS)
    for row in pair_rows(termbase, locale):
        writer.writerow(
            [
                row.source,
                row.target,
                row.description,
                row.status,
                *(row.fields[c] for c in _PAIR_COLUMNS[4:]),
            ]
        )
    return out.getvalue()


def read_pairs(text: str, locale: str, path: str | Path = "<csv>") -> list[tuple[int, dict]]:
    """Term tables (with their lines) from a CSV pairs file of one locale."""
    reader = csv.DictReader(io.StringIO(text))
    columns = reader.fieldnames or []
    for needed in ("source", "target"):
        if needed not in columns:
            raise GlossaryError(path, 1, None, f"CSV pairs need a {needed!r} column")
    rows = []
    for row in reader:
        if not any((value or "").strip() for value in row.values()):
            continue
        rows.append((reader.line_num, row))
    return _tables_from_rows(rows, locale, path)


def write_omegat(termbase: Termbase, locale: str) -> str:
    """OmegaT's glossary: ``source<TAB>target<TAB>comment`` lines for one locale."""
    lines = [f"# tolmach termbase, {locale}: source, target, comment (OmegaT glossary)"]
    first: dict[str, str] = {}
    for row in pair_rows(termbase, locale):
        first.setdefault(row.source, row.target)
        extras = {k: v for k, v in row.fields.items() if v and _differs(k, v, row)}
        note = row.description
        if row.status != ("preferred" if row.target == first[row.source] else "admitted"):
            extras["status"] = row.status
        if re.search(r"[\t\n\r⟦⟧]", note):
            extras["description"], note = note, ""
        tail = f"⟦tolmach {json.dumps(extras, ensure_ascii=False)}⟧" if extras else ""
        comment = " ".join(part for part in (note, tail) if part)
        for cell in (row.source, row.target):
            if re.search(r"[\t\n\r]", cell):
                raise ValueError(f"term {row.source!r}: OmegaT cannot hold a tab or line break")
        lines.append("\t".join((row.source, row.target, comment)))
    return "\n".join(lines) + "\n"


def _differs(key: str, value: str, row: PairRow) -> bool:
    """Fields at their defaults stay out of the OmegaT comment."""
    if key == "kind":
        return value != "translate"
    if key == "case_sensitive":
        return value != ("true" if row.fields["kind"] == "keep" else "false")
    return True


def read_omegat(text: str, locale: str, path: str | Path = "<omegat>") -> list[tuple[int, dict]]:
    """Term tables (with their lines) from an OmegaT glossary of one locale."""
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        cells = line.split("\t")
        if len(cells) < 2:
            raise GlossaryError(
                path, number, None, "an OmegaT glossary line needs source<TAB>target"
            )
        comment = cells[2] if len(cells) > 2 else ""
        extras: dict[str, Any] = {}
        tail = _OMEGAT_TAIL_RE.search(comment)
        if tail:
            try:
                extras = json.loads(tail.group(1))
            except json.JSONDecodeError as error:
                raise GlossaryError(
                    path, number, None, f"unreadable tolmach comment: {error}"
                ) from None
            comment = comment[: tail.start()]
        row = {"source": cells[0], "target": cells[1], "description": comment.strip(),
               **{k: str(v) for k, v in extras.items()}}  # fmt: skip
        rows.append((number, row))
    return _tables_from_rows(rows, locale, path)


def _tables_from_rows(rows: list[tuple[int, dict]], locale: str, path) -> list[tuple[int, dict]]:
    """Rows grouped into term tables, in first-seen order; targets by status.

    Without a status, a term's first target is the preferred one and the others are
    admitted, as in a plain glossary where one source has several lines.
    """
    tables: dict[tuple, tuple[int, dict]] = {}
    for line, row in rows:
        status = (row.get("status") or "").strip().lower()
        if status and status not in _STATUSES:
            raise GlossaryError(
                path, line, None, f"unknown status {status!r} ({', '.join(_STATUSES)})"
            )
        kind = (row.get("kind") or ("keep" if status == "keep" else "translate")).strip()
        fields = _optional_fields(row, path, line)
        source = (row.get("source") or "").strip()
        key = (source, json.dumps(fields, sort_keys=True, ensure_ascii=False))
        if key not in tables:
            table: dict[str, Any] = {
                "source": source,
                "kind": kind,
                "note": (row.get("description") or "").strip(),
                "case-sensitive": _boolean(row.get("case_sensitive"), kind == "keep"),
                "translations": {},
                "forbidden": {},
                **fields,
            }
            tables[key] = (line, table)
        table = tables[key][1]
        target = (row.get("target") or "").strip()
        if not status:
            status = "admitted" if table["translations"].get(locale) else "preferred"
        if status == "forbidden":
            table["forbidden"].setdefault(locale, []).append(target)
        elif status == "preferred":
            table["translations"].setdefault(locale, []).insert(0, target)
        elif status == "admitted":
            table["translations"].setdefault(locale, []).append(target)
    return list(tables.values())


def merge_locale(
    termbase: Termbase, tables: list[tuple[int, dict]], locale: str, path: str | Path = "<file>"
) -> Termbase:
    """``termbase`` with the targets of ``locale`` replaced by those of a bilingual file.

    A term of the file that the termbase lacks is added; its other fields (note, kind,
    variants, scope, domain, context) are taken from the file.
    """
    by_key = {_table_key(t): (line, t) for line, t in tables}
    merged: list[tuple[int, dict]] = []
    for term in termbase.terms:
        table = term_table(term)
        key = _table_key(table)
        line, incoming = by_key.pop(key, (term.line, None))
        for field in ("translations", "forbidden"):
            table.setdefault(field, {}).pop(locale, None)
            if incoming is not None and incoming[field].get(locale):
                table[field][locale] = incoming[field][locale]
        if incoming is not None:
            for field in ("kind", "note", "case-sensitive", "variants"):
                if field in incoming:
                    table[field] = incoming[field]
        merged.append((line, table))
    merged.extend(by_key.values())
    return build_termbase(merged, termbase.ignored, path)


def _table_key(table: dict) -> tuple:
    """Source and where the term holds, however the table spells single values."""
    where = {}
    for key in ("scope", "domain"):
        value = table.get(key) or []
        where[key] = [value] if isinstance(value, str) else list(value)
    context = table.get("context") or {}
    where["context"] = {k: [v] if isinstance(v, str) and k != "headings" else v
                        for k, v in context.items()}  # fmt: skip
    return (table["source"].casefold(), json.dumps(where, sort_keys=True, ensure_ascii=False))
