"""The termbase: loading it, finding its terms in Russian, checking translations.

Most cases are data: ``tests/data/glossary/source_cases.toml`` (what is found in a
source), ``translation_cases.toml`` (which violations a translation has) and
``invalid/*.toml`` (broken glossaries, each naming its expected error on line 1).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from strategies import ROBUST

import tolmach.glossary.match as match_module
from tolmach.cli.glossary import glossary, markdown_texts
from tolmach.glossary import (
    GlossaryError,
    Termbase,
    check_entry,
    check_translation,
    describe_terms,
    load_termbase,
    parse_termbase,
    waived_terms,
)
from tolmach.glossary.candidates import find_candidates
from tolmach.glossary.match import morph_analyzer, normalize_word, word_lemmas

DATA = Path(__file__).parent / "data" / "glossary"
PROJECT = Path(__file__).parent.parent
TERMBASE = load_termbase(DATA / "termbase.toml")


def _cases(name: str) -> list:
    cases = tomllib.loads((DATA / name).read_text(encoding="utf-8"))["case"]
    return [pytest.param(case, id=case["name"]) for case in cases]


# --- finding terms in the source -----------------------------------------------------


@pytest.mark.parametrize("case", _cases("source_cases.toml"))
def test_terms_found_in_source(case):
    found = [[m.term.source, m.text] for m in TERMBASE.find_in_source(case["text"])]
    assert found == case["found"]


def test_a_match_gives_its_offsets_in_the_original_text():
    text = "Потенциал новых ускорителей"
    (match,) = TERMBASE.find_in_source(text)
    assert text[match.start : match.end] == "ускорителей"


def test_the_morphology_analyzer_is_created_once_per_process():
    assert morph_analyzer() is morph_analyzer()


def test_lemmas_are_every_normal_form_the_ranked_analyzer_gives():
    """word_lemmas uses an analyzer without probability ranking: the same set of lemmas."""
    text = "\n".join(p.read_text("utf-8") for p in sorted((PROJECT / "seeds").glob("*.ru.md")))
    words = sorted({normalize_word(w) for w in re.findall(r"[А-Яа-яЁё]+", text)})
    assert len(words) > 500
    for word in words:
        ranked = {normalize_word(p.normal_form) for p in morph_analyzer().parse(word)}
        assert word_lemmas(word) == frozenset(ranked or {word}), word


def test_the_forms_of_a_word_share_one_set_of_lemmas(monkeypatch):
    """A run remembers every word's lemmas: its forms hold one set, not a copy each, and
    the sets kept for sharing are bounded."""
    forms = ("процессоры", "процессора", "процессорами")
    assert len({id(word_lemmas(form)) for form in forms}) == 1
    monkeypatch.setattr(match_module, "_MOST_LEMMA_SETS", 2)
    word_lemmas.cache_clear()
    for form in ("ядро", "ядрами", "видеокарта", "видеокарты", "вывод"):
        word_lemmas(form)
        assert len(match_module._LEMMA_SETS) <= 2
    assert word_lemmas("вывод") == frozenset(
        normalize_word(p.normal_form) for p in morph_analyzer().parse("вывод"))


# --- checking translations -----------------------------------------------------------


@pytest.mark.parametrize("case", _cases("translation_cases.toml"))
def test_translation_checks(case):
    violations = check_translation(TERMBASE, case["source"], case["target"], case["locale"])
    assert [v.message for v in violations] == case["expect"]


def test_a_violation_names_its_term_and_rule():
    (violation,) = check_translation(TERMBASE, "ROCm", "Rocm", "en")
    assert (violation.term, violation.rule) == ("ROCm", "keep")


def test_a_waived_term_is_not_checked():
    assert check_translation(TERMBASE, "ROCm", "Rocm", "en", waived={"rocm"}) == []


# --- waivers -------------------------------------------------------------------------


def test_a_waiver_names_one_term_and_its_reason():
    comment = "Reviewed by Anna\nglossary-waive: ROCm — quotes the 2019 logo, which says Rocm"
    assert waived_terms(comment) == {"ROCm": "quotes the 2019 logo, which says Rocm"}


@pytest.mark.parametrize("separator", [" — ", " – ", " -- ", " - "])
def test_a_waiver_reason_follows_a_dash(separator):
    assert waived_terms(f"glossary-waive: El Capitan{separator}a quote") == {
        "El Capitan": "a quote"
    }


def test_a_hyphen_inside_a_term_is_not_a_separator():
    assert waived_terms("glossary-waive: HIP-RTC — old name") == {"HIP-RTC": "old name"}


def test_a_waiver_without_reason_waives_nothing():
    assert waived_terms("glossary-waive: ROCm") == {}
    assert waived_terms("glossary-waive: ROCm —") == {}


def test_check_entry_honours_a_waiver_with_a_reason_and_reports_what_it_waived():
    comment = "glossary-waive: ROCm — the sentence quotes an old slide"
    (violation,) = check_entry(TERMBASE, "Вышел ROCm", "Rocm is out", "en", comment)
    assert violation.waived and violation.rule == "keep"


def test_a_waiver_with_nothing_to_waive_is_reported_as_waived():
    comment = "glossary-waive: ROCm — the sentence quotes an old slide"
    (violation,) = check_entry(TERMBASE, "Вышел ROCm", "ROCm is out", "en", comment)
    assert (violation.rule, violation.waived) == ("waiver", True)
    assert "nothing to waive" in violation.message


def test_check_entry_reports_a_waiver_without_reason_and_still_checks_the_term():
    violations = check_entry(TERMBASE, "Вышел ROCm", "Rocm is out", "en", "glossary-waive: ROCm")
    assert [v.message for v in violations] == [
        'waiver for "ROCm" gives no reason',
        '"ROCm" must stay as written (found "Rocm")',
    ]


def test_check_entry_reports_a_waiver_for_a_term_the_entry_does_not_have():
    violations = check_entry(TERMBASE, "Вышел ROCm", "ROCm is out", "en", "glossary-waive: HIP — x")
    assert [v.rule for v in violations] == ["waiver"]
    assert "names no glossary term of this entry" in violations[0].message


# --- telling translators -------------------------------------------------------------


def test_describe_terms_for_the_template_shows_english_targets():
    line = describe_terms(TERMBASE, "Потенциал новых ускорителей ROCm")
    assert line == "glossary: ускоритель → accelerator; ROCm (keep)"


def test_describe_terms_for_a_locale_shows_that_locale():
    line = describe_terms(TERMBASE, "ускорителей ROCm и ядра", "de")
    assert line == "glossary: ускоритель → Beschleuniger; ROCm (keep); ядро → Kernel"


def test_describe_terms_lists_each_term_once_with_all_its_variants():
    line = describe_terms(TERMBASE, "ядра, ядрам, NVIDIA", "zh_CN")
    assert line == "glossary: ядро → 内核 / 核函数; NVIDIA → 英伟达 / NVIDIA"


def test_describe_terms_without_terms_is_none():
    assert describe_terms(TERMBASE, "Просто текст") is None


# --- bad input -----------------------------------------------------------------------

INVALID = sorted((DATA / "invalid").glob("*.toml"))


@pytest.mark.parametrize("path", INVALID, ids=[p.stem for p in INVALID])
def test_a_broken_glossary_names_file_line_and_problem(path):
    expected = re.match(r"# error: (\d+): (.*)", path.read_text(encoding="utf-8")).groups()
    shown = path.relative_to(PROJECT).as_posix()
    with pytest.raises(GlossaryError) as raised:
        load_termbase(shown)
    assert str(raised.value).startswith(f"{shown}:{expected[0]}: {expected[1]}")


def test_a_duplicate_error_carries_the_term():
    with pytest.raises(GlossaryError) as raised:
        load_termbase(DATA / "invalid" / "duplicate_inflected.toml")
    assert (raised.value.term, raised.value.line) == ("ядра", 9)


def test_a_missing_glossary_is_an_error_naming_it():
    with pytest.raises(GlossaryError, match=r"nowhere\.toml: cannot read"):
        load_termbase("nowhere.toml")


def test_kind_decides_the_default_case_sensitivity():
    termbase = parse_termbase(
        '[[term]]\nsource = "GPU"\nkind = "keep"\n'
        '[[term]]\nsource = "узел"\nkind = "translate"\ntranslations = { en = "node" }\n'
    )
    assert [t.case_sensitive for t in termbase.terms] == [True, False]


def test_term_lines_point_at_their_source_key():
    assert TERMBASE.get("ROCm").line == 7


# --- candidates ----------------------------------------------------------------------


def test_candidates_are_latin_words_names_with_digits_and_frequent_noun_phrases():
    texts = [
        "Ускоритель MI355X и ROCm. Рабочие нагрузки растут, рабочих нагрузок много.",
        "Новый UALink быстрее; `SomeCode` и https://example.org/Link не считаются; 3.8x и 70B тоже.",
        "Рабочая нагрузка.",
    ]
    found = {(c.text, c.count, c.reason) for c in find_candidates(TERMBASE, texts)}
    assert found == {
        ("MI355X", 1, "letters and digits"),
        ("UALink", 1, "CamelCase"),
        ("рабочая нагрузка", 3, "noun phrase"),
    }


def test_ignored_phrases_are_not_candidates():
    texts = ["Windows как first-class citizen; ограниченная поддержка, ограниченной поддержки"]
    assert [c.text for c in find_candidates(TERMBASE, texts)] == ["Windows"]


def test_candidates_rank_by_frequency():
    found = find_candidates(Termbase(), ["AMD и NVIDIA; AMD и AMD; NVIDIA"])
    assert [(c.text, c.count) for c in found] == [("AMD", 3), ("NVIDIA", 2)]


def test_the_seed_termbase_covers_the_seed_articles():
    """Every name and frequent phrase of the seeds is in locales/glossary.toml."""
    termbase = load_termbase(PROJECT / "locales" / "glossary.toml")
    seeds = sorted((PROJECT / "seeds").glob("*.md"))
    texts = [t for path in seeds for t in markdown_texts(path.read_text(encoding="utf-8"))]
    assert seeds and find_candidates(termbase, texts) == []


def test_the_seed_termbase_has_targets_for_every_project_locale():
    termbase = load_termbase(PROJECT / "locales" / "glossary.toml")
    for term in termbase.terms:
        if term.kind == "translate":
            assert all(term.targets_for(loc) for loc in ("en", "de", "zh_CN")), term.source


# --- command line --------------------------------------------------------------------


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "locales").mkdir()
    (tmp_path / "seeds").mkdir()
    (tmp_path / "locales" / "glossary.toml").write_text(
        (DATA / "termbase.toml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    (tmp_path / "seeds" / "a.ru.md").write_text(
        "# ROCm и UALink\n\nНовые ускорители MI355X.\n\n```\nCodeOnly\n```\n", encoding="utf-8"
    )
    return tmp_path


def run(project: Path, *args: str):
    return CliRunner().invoke(glossary, list(args), obj=SimpleNamespace(root=project))


def test_cli_list_shows_terms_with_kind_and_targets(project):
    result = run(project, "list")
    assert result.exit_code == 0
    assert (
        "ускоритель (translate) → de: Beschleuniger; en: accelerator; zh_CN: 加速器"
        in result.output
    )
    assert "ROCm (keep) — AMD's GPU software platform." in result.output


def test_cli_candidates_reads_the_seeds_and_skips_code(project):
    result = run(project, "candidates")
    assert result.exit_code == 0
    lines = result.output.split("\n")
    assert lines[0].startswith("  1. MI355X  (letters and digits; 1× in 1 document(s), score")
    assert lines[1] == "      in a:3 «MI355X»"
    assert lines[2].startswith("  2. UALink  (CamelCase; 1×")
    assert "CodeOnly" not in result.output


def test_cli_reports_a_broken_glossary_with_its_line(project):
    (project / "locales" / "glossary.toml").write_text('[[term]]\nsource = "ROCm"\nkind = "x"\n')
    result = run(project, "list")
    assert result.exit_code != 0
    assert re.search(r"glossary\.toml:3: term \"ROCm\": unknown kind 'x'", result.output)


# --- the index skips words that key no pattern ------------------------------------------

_INDEX_TEXTS = [
    "Ускорителям нужны ядра: ядро GPU и ROCm-стек, стойки и стойке.",
    "Люди шли к стойкам; ускоритель ROCM, rocm и Rocm; `ядро` в коде.",
    "ГПУ-ускорители, вычислительные ядра и HIP-программ ядрах.",
    "",
]


@pytest.mark.parametrize("text", _INDEX_TEXTS)
def test_the_index_finds_what_a_look_at_every_word_finds(text: str) -> None:
    from tolmach.glossary.match import SourceIndex, lemma_pattern, mask_code_and_urls, tokenize

    phrases = ["ускоритель", "вычислительное ядро", "ядро", "ROCm", "стойка", "HIP"]
    index = SourceIndex((lemma_pattern(p, p == "ROCm"), p) for p in phrases)
    masked = mask_code_and_urls(text)
    tokens = tokenize(masked)

    def lemmas(i: int):
        return word_lemmas(tokens[i].text) if tokens[i].cyrillic else None

    expected, i = [], 0
    while i < len(tokens):  # every word tried, as before the index skipped any
        hit = index._longest_at(masked, tokens, i, lemmas, None)
        if hit is None:
            i += 1
            continue
        expected.append(hit[0])
        i = hit[1]
    assert index.find(text) == expected
    assert bool(expected) == bool(text)
    assert [index.may_start(t) for t in tokens].count(True) >= len(expected)


_WORDS = st.lists(
    st.sampled_from(
        ["ускорителям", "ядра", "Ядро", "вычислительные", "стойке", "люди", "ёлка", "ROCm",
         "rocm", "HIP", "GPU", "中文", "ß", "x1", "42", " ", "-", ", ", "`ядро`", "(", ")",
         "https://x.ru/ядро", "_", "ä"]
    ),
    max_size=10,
).map("".join)


@given(_WORDS)
@ROBUST
def test_a_text_may_match_when_a_word_of_it_may_start_a_term(text: str) -> None:
    """The set of a text's words answers as asking each of its tokens did, and a text
    that may not match has no hit."""
    from tolmach.glossary.match import SourceIndex, lemma_pattern, mask_code_and_urls, tokenize

    phrases = ["ускоритель", "вычислительное ядро", "ядро", "ROCm", "стойка", "HIP"]
    index = SourceIndex((lemma_pattern(p, p == "ROCm"), p) for p in phrases)
    masked = mask_code_and_urls(text)
    expected = any(index.may_start(token) for token in tokenize(masked))
    assert index.may_match(masked) == expected
    assert index.may_match(masked) == expected  # asked again: from what it remembers
    if not expected:
        assert index.find(text) == []
