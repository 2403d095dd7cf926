"""A published page is rendered from the parse that verified its text, where that parse
is the one the renderer would make (:func:`tolmach.publish.render.reusable_tokens`).

The renderer's parser is the dialect's with raw HTML off and stricter destinations, so
the parse is reused only when it holds no raw HTML and no destination the site refuses.
Whether reused or not, the HTML is byte for byte that of a fresh parse: on every
CommonMark example, every dialect fixture, every hostile translation of the XSS list and
generated documents. And a parse is reused once: rendering changes its tokens.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from strategies import markdown_documents

from tolmach.fileio import WORK
from tolmach.markdown.dialects import COMMONMARK, Dialect, resolve_dialect
from tolmach.markdown.document import ParsedText, SegmentOptions, parse_document
from tolmach.markdown.verify import Verifier, read_parsed
from tolmach.publish.render import Fallback, render_article, reusable_tokens

DATA = Path(__file__).parent / "data"
SPEC = json.loads((DATA / "commonmark-spec.json").read_text("utf-8"))
FIXTURES = sorted(p for p in (DATA / "dialects").glob("*/*") if p.suffix in (".md", ".mdx"))
VECTORS = [
    line.replace("\\n", "\n")
    for line in (DATA / "xss-vectors.txt").read_text("utf-8").splitlines()
    if line and not line.startswith("#")
]


def verifying_parse(text: str, dialect: Dialect = COMMONMARK) -> ParsedText:
    """The parse a verified build of ``text`` (no translation: the text itself) ends with."""
    built = Verifier(parse_document(text, SegmentOptions(dialect=dialect))).build({})
    assert built.text == text and built.parsed is not None
    return built.parsed


def reading_parse(text: str, dialect: Dialect = COMMONMARK) -> ParsedText:
    """The parse a publish reads the source page with."""
    return read_parsed(text, SegmentOptions(dialect=dialect))[2]


def rendered(text: str, dialect: Dialect, parsed: ParsedText | None = None) -> tuple:
    links: list = []
    result = render_article(text, None, lambda kind, url: links.append(url) or f"/x/{url}",
                            dialect=dialect, parsed=parsed)
    return result, links


def reused(text: str, dialect: Dialect, parse) -> bool:
    """Whether a render of ``text`` would take the parse instead of parsing again."""
    return reusable_tokens(parse(text, dialect), text, dialect) is not None


@pytest.mark.parametrize("parse", [verifying_parse, reading_parse], ids=["verified", "source"])
def test_every_commonmark_example_renders_the_same_from_its_parse(parse):
    differing = [
        example["example"]
        for example in SPEC
        if rendered(example["markdown"], COMMONMARK, parse(example["markdown"]))
        != rendered(example["markdown"], COMMONMARK)
    ]
    assert differing == []
    taken = sum(reused(example["markdown"], COMMONMARK, parse) for example in SPEC)
    assert len(SPEC) // 2 < taken < len(SPEC)  # most are reused; raw HTML ones are not


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_dialect_fixture_renders_the_same_from_its_parse(path):
    text, dialect = path.read_text("utf-8"), resolve_dialect(path.parent.name)
    assert rendered(text, dialect, verifying_parse(text, dialect)) == rendered(text, dialect)
    assert rendered(text, dialect, reading_parse(text, dialect)) == rendered(text, dialect)


@pytest.mark.parametrize("vector", VECTORS)
def test_a_hostile_translation_renders_the_same_from_its_parse(vector):
    text = f"# Заголовок\n\n{vector}\n\nАбзац [ссылка](https://example.org).\n"
    assert rendered(text, COMMONMARK, verifying_parse(text)) == rendered(text, COMMONMARK)


@settings(max_examples=150, deadline=None)
@given(markdown_documents())
def test_generated_documents_render_the_same_from_their_parse(text):
    assert rendered(text, COMMONMARK, verifying_parse(text)) == rendered(text, COMMONMARK)


@pytest.mark.parametrize(
    "text",
    [
        "Абзац <b>жирный</b>.\n",
        "<div>\nблок\n</div>\n",
        "[архив](ftp://example.org/a.zip)\n",
        "![схема](data:image/png;base64,AAAA)\n",
        "[a]: ftp://example.org/a.zip\n\nАбзац.\n",
    ],
    ids=["inline HTML", "HTML block", "link the site refuses", "image the site refuses",
         "unused definition the site refuses"],
)
def test_raw_html_or_a_refused_destination_makes_the_renderer_parse_again(text):
    assert not reused(text, COMMONMARK, verifying_parse)
    assert rendered(text, COMMONMARK, verifying_parse(text)) == rendered(text, COMMONMARK)


def test_a_refused_attribute_destination_makes_the_renderer_parse_again():
    dialect = resolve_dialect("commonmark", ["+inline-attrs"])
    text = '![схема](a.png){src="ftp://example.org/b.png"}\n'
    assert not reused(text, dialect, verifying_parse)
    assert rendered(text, dialect, verifying_parse(text, dialect)) == rendered(text, dialect)


def test_a_parse_is_reused_once():
    text = "# Заголовок\n\nАбзац со [ссылкой](guide.md).\n"
    parsed = verifying_parse(text)
    before = WORK["render parse"]
    first = rendered(text, COMMONMARK, parsed)
    assert WORK["render parse"] == before  # the verification's tokens
    assert rendered(text, COMMONMARK, parsed) == first  # taken: parsed afresh
    assert WORK["render parse"] == before + 1


def test_a_parse_of_another_text_or_dialect_is_not_used():
    parsed = verifying_parse("# Заголовок\n")
    assert reusable_tokens(parsed, "# Другой\n", COMMONMARK) is None
    assert reusable_tokens(verifying_parse("# Заголовок\n"), "# Заголовок\n",
                           resolve_dialect("gfm")) is None


def test_fallback_marks_and_anchors_are_the_same_from_the_parse():
    text = "# Заголовок\n\nПервый абзац.\n\n- пункт\n- ещё\n"
    fallback = Fallback(frozenset({"Первый абзац.", "пункт"}), "ru", "ltr")
    fresh = render_article(text, fallback)
    assert render_article(text, fallback, parsed=verifying_parse(text)) == fresh
    assert 'class="untranslated"' in fresh.html


def test_a_parse_is_not_sent_to_another_process():
    import pickle

    parsed = verifying_parse("# Заголовок\n\nАбзац.\n")
    copy = pickle.loads(pickle.dumps(parsed))
    assert copy.text == parsed.text and copy.take() is None
    assert parsed.take() is not None  # the original still holds its tokens


def test_a_publish_renders_each_page_from_the_parse_that_read_it(tmp_path):
    """The scenario's pages hold no raw HTML: a cold publish parses none of them again
    to render it (the source pages from their reading, the others from their build's)."""
    from publish_scenario import make_scenario

    from tolmach.publish.site import PublishOptions, publish_site

    project = make_scenario(tmp_path / "project")
    renders, parses = WORK["render"], WORK["render parse"]
    publish_site(project, tmp_path / "site", PublishOptions(search=False))
    assert WORK["render"] - renders >= 2 * 3  # two articles, source and translations
    assert WORK["render parse"] == parses
