"""Fixtures of every preset (``tests/data/dialects/<preset>/``), written from each site
generator's documentation of its syntax: they survive the three fidelity modes under
the preset's parser, pseudo-translation changes no construct of the dialect, and the
catalog extracted from each is the reviewed golden ``.pot`` beside it.

``TOLMACH_UPDATE_GOLDEN=1 pytest tests/test_dialect_fixtures.py`` rewrites the goldens
after an intended change; review the diff before committing it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tolmach.catalog.pofile import format_po
from tolmach.catalog.template import extract_template
from tolmach.config import DEFAULT_FRONT_MATTER_KEYS
from tolmach.markdown.build import apply_translations
from tolmach.markdown.dialects import resolve_dialect
from tolmach.markdown.document import SegmentOptions, parse_document
from tolmach.markdown.fidelity import check_fidelity
from tolmach.markdown.pseudo import pseudo_translate
from tolmach.markdown.structure import structure_differences

DATA = Path(__file__).parent / "data" / "dialects"
FIXTURES = sorted(p for p in DATA.glob("*/*") if p.suffix in (".md", ".mdx"))


def options_for(path: Path) -> SegmentOptions:
    dialect = resolve_dialect(path.parent.name)
    keys = (*DEFAULT_FRONT_MATTER_KEYS, *dialect.front_matter_keys)
    return SegmentOptions(front_matter_keys=keys, html_text=True, dialect=dialect)


def ids(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def test_every_preset_has_a_fixture():
    from tolmach.markdown.dialects import PRESETS

    assert {p.parent.name for p in FIXTURES} == set(PRESETS) - {"commonmark"}


@pytest.mark.parametrize("path", FIXTURES, ids=ids)
def test_fixture_survives_identity_pseudo_and_forced(path):
    assert check_fidelity(path.read_text("utf-8"), options=options_for(path)) == []


@pytest.mark.parametrize("path", FIXTURES, ids=ids)
def test_pseudo_translation_changes_no_construct_of_the_dialect(path):
    """Keywords, anchors, shortcode names and arguments, expressions, URLs: all kept."""
    options = options_for(path)
    text = path.read_text("utf-8")
    document = parse_document(text, options)
    dialect = options.dialect
    pseudo = apply_translations(document, lambda s: pseudo_translate(s, dialect.atoms))
    assert pseudo != text
    differences = structure_differences(
        text, pseudo, dialect.parser(), front_matter_keys=options.front_matter_keys, translatable_html=True
    )
    assert [str(d) for d in differences] == []
    for seg in document.segments:
        translated = pseudo_translate(seg.text, dialect.atoms)
        assert [a.text for a in dialect.atoms(translated)] == [a.text for a in dialect.atoms(seg.text)]


@pytest.mark.parametrize("path", FIXTURES, ids=ids)
def test_fixture_catalog_is_the_golden_one(path):
    document = parse_document(path.read_text("utf-8"), options_for(path))
    pot = format_po(extract_template(document, ids(path), project=path.stem))
    golden = path.with_suffix(".pot")
    if os.environ.get("TOLMACH_UPDATE_GOLDEN"):
        golden.write_text(pot, "utf-8")
    assert golden.read_text("utf-8") == pot
