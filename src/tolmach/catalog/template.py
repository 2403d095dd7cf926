"""Document → ``.pot``: one entry per distinct segment, saying where it lives and what it is.

These functions take and return polib objects; reading and writing files happens in
:mod:`tolmach.catalog.pofile` and in :mod:`tolmach.project`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import polib

from tolmach.catalog.pofile import GENERATOR
from tolmach.fileio import SourceError
from tolmach.markdown.document import Document

__all__ = ["GENERATOR", "extract_template"]

#: Control characters other than tab and line feed: C0, DEL and C1. A catalog could hold
#: most of them raw, but an ESC sequence would drive the terminal of whoever prints the
#: file, editors show them as nothing, and msgfmt refuses EOT: a source holding one in
#: translatable text is refused with its line, never passed on or silently changed.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def extract_template(
    document: Document,
    source_path: str,
    *,
    project: str,
    describe_terms: Callable[[str], str | None] | None = None,
    location: str = "full",
) -> polib.POFile:
    """The ``.pot`` of one document: entries in source order, identical texts merged.

    Each entry says where it lives and what it is (``#.`` block type and heading);
    ``describe_terms`` adds the glossary terms found in the text. ``location`` is how
    the place is written, as msgmerge's ``--add-location``: ``full`` (``#: path:LINE``),
    ``file`` (``#: path``, so an edit above a paragraph does not touch its entry) or
    ``never`` (no ``#:`` line).
    """
    pot = polib.POFile(wrapwidth=0)
    pot.metadata = _template_metadata(project)
    by_text: dict[str, polib.POEntry] = {}
    for seg in document.segments:
        if _CONTROL.search(seg.text):
            _refuse_control_character(document, seg, source_path)
        entry = by_text.get(seg.text)
        if entry is None:
            entry = polib.POEntry(msgid=seg.text, msgstr="", occurrences=[], comment="")
            by_text[seg.text] = entry
            pot.append(entry)
        if location == "full":
            entry.occurrences.append((source_path, str(seg.line)))
        elif location == "file" and not entry.occurrences:
            entry.occurrences.append((source_path, ""))
        _add_comment_line(entry, seg.comment)
        if seg.note:
            _add_comment_line(entry, f"note: {seg.note}")
    if describe_terms is not None:
        for entry in pot:
            terms = describe_terms(entry.msgid)
            if terms:
                _add_comment_line(entry, terms)
    return pot


def _refuse_control_character(document: Document, seg, source_path: str) -> None:
    """Name the character and the source line it is on."""
    char = _CONTROL.search(seg.text).group()
    found = document.text.find(char, seg.start, seg.end)
    line = seg.line if found < 0 else len(_LINE_BREAK.findall(document.text, 0, found)) + 1
    raise SourceError(
        source_path,
        line,
        f"control character U+{ord(char):04X} in translatable text; "
        "catalogs cannot carry it safely: remove it from the source",
    )


def _add_comment_line(entry: polib.POEntry, line: str) -> None:
    lines = entry.comment.split("\n") if entry.comment else []
    if line not in lines:
        lines.append(line)
    entry.comment = "\n".join(lines)


def _template_metadata(project: str) -> dict[str, str]:
    return {
        "Project-Id-Version": project,
        "Report-Msgid-Bugs-To": "",
        "PO-Revision-Date": "YEAR-MO-DA HO:MI+ZONE",
        "Last-Translator": "FULL NAME <EMAIL@ADDRESS>",
        "Language-Team": "LANGUAGE <LL@li.org>",
        "Language": "",
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "X-Generator": GENERATOR,
    }


