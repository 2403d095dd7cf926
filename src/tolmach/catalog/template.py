"""Document → ``.pot``: one entry per distinct segment, saying where it lives and what it is.

These functions take and return polib objects; reading and writing files happens in
:mod:`tolmach.catalog.pofile` and in :mod:`tolmach.project`.
"""

from __future__ import annotations

from collections.abc import Callable

import polib

from tolmach.markdown.document import Document

__all__ = ["GENERATOR", "extract_template"]

GENERATOR = "tolmach"


def extract_template(
    document: Document,
    source_path: str,
    *,
    project: str,
    describe_terms: Callable[[str], str | None] | None = None,
) -> polib.POFile:
    """The ``.pot`` of one document: entries in source order, identical texts merged.

    Each entry says where it lives (``#: path:LINE``) and what it is (``#.`` block type
    and heading); ``describe_terms`` adds the glossary terms found in the text.
    """
    pot = polib.POFile(wrapwidth=0)
    pot.metadata = _template_metadata(project)
    by_text: dict[str, polib.POEntry] = {}
    for seg in document.segments:
        entry = by_text.get(seg.text)
        if entry is None:
            entry = polib.POEntry(msgid=seg.text, msgstr="", occurrences=[], comment="")
            by_text[seg.text] = entry
            pot.append(entry)
        entry.occurrences.append((source_path, str(seg.line)))
        _add_comment_line(entry, seg.comment)
        if seg.note:
            _add_comment_line(entry, f"note: {seg.note}")
    if describe_terms is not None:
        for entry in pot:
            terms = describe_terms(entry.msgid)
            if terms:
                _add_comment_line(entry, terms)
    return pot


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


