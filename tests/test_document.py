"""Segmentation: what a translator gets to translate, and where it lives."""

import tomllib
from pathlib import Path

import pytest

from tolmach.markdown.document import SegmentOptions, parse_document

DATA = Path(__file__).parent / "data"
CASES = tomllib.loads((DATA / "segments.toml").read_text("utf-8"))["case"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_segments_from_fixture(case):
    document = parse_document(case["markdown"])
    found = [[s.kind, s.line, s.text] for s in document.segments]
    assert found == case["segments"]


def test_slots_are_disjoint_and_hold_the_text_as_written():
    text = "# A\n\n> quote\n> more\n\n- item\n"
    document = parse_document(text)
    previous_end = 0
    for seg in document.segments:
        assert seg.start >= previous_end
        previous_end = seg.end
    assert [text[s.start : s.end] for s in document.segments] == ["A", "quote\n> more", "item"]


def test_each_segment_names_the_heading_it_stands_under():
    document = parse_document("# Top\n\nIntro.\n\n## Part\n\n- item\n")
    comments = [s.comment for s in document.segments]
    assert comments == ["heading 1", 'paragraph, under "Top"', "heading 2", 'list item, under "Part"']


def test_text_of_html_blocks_is_translatable_when_configured():
    text = '<div title="Greeting">\nHello <b>you</b>\n<script>var x = "no";</script>\n</div>\n'
    document = parse_document(text, SegmentOptions(html_text=True))
    found = [(s.kind, s.text) for s in document.segments]
    assert found == [("html attribute title", "Greeting"), ("html text", "Hello"), ("html text", "you")]
    assert parse_document(text).segments == ()


def test_front_matter_keys_are_configurable():
    text = "---\ntitle: T\nsummary: S\n---\n"
    document = parse_document(text, SegmentOptions(front_matter_keys=("summary",)))
    assert [s.text for s in document.segments] == ["S"]


def test_block_scalar_in_front_matter():
    text = "---\ndescription: >\n  folded\n  text\ntitle: x\n---\n"
    document = parse_document(text, SegmentOptions(front_matter_keys=("description",)))
    assert [(s.text, s.line) for s in document.segments] == [("folded text", 3)]
