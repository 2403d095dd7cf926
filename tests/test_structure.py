"""The structural fingerprint: what a translation may not change, and how it is named."""

from __future__ import annotations

import doctest

import pytest

import tolmach.markdown.structure as structure_module
from tolmach.markdown.document import markdown_parser
from tolmach.markdown.structure import (
    fingerprint,
    register_shape,
    structure_differences,
)

MD = markdown_parser()


def differences(source: str, built: str, **options) -> list[str]:
    return [str(d) for d in structure_differences(source, built, MD, **options)]


def test_the_module_examples_hold():
    assert doctest.testmod(structure_module).failed == 0


@pytest.mark.parametrize(
    ("source", "built"),
    [
        ("# Заголовок\n", "# Heading\n"),
        ("Абзац *с* `кодом` и [ссылкой](/u).\n", "A *paragraph* with [a link](/u) and `кодом`.\n"),
        ("- один\n- два\n", "- one\n- two\n"),
        ("| а | б |\n|:--|--:|\n| в | г |\n", "| a | b |\n|:--|--:|\n| c | d |\n"),
        ("[r]: /u 'Титул'\n\n[r]\n", "[r]: /u 'Title'\n\n[text][r]\n"),
        ("```py\ncode\n```\n", "```py\ncode\n```\n"),
        ("Текст[^1]\n\n[^1]: сноска\n", "Text[^1]\n\n[^1]: footnote\n"),
    ],
)
def test_a_translation_of_text_only_has_the_same_structure(source, built):
    assert differences(source, built) == []


@pytest.mark.parametrize(
    ("source", "built", "expected"),
    [
        ("# T\n", "# T\n# X\n", "line 2: heading 1: expected nothing, found heading 1"),
        ("## T\n", "# T\n", "line 1: heading 2: expected heading 2, found heading 1"),
        ("a `c`\n", "a c\n", "line 1: inline markup: expected code 'c', found nothing more"),
        ("[a](/u)\n", "[a](/v)\n", "line 1: inline markup: expected link '/u', found link '/v'"),
        ("```py\nx\n```\n", "```py\ny\n```\n", "line 1: fenced code: expected content 'x\\n', found content 'y\\n'"),
        ("1. a\n2. b\n", "1) a\n2) b\n", "line 1: ordered list (.): expected ordered list (.), found ordered list ())"),
        (
            "| a | b |\n|---|---|\n",
            "| a | b|c |\n|---|---|\n",
            "line 1: table: expected table, table head, table row, table header cell ×2, found paragraph",
        ),
        ("[r]: /u\n", "[r]: /v\n", "line 1: link reference definition [R]: expected destination '/u', found destination '/v'"),
    ],
)
def test_a_structural_change_is_named_with_its_line(source, built, expected):
    assert expected in differences(source, built)


def test_a_loose_list_is_not_a_tight_one():
    [difference] = structure_differences("- a\n- b\n", "- a\n\n- b\n", MD)[:1]
    assert difference.construct == "paragraph"
    assert "hidden True" in difference.expected and "hidden False" in difference.found


def test_lines_of_the_built_text_are_mapped_to_source_lines():
    source = "Абзац\n\n# Заголовок\n"
    built = "A paragraph\nover two lines\n\n# Heading\n"
    assert differences(source, built) != []  # line for line, the heading moved
    assert differences(source, built, origin=[0, 0, 1, 2]) == []


def test_front_matter_values_of_translatable_keys_may_change_nothing_else():
    source = "---\ntitle: Заголовок\nlayout: post\n---\n"
    assert differences(source, '---\ntitle: "Title: long"\nlayout: post\n---\n', front_matter_keys=["title"]) == []
    assert differences(source, "---\ntitle: Title\nlayout: page\n---\n", front_matter_keys=["title"])
    assert differences(source, "---\ntitle: Title\nlayout: post\n---\n")  # title not translatable


def test_html_blocks_compare_bytes_or_only_tags_when_translatable():
    source = '<div class="note">\nТекст\n</div>\n'
    built = '<div class="note">\nText\n</div>\n'
    assert differences(source, built)
    assert differences(source, built, translatable_html=True) == []
    assert differences(source, '<div class="x">\nText\n</div>\n', translatable_html=True)


def test_a_plugin_shape_leaves_its_text_out():
    def fence_without_content(token):
        return ("fence", token.info)

    try:
        register_shape("fence", fence_without_content)
        assert differences("```py\nx\n```\n", "```py\ny\n```\n") == []
        assert differences("```py\nx\n```\n", "```js\nx\n```\n")
    finally:
        register_shape("fence", None)


def test_fingerprint_lines_and_names():
    constructs = fingerprint("# T\n\n- a\n", MD).constructs
    assert [(c.name, c.line) for c in constructs if not c.name.startswith("end")] == [
        ("heading 1", 0),
        ("inline markup", 0),
        ("bullet list (-)", 2),
        ("list item", 2),
        ("paragraph", 2),
        ("inline markup", 2),
    ]
