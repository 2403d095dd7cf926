"""Termbase exchange: TBX and CSV for CAT tools, and TOML for our own glossary file.

**TBX** is TBX-Basic in the TBX 2 (ISO 30042:2008) ``martif`` dialect, the one
Weblate, Crowdin, memoQ and Trados import. One ``termEntry`` per term:

- ``descrip type="definition"``: the note;
- ``descrip type="Translation needed"`` = ``No`` for keep-terms (Weblate's marker for
  untranslatable terms); ``descrip type="Case sensitive"`` = ``Yes``/``No`` (ours);
- a ``langSet`` for the source with the term, one per target locale with a ``tig``
  per translation: ``administrativeStatus`` ``preferredTerm-admn-sts`` for the
  preferred one, ``admittedTerm-admn-sts`` for variants, ``deprecatedTerm-admn-sts``
  for forbidden ones (Weblate reads deprecated and superseded terms as forbidden).

**CSV** is one row per term, locales as columns, the layout of Crowdin's (and
Phrase's) multilingual glossary import, where each column is mapped to a language or a
field: ``term,description,translatable,case_sensitive,<locale>...,forbidden:<locale>...``.
Variants share a cell, separated by `` | ``. Weblate's CSV glossaries are bilingual
(one target language per file), so Weblate gets the TBX.

The ``[ignore]`` phrases are project settings, not terminology: neither exchange
format carries them, and ``glossary import`` keeps those of the current file.
"""

from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from babel import Locale, UnknownLocaleError

from tolmach.glossary.termbase import build_termbase
from tolmach.glossary.terms import GlossaryError, Term, Termbase

__all__ = [
    "dump_termbase_toml",
    "read_csv",
    "read_tbx",
    "write_csv",
    "write_tbx",
]

SOURCE_LOCALE = "ru"
_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
_PREFERRED, _ADMITTED, _DEPRECATED = (
    "preferredTerm-admn-sts",
    "admittedTerm-admn-sts",
    "deprecatedTerm-admn-sts",
)
_FORBIDDEN_STATUSES = ("deprecated", "superseded", "forbidden", "obsolete")
_VARIANT_SEPARATOR = " | "
_FORBIDDEN_PREFIX = "forbidden:"
_CSV_FIXED = ("term", "description", "translatable", "case_sensitive")

# --- TBX -----------------------------------------------------------------------------


def write_tbx(termbase: Termbase, source_locale: str = SOURCE_LOCALE) -> str:
    root = ET.Element("martif", {"type": "TBX-Basic", _XML_LANG: _bcp47(source_locale)})
    header = ET.SubElement(ET.SubElement(root, "martifHeader"), "fileDesc")
    ET.SubElement(ET.SubElement(header, "sourceDesc"), "p").text = "tolmach glossary"
    body = ET.SubElement(ET.SubElement(root, "text"), "body")
    for number, term in enumerate(termbase.terms, start=1):
        body.append(_term_entry(term, f"t{number}", source_locale))
    ET.indent(root)
    xml = ET.tostring(root, encoding="unicode")
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<!DOCTYPE martif SYSTEM "TBXBasiccoreStructV02.dtd">\n' + xml + "\n"
    )


def _term_entry(term: Term, entry_id: str, source_locale: str) -> ET.Element:
    entry = ET.Element("termEntry", {"id": entry_id})
    if term.note:
        _descrip(entry, "definition", term.note)
    if term.kind == "keep":
        _descrip(entry, "Translation needed", "No")
    _descrip(entry, "Case sensitive", "Yes" if term.case_sensitive else "No")
    _lang_set(entry, source_locale, [(term.source, None)])
    forbidden = dict(term.forbidden)
    for locale in sorted({*dict(term.translations), *forbidden}):
        targets = term.targets_for(locale) if locale in dict(term.translations) else ()
        tigs = [(t, _PREFERRED if i == 0 else _ADMITTED) for i, t in enumerate(targets)]
        tigs += [(t, _DEPRECATED) for t in forbidden.get(locale, ())]
        _lang_set(entry, locale, tigs)
    return entry


def _descrip(parent: ET.Element, kind: str, text: str) -> None:
    ET.SubElement(parent, "descrip", {"type": kind}).text = text


def _lang_set(entry: ET.Element, locale: str, tigs: list[tuple[str, str | None]]) -> None:
    lang_set = ET.SubElement(entry, "langSet", {_XML_LANG: _bcp47(locale)})
    for text, status in tigs:
        tig = ET.SubElement(lang_set, "tig")
        ET.SubElement(tig, "term").text = text
        if status:
            ET.SubElement(tig, "termNote", {"type": "administrativeStatus"}).text = status


def read_tbx(text: str, path: str | Path = "<tbx>", ignored: Iterable[str] = ()) -> Termbase:
    """Parse TBX (``martif``) into a validated Termbase; errors name the file and line."""
    try:
        root = ET.fromstring(text)
    except ET.ParseError as error:
        raise GlossaryError(path, error.position[0], None, f"invalid XML: {error}") from None
    if root.tag != "martif":
        raise GlossaryError(path, 1, None, f"expected a TBX <martif> document, found <{root.tag}>")
    source_locale = _locale(root.get(_XML_LANG) or SOURCE_LOCALE)
    lines = _lines_of(text, "<termEntry")
    tables = []
    for i, entry in enumerate(root.iter("termEntry")):
        line = lines[i] if i < len(lines) else 0
        tables.append((line, _entry_table(entry, source_locale, path, line)))
    return build_termbase(tables, ignored, path)


def _entry_table(entry: ET.Element, source_locale: str, path, line: int) -> dict[str, Any]:
    table: dict[str, Any] = {"kind": "translate"}
    case_sensitive = None
    for descrip in entry.iter("descrip"):
        kind, value = (descrip.get("type") or "").lower(), (descrip.text or "").strip()
        if kind == "definition":
            table["note"] = value
        elif kind == "translation needed" and value.lower() == "no":
            table["kind"] = "keep"
        elif kind == "case sensitive":
            case_sensitive = value.lower() in ("yes", "true")
    translations: dict[str, list[str]] = {}
    forbidden: dict[str, list[str]] = {}
    for lang_set in entry.iter("langSet"):
        locale = _locale(lang_set.get(_XML_LANG) or "")
        for term_text, status in _tigs(lang_set):
            if locale.split("_")[0] == source_locale.split("_")[0]:
                table.setdefault("source", term_text)
            elif any(word in status for word in _FORBIDDEN_STATUSES):
                forbidden.setdefault(locale, []).append(term_text)
            elif "preferred" in status:
                translations.setdefault(locale, []).insert(0, term_text)
            else:
                translations.setdefault(locale, []).append(term_text)
    if "source" not in table:
        raise GlossaryError(path, line, None, f"termEntry without a {source_locale} term")
    table["case-sensitive"] = table["kind"] == "keep" if case_sensitive is None else case_sensitive
    table["translations"], table["forbidden"] = translations, forbidden
    return table


def _tigs(lang_set: ET.Element) -> Iterable[tuple[str, str]]:
    for tig in [*lang_set.iter("tig"), *lang_set.iter("ntig")]:
        term = tig.find(".//term")
        status = tig.find(".//termNote[@type='administrativeStatus']")
        if term is not None and (term.text or "").strip():
            yield term.text.strip(), (status.text or "").lower() if status is not None else ""


def _bcp47(locale: str) -> str:
    return locale.replace("_", "-")


def _locale(tag: str) -> str:
    """BCP 47 ``zh-CN`` as Babel's ``zh_CN``."""
    return tag.replace("-", "_")


def _lines_of(text: str, needle: str) -> list[int]:
    lines, at = [], text.find(needle)
    while at >= 0:
        lines.append(text.count("\n", 0, at) + 1)
        at = text.find(needle, at + 1)
    return lines


# --- CSV -----------------------------------------------------------------------------


def write_csv(termbase: Termbase) -> str:
    locales = termbase.locales
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*_CSV_FIXED, *locales, *(_FORBIDDEN_PREFIX + loc for loc in locales)])
    for term in termbase.terms:
        translations, forbidden = dict(term.translations), dict(term.forbidden)
        writer.writerow(
            [
                term.source,
                term.note,
                "false" if term.kind == "keep" else "true",
                "true" if term.case_sensitive else "false",
                *(_join_variants(translations.get(loc, ()), term) for loc in locales),
                *(_join_variants(forbidden.get(loc, ()), term) for loc in locales),
            ]
        )
    return out.getvalue()


def _join_variants(variants: Iterable[str], term: Term) -> str:
    variants = list(variants)
    if any("|" in v for v in variants):
        raise ValueError(f"term {term.source!r}: a translation contains '|', which CSV cannot keep")
    return _VARIANT_SEPARATOR.join(variants)


def read_csv(text: str, path: str | Path = "<csv>", ignored: Iterable[str] = ()) -> Termbase:
    reader = csv.DictReader(io.StringIO(text))
    columns = reader.fieldnames or []
    if "term" not in columns:
        raise GlossaryError(path, 1, None, "CSV glossary needs a 'term' column")
    for column in columns:
        if column not in _CSV_FIXED and column != "part_of_speech" and not _is_locale(column):
            raise GlossaryError(path, 1, None, f"unknown CSV column {column!r}")
    tables = []
    for row in reader:
        if not any((value or "").strip() for value in row.values()):
            continue
        tables.append((reader.line_num, _row_table(row, columns)))
    return build_termbase(tables, ignored, path)


def _row_table(row: dict[str, str], columns: list[str]) -> dict[str, Any]:
    kind = "keep" if (row.get("translatable") or "true").strip().lower() == "false" else "translate"
    sensitive = (row.get("case_sensitive") or "").strip().lower()
    table: dict[str, Any] = {
        "source": row["term"] or "",
        "kind": kind,
        "note": (row.get("description") or "").strip(),
        "case-sensitive": sensitive == "true" if sensitive else kind == "keep",
        "translations": {},
        "forbidden": {},
    }
    for column in columns:
        cell = (row.get(column) or "").strip()
        if column in _CSV_FIXED or column == "part_of_speech" or not cell:
            continue
        field, locale = "translations", column
        if column.startswith(_FORBIDDEN_PREFIX):
            field, locale = "forbidden", column.removeprefix(_FORBIDDEN_PREFIX)
        table[field][locale] = [v.strip() for v in cell.split("|") if v.strip()]
    return table


def _is_locale(column: str) -> bool:
    code = column.removeprefix(_FORBIDDEN_PREFIX)
    try:
        Locale.parse(code)
    except (ValueError, UnknownLocaleError):
        return False
    return "-" not in code


# --- TOML ----------------------------------------------------------------------------

_TOML_HEADER = """\
# tolmach termbase (source language: Russian). Written by `tolmach glossary import`.
# Format: see the docstring of tolmach.glossary. Each [[term]] has source, kind
# ("keep" or "translate"), optional note, case-sensitive, translations and forbidden
# (locale = "text" or ["preferred", "variant", ...]).
"""


def dump_termbase_toml(termbase: Termbase) -> str:
    """The termbase as ``glossary.toml`` text that :func:`load_termbase` reads back equal."""
    parts = [_TOML_HEADER]
    if termbase.ignored:
        phrases = ", ".join(_toml_string(p) for p in termbase.ignored)
        parts.append(f"[ignore]\nphrases = [{phrases}]\n")
    parts.extend(_toml_term(term) for term in termbase.terms)
    return "\n".join(parts)


def _toml_term(term: Term) -> str:
    lines = ["[[term]]", f"source = {_toml_string(term.source)}", f'kind = "{term.kind}"']
    if term.case_sensitive != (term.kind == "keep"):
        lines.append(f"case-sensitive = {'true' if term.case_sensitive else 'false'}")
    if term.note:
        lines.append(f"note = {_toml_string(term.note)}")
    for name, table in (("translations", term.translations), ("forbidden", term.forbidden)):
        if table:
            cells = ", ".join(f"{loc} = {_toml_list(targets)}" for loc, targets in table)
            lines.append(f"{name} = {{ {cells} }}")
    return "\n".join(lines) + "\n"


def _toml_list(values: tuple[str, ...]) -> str:
    if len(values) == 1:
        return _toml_string(values[0])
    return "[" + ", ".join(_toml_string(v) for v in values) + "]"


def _toml_string(value: str) -> str:
    escaped = []
    for ch in value:
        if ch in '"\\':
            escaped.append("\\" + ch)
        elif ch == "\n":
            escaped.append("\\n")
        elif ch == "\t":
            escaped.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            escaped.append(f"\\u{ord(ch):04X}")
        else:
            escaped.append(ch)
    return '"' + "".join(escaped) + '"'
