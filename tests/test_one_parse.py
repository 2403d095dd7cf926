"""A step that verifies builds reads its source once: the segments and the structure it
takes from one parse (:func:`read_with_structure`) are those that segmenting
(:func:`parse_document`) and fingerprinting (:func:`fingerprint`) give apart, on every
CommonMark example, every dialect fixture and generated documents."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from strategies import markdown_documents

from tolmach.config import DEFAULT_FRONT_MATTER_KEYS
from tolmach.markdown.dialects import COMMONMARK, resolve_dialect
from tolmach.markdown.document import SegmentOptions, parse_document
from tolmach.markdown.structure import fingerprint
from tolmach.markdown.verify import Verifier, read_with_structure
from tolmach.project import Project

DATA = Path(__file__).parent / "data"
SPEC = json.loads((DATA / "commonmark-spec.json").read_text("utf-8"))
FIXTURES = sorted(p for p in (DATA / "dialects").glob("*/*") if p.suffix in (".md", ".mdx"))


def read_apart(text: str, options: SegmentOptions):
    document = parse_document(text, options, hints=True)
    structure = fingerprint(
        text, options.dialect.parser(),
        front_matter_keys=tuple(options.front_matter_keys), translatable_html=options.html_text,
    )
    return document, structure


def fixture_options(path: Path) -> SegmentOptions:
    dialect = resolve_dialect(path.parent.name)
    return SegmentOptions(front_matter_keys=(*DEFAULT_FRONT_MATTER_KEYS, *dialect.front_matter_keys),
                          html_text=True, dialect=dialect)


@pytest.mark.parametrize("html_text", [False, True])
def test_every_commonmark_example_reads_the_same_in_one_parse(html_text):
    options = SegmentOptions(html_text=html_text, dialect=COMMONMARK)
    differing = [
        example["example"]
        for example in SPEC
        if read_with_structure(example["markdown"], options, hints=True)
        != read_apart(example["markdown"], options)
    ]
    assert differing == []


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_dialect_fixture_reads_the_same_in_one_parse(path):
    text, options = path.read_text("utf-8"), fixture_options(path)
    document, structure = read_with_structure(text, options, hints=True)
    assert (document, structure) == read_apart(text, options)
    assert document.segments  # a fixture that segments to nothing would prove little


@settings(max_examples=150, deadline=None)
@given(markdown_documents())
def test_generated_documents_read_the_same_in_one_parse(text):
    options = SegmentOptions(html_text=True, dialect=COMMONMARK)
    assert read_with_structure(text, options) == read_apart(text, options)


def test_a_verifier_given_the_structure_does_not_parse_the_source_again(monkeypatch):
    text = "# Заголовок\n\nАбзац с `кодом` и [ссылкой](https://example.org).\n"
    document, structure = read_with_structure(text)
    verifier = Verifier(document, source_structure=structure)
    monkeypatch.setattr("tolmach.markdown.verify.fingerprint", _no_second_parse)
    assert verifier.source is structure
    built = verifier.build({"Заголовок": "Heading"})
    assert built.text.startswith("# Heading\n") and not built.rejected


def test_a_project_verifies_its_sources_with_one_parse_each(tmp_path, monkeypatch):
    (tmp_path / "seeds").mkdir()
    (tmp_path / "seeds" / "a.md").write_text("# Заголовок\n\nАбзац.\n", "utf-8")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.tolmach]\nsource-locale = "ru"\nlocales = ["en"]\ndocuments = ["seeds/*.md"]\n',
        "utf-8",
    )
    from tolmach.config import load_config

    project = Project(load_config(tmp_path))
    doc = project.documents[0]
    monkeypatch.setattr("tolmach.markdown.verify.fingerprint", _no_second_parse)
    verifier = project.verifier(doc)
    assert project.load(doc) is verifier.document  # the segments come from that parse too
    assert verifier.build({"Абзац.": "A paragraph."}).text == "# Заголовок\n\nA paragraph.\n"


def _no_second_parse(*args, **kwargs):
    raise AssertionError("the source was parsed a second time")
