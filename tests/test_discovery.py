"""Term discovery: the candidates a reviewer would mark, ranked, with where they occur."""

from __future__ import annotations

import gzip
from importlib import resources
from pathlib import Path

import pytest

from tolmach.config import load_config
from tolmach.glossary import Term, Termbase, load_termbase, parse_termbase
from tolmach.glossary.discovery import (
    SourceSegment,
    TranslatedEntry,
    baseline_frequency,
    discover_terms,
)
from tolmach.glossary.match import lemma_pattern, tokenize
from tolmach.project import Project

REPO = Path(__file__).parent.parent
# What a reviewer reading the ROCm 7 article marked as missing from the termbase.
REVIEWER_TERMS = (
    "задержка",
    "пакет",
    "коллективные операции",
    "профилировщик",
    "энергоэффективность",
    "плотность вычислений",
    "кластер",
    "Docker-образ",
    "KV-кэш",
)


def _same_term(candidate: str, term: str) -> bool:
    """Same words by lemma («коллективная операция» is «коллективные операции»)."""
    pattern = lemma_pattern(term, False)
    return pattern.match_at(candidate, tokenize(candidate), 0, _lemmas(candidate)) == len(candidate)


def _lemmas(text: str):
    from tolmach.glossary.match import word_lemmas

    tokens = tokenize(text)
    return lambda i: word_lemmas(tokens[i].text) if tokens[i].cyrillic else None


def _seed_without_the_reviewer_terms() -> tuple[Project, Termbase]:
    project = Project(load_config(REPO))
    termbase = project.termbase_for("rocm7")
    kept = tuple(
        t for t in termbase.terms if not any(_same_term(t.source, r) for r in REVIEWER_TERMS)
    )
    return project, Termbase(kept, termbase.ignored)


def test_candidates_find_what_the_reviewer_found_in_the_seed():
    """Recall on the seed: at least 7 of the reviewer's 9 terms among the first 30."""
    project, termbase = _seed_without_the_reviewer_terms()
    (doc,) = [d for d in project.documents if d.name == "rocm7"]
    segments = [
        SourceSegment("rocm7", s.line, s.text, s.kind.startswith("heading"))
        for s in project.load(doc).segments
    ]
    top = discover_terms(termbase, segments, limit=30)
    found = [r for r in REVIEWER_TERMS if any(_same_term(c.text, r) for c in top)]
    ranks = {
        r: next((i for i, c in enumerate(top, 1) if _same_term(c.text, r)), None)
        for r in REVIEWER_TERMS
    }
    print(f"\nrecall@30 on rocm7: {len(found)} of {len(REVIEWER_TERMS)}; ranks {ranks}")
    assert len(found) >= 7, ranks


def test_the_seed_termbase_now_has_the_reviewer_terms():
    termbase = load_termbase(REPO / "locales" / "glossary.toml")
    for term in REVIEWER_TERMS:
        assert any(_same_term(t.source, term) for t in termbase.terms), term


# --- what is proposed ----------------------------------------------------------------------

EMPTY = Termbase()


def _texts(*texts: str) -> list[SourceSegment]:
    return [SourceSegment("doc", number, text) for number, text in enumerate(texts, start=1)]


def _found(termbase: Termbase, *texts: str) -> dict[str, str]:
    return {c.text: c.kind for c in discover_terms(termbase, _texts(*texts))}


@pytest.mark.parametrize(
    ("text", "candidate", "kind"),
    [
        ("Коллективные операции выполняются быстро.", "коллективная операция", "adjective + noun"),
        ("Рабочие нагрузки растут.", "рабочая нагрузка", "adjective + noun"),
        ("Они достигают высокой плотности вычислений.", "плотность вычислений", "noun + genitive"),
        ("Загрузите Docker-образы.", "Docker-образ", "Latin–Cyrillic compound"),
        ("Памяти KV-кэша мало.", "KV-кэш", "Latin–Cyrillic compound"),
        ("Снижение задержек заметно.", "задержка", "noun"),
        ("Новый UALink быстрее.", "UALink", "CamelCase"),
        ("Ускоритель MI355X вышел.", "MI355X", "letters and digits"),
    ],
)
def test_each_kind_of_candidate_is_proposed(text, candidate, kind):
    assert _found(EMPTY, text).get(candidate) == kind


def test_what_the_termbase_covers_is_not_proposed():
    termbase = parse_termbase(
        '[[term]]\nsource = "кластер"\nkind = "translate"\ntranslations = { en = "cluster" }\n'
        '[[term]]\nsource = "Docker"\nkind = "keep"\n'
        '[ignore]\nphrases = ["высокая плотность"]\n'
    )
    found = _found(termbase, "Кластеры и высокая плотность; Docker и Docker-образы.")
    assert "кластер" not in found and "Docker" not in found and "высокая плотность" not in found
    assert "Docker-образ" in found  # the compound is not the keep-term Docker


def test_code_numbers_and_pronouns_are_not_proposed():
    found = _found(
        EMPTY, "Используйте `ClusterConfig` и https://example.org/Path: 70B, 3.8x, это он."
    )
    assert found == {}


def test_a_candidate_lists_its_occurrences_with_document_line_and_form():
    segments = [
        SourceSegment("a", 3, "Задержки растут."),
        SourceSegment("b", 7, "Низкие задержки."),
    ]
    (delay,) = [c for c in discover_terms(EMPTY, segments) if c.text == "задержка"]
    assert [(o.document, o.line, o.form) for o in delay.occurrences] == [
        ("a", 3, "Задержки"),
        ("b", 7, "задержки"),
    ]
    assert (delay.count, delay.documents) == (2, 2)


def test_rare_words_outrank_common_ones_and_frequency_counts():
    ranked = [c.text for c in discover_terms(EMPTY, _texts("Профилировщик и работа.", "Работа."))]
    assert ranked.index("профилировщик") < ranked.index("работа")
    ranked = [c.text for c in discover_terms(EMPTY, _texts("Кластер и ноутбук.", "Кластеры."))]
    assert ranked.index("кластер") < ranked.index("ноутбук")


def test_known_terms_nearby_raise_a_candidate():
    segments = _texts("Пакеты для GPU и HIP.")
    with_terms = Termbase((Term("GPU", "keep"), Term("HIP", "keep")))

    def score(termbase: Termbase) -> float:
        return next(c.score for c in discover_terms(termbase, segments) if c.text == "пакет")

    assert score(with_terms) > score(EMPTY)


# --- aligned target words ----------------------------------------------------------------


def test_target_words_seen_with_a_candidate_come_from_the_catalogs():
    segments = _texts("Снижение задержек.", "Задержки в сертификации.", "Новая архитектура.")
    translations = [
        TranslatedEntry("en", "Снижение задержек.", "Lower latency."),
        TranslatedEntry("en", "Задержки в сертификации.", "Latency in certification."),
        TranslatedEntry("en", "Новая архитектура.", "A new architecture."),
        TranslatedEntry("zh_CN", "Снижение задержек.", "降低延迟。"),
        TranslatedEntry("zh_CN", "Задержки в сертификации.", "认证延迟。"),
    ]
    (delay,) = [c for c in discover_terms(EMPTY, segments, translations) if c.text == "задержка"]
    aligned = dict(delay.aligned)
    assert aligned["en"][0] == "latency"
    assert aligned["zh_CN"][0] == "延迟"


# --- the baseline --------------------------------------------------------------------------


def test_the_baseline_ships_with_the_package_and_knows_common_from_rare():
    data = resources.files("tolmach.glossary").joinpath("data/ru-baseline.tsv.gz").read_bytes()
    header = gzip.decompress(data).decode("utf-8").splitlines()[0]
    assert header.startswith("# total\t") and int(header.split("\t")[1]) > 10**9
    assert (
        baseline_frequency("работа")
        > baseline_frequency("кластер")
        > baseline_frequency("профилировщик")
    )
    assert baseline_frequency("Работа") == baseline_frequency("работа")
