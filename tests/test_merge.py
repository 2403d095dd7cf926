"""merge: msgmerge semantics, checked against golden catalogs and as properties."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import polib
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz

from tolmach.catalog.merge import merge_catalog
from tolmach.catalog.pofile import format_po, read_po
from tolmach.catalog.similarity import FuzzyIndex

CASES = sorted(
    path for path in (Path(__file__).parent / "data" / "merge").iterdir() if path.is_dir()
)


def merged_text(case: Path) -> str:
    old = read_po(case / "old.po") if (case / "old.po").exists() else None
    return format_po(merge_catalog(old, read_po(case / "new.pot")))


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_merge_gives_the_expected_catalog(case: Path) -> None:
    """old.po + new.pot → expected.po, byte for byte (formatted as msgcat would)."""
    assert merged_text(case) == (case / "expected.po").read_text(encoding="utf-8")


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_merging_again_changes_nothing(case: Path, tmp_path: Path) -> None:
    once = tmp_path / "once.po"
    once.write_text(merged_text(case), encoding="utf-8")
    again = merge_catalog(read_po(once), read_po(case / "new.pot"))
    assert format_po(again) == once.read_text(encoding="utf-8")


def catalog(*pairs: tuple[str, str], obsolete: tuple[tuple[str, str], ...] = ()) -> polib.POFile:
    po = polib.POFile()
    po.metadata = {"Language": "de", "Content-Type": "text/plain; charset=UTF-8"}
    for msgid, msgstr in pairs:
        po.append(polib.POEntry(msgid=msgid, msgstr=msgstr))
    for msgid, msgstr in obsolete:
        po.append(polib.POEntry(msgid=msgid, msgstr=msgstr, obsolete=True))
    return po


def template(*msgids: str) -> polib.POFile:
    pot = polib.POFile()
    pot.metadata = {"Project-Id-Version": "rocm7", "Content-Type": "text/plain; charset=UTF-8"}
    for msgid in msgids:
        pot.append(polib.POEntry(msgid=msgid))
    return pot


def test_new_catalog_takes_the_template_header() -> None:
    merged = merge_catalog(None, template("Привет"))
    assert merged.metadata["Project-Id-Version"] == "rocm7"
    assert [(entry.msgid, entry.msgstr) for entry in merged] == [("Привет", "")]


def test_old_header_is_kept() -> None:
    merged = merge_catalog(catalog(("Привет", "Hallo")), template("Привет"))
    assert merged.metadata["Language"] == "de"


def test_below_the_threshold_nothing_is_proposed() -> None:
    old = catalog(("Установка драйвера на Linux", "Treiberinstallation unter Linux"))
    merged = merge_catalog(old, template("Совсем другая строка текста"), threshold=0.6)
    assert merged[0].msgstr == "" and not merged[0].fuzzy


def test_threshold_decides_which_proposals_count() -> None:
    old = catalog(("Сборка занимает час.", "Der Build dauert eine Stunde."))
    new = template("Сборка занимает целый час.")
    score = fuzz.ratio("Сборка занимает час.", "Сборка занимает целый час.") / 100
    assert merge_catalog(old, new, threshold=score)[0].fuzzy
    assert not merge_catalog(old, new, threshold=score + 0.01)[0].fuzzy


def test_fuzzy_entry_names_its_score_and_origin() -> None:
    old = catalog(("Сборка занимает час.", "Der Build dauert eine Stunde."))
    entry = merge_catalog(old, template("Сборка занимает целый час."))[0]
    assert entry.flags == ["fuzzy"]
    assert entry.previous_msgid == "Сборка занимает час."
    assert entry.comment == "fuzzy match: 86% (previous translation)"


@dataclass(frozen=True)
class FakeMatch:
    score: float
    source: str
    target: str
    context: str | None
    origin: str


class FakeMemory:
    """A memory that knows one translation, from another document."""

    def __init__(self, source: str, target: str) -> None:
        self.source, self.target = source, target
        self.asked: list[tuple[str, str, str | None]] = []

    def best(
        self, text: str, locale: str, *, threshold: float, exclude_document: str | None
    ) -> FakeMatch | None:
        self.asked.append((text, locale, exclude_document))
        score = fuzz.ratio(text, self.source) / 100
        if score < threshold:
            return None
        return FakeMatch(score, self.source, self.target, None, "install.po, de")


def test_memory_fills_new_entries_as_fuzzy_with_origin() -> None:
    memory = FakeMemory("Установите драйвер.", "Installieren Sie den Treiber.")
    merged = merge_catalog(
        None, template("Установите драйвер."), memory=memory, locale="de", document="rocm7"
    )
    entry = merged[0]
    assert entry.msgstr == "Installieren Sie den Treiber." and entry.fuzzy
    assert entry.comment == "memory: 100% from install.po, de"
    assert memory.asked == [("Установите драйвер.", "de", "rocm7")]


def test_previous_translation_comes_before_memory() -> None:
    memory = FakeMemory("Установите драйвер.", "Aus dem Speicher.")
    old = catalog(("Установите драйвер", "Aus dem Katalog."))
    merged = merge_catalog(old, template("Установите драйвер."), memory=memory, locale="de")
    assert merged[0].msgstr == "Aus dem Katalog."
    assert memory.asked == []


def test_exact_match_does_not_ask_memory() -> None:
    memory = FakeMemory("Привет", "Servus")
    merged = merge_catalog(
        catalog(("Привет", "Hallo")), template("Привет"), memory=memory, locale="de"
    )
    assert merged[0].msgstr == "Hallo" and not merged[0].fuzzy and memory.asked == []


def test_without_fuzzy_matching_a_changed_string_waits_untranslated() -> None:
    """As ``msgmerge -N``: the close old entry is not proposed; its translation is kept
    as an obsolete entry for the translator (and for the next fuzzy update)."""
    old = catalog(("Сборка занимает час.", "Der Build dauert eine Stunde."), ("Привет", "Hallo"))
    merged = merge_catalog(old, template("Сборка занимает целый час.", "Привет"), fuzzy=False)
    changed, kept = merged.find("Сборка занимает целый час."), merged.find("Привет")
    assert changed.msgstr == "" and not changed.fuzzy and changed.previous_msgid is None
    assert kept.msgstr == "Hallo" and not kept.fuzzy
    assert [(e.msgid, e.msgstr) for e in merged.obsolete_entries()] == [
        ("Сборка занимает час.", "Der Build dauert eine Stunde.")]
    assert merge_catalog(old, template("Сборка занимает целый час."))[0].fuzzy  # with: proposed


def test_without_fuzzy_matching_the_memory_is_asked_for_the_same_text_only() -> None:
    memory = FakeMemory("Установите драйвер.", "Installieren Sie den Treiber.")
    near = merge_catalog(None, template("Установите драйвер!"), memory=memory, locale="de",
                         fuzzy=False)
    same = merge_catalog(None, template("Установите драйвер."), memory=memory, locale="de",
                         fuzzy=False)
    assert near[0].msgstr == "" and len(memory.asked) == 2
    assert same[0].msgstr == "Installieren Sie den Treiber." and same[0].fuzzy
    assert same[0].comment == "memory: 100% from install.po, de"


def test_fuzzy_candidate_ties_go_to_the_earlier_entry() -> None:
    old = catalog(("Пункт А", "Punkt A"), ("Пункт Б", "Punkt B"))
    assert fuzz.ratio("Пункт В", "Пункт А") == fuzz.ratio("Пункт В", "Пункт Б")
    assert merge_catalog(old, template("Пункт В"))[0].msgstr == "Punkt A"


# ------------------------------------------------------------ the index


def brute_force_best(texts: list[str], query: str, threshold: float) -> float:
    return max((fuzz.ratio(query, text) / 100 for text in texts), default=0.0)


def test_index_finds_a_slightly_edited_sentence_among_many() -> None:
    rng = random.Random(3)
    words = [
        "система",
        "перевод",
        "статья",
        "данные",
        "модель",
        "обновление",
        "библиотека",
        "компилятор",
        "процессор",
        "память",
        "вычисление",
        "платформа",
        "драйвер",
        "ядро",
        "поток",
        "задача",
        "очередь",
        "буфер",
    ]
    texts = list(
        dict.fromkeys(
            " ".join(rng.choice(words) for _ in range(rng.randint(4, 14))) for _ in range(3000)
        )
    )
    index = FuzzyIndex(texts)
    for number in range(0, len(texts), 97):
        edited = texts[number].replace(" ", " новый ", 1)
        found = index.search(edited, 0.6)
        assert found, edited
        assert found[0][0] == pytest.approx(brute_force_best(texts, edited, 0.6))


def test_index_over_a_large_catalog_finds_what_comparing_everything_finds() -> None:
    """Above a few thousand strings the index answers; it must find the best match."""
    rng = random.Random(5)
    syllables = [
        "ба",
        "ве",
        "ги",
        "до",
        "ку",
        "ла",
        "ме",
        "ни",
        "по",
        "ру",
        "са",
        "те",
        "фи",
        "хо",
        "цу",
        "ча",
        "ше",
        "бра",
        "гро",
        "кла",
        "про",
    ]
    words = ["".join(rng.choices(syllables, k=3)) for _ in range(4000)]
    texts = list(
        dict.fromkeys(" ".join(rng.choices(words, k=rng.randint(5, 15))) for _ in range(6000))
    )
    index = FuzzyIndex(texts)
    for number in range(0, len(texts), 150):
        edited = texts[number].replace(" ", f" {rng.choice(words)} ", 1)
        found = index.search(edited, 0.6)
        assert found and found[0][0] == pytest.approx(brute_force_best(texts, edited, 0.6))


def test_a_catalog_small_enough_to_compare_in_full_is_not_indexed() -> None:
    """A page's catalog of a few dozen strings is compared with each of them (in C):
    listing their features would cost more than every search of it."""
    small = FuzzyIndex(edited_catalog(400, seed=3))
    assert not small.postings and not small.by_length
    assert FuzzyIndex(edited_catalog(4000, seed=3)).postings


def test_index_finds_short_strings_whose_only_word_changed() -> None:
    index = FuzzyIndex(["Сборка", "Установка драйвера", "Обзор"])
    assert index.search("Сборки", 0.6)[0][1] == 0


def edited_catalog(count: int, seed: int) -> list[str]:
    """``count`` sentences of a few hundred made-up words, many of them alike."""
    rng = random.Random(seed)
    words = ["".join(rng.choices("абвгдежзиклмнопрст", k=rng.randint(3, 8))) for _ in range(300)]
    return list(dict.fromkeys(" ".join(rng.choices(words, k=rng.randint(3, 9)))
                              for _ in range(count)))


@pytest.mark.parametrize("count", [400, 4000], ids=["compared in full", "indexed"])
def test_index_asked_for_near_ties_gives_what_the_full_search_gives_that_close(
    count: int,
) -> None:
    """``within`` keeps the pairs at most that far below the best: the same pairs, in the
    same order, as a search without it, cut there."""
    texts = edited_catalog(count, seed=count)
    index = FuzzyIndex(texts)
    rng = random.Random(1)
    for number in range(0, len(texts), len(texts) // 40):
        words = texts[number].split()
        words[rng.randrange(len(words))] = "новое"
        query = " ".join(words)
        everything = index.search(query, 0.6, limit=8)
        for within in (0.0, 0.05):
            close = index.search(query, 0.6, limit=8, within=within)
            best = everything[0][0] if everything else 0
            assert close == [pair for pair in everything if pair[0] >= best - within - 1e-9]


def test_among_equally_close_proposals_one_without_other_context_wins() -> None:
    """As msgmerge: an old entry with another context loses a tie, wherever it stands."""
    old = polib.POFile()
    for context in ("menu", None):
        old.append(polib.POEntry(msgctxt=context, msgid="Открыть файл", msgstr="Datei öffnen"))
    template = polib.POFile()
    template.append(polib.POEntry(msgid="Открыть файлы"))
    merged = merge_catalog(old, template)
    proposal = next(entry for entry in merged if not entry.obsolete)
    assert proposal.previous_msgctxt is None and "fuzzy" in proposal.flags


# ------------------------------------------------------------ no translation is lost

EDITS = st.lists(
    st.tuples(
        st.sampled_from(["edit", "remove", "add", "restore", "translate", "confirm"]),
        st.integers(min_value=0, max_value=1000),
    ),
    max_size=25,
)


@pytest.mark.parametrize("fuzzy", [True, False], ids=["fuzzy", "exact-only"])
@settings(max_examples=60, deadline=None)
@given(edits=EDITS)
def test_edits_and_updates_lose_no_translation(
    fuzzy: bool, edits: list[tuple[str, int]], tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Whatever the author does to the sources, every confirmed translation stays in the
    catalog — live, obsolete, or as the fuzzy proposal for the text its source became (as
    msgmerge, no obsolete copy is kept of that) — and returns unchanged when its source
    string returns: confirmed when its entry was kept, as a fuzzy proposal for a translator
    to confirm when it lived on only as another entry's proposal. Without fuzzy matching
    nothing is ever proposed: a changed string's translation waits as an obsolete entry."""
    sources = [f"Абзац номер {n} о вычислениях на GPU." for n in range(6)]
    removed: list[str] = []
    po = merge_catalog(None, template(*sources))
    confirmed: dict[str, str] = {}
    folder = tmp_path_factory.mktemp("edits")
    for step, (action, number) in enumerate(edits):
        if action == "edit" and sources:
            index = number % len(sources)
            sources[index] = sources[index].replace("GPU", f"GPU {step}")
        elif action == "remove" and sources:
            removed.append(sources.pop(number % len(sources)))
        elif action == "add":
            sources.insert(number % (len(sources) + 1), f"Новый абзац {step} о драйверах.")
        elif action == "restore" and removed:
            back = removed.pop(number % len(removed))
            if back not in sources:
                sources.append(back)
        elif action in ("translate", "confirm"):
            for entry in po:
                if not entry.obsolete and (not entry.msgstr or action == "confirm"):
                    entry.msgstr = entry.msgstr or f"Übersetzung {step}"
                    entry.flags = [flag for flag in entry.flags if flag != "fuzzy"]
                    confirmed[entry.msgid] = entry.msgstr
                    break
        path = folder / "de.po"
        path.write_text(format_po(po), encoding="utf-8")
        own = {(e.msgid, e.msgstr) for e in po if e.msgstr and "fuzzy" not in e.flags}
        po = merge_catalog(read_po(path), template(*sources), fuzzy=fuzzy)
        kept = {(entry.msgid, entry.msgstr) for entry in po}
        assert fuzzy or not any(entry.fuzzy for entry in po)
        proposed = {entry.msgstr for entry in po if entry.fuzzy}
        assert all(pair in kept or pair[1] in proposed for pair in confirmed.items())
        for entry in po:
            if not entry.obsolete and entry.msgid in confirmed:
                assert entry.msgstr == confirmed[entry.msgid]
                assert not entry.fuzzy or (entry.msgid, entry.msgstr) not in own


def test_an_update_with_nothing_changed_changes_nothing_even_with_fuzzy_proposals() -> None:
    """B takes A's translation as a fuzzy proposal; C, still untranslated, must not take
    B's unreviewed copy of it on the next run (found by the scale benchmark)."""
    a = "Кошка спит на тёплом диване весь день."
    b = "Кошка спит на диване весь вечер."
    c = "Пёс лежит на ковре весь вечер."
    first = merge_catalog(catalog((a, "Die Katze schläft den ganzen Tag auf dem Sofa.")), template(a, b, c))
    assert "fuzzy" in first.find(b).flags and first.find(c).msgstr == ""
    second = merge_catalog(first, template(a, b, c))
    assert format_po(second) == format_po(first)


def test_an_unreviewed_proposal_whose_text_changed_again_is_still_offered() -> None:
    """The fuzzy entry is the only copy of the translation once its source moved on."""
    old = catalog(("Кошка спит на диване весь вечер.", "Die Katze schläft abends."))
    old[0].flags.append("fuzzy")
    merged = merge_catalog(old, template("Кошка спит на диване весь вечер!"))
    assert merged[0].msgstr == "Die Katze schläft abends." and "fuzzy" in merged[0].flags
