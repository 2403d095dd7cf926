"""Reassembly: the skeleton is kept byte for byte, translations fill their slots."""

import pytest

from tolmach.markdown.build import apply_translations, wrap_text
from tolmach.markdown.compare import same_html, same_structure
from tolmach.markdown.document import markdown_parser, parse_document


def build(text, translations, **kwargs):
    return apply_translations(parse_document(text), translations, **kwargs)


def test_no_translation_gives_the_source_back_byte_for_byte():
    text = "\ufeff# T\r\n\r\n> a\r\n> b  \r\n\r\n  - x\t\n\n```\ncode\n```\n"
    assert build(text, {}) == text


def test_translation_equal_to_the_source_keeps_the_original_bytes():
    text = "> one\n> two\n"
    assert build(text, {"one two": "one two"}) == text


def test_container_prefixes_are_reapplied_on_every_line_of_a_translation():
    text = "> - first\n>   line\n"
    out = build(text, {"first line": "erste\nZeile"})
    assert out == "> - erste\n>   Zeile\n"


def test_hard_wrapped_paragraph_comes_out_as_one_line():
    text = "Intro:\n\n> alpha beta\n> gamma delta\n"
    out = build(text, {"alpha beta gamma delta": "Alpha Beta Gamma Delta"})
    assert out == "Intro:\n\n> Alpha Beta Gamma Delta\n"


def test_rewrapping_at_a_width_inside_a_container():
    text = "> alpha\n"
    long = "word " * 12 + "end"
    out = build(text, {"alpha": long}, wrap_width=20)
    lines = out.splitlines()
    assert all(line.startswith("> ") for line in lines)
    assert all(len(line) <= 20 for line in lines)
    assert same_html(f"> {long}\n", out)


def test_wrapping_never_starts_a_line_with_block_syntax():
    lines = wrap_text("aaaa - bbbb 1. cccc # dddd > eeee", 6)
    assert all(not line.startswith(("-", "1.", "#", ">")) for line in lines)
    assert " ".join(lines) == "aaaa - bbbb 1. cccc # dddd > eeee"


def test_wrapping_keeps_code_spans_and_double_spaces_whole():
    text = "x `a b c d e f` y  z"
    lines = wrap_text(text, 4)
    assert "`a b c d e f`" in " ".join(lines)
    assert " ".join(lines) == text


def test_heading_and_table_cell_translations_stay_on_one_line():
    text = "# Titel\n\n| a |\n|---|\n| b |\n"
    out = build(text, {"Titel": "Title\nsplit", "b": "B1\nB2"})
    assert out == "# Title split\n\n| a |\n|---|\n| B1 B2 |\n"


def test_crlf_documents_get_crlf_continuations():
    text = "> a\r\n> b\r\n"
    assert build(text, {"a b": "x\ny"}) == "> x\r\n> y\r\n"


@pytest.mark.parametrize(
    "source, translated, expected",
    [
        ('title: "Old"', "New \"q\"", 'title: "New \\"q\\""'),
        ("title: Old", "Neu: Titel", 'title: "Neu: Titel"'),
        ("title: Old", "Neu", "title: Neu"),
        ("title: 'Old'", "it's", "title: 'it''s'"),
    ],
)
def test_front_matter_values_keep_valid_yaml_quoting(source, translated, expected):
    text = f"---\n{source}\n---\n"
    old = parse_document(text).segments[0].text
    assert build(text, {old: translated}) == f"---\n{expected}\n---\n"


def test_forced_reemission_after_a_hard_break_keeps_an_overindented_line_as_text():
    text = "- foo\\\n      - bar\n"
    out = build(text, lambda s: s, force=True)
    assert same_html(text, out)


def test_pseudo_translation_keeps_the_structure_of_a_rich_document():
    from tolmach.markdown.pseudo import pseudo_translate

    text = (
        "---\ntitle: Hello\n---\n# Head\n\n> Quote with [link][ref] and `code`.\n\n"
        "| a | b |\n|---|---|\n| *x* | <b>y</b> |\n\nNote[^1].\n\n[^1]: Footnote text.\n\n"
        "[ref]: https://example.org\n"
    )
    out = apply_translations(parse_document(text), pseudo_translate)
    assert out != text
    assert same_structure(text, out)


def test_a_translated_reference_title_escapes_its_delimiters():
    text = 'See [a].\n\n[a]: /u "Old"\n'
    out = build(text, {"Old": 'Ein "neuer" Titel'})
    assert out == 'See [a].\n\n[a]: /u "Ein \\"neuer\\" Titel"\n'
    assert 'title="Ein &quot;neuer&quot; Titel"' in markdown_parser().render(out)
