"""TBX: the termbase as TBX-Basic, the exchange format terminology tools share.

Written as TBX-Basic in the TBX 2008 (ISO 30042:2008, ``martif``) form that Weblate,
memoQ, Trados MultiTerm and Crowdin import: the header has ``fileDesc`` (title and
source) and ``encodingDesc`` naming the TBX-Basic constraint file
(``TBXBasicXCSV02.xcs``), and only TBX-Basic data categories are used:

==========================  ==================================================
our field                   TBX-Basic data category
==========================  ==================================================
note                        ``descrip type="definition"`` (termEntry)
domain                      ``descrip type="subjectField"`` (termEntry)
scope (documents)           ``admin type="projectSubset"`` (termEntry)
source, variants            ``tig`` in the source ``langSet``; a variant has
                            ``termType`` ``variant``, status admitted
translations                ``tig`` per target, ``administrativeStatus``
                            ``preferredTerm-admn-sts`` then ``admittedTerm-admn-sts``
forbidden                   ``administrativeStatus`` ``deprecatedTerm-admn-sts``
kind, case, context         ``note`` (termEntry) ``tolmach: {...}``, a JSON object
==========================  ==================================================

TBX-Basic has no data category for "keep this name" or for context rules, and a
``note`` is free text in every dialect, so those travel in one machine-readable note.
Files from other tools are read too: ``ntig``, regional language tags, statuses
named ``forbidden``/``superseded``/``obsolete``, and the markers Weblate writes for
untranslatable terms (``descrip type="Translation needed"``, ``termNote
type="translationNote"`` = ``no``).
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from tolmach.glossary.termbase import build_termbase, term_table
from tolmach.glossary.terms import GlossaryError, Term, Termbase

__all__ = ["ADMINISTRATIVE_STATUS", "NOTE_PREFIX", "SOURCE_LOCALE", "read_tbx", "write_tbx"]

SOURCE_LOCALE = "ru"
NOTE_PREFIX = "tolmach: "
XCS = "TBXBasicXCSV02.xcs"
_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
ADMINISTRATIVE_STATUS = {
    "preferred": "preferredTerm-admn-sts",
    "admitted": "admittedTerm-admn-sts",
    "deprecated": "deprecatedTerm-admn-sts",
}
_FORBIDDEN_STATUSES = ("deprecated", "superseded", "forbidden", "obsolete")
# Fields of term_table() that the note carries; the rest have data categories.
_NOTE_FIELDS = ("kind", "case-sensitive", "context")

# --- writing ---------------------------------------------------------------------------


def write_tbx(
    termbase: Termbase, source_locale: str = SOURCE_LOCALE, title: str = "tolmach termbase"
) -> str:
    """The termbase as a TBX-Basic document."""
    root = ET.Element("martif", {"type": "TBX-Basic", _XML_LANG: _bcp47(source_locale)})
    header = ET.SubElement(root, "martifHeader")
    file_desc = ET.SubElement(header, "fileDesc")
    ET.SubElement(ET.SubElement(file_desc, "titleStmt"), "title").text = title
    source_desc = ET.SubElement(file_desc, "sourceDesc")
    ET.SubElement(source_desc, "p").text = "locales/glossary.toml, exported by tolmach"
    ET.SubElement(ET.SubElement(header, "encodingDesc"), "p", {"type": "XCSURI"}).text = XCS
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
    for domain in term.domains:
        ET.SubElement(entry, "descrip", {"type": "subjectField"}).text = domain
    if term.note:
        ET.SubElement(entry, "descrip", {"type": "definition"}).text = term.note
    for document in term.scope:
        ET.SubElement(entry, "admin", {"type": "projectSubset"}).text = document
    table = term_table(term)
    extras = {key: table[key] for key in _NOTE_FIELDS if key in table}
    extras["case-sensitive"] = term.case_sensitive
    ET.SubElement(entry, "note").text = NOTE_PREFIX + json.dumps(extras, ensure_ascii=False)
    source = [(term.source, "preferred", False)] + [(v, "admitted", True) for v in term.variants]
    _lang_set(entry, source_locale, source)
    forbidden = dict(term.forbidden)
    for locale in sorted({*dict(term.translations), *forbidden}):
        targets = dict(term.translations).get(locale, ())
        tigs = [(t, "preferred" if i == 0 else "admitted", False) for i, t in enumerate(targets)]
        tigs += [(t, "deprecated", False) for t in forbidden.get(locale, ())]
        _lang_set(entry, locale, tigs)
    return entry


def _lang_set(entry: ET.Element, locale: str, tigs: list[tuple[str, str, bool]]) -> None:
    lang_set = ET.SubElement(entry, "langSet", {_XML_LANG: _bcp47(locale)})
    for text, status, variant in tigs:
        tig = ET.SubElement(lang_set, "tig")
        ET.SubElement(tig, "term").text = text
        if variant:
            ET.SubElement(tig, "termNote", {"type": "termType"}).text = "variant"
        ET.SubElement(
            tig, "termNote", {"type": "administrativeStatus"}
        ).text = ADMINISTRATIVE_STATUS[status]


# --- reading ---------------------------------------------------------------------------


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
    domains, scope = [], []
    for element in entry.iter():
        kind = (element.get("type") or "").lower()
        value = (element.text or "").strip()
        if element.tag == "descrip" and kind == "definition":
            table["note"] = value
        elif element.tag == "descrip" and kind == "subjectfield" and value:
            domains.append(value)
        elif element.tag == "admin" and kind == "projectsubset" and value:
            scope.append(value)
        elif kind in ("translation needed", "translationnote") and value.lower() == "no":
            table["kind"] = "keep"
        elif element.tag == "descrip" and kind == "case sensitive":
            case_sensitive = value.lower() in ("yes", "true")
        elif element.tag == "note" and value.startswith(NOTE_PREFIX):
            table.update(_note_fields(value, path, line))
    if domains:
        table["domain"] = domains
    if scope:
        table["scope"] = scope
    _read_lang_sets(entry, source_locale, table, path, line)
    if "case-sensitive" not in table:
        keep = table["kind"] == "keep"
        table["case-sensitive"] = keep if case_sensitive is None else case_sensitive
    return table


def _note_fields(value: str, path, line: int) -> dict[str, Any]:
    try:
        fields = json.loads(value[len(NOTE_PREFIX) :])
    except json.JSONDecodeError as error:
        raise GlossaryError(path, line, None, f"unreadable tolmach note: {error}") from None
    if not isinstance(fields, dict):
        raise GlossaryError(path, line, None, "a tolmach note must hold a JSON object")
    return {key: value for key, value in fields.items() if key in _NOTE_FIELDS}


def _read_lang_sets(entry: ET.Element, source_locale: str, table: dict, path, line: int) -> None:
    translations: dict[str, list[str]] = {}
    forbidden: dict[str, list[str]] = {}
    spellings: list[tuple[str, str]] = []
    for lang_set in entry.iter("langSet"):
        locale = _locale(lang_set.get(_XML_LANG) or "")
        for term_text, status in _tigs(lang_set):
            if locale.split("_")[0] == source_locale.split("_")[0]:
                spellings.append((term_text, status))
            elif any(word in status for word in _FORBIDDEN_STATUSES):
                forbidden.setdefault(locale, []).append(term_text)
            elif "preferred" in status:
                translations.setdefault(locale, []).insert(0, term_text)
            else:
                translations.setdefault(locale, []).append(term_text)
    if not spellings:
        raise GlossaryError(path, line, None, f"termEntry without a {source_locale} term")
    # The preferred spelling is the source; the others are its variants.
    spellings.sort(key=lambda spelling: "preferred" not in spelling[1])
    table["source"] = spellings[0][0]
    if len(spellings) > 1:
        table["variants"] = [text for text, _ in spellings[1:]]
    table["translations"], table["forbidden"] = translations, forbidden


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
