"""`tolmach stats` for people and for scripts, and its word count next to pocount's.

A table when standard output is a terminal, plain columns when it is not (no box
characters in a pipe or a log), JSON and CSV on request. Words are counted as the README
says ("Word counts"); on the seed, translate-toolkit's pocount counts 885 source words
and tolmach 856, and the test shows that the difference is exactly the documented one.
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import polib
import pytest
from click.testing import CliRunner

from tolmach.catalog.status import word_count
from tolmach.cli import cli
from tools import run_tool

ROOT = Path(__file__).resolve().parents[1]
SEED_TEMPLATE = ROOT / "locales" / "rocm7.pot"
BOX = re.compile("[┏┃━│┡╇└─]")


def stats(*args: str, terminal: bool = False, monkeypatch=None) -> str:
    if monkeypatch is not None:
        monkeypatch.setattr("tolmach.cli.pipeline.is_terminal", lambda: terminal)
    result = CliRunner().invoke(cli, ["-C", str(ROOT), "stats", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_piped_stats_are_plain_columns(monkeypatch):
    text = stats(monkeypatch=monkeypatch)
    assert not BOX.search(text)
    header, *rows = text.splitlines()
    assert header.split() == ["locale", "document", "translated", "fuzzy", "untranslated",
                              "words", "done", "%", "waived"]
    assert ["en", "rocm7", "94", "0", "0", "856/856", "100", "0"] in [row.split() for row in rows]
    assert rows[-1].split()[0] == "total"


def test_a_terminal_gets_a_table(monkeypatch):
    assert BOX.search(stats(terminal=True, monkeypatch=monkeypatch))


def test_json_and_csv_agree():
    document = json.loads(stats("--format", "json"))
    rows = list(csv.DictReader(io.StringIO(stats("--format", "csv"))))
    assert [r["locale"] for r in rows] == [c["locale"] for c in document["catalogs"]]
    for row, record in zip(rows, document["catalogs"], strict=True):
        assert int(row["words_total"]) == record["words_total"]
        assert row["path"] == record["path"]
        assert record["path"] == f"locales/{row['locale']}/LC_MESSAGES/{row['document']}.po"
        if row["document"] == "rocm7":
            assert record["words_total"] == 856
    assert document["total"]["words_total"] == sum(r["words_total"] for r in document["catalogs"])


def test_check_json_reports_the_counts_stats_reports():
    result = CliRunner().invoke(cli, ["-C", str(ROOT), "check", "--format", "json"])
    files = json.loads(result.output)["summary"]["files"]
    for record in json.loads(stats("--format", "json"))["catalogs"]:
        checked = files[record["path"]]
        assert (checked["locale"], checked["document"]) == (record["locale"], record["document"])
        assert checked["progress"] == {key: record[key] for key in checked["progress"]}


# --- words, next to pocount ------------------------------------------------------------

_MARKUP = re.compile(r"`[^`]*`|\]\([^)]*\)|<[^>]*>|&#?\w+;")
_JOINER = re.compile(r"(?<=\w)[-'’](?=\w)")


def as_tolmach_reads(text: str) -> str:
    """The README's two differences applied, so that pocount's rule must give tolmach's
    count: markup is not words, and a hyphen or apostrophe inside a word joins it."""
    return _JOINER.sub("", _MARKUP.sub(" ", text))


def test_the_seed_word_count_differs_from_pocount_only_as_documented():
    pocount = pytest.importorskip("translate.tools.pocount", reason="translate-toolkit")
    entries = [e for e in polib.pofile(str(SEED_TEMPLATE)) if e.msgid]
    theirs = sum(pocount.wordcount(e.msgid) for e in entries)
    ours = sum(word_count(e.msgid) for e in entries)
    assert (theirs, ours) == (885, 856)  # the figures the README gives
    for entry in entries:
        assert pocount.wordcount(as_tolmach_reads(entry.msgid)) == word_count(entry.msgid), (
            entry.msgid
        )
    joins = sum(len(_JOINER.findall(e.msgid)) for e in entries)
    assert theirs - ours == joins == 29


def test_the_pocount_command_agrees_with_its_library():
    output = run_tool("pocount", "--csv", SEED_TEMPLATE)
    row = next(csv.DictReader(io.StringIO(output)))
    assert int(row["Total Source Words"]) == 885


@pytest.mark.parametrize(
    "text, words",
    [("first-class citizen", 2), ("Ускорение до 3.8x", 3), ("см. `hipcc --help`", 1),
     ("[документация](https://rocm.docs.amd.com/ru/latest)", 1), ("<br> &nbsp; вывод", 1),
     ("Qwen2-72B и CPU-GPU-DPU", 3), ("l'homme d’affaires", 2), ("1,5 ГБ", 2)],
)
def test_the_word_rule(text, words):
    assert word_count(text) == words
