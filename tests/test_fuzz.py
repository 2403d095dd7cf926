"""Bounded fuzzing of the two readers of outside input: Markdown and ``.po`` files.

``parse_document`` accepts any text: it never raises, its slots lie inside the text in
order, and building without translations gives the text back. ``read_po`` accepts any
bytes: it returns a catalog or raises :class:`CatalogError`, nothing else.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from pathlib import Path

import polib
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import ROBUST

from tolmach.catalog.pofile import CatalogError, read_po
from tolmach.markdown.build import apply_translations
from tolmach.markdown.document import parse_document
from tolmach.markdown.pseudo import pseudo_translate

FUZZ = settings(ROBUST, max_examples=ROBUST.max_examples * 2)
TRIED: Counter[str] = Counter()

_MARKDOWN_CHARS = list("#>-*+_`~[]()!<>&;|\\:=.1 aЁ字😀\"'/\t\n\r\0\x0b\x0c\u2028\u00a0\ufeff")
markdown_like = st.one_of(
    st.text(),  # any code points, control characters included
    st.text(st.sampled_from(_MARKDOWN_CHARS), max_size=200),
    st.lists(
        st.sampled_from(
            ["---", "title: x", "> ", "- ", "1. ", "    ", "```", "~~~", "<div>", "</div>", "| a |",
             "|---|", "[^1]: ", "[a]: /u", "[a]", "***", "==", "\\", "  ", "\t", "Ё", "\r\n", "\n"]
        ),
        max_size=40,
    ).map("".join),
)

_PO_PIECES = [
    'msgid ""', 'msgstr ""', '"Content-Type: text/plain; charset=UTF-8\\n"',
    '"Content-Type: text/plain; charset=KOI8-R\\n"', 'msgid "Ё"', 'msgstr "x"', 'msgstr[0] "a"',
    'msgid_plural "b"', 'msgctxt "c"', '#~ msgid "old"', '#~ msgstr "alt"', '#| msgid "prev"',
    '#~| msgid "p"', "#, fuzzy", "#: a.md:1", "#. note", "# comment", '"continued"', '"\\q"',
    '"open', 'msgid "a" b', "", "\t", "msgstr", '"\\"', "#~", "\ufeff",
]
po_like = st.one_of(
    st.binary(max_size=300),
    st.lists(st.sampled_from(_PO_PIECES), max_size=30).flatmap(
        lambda lines: st.sampled_from(["\n", "\r\n", "\r"]).map(lambda end: end.join(lines))
    ).flatmap(
        lambda text: st.sampled_from(["utf-8", "utf-16", "latin-1", "koi8-r"]).map(
            lambda codec: text.encode(codec, "replace")
        )
    ),
)


def test_the_segmenter_accepts_any_text():
    @FUZZ
    @given(markdown_like)
    def segment(text: str) -> None:
        TRIED["markdown"] += 1
        document = parse_document(text)
        cursor = 0
        for seg in document.segments:
            assert cursor <= seg.start <= seg.end <= len(text)
            cursor = seg.end
        assert apply_translations(document, {}) == text
        apply_translations(document, pseudo_translate)
        apply_translations(document, lambda s: s, force=True, wrap_width=20)

    segment()
    print(f"\nfuzzed the segmenter with {TRIED['markdown']} texts")


def test_the_po_reader_raises_nothing_but_catalog_error():
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzz.po"

        @FUZZ
        @given(po_like)
        def read(data: bytes) -> None:
            TRIED["po"] += 1
            path.write_bytes(data)
            try:
                po = read_po(path)
            except CatalogError as error:
                assert str(error).startswith(str(path))
                return
            assert isinstance(po, polib.POFile)

        read()
    print(f"\nfuzzed the .po reader with {TRIED['po']} files")
