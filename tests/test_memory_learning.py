"""Learning many catalogs at once (one statement per table, as a cold update does) leaves
the memory exactly as learning them one after the other: the same segments under the
same ids, the same index and counts, the same journal. Segment ids are squeezed into a
few values here so that ids clash all the time, the case where doing it together could
give a segment another id than doing it in turn.
"""

from __future__ import annotations

import hashlib
import shutil

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tolmach.memory.store as store
from tolmach.memory.store import TranslationMemory
from tolmach.memory.tmx import TranslationUnit

WORDS = ("модель", "память", "ядро", "поток", "данные", "сеть", "узел", "тест")
SOURCES = st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map(" ".join)
#: an origin's units: (source, translation, locale); repeats are kept (they count)
UNITS = st.lists(st.tuples(SOURCES, st.sampled_from("AB"), st.sampled_from(["de", "zh_CN"])),
                 max_size=8)
ORIGINS = ("a.po", "b.po", "c.po", "d.po")


def as_units(triples: list[tuple[str, str, str]]) -> list[TranslationUnit]:
    return [TranslationUnit(source, f"{target}:{source}", locale, None, "x.po")
            for source, target, locale in triples]


def squeezed(space: int):
    """A segment id function with ``space`` values: clashes are frequent."""

    def segment_id(origin: str, key: tuple, occurrence: int) -> int:
        text = "\0".join((origin, *map(str, key), str(occurrence)))
        return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=4).digest()) % space + 1

    return segment_id


def content(memory: TranslationMemory) -> list:
    """Everything the memory holds but its random id."""
    queries = ["SELECT o.name, s.* FROM segments s JOIN origins o ON o.id = s.origin_id ORDER BY s.id",
               "SELECT * FROM postings ORDER BY 1, 2",
               "SELECT * FROM changes ORDER BY rowid", "SELECT * FROM origins ORDER BY id",
               "SELECT * FROM meta WHERE key <> 'id' ORDER BY key"]
    return [memory.db.execute(query).fetchall() for query in queries]


def learn(memory: TranslationMemory, held: dict, together: bool) -> None:
    with memory._transaction():
        if together:
            touched = memory._learn_many((name, "catalog", name, "1", as_units(units))
                                         for name, units in held.items())
        else:
            touched = []
            for name, units in held.items():
                touched += memory._learn(name, "catalog", name, "1", as_units(units))
        memory._journal(touched)


@settings(max_examples=150, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rounds=st.lists(st.lists(UNITS, min_size=4, max_size=4), min_size=1, max_size=3),
       space=st.sampled_from([3, 12, 40]), group=st.sampled_from([1, 5, 1000]))
def test_learning_together_equals_learning_in_turn(rounds, space, group, tmp_path_factory,
                                                   monkeypatch):
    monkeypatch.setattr(store, "_segment_id", squeezed(space))
    monkeypatch.setattr(store, "_TOGETHER", group)  # segments learned at once
    folder = tmp_path_factory.mktemp("learning")
    with TranslationMemory(folder / "turn.sqlite3", "ru") as turn, \
            TranslationMemory(folder / "together.sqlite3", "ru") as together:
        for units in rounds:
            held = dict(zip(ORIGINS, units, strict=True))
            learn(turn, held, together=False)
            learn(together, held, together=True)
            assert content(together) == content(turn)
    shutil.rmtree(folder)


def test_learning_together_takes_the_one_statement_path_without_clashes(tmp_path, monkeypatch):
    """Without clashing ids the plans are carried out together (not one by one)."""
    applied: list = []
    monkeypatch.setattr(TranslationMemory, "_apply", lambda self, plan, postings: applied.append(plan))
    with TranslationMemory(tmp_path / "memory.sqlite3", "ru") as memory:
        learn(memory, {"a.po": [("модель", "A", "de")], "b.po": [("сеть", "A", "de")]}, True)
        assert applied == []
        assert memory.count() == 2


def test_clashing_ids_are_settled_as_in_turn_without_the_slow_path(tmp_path, monkeypatch):
    """Segments whose ids clash (many share a source, so the high bits of their ids) get
    the ids learning in turn would give them, still with one statement per table."""
    applied: list = []
    monkeypatch.setattr(store, "_segment_id", lambda origin, key, occurrence: 7)
    monkeypatch.setattr(TranslationMemory, "_apply", lambda self, plan, postings: applied.append(plan))
    with TranslationMemory(tmp_path / "memory.sqlite3", "ru") as memory:
        learn(memory, {"a.po": [("модель", "A", "de"), ("сеть", "A", "de")],
                       "b.po": [("модель", "B", "de")]}, True)
        assert applied == []
        rows = memory.db.execute("SELECT s.id, o.name, s.target FROM segments s "
                                 "JOIN origins o ON o.id = s.origin_id ORDER BY s.id").fetchall()
        assert rows == [(7, "a.po", "A:модель"), (8, "a.po", "A:сеть"), (9, "b.po", "B:модель")]


def test_a_look_up_sees_a_change_made_since_by_this_or_another_connection(tmp_path, monkeypatch):
    """Look-ups keep the segments they read; a segment changed under the same id (ids
    clash here on purpose) is read again, whichever connection changed it."""
    monkeypatch.setattr(store, "_segment_id", lambda origin, key, occurrence: 1)
    path = tmp_path / "memory.sqlite3"
    with TranslationMemory(path, "ru") as memory, TranslationMemory(path, "ru") as other:
        memory.import_units("a.tmx", as_units([("модель памяти", "A", "de")]))
        assert memory.best("модель памяти", "de").target == "A:модель памяти"
        memory.import_units("a.tmx", as_units([("сеть узлов", "B", "de")]))
        assert memory.best("сеть узлов", "de").target == "B:сеть узлов"
        other.import_units("a.tmx", as_units([("поток данных", "A", "de")]))
        assert memory.db.execute("SELECT id FROM segments").fetchall() == [(1,)]
        assert memory.best("поток данных", "de").target == "A:поток данных"


@settings(max_examples=60, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sources=st.lists(st.text(min_size=1, max_size=40), min_size=1, max_size=6))
def test_the_index_holds_each_segments_prefixes_whatever_its_script(sources, tmp_path_factory):
    """The index is made from the stored features: each prefix :func:`tokens` gives a
    source (letters of any script, digits, marks) lists the segments holding it, in id
    order, and counts them."""
    from collections import Counter

    from tolmach.catalog.similarity import tokens

    folder = tmp_path_factory.mktemp("index")
    with TranslationMemory(folder / "memory.sqlite3") as memory:
        learn(memory, {"a.po": [(source, "T", "de") for source in sources]}, together=True)
        ids = dict(memory.db.execute("SELECT id, source FROM segments"))
        lists = {(language, token): (df, list(store._unpacked(packed))) for language, token, df, packed
                 in memory.db.execute("SELECT language, token, df, ids FROM postings")}
    expected = {("de", token, number) for number, source in ids.items() for token in tokens(source)}
    assert {(*key, number) for key, (_, numbers) in lists.items() for number in numbers} == expected
    assert all(numbers == sorted(numbers) for _, numbers in lists.values())
    counts = Counter((language, token) for language, token, _ in expected)
    assert {key: df for key, (df, _) in lists.items()} == counts


def postings_of(memory: TranslationMemory) -> dict[tuple[str, str], tuple[int, list[int]]]:
    """The stored index: (language, prefix) → (count, ids)."""
    return {(language, token): (df, list(store._unpacked(packed))) for language, token, df, packed
            in memory.db.execute("SELECT language, token, df, ids FROM postings")}


@settings(max_examples=100, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rounds=st.lists(st.lists(UNITS, min_size=4, max_size=4), min_size=2, max_size=4),
       space=st.sampled_from([3, 40, 1 << 30]))
def test_the_index_follows_the_segments_as_they_come_and_go(rounds, space, tmp_path_factory,
                                                            monkeypatch):
    """Whatever was learned, forgotten or relearned before (ids clashing or not), each
    prefix lists exactly the segments now holding it, in id order, and a prefix no
    segment holds any more has no list left."""
    from tolmach.catalog.similarity import tokens

    monkeypatch.setattr(store, "_segment_id", squeezed(space))
    folder = tmp_path_factory.mktemp("index")
    with TranslationMemory(folder / "memory.sqlite3", "ru") as memory:
        for number, units in enumerate(rounds):
            kept = ORIGINS[: 1 + number % len(ORIGINS)]  # the others are forgotten
            with memory._transaction():
                postings = store._Postings()
                for name in ORIGINS[len(kept):]:
                    memory._forget_origin(name, postings)
                memory._learn_many(((name, "catalog", name, "1", as_units(held))
                                    for name, held in zip(kept, units, strict=False)), postings)
                memory._index(postings)
            segments = memory.db.execute("SELECT id, language, source FROM segments").fetchall()
            expected: dict[tuple[str, str], list[int]] = {}
            for segment, language, source in sorted(segments):
                for token in sorted(set(tokens(source))):
                    expected.setdefault((language, token), []).append(segment)
            assert postings_of(memory) == {key: (len(ids), ids) for key, ids in expected.items()}
    shutil.rmtree(folder)


def test_sources_whose_keys_clash_are_told_apart_by_their_text(tmp_path, monkeypatch):
    """Exact look-ups find a source by its key, then by its text: two sources under one
    key (digests alike, about never) each give only their own translation."""
    monkeypatch.setattr(store, "_source_key", lambda source: 5)
    with TranslationMemory(tmp_path / "memory.sqlite3", "ru") as memory:
        learn(memory, {"a.po": [("модель", "A", "de"), ("сеть", "B", "de")]}, together=True)
        assert [m.target for m in memory.search("модель", "de", threshold=1.0)] == ["A:модель"]
        assert [m.target for m in memory.search("сеть", "de", threshold=1.0)] == ["B:сеть"]
