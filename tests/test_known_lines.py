"""Copying string lines as read (``read_po(keep_text=True)`` + ``format_po(known=...)``)
gives the bytes formatting gives, and copies only lines known to be written that way."""

from __future__ import annotations

import shutil
from pathlib import Path

import polib
from click.testing import CliRunner

from tolmach.catalog.merge import update_catalog
from tolmach.catalog.pofile import KnownLines, format_po, read_po
from tolmach.catalog.poreader import parse_catalog
from tolmach.cli import cli

DATA = Path(__file__).parent / "data" / "pofile"
LONG = ("Очень длинное предложение, которое не помещается в одну строку каталога и потому "
        "переносится по словам, как это делает msgcat.")


def catalog_text() -> str:
    po = polib.POFile()
    po.metadata = {"Content-Type": "text/plain; charset=UTF-8"}
    po.append(polib.POEntry(msgid=LONG, msgstr=LONG.upper(), occurrences=[("a.md", "3")]))
    po.append(polib.POEntry(msgid="Коротко", msgstr="Kurz", flags=["no-wrap"]))
    po.append(polib.POEntry(msgctxt="ctx", msgid=LONG + " ещё", msgstr="x " * 60))
    po.append(polib.POEntry(msgid="Ушло", msgstr="Weg", obsolete=True))
    return format_po(po)


def learned(text: str, width: int = 79) -> KnownLines:
    known = KnownLines()
    format_po(parse_catalog(text, "a.po", keep_text=True), width, known)
    return KnownLines.from_bytes(known.to_bytes())


def test_known_lines_are_copied_and_give_the_same_bytes() -> None:
    text = catalog_text()
    known = learned(text)
    assert format_po(parse_catalog(text, "a.po", keep_text=True), 79, known) == text
    assert known.copied == 4
    assert known.written == known.known


def test_lines_written_otherwise_are_wrapped_again() -> None:
    text = catalog_text()
    known = learned(text)
    one_line = text.replace(format_po_strings(LONG), f'msgid "{LONG}"\n', 1)
    assert one_line != text
    again = format_po(parse_catalog(one_line, "a.po", keep_text=True), 79, known)
    assert again == text
    assert known.copied == 3


def format_po_strings(msgid: str) -> str:
    """The msgid lines of ``msgid`` as format_po wraps them."""
    po = polib.POFile()
    po.append(polib.POEntry(msgid=msgid, msgstr=""))
    return format_po(po).removesuffix('msgstr ""\n')


def test_changed_strings_and_other_widths_are_not_copied() -> None:
    text = catalog_text()
    po = parse_catalog(text, "a.po", keep_text=True)
    po[0].msgstr = "Neu"
    known = learned(text)
    assert format_po(po, 79, known) == format_po(po)
    assert known.copied == 3
    narrow = learned(text)
    assert format_po(parse_catalog(text, "a.po", keep_text=True), 40, narrow) == format_po(
        parse_catalog(text, "a.po"), 40
    )
    assert narrow.copied == 1  # only the no-wrap entry: its lines do not depend on the width


def test_merged_entries_carry_their_lines() -> None:
    text = catalog_text()
    template = parse_catalog(text, "a.pot")
    for entry in template:
        entry.msgstr = ""
    template[0].msgid += " Правка."  # a changed source: a fuzzy entry, made anew
    known = learned(text)
    merged = update_catalog(template, parse_catalog(text, "a.po", keep_text=True), "de")
    expected = update_catalog(template, parse_catalog(text, "a.po"), "de")
    assert format_po(merged, 79, known) == format_po(expected)
    assert known.copied == 3  # the no-wrap entry, the one with a context, the obsolete one


def test_fixture_catalogs_read_back_identically() -> None:
    for path in sorted(DATA.glob("*.po")):
        known = KnownLines()
        once = format_po(read_po(path, keep_text=True), 79, known)
        copied = KnownLines(known.written)
        assert format_po(read_po(path, keep_text=True), 79, copied) == once
        fresh = path.read_text("utf-8")
        assert format_po(parse_catalog(fresh, path, keep_text=True), 79, copied) == once


ARTICLE = "# Заголовок\n\n" + LONG + "\n\nВторой абзац, тоже довольно длинный, чтобы перенестись.\n"


def run(project: Path, *args: str) -> str:
    result = CliRunner().invoke(cli, ["-C", str(project), *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_update_with_known_lines_writes_what_a_cold_update_writes(tmp_path: Path) -> None:
    (tmp_path / "a.ru.md").write_text(ARTICLE, "utf-8")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.tolmach]\nsource-locale = "ru"\nlocales = ["de"]\ndocuments = ["a.ru.md"]\n',
        "utf-8",
    )
    run(tmp_path, "extract")
    run(tmp_path, "update")
    catalog = tmp_path / "locales/de/LC_MESSAGES/a.po"
    po = polib.pofile(str(catalog), wrapwidth=0)  # one long line per string: not canonical
    for entry in po:
        entry.msgstr = entry.msgid.upper()
    po.save()
    hand_written = catalog.read_bytes()
    assert list((tmp_path / ".tolmach-cache/catalog-lines").iterdir())
    run(tmp_path, "update")
    warm = catalog.read_bytes()
    catalog.write_bytes(hand_written)
    shutil.rmtree(tmp_path / ".tolmach-cache")
    run(tmp_path, "update")
    assert catalog.read_bytes() == warm


def test_untranslated_lines_made_once_serve_every_locale() -> None:
    template = parse_catalog(catalog_text(), "a.pot")
    for entry in template:
        entry.msgstr = ""
    shared: dict = {}
    for locale in ("de", "en", "fr"):
        merged = update_catalog(template, None, locale)
        known = KnownLines(untranslated=shared)
        assert format_po(merged, 79, known) == format_po(merged)
    assert len(shared) == 3  # the live entries; the obsolete one has no translation to keep
