"""Failing examples the property tests found, minimized, kept for good.

Each ``tests/data/regressions/*.md`` is read as bytes (CRLF, BOM and all) and must
survive identity, pseudo and forced builds; each has translatable text, which must be
found (a fix that simply stopped translating it would not count).

| fixture | what went wrong |
|---|---|
| bom-before-blockquote | the segmenter read a BOM as a space, the renderer as text |
| bom-before-list-item | the same, before a list item with an indented code block |
| bom-before-indented-list | a BOM taken for a space made ``   - item`` indented code |
| empty-brackets-before-link | pseudo took ``[][]`` for a collapsed reference |
| footnote-in-quote-in-footnote | the footnote plugin's stray ``blockquote_close`` crashed the segmenter |
| full-reference-before-destination | pseudo translated ``(dest)`` after ``[a][b]`` |
| setext-heading-joined-into-table | ``|`` and ``Ё`` joined above ``--`` became a table |
| lazy-underline-after-hard-break | a lazy ``=`` line behind the prefix became an underline |
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tolmach.markdown.document import parse_document
from tolmach.markdown.fidelity import check_fidelity

FIXTURES = sorted((Path(__file__).parent / "data" / "regressions").glob("*.md"))


def test_there_are_regression_fixtures():
    assert len(FIXTURES) >= 8


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_regression_fixture_survives_every_mode(path: Path):
    text = path.read_bytes().decode("utf-8")
    assert parse_document(text).segments, "its text must be found translatable"
    assert check_fidelity(text) == []


def test_a_bom_is_a_signature_not_indentation():
    text = "\ufeff   - пункт\n     продолжение\n"
    [segment] = parse_document(text).segments
    assert segment.text == "пункт продолжение"
    assert text[segment.start : segment.end] == "пункт\n     продолжение"
