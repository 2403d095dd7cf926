"""Each dialect plugin alone, on CommonMark: what it segments, renders and protects.

Cases live in ``tests/data/dialects/plugins.toml``; every case must also survive the
three fidelity modes (identity, pseudo, forced) under the plugin's own parser.
"""

from __future__ import annotations

import doctest
import tomllib
from pathlib import Path

import pytest

import tolmach.markdown.dialects.blocks
import tolmach.markdown.dialects.containers
import tolmach.markdown.dialects.expressions
import tolmach.markdown.dialects.heading_attrs
import tolmach.markdown.dialects.liquid
import tolmach.markdown.dialects.mdx
import tolmach.markdown.dialects.shortcodes
from tolmach.markdown.dialects import Dialect
from tolmach.markdown.document import SegmentOptions, parse_document
from tolmach.markdown.fidelity import check_fidelity

CASES = tomllib.loads((Path(__file__).parent / "data" / "dialects" / "plugins.toml").read_text("utf-8"))["case"]


def dialect_of(case: dict) -> Dialect:
    return Dialect("commonmark", tuple(case["syntax"]))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_plugin_segments(case):
    document = parse_document(case["markdown"], SegmentOptions(dialect=dialect_of(case)))
    assert [[s.kind, s.line, s.text] for s in document.segments] == case["segments"]
    if "notes" in case:
        assert [s.note or "" for s in document.segments] == case["notes"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_plugin_survives_identity_pseudo_and_forced_builds(case):
    assert check_fidelity(case["markdown"], options=SegmentOptions(dialect=dialect_of(case))) == []


@pytest.mark.parametrize("case", [c for c in CASES if "html" in c], ids=lambda c: c["name"])
def test_plugin_renders_its_construct(case):
    html = dialect_of(case).parser().render(case["markdown"])
    for expected in case["html"]:
        assert expected in html


@pytest.mark.parametrize("case", [c for c in CASES if "atoms" in c], ids=lambda c: c["name"])
def test_plugin_protects_its_inline_spans(case):
    dialect = dialect_of(case)
    document = parse_document(case["markdown"], SegmentOptions(dialect=dialect))
    found = [a.text for s in document.segments for a in dialect.atoms(s.text)]
    assert found == case["atoms"]


def test_without_the_plugin_the_syntax_is_plain_text():
    """The cases are not vacuous: CommonMark alone reads each source differently (other
    segments, no atoms, or another rendering)."""
    plain = Dialect()
    vacuous = []
    for case in CASES:
        if not case["syntax"]:
            continue
        document = parse_document(case["markdown"])
        same_segments = [[s.kind, s.line, s.text] for s in document.segments] == case["segments"]
        same_atoms = [a.text for s in document.segments for a in plain.atoms(s.text)] == case.get("atoms", [])
        html = plain.parser().render(case["markdown"])
        same_html = all(expected in html for expected in case.get("html", []))
        if same_segments and same_atoms and same_html:
            vacuous.append(case["name"])
    assert vacuous == []


@pytest.mark.parametrize(
    "module",
    [
        tolmach.markdown.dialects.blocks,
        tolmach.markdown.dialects.containers,
        tolmach.markdown.dialects.expressions,
        tolmach.markdown.dialects.heading_attrs,
        tolmach.markdown.dialects.liquid,
        tolmach.markdown.dialects.mdx,
        tolmach.markdown.dialects.shortcodes,
    ],
)
def test_module_examples_hold(module):
    assert doctest.testmod(module).failed == 0
