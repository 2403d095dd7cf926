"""The catalog reader's shortcut reads exactly what the line reader reads.

Well-formed entries are matched whole (:mod:`tolmach.catalog.poreader`); everything
else goes through the line reader. Both must give the same entries, header and line
numbers, or the same error at the same line, for the catalogs of the test data and for
catalogs roughened line by line the ways files go wrong.
"""

from __future__ import annotations

from pathlib import Path

import polib
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import ROBUST

from tolmach.catalog.pofile import format_po
from tolmach.catalog.poreader import CatalogError, parse_catalog

DATA = Path(__file__).parent / "data"
CATALOGS = sorted(p for p in DATA.rglob("*.po*") if p.suffix in (".po", ".pot"))


def outcome(text: str, shortcut: bool) -> object:
    """What reading gives: the header and every entry's attributes, or the error."""
    try:
        po = parse_catalog(text, "x.po", shortcut=shortcut)
    except CatalogError as error:
        return ("error", str(error))
    return (po.header, dict(po.metadata), po.metadata_is_fuzzy, [vars(e) for e in po])


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: p.relative_to(DATA).as_posix())
def test_shortcut_reads_the_test_catalogs_as_the_line_reader(path: Path) -> None:
    text = path.read_bytes().decode("utf-8-sig", "replace")
    assert outcome(text, True) == outcome(text, False)


def test_shortcut_takes_well_formed_entries() -> None:
    """Not a vacuous comparison: entries, obsolete and plural ones included, are read."""
    text = (DATA / "pofile" / "comments-obsolete.po").read_text("utf-8")
    po = parse_catalog(text, "x.po")
    assert any(e.obsolete for e in po) and any(e.comment for e in po)


def sample_catalog() -> str:
    po = polib.POFile()
    po.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": "de"}
    long = "Длинная строка, которая не помещается в одну строку каталога, " * 3
    po.append(polib.POEntry(msgid="Привет", msgstr="Hallo", occurrences=[("a.md", "1")],
                            comment="paragraph\nglossary: x", tcomment="note"))
    po.append(polib.POEntry(msgid=long, msgstr=long.upper(), flags=["fuzzy"],
                            previous_msgid="Старая строка", occurrences=[("a.md", "3")]))
    po.append(polib.POEntry(msgid="Файл", msgid_plural="Файлы",
                            msgstr_plural={0: "Datei", 1: "Dateien"}))
    po.append(polib.POEntry(msgid="Меню", msgctxt="ui", msgstr="Menü \"x\"\\n\ty"))
    po.append(polib.POEntry(msgid="Ушло", msgstr="Weg", obsolete=True, previous_msgid="Было"))
    po.append(polib.POEntry(msgid="Ушли", msgid_plural="Ушли2", obsolete=True,
                            msgstr_plural={0: "a", 1: "b"}))
    return format_po(po)


SAMPLE = sample_catalog().split("\n")
ROUGH_LINES = [
    "", "  ", "#", "# ", "#~", "#|", "#| ", '#| msgid "x"', '#~| msgid "y"', '#~ "z"', '"cont"',
    '"bad \\q"', 'msgid "dup"', 'msgstr "s"', 'msgstr[0] "p"', 'msgstr[1] "q"',
    'msgid_plural "pl"', 'msgctxt "c"', '#~ msgid "o"', '#~ msgstr "o"', "#, fuzzy",
    "#: a.md:1 b.md", "#. note  ", 'msgid  "two spaces"', 'msgid "x" trailing', "garbage",
    'msgid "unterminated', 'msgstr "eot \x04"', "\t#. tabbed", 'msgid "Привет"',
]


@ROBUST
@given(
    edits=st.lists(
        st.tuples(
            st.integers(0, len(SAMPLE)),
            st.sampled_from(["insert", "delete", "duplicate", "space"]),
            st.sampled_from(ROUGH_LINES),
        ),
        max_size=4,
    )
)
def test_shortcut_agrees_with_the_line_reader_on_roughened_catalogs(edits) -> None:
    lines = list(SAMPLE)
    for at, kind, rough in edits:
        at = min(at, len(lines) - 1)
        if kind == "insert":
            lines.insert(at, rough)
        elif kind == "delete":
            del lines[at]
        elif kind == "duplicate":
            lines.insert(at, lines[at])
        else:
            lines[at] += " "
    text = "\n".join(lines)
    assert outcome(text, True) == outcome(text, False)
