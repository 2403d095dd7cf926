"""A template kept parsed between runs (:mod:`tolmach.catalog.parsed`) is the template a
parse gives, with the same word counts; a changed template, another version or a broken
record is parsed again."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tolmach.catalog.parsed import ParsedTemplates, word_counts
from tolmach.catalog.poreader import read_po
from tolmach.catalog.status import catalog_stats, word_count

DATA = Path(__file__).parent / "data" / "pofile"
SAMPLES = sorted(path.name for path in DATA.glob("*.po"))


class CountingParse:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, path: Path):
        self.calls += 1
        return read_po(path)


def same(first, second) -> bool:
    return (
        [e.__dict__ for e in first] == [e.__dict__ for e in second]
        and (first.header, first.metadata, first.metadata_is_fuzzy)
        == (second.header, second.metadata, second.metadata_is_fuzzy)
    )


@pytest.mark.parametrize("name", SAMPLES)
def test_a_kept_template_is_the_parsed_one(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    shutil.copyfile(DATA / name, path)
    parse = CountingParse()
    kept = ParsedTemplates(tmp_path / "kept", "v1")
    first = kept.read(path, name, parse)
    assert not (tmp_path / "kept").exists(), "recorded when the command is done"
    kept.save()
    again = kept.read(path, name, parse)
    assert parse.calls == 1
    assert same(again, read_po(path)) and same(first, again)
    assert word_counts(again) == {e.msgid: word_count(e.msgid) for e in read_po(path)}
    assert catalog_stats(again, word_counts(again)) == catalog_stats(read_po(path))


def test_a_changed_template_another_version_or_a_broken_record_is_parsed_again(
    tmp_path: Path,
) -> None:
    path = tmp_path / "t.pot"
    shutil.copyfile(DATA / "cyrillic-long.po", path)
    parse = CountingParse()
    kept = ParsedTemplates(tmp_path / "kept", "v1")
    kept.read(path, "t.pot", parse)
    kept.save()
    path.write_text(path.read_text("utf-8") + "\n", "utf-8")
    assert same(kept.read(path, "t.pot", parse), read_po(path)) and parse.calls == 2
    other = ParsedTemplates(tmp_path / "kept", "v2")
    assert same(other.read(path, "t.pot", parse), read_po(path)) and parse.calls == 3
    other.save()
    for record in (tmp_path / "kept").iterdir():
        data = record.read_bytes()
        record.write_bytes(data[: data.index(b"\n") + 1] + b"\x00broken")
    assert same(ParsedTemplates(tmp_path / "kept", "v2").read(path, "t.pot", parse), read_po(path))
    assert parse.calls == 4
