"""The memory's journal: an update merges again only the catalogs whose memory answers a
change could alter, and the answers do not depend on the order the memory learned in.

The property test drives the store directly, with the look-up's limits made tiny so that
cut-short candidate lists (the subtle part) happen all the time: whenever the journal
says an answer stands, asking again gives the same answer, and a memory filled afresh
with the same content answers as the one that learned change by change.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import polib
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pipeline_project import fixed_clock, run_command, settings_text

import tolmach.memory.store as store
from tolmach.catalog.similarity import EXACT
from tolmach.memory.store import TranslationMemory
from tolmach.memory.tmx import TranslationUnit
from tolmach.project import Project

# --- the store: sound and order-free ---------------------------------------------------

WORDS = ("модель", "модели", "память", "ядро", "поток", "данные", "сеть", "вывод", "узел",
         "драйвер", "тест", "формат", "кластер", "задача", "скорость", "обучение", "платформа",
         "библиотека", "сборка", "запуск", "система", "ускоритель", "архитектура", "очередь")
PHRASES = st.lists(st.sampled_from(WORDS), min_size=1, max_size=6).map(" ".join)
UNITS = st.lists(st.tuples(PHRASES, st.sampled_from(["A", "B", "C"])), max_size=12)
ORIGINS = ("a.tmx", "b.tmx", "c.tmx")
THRESHOLD = 0.6
#: a query is a stored source with a word changed, added or dropped (close matches exist)
TWEAKS = st.tuples(st.integers(0, 40), st.sampled_from(["swap", "add", "drop"]),
                   st.sampled_from(WORDS))


#: an origin's units edited: some dropped, some translated anew, some added
EDIT = st.tuples(st.lists(st.integers(0, 11), max_size=3), st.lists(st.integers(0, 11), max_size=3),
                 st.lists(st.tuples(TWEAKS, st.sampled_from(["A", "D"])), max_size=4))


def edited(pairs: list, edit: tuple, start: list) -> list:
    dropped, retranslated, added = edit
    kept = [(source, "E" if n in retranslated else target)
            for n, (source, target) in enumerate(pairs) if n not in dropped]
    return kept + [(tweaked(start, tweak), target) for tweak, target in added]


def tweaked(start: list, tweak: tuple) -> str:
    sources = [source for pairs in start for source, _ in pairs] or ["модель"]
    number, how, word = tweak
    words = sources[number % len(sources)].split()
    if how == "swap":
        words[number % len(words)] = word
    elif how == "add":
        words.insert(number % (len(words) + 1), word)
    elif len(words) > 1:
        del words[number % len(words)]
    return " ".join(words)


def as_units(pairs: list[tuple[str, str]]) -> list[TranslationUnit]:
    return [TranslationUnit(source, f"{target}:{source}", "de", None, "x") for source, target in pairs]


def answers(memory: TranslationMemory, queries: list[str], evidence: dict | None = None,
            threshold: float = THRESHOLD) -> list:
    found = []
    for query in queries:
        noted: list = []
        found.append(memory.best(query, "de", threshold=threshold, evidence=noted))
        if evidence is not None:
            evidence[query] = noted[0]
    return found


@pytest.fixture
def tiny_limits(monkeypatch):
    """Candidate lists cut at a few entries, so that the cuts matter."""
    monkeypatch.setattr(store, "_SCAN", 4)
    monkeypatch.setattr(store, "_SHORTLIST", 3)
    monkeypatch.setattr(store, "_BUDGET", 8)


@pytest.mark.parametrize("threshold", [THRESHOLD, EXACT], ids=["fuzzy", "exact-only"])
@settings(max_examples=100, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    start=st.lists(UNITS, min_size=3, max_size=3),
    edits=st.lists(st.tuples(st.sampled_from(ORIGINS), EDIT), min_size=1, max_size=4),
    tweaks=st.lists(TWEAKS, min_size=1, max_size=12),
)
def test_an_answer_the_journal_keeps_is_the_answer_now(threshold, start, edits, tweaks,
                                                       tmp_path_factory, tiny_limits):
    """At ``EXACT`` (``update --no-fuzzy``) a look-up reads only the text's own
    segments, and only a change of those may alter its answer."""
    folder = tmp_path_factory.mktemp("memory")
    queries = list(dict.fromkeys(tweaked(start, tweak) for tweak in tweaks))
    held = dict(zip(ORIGINS, start, strict=True))
    with TranslationMemory(folder / "warm.sqlite3", "ru") as warm:
        for name, pairs in held.items():
            warm.import_units(name, as_units(pairs))
        _, counter = warm.position("de")
        evidence: dict = {}
        before = answers(warm, queries, evidence, threshold)
        # the segments each look-up scored (the answer's whole input), to compare below
        scored = {query: set(warm._candidates(query, "de", threshold)) for query in queries}
        for name, edit in edits:
            held[name] = edited(held[name], edit, start)
            warm.import_units(name, as_units(held[name]))
        now = answers(warm, queries, threshold=threshold)
        changes = warm.changes_since("de", counter)
        assert changes is not None
        changed = {number for _, number, _ in changes.entries}
        for query, then, answer in zip(queries, before, now, strict=True):
            if not changes.may_alter(evidence[query], threshold):
                assert answer == then, query
                # no more than the changed segments (none of them close enough) came or went
                assert set(warm._candidates(query, "de", threshold)) - changed == scored[query] - changed
        with TranslationMemory(folder / "cold.sqlite3", "ru") as cold:
            for name in reversed(ORIGINS):  # another order than the warm one learned in
                cold.import_units(name, as_units(held[name]))
            assert answers(cold, queries, threshold=threshold) == now
            assert [cold.search(q, "de", threshold=threshold) for q in queries] == [
                warm.search(q, "de", threshold=threshold) for q in queries]
    shutil.rmtree(folder)


def test_a_translation_edited_changes_only_its_own_segment(tmp_path):
    with TranslationMemory(tmp_path / "memory.sqlite3", "ru") as memory:
        memory.import_units("a.tmx", as_units([("модель памяти", "A"), ("сеть узлов", "A")]))
        ids = dict(memory.db.execute("SELECT source, id FROM segments"))
        _, counter = memory.position("de")
        memory.import_units("a.tmx", as_units([("модель памяти", "B"), ("сеть узлов", "A")]))
        assert memory.position("de")[1] == counter + 1
        assert dict(memory.db.execute("SELECT source, id FROM segments"))["сеть узлов"] == ids["сеть узлов"]
        changes = memory.changes_since("de", counter)
        assert changes.sources == ["модель памяти"]
        assert sorted(added for _, _, added in changes.entries) == [0, 1]
        assert memory.changes_since("de", memory.position("de")[1]).entries == []


def test_the_journal_forgets_beyond_its_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(store, "JOURNAL_LIMIT", 3)
    with TranslationMemory(tmp_path / "memory.sqlite3", "ru") as memory:
        _, first = memory.position("de")
        memory.import_units("a.tmx", as_units([("один", "A"), ("два", "A")]))
        _, second = memory.position("de")
        memory.import_units("b.tmx", as_units([("три", "A"), ("четыре", "A")]))
        assert memory.changes_since("de", first) is None  # older than the journal
        assert memory.changes_since("de", second).sources == ["три", "четыре"]
        memory.import_units("c.tmx", as_units([(f"слово {n}", "A") for n in range(5)]))
        assert memory.changes_since("de", second) is None  # one change beyond the limit
        assert memory.count() == 9


# --- update: a catalog is merged again only when its memory answers may change ----------

ASKED = "Установите драйвер ускорителя перед первым запуском системы."
RELATED = "Установите драйвер ускорителя перед запуском системы."
UNRELATED = "Сборка занимает целый час на большом кластере."


@pytest.fixture
def two_documents(tmp_path, monkeypatch) -> Path:
    """``a`` asks the memory about a paragraph like one of ``b``'s; nothing translated."""
    fixed_clock(monkeypatch)
    folder = tmp_path / "project"
    (folder / "docs").mkdir(parents=True)
    (folder / "tolmach.toml").write_text(settings_text(locales='["de"]'), "utf-8")
    (folder / "docs" / "a.md").write_text(f"{ASKED}\n", "utf-8")
    (folder / "docs" / "b.md").write_text(f"{RELATED}\n\n{UNRELATED}\n", "utf-8")
    for step in (("extract",), ("update",)):
        assert run_command(folder, *step, "-j", "1", "--quiet").exit_code == 0
    return folder


def translate(folder: Path, msgid: str, msgstr: str) -> None:
    path = folder / "locales" / "de" / "LC_MESSAGES" / "b.po"
    po = polib.pofile(str(path), wrapwidth=79)
    po.find(msgid).msgstr = msgstr
    po.save(str(path))


def merged_by_update(folder: Path, monkeypatch) -> list[str]:
    """The catalogs one ``update`` merged (rather than took from its cache)."""
    merged: list[str] = []
    original = Project._update_one

    def spy(self, doc, template, locale, *rest):
        merged.append(f"{locale}/{doc.name}")
        return original(self, doc, template, locale, *rest)

    monkeypatch.setattr(Project, "_update_one", spy)
    assert run_command(folder, "update", "-j", "1", "--quiet").exit_code == 0
    monkeypatch.setattr(Project, "_update_one", original)
    return merged


def suggestion(folder: Path) -> str:
    return polib.pofile(str(folder / "locales/de/LC_MESSAGES/a.po")).find(ASKED).msgstr


def test_only_a_change_that_may_alter_a_memory_answer_merges_again(two_documents, monkeypatch):
    folder = two_documents
    assert suggestion(folder) == ""
    translate(folder, UNRELATED, "Der Build dauert eine Stunde.")
    assert merged_by_update(folder, monkeypatch) == ["de/b"]  # b's own bytes changed
    assert merged_by_update(folder, monkeypatch) == []
    assert suggestion(folder) == ""
    translate(folder, RELATED, "Installieren Sie den Treiber.")
    assert merged_by_update(folder, monkeypatch) == ["de/a", "de/b"]
    assert suggestion(folder) == "Installieren Sie den Treiber."
    translate(folder, UNRELATED, "Der Build dauert eine ganze Stunde.")
    assert merged_by_update(folder, monkeypatch) == ["de/b"]
