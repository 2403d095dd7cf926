"""Generated Markdown articles survive the pipeline (property-based, hypothesis).

For every generated document — nested lists and blockquotes, tables, fences, HTML,
definitions, footnotes, front matter, CRLF, tabs, trailing spaces, BOM, non-ASCII:

* extract → catalog file → read back → identity build gives the source byte for byte,
  and every msgid comes back from the catalog exactly as extracted;
* pseudo build keeps the HTML structure, forced build (msgstr = msgid through the
  translated path) keeps the HTML, text included (``check_fidelity``);
* the structural verification of every build accepts those builds, wrapped or not.

Runs are derandomized with a fixed number of examples (``strategies.ROBUST``), so CI
tries the same documents every time; each test prints how many it tried. A failing
example, once minimized, goes to ``tests/data/regressions/``.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from strategies import ROBUST, markdown_documents

from tolmach.catalog.pofile import read_po, write_po
from tolmach.catalog.status import translations_of
from tolmach.catalog.template import extract_template
from tolmach.markdown.build import apply_translations
from tolmach.markdown.compare import same_html
from tolmach.markdown.document import parse_document
from tolmach.markdown.fidelity import check_fidelity
from tolmach.markdown.pseudo import pseudo_translate
from tolmach.markdown.verify import verified_build

TRIED: Counter[str] = Counter()


def _report(name: str) -> None:
    print(f"\n{name}: {TRIED[name]} generated documents, no failure")


def test_extract_and_identity_build_give_the_source_back_byte_for_byte():
    with tempfile.TemporaryDirectory() as folder:
        catalog = Path(folder) / "doc.po"

        @ROBUST
        @given(markdown_documents())
        def round_trip(text: str) -> None:
            TRIED["identity"] += 1
            document = parse_document(text)
            pot = extract_template(document, "seeds/doc.ru.md", project="doc")
            for entry in pot:
                entry.msgstr = entry.msgid
            write_po(pot, catalog)
            back = translations_of(read_po(catalog))
            assert set(back) == {seg.text for seg in document.segments}
            assert apply_translations(document, back) == text
            forced = apply_translations(document, back, force=True)
            assert same_html(text, forced)

        round_trip()
    _report("identity")


def test_pseudo_build_keeps_the_structure_and_forced_build_the_html():
    @ROBUST
    @given(markdown_documents())
    def fidelity(text: str) -> None:
        TRIED["pseudo+forced"] += 1
        assert check_fidelity(text) == []

    fidelity()
    _report("pseudo+forced")



def test_the_verifier_accepts_every_pseudo_and_forced_build():
    """No false alarm: what the pipeline itself writes always verifies, in one parse."""

    @ROBUST
    @given(markdown_documents(), st.sampled_from([0, 24]))
    def verify(text: str, width: int) -> None:
        TRIED["verified"] += 1
        document = parse_document(text)
        for translate, force in ((pseudo_translate, False), (str, True)):
            result = verified_build(document, translate, force=force, wrap_width=width)
            assert result.rejected == () and result.builds == 1, [
                (r.segment.text, r.reason) for r in result.rejected
            ]

    verify()
    _report("verified")
