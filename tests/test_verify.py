"""Every build is verified: no translation can change a document's structure.

Hostile translations (``data/verify/injections.toml``) are built with the verifier: the
built text renders to the source's HTML structure, and a translation that would change
it is left out and named. The other way round, every pseudo and forced build of the 652
CommonMark examples verifies: the verifier has no false alarms there.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from tolmach.checks import EntryContext
from tolmach.checks.structure import line_breaks
from tolmach.markdown.build import LINE_SEPARATORS, assemble
from tolmach.markdown.compare import same_structure
from tolmach.markdown.document import SegmentOptions, parse_document
from tolmach.markdown.pseudo import pseudo_translate
from tolmach.markdown.verify import MAX_TRIALS, Verifier, verified_build

DATA = Path(__file__).parent / "data"
CASES = tomllib.loads((DATA / "verify" / "injections.toml").read_text("utf-8"))["case"]
REJECTED = [c for c in CASES if c["rejected"]]
EXAMPLES = json.loads((DATA / "commonmark-spec.json").read_text("utf-8"))


def options_of(case: dict) -> SegmentOptions:
    return SegmentOptions(html_text=case.get("options", {}).get("html-text", False))


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_a_hostile_translation_never_changes_the_built_structure(case):
    options = options_of(case)
    document = parse_document(case["document"], options)
    assert case["msgid"] in {s.text for s in document.segments}
    result = verified_build(document, {case["msgid"]: case["msgstr"]}, options=options)
    assert same_structure(case["document"], result.text)
    assert not set(result.text) & (set(LINE_SEPARATORS) - set(case["document"]))
    if case["rejected"]:
        [rejection] = result.rejected
        assert rejection.segment.text == case["msgid"]
        assert rejection.translation == case["msgstr"]
        assert case["construct"] in rejection.reason
        assert result.text == case["document"]
    else:
        assert result.rejected == ()
        assert result.text != case["document"]  # the translation is in


@pytest.mark.parametrize("case", REJECTED, ids=[c["id"] for c in REJECTED])
def test_without_verification_the_rejected_ones_would_change_the_structure(case):
    """The cases are real: built blindly, each rejected translation breaks the page."""
    document = parse_document(case["document"], options_of(case))
    blind = assemble(document, {case["msgid"]: case["msgstr"]}).text
    verifier = Verifier(document, options=options_of(case))
    assert verifier.differences(assemble(document, {case["msgid"]: case["msgstr"]}))[0]
    if "inline markup" not in case["construct"] and "HTML block" not in case["construct"]:
        assert not same_structure(case["document"], blind)


def test_every_spec_example_verifies_under_pseudo_and_forced_translation():
    failures = []
    for example in EXAMPLES:
        document = parse_document(example["markdown"])
        for mode, translate, force in (("pseudo", pseudo_translate, False), ("forced", str, True)):
            result = verified_build(document, translate, force=force)
            if result.rejected or result.builds != 1:
                failures.append((example["example"], mode))
    assert failures == []


def test_only_the_offending_cell_falls_back_and_the_others_stay_translated():
    cells = " | ".join(f"ячейка{i}" for i in range(40))
    text = f"| {cells} |\n|{'---|' * 40}\n| {cells} |\n"
    document = parse_document(text)
    translations = {s.text: s.text.replace("ячейка", "cell") for s in document.segments}
    translations["ячейка17"] = "cell | 17"
    result = verified_build(document, translations)
    assert [r.segment.text for r in result.rejected] == ["ячейка17"]
    assert result.text.count("cell") == 79
    assert same_structure(text, result.text)
    assert result.builds <= 2 + 2 * 7  # rounds, then bisection over the suspects


def test_a_reference_injected_far_away_blames_the_injection_not_the_link():
    text = "Абзац один.\n\n" + "".join(f"Текст {i}.\n\n" for i in range(30)) + "См. [r].\n"
    document = parse_document(text)
    translations = {s.text: s.text.replace("Текст", "Text") for s in document.segments}
    translations["Абзац один."] = "Paragraph one.\n\n[r]: https://evil.example"
    translations["См. [r]."] = "See [r]."
    result = verified_build(document, translations)
    assert [r.segment.text for r in result.rejected] == ["Абзац один."]
    assert "See [r]." in result.text and "Text 29." in result.text


def test_many_hostile_entries_are_each_named():
    text = "".join(f"- Пункт {i}\n" for i in range(50))
    document = parse_document(text)
    translations = {s.text: f"Item {i}" for i, s in enumerate(document.segments)}
    for i in range(0, 50, 5):
        translations[f"Пункт {i}"] = f"Item {i}\n# Heading {i}"
    result = verified_build(document, translations)
    assert [r.segment.text for r in result.rejected] == [f"Пункт {i}" for i in range(0, 50, 5)]
    assert result.text.count("Item") == 40
    assert same_structure(text, result.text)


def test_past_the_trial_budget_suspects_stay_on_their_source_text(monkeypatch):
    monkeypatch.setattr("tolmach.markdown.verify.MAX_TRIALS", 0)
    text = "| а | б |\n|---|---|\n| в | г |\n"
    document = parse_document(text)
    result = verified_build(document, {"а": "a | x", "б": "b", "в": "c", "г": "d"})
    assert same_structure(text, result.text)
    assert {r.segment.text for r in result.rejected} >= {"а"}
    assert MAX_TRIALS > 0


@pytest.mark.parametrize("separator", list(LINE_SEPARATORS))
@pytest.mark.parametrize(
    "text, msgid",
    [
        ("# Заголовок\n", "Заголовок"),
        ("Абзац.\n", "Абзац."),
        ("> Цитата.\n", "Цитата."),
        ("| а |\n|---|\n| в |\n", "в"),
        ("[r]: /u 'Титул'\n\n[r]\n", "Титул"),
        ("---\ntitle: Заголовок\n---\n", "Заголовок"),
    ],
)
def test_a_line_separator_in_a_msgstr_never_reaches_the_output(separator, text, msgid):
    result = verified_build(parse_document(text), {msgid: f"one{separator}# two"})
    assert separator not in result.text
    assert same_structure(text, result.text)
    if result.rejected:  # a carriage return is a line feed: in a paragraph, "# two" is a heading
        assert separator == "\r" and [r.segment.text for r in result.rejected] == [msgid]
        return
    [(segment, names)] = result.normalized
    assert segment.text == msgid and names


@pytest.mark.parametrize("separator", [*LINE_SEPARATORS, "\r\n"])
def test_the_line_breaks_check_names_each_separator(separator):
    ctx = EntryContext("Абзац.", f"Para{separator}graph.", "en")
    assert len(list(line_breaks(ctx))) == 1
    kept = EntryContext(f"Аб{separator}зац.", f"Para{separator}graph.", "en")
    assert list(line_breaks(kept)) == []


def test_an_image_may_point_to_a_variant_the_caller_accepts():
    text = "![График](images/chart.png)\n"
    translations = {"![График](images/chart.png)": "![Графік](images/chart.uk.png)"}
    document = parse_document(text)
    assert verified_build(document, translations).rejected  # a changed image source
    accepted = Verifier(document).build(
        translations, same_image=lambda old, new: (old, new) == ("images/chart.png", "images/chart.uk.png")
    )
    assert accepted.rejected == () and "chart.uk.png" in accepted.text
    other = {"![График](images/chart.png)": "![Графік](images/evil.png)"}
    assert Verifier(document).build(other, same_image=lambda old, new: False).rejected
