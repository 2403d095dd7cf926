"""Every character a string may hold survives write → read, and GNU msgfmt agrees;
control characters from a source are refused at their line.

A PO line ends at LF (or CRLF); nothing else. Python's ``str.splitlines`` also breaks at
U+2028, U+2029, U+0085, 0x1C–0x1E, VT and FF, which once made tolmach refuse catalogs it
had written itself ("unterminated string") while ``msgfmt --check`` accepted them.

The property: for strings mixing every C0 and C1 control, DEL, and each character
Unicode treats as a line break, with quotes, backslashes and letters, ``write_po`` →
``read_po`` gives every string back unchanged and ``msgfmt --check`` accepts the file —
except the two characters gettext cannot store in a string (EOT, its context separator,
which msgfmt refuses; NUL, where msgfmt silently cuts the string), which ``write_po``
refuses before writing anything.
Derandomized as tests/test_properties.py, so CI tries the same strings every time.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import polib
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import EXAMPLES, ROBUST

from tolmach.catalog.pofile import CatalogError, read_po, write_po
from tolmach.catalog.template import extract_template
from tolmach.fileio import SourceError
from tolmach.markdown.document import parse_document

#: What Unicode (and ``str.splitlines``) counts as a line break.
LINE_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"
#: Every C0 control, DEL and every C1 control.
CONTROLS = "".join(map(chr, [*range(0x20), 0x7F, *range(0x80, 0xA0)]))
#: What gettext cannot store in a string at all.
RESERVED = "\x00\x04"
OTHERS = 'ab я中 "\\#~|:'
ALPHABET = sorted(set(LINE_BREAKS + CONTROLS + OTHERS))


@pytest.fixture(scope="module")
def msgfmt() -> str:
    found = shutil.which("msgfmt")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("GNU msgfmt not found: install gettext (.ci/run does)")
        pytest.skip("GNU msgfmt not installed; catalogs are compared against it")
    return found


def catalog(msgctxt: str | None, msgid: str, msgstr: str) -> polib.POFile:
    po = polib.POFile()
    po.metadata = {
        "Project-Id-Version": "t",
        "PO-Revision-Date": "2026-01-01 00:00+0000",
        "Last-Translator": "T <t@example.org>",
        "Language-Team": "de",
        "Language": "de",
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
    }
    po.append(polib.POEntry(msgctxt=msgctxt, msgid=msgid, msgstr=msgstr))
    po.append(polib.POEntry(msgid=msgid + "!", msgstr=msgstr, obsolete=True))
    return po


def accepted_by_msgfmt(msgfmt: str, path: Path) -> bool:
    result = subprocess.run([msgfmt, "--check", "-o", os.devnull, str(path)], capture_output=True)
    return result.returncode == 0


def read_back(path: Path, msgctxt: str | None, msgid: str, msgstr: str) -> bool:
    """The strings come back unchanged."""
    po = read_po(path)
    live = [entry for entry in po if not entry.obsolete]
    obsolete = [entry for entry in po if entry.obsolete]
    assert [(e.msgctxt, e.msgid, e.msgstr) for e in live] == [(msgctxt, msgid, msgstr)]
    assert [(e.msgid, e.msgstr) for e in obsolete] == [(msgid + "!", msgstr)]
    return True


def check_agreement(
    msgfmt: str, folder: Path, msgctxt: str | None, msgid: str, msgstr: str
) -> bool:
    """msgid and msgstr start and end with a letter: ``msgfmt --check`` also wants both or
    neither to begin and end with ``\\n``, a rule about translations, not about reading.
    Returns whether the catalog was written (False: refused, as gettext cannot store it)."""
    path = folder / "t.po"
    msgid, msgstr = f"<{msgid}>", f"<{msgstr}>"
    if any(c in RESERVED for c in (msgctxt or "") + msgid + msgstr):
        with pytest.raises(CatalogError, match=r"U\+000[04] \((NUL|EOT)\).*cannot be written"):
            write_po(catalog(msgctxt, msgid, msgstr), path, width=40)
        return False
    write_po(catalog(msgctxt, msgid, msgstr), path, width=40)
    assert read_back(path, msgctxt, msgid, msgstr)
    assert accepted_by_msgfmt(msgfmt, path), path.read_text("utf-8")
    return True


@pytest.mark.parametrize("char", ALPHABET, ids=lambda c: f"U+{ord(c):04X}")
def test_each_character_alone_round_trips_where_msgfmt_accepts_it(msgfmt, tmp_path, char):
    written = check_agreement(msgfmt, tmp_path, char, f"{char}a{char}b{char}", f"{char}x{char}")
    assert written == (char not in RESERVED)


def test_mixtures_round_trip_exactly_when_msgfmt_accepts_them(msgfmt):
    text = st.text(alphabet=ALPHABET, min_size=1, max_size=30)
    examples = max(EXAMPLES // 2, 50)
    written: list[bool] = []
    with tempfile.TemporaryDirectory() as folder:

        @settings(ROBUST, max_examples=examples)
        @given(st.none() | text, text, st.text(alphabet=ALPHABET, max_size=30))
        def agree(msgctxt, msgid, msgstr):
            written.append(check_agreement(msgfmt, Path(folder), msgctxt, msgid, msgstr))

        agree()
    print(f"\n{len(written)} catalogs mixing control and line-break characters: "
          f"{written.count(True)} read back unchanged and accepted by msgfmt, "
          f"{written.count(False)} refused before writing (NUL or EOT); each of the "
          f"{len(ALPHABET)} characters alone is tried too")
    assert 0 < written.count(False) < written.count(True)


def test_a_line_ends_at_lf_or_crlf_only(tmp_path):
    path = tmp_path / "t.po"
    body = 'msgid "a\u2028b\x1cc"\r\nmsgstr "d\x85e\u2029"\r\n'
    path.write_bytes(('msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                      + body).encode("utf-8"))
    [entry] = read_po(path)
    assert (entry.msgid, entry.msgstr, entry.linenum) == ("a\u2028b\x1cc", "d\x85e\u2029", 4)


def test_eot_in_a_string_is_refused_at_its_line(tmp_path):
    path = tmp_path / "t.po"
    path.write_text('msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                    'msgid "a"\nmsgstr "b\x04c"\n', "utf-8")
    with pytest.raises(CatalogError, match=r"t\.po:5: .*U\+0004 \(EOT\)"):
        read_po(path)


# ------------------------------------------------- control characters from a source

REFUSED_IN_SOURCES = sorted(set(CONTROLS) - set("\t\n\r\0"))


@pytest.mark.parametrize("char", REFUSED_IN_SOURCES, ids=lambda c: f"U+{ord(c):04X}")
def test_a_control_character_in_translatable_text_is_refused_at_its_line(char):
    """An ESC sequence would reach the .pot raw and drive the terminal that prints it."""
    source = f"# Заголовок\n\nПервая строка,\nвторая {char}[31mкрасная.\n"
    with pytest.raises(SourceError, match=rf"^seeds/a\.md:4: control character U\+{ord(char):04X}"):
        extract_template(parse_document(source), "seeds/a.md", project="a")


def test_control_characters_in_code_and_line_breaks_in_text_are_kept(tmp_path):
    source = "Текст\u2028с разделителем\u2029строк.\n\n```\necho \x1b[31m\n```\n\n\tкод\x07\n"
    pot = extract_template(parse_document(source), "seeds/a.md", project="a")
    write_po(pot, tmp_path / "a.pot")
    assert [e.msgid for e in read_po(tmp_path / "a.pot")] == [
        "Текст\u2028с разделителем\u2029строк."
    ]
