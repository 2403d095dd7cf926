"""A new memory learned in parts, one language each, at once: the same memory, row for row.

``update`` on a pool makes a missing memory this way (each language's catalogs read and
learned by a process of its own, the parts copied into one file); whatever the parts
cannot settle alone, learning in one go does instead.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import polib
import pytest

import tolmach.memory.store as store
from tolmach.catalog.pofile import write_po
from tolmach.jobs.executor import InlineExecutor, process_pool
from tolmach.memory.store import CatalogFile, learn_parts, made_anew, part_maker, project_catalogs

WORDS = ("драйвер", "ядро", "память", "сборка", "поток", "буфер", "очередь", "модуль",
         "устройство", "пакет", "система", "вычисление", "граф", "задача", "версия")
#: two locales of German (one language, one part), then English and Chinese; German has
#: more segments than the journal keeps (its changes are forgotten), the others fewer
LOCALES = ("de", "de_AT", "en", "zh_CN")
DOCUMENTS = 30


def sentence(chance: random.Random) -> str:
    return " ".join(chance.choice(WORDS) for _ in range(chance.randint(3, 9))).capitalize() + "."


def write_project(root: Path, entries: int = 45) -> None:
    """Catalogs of every kind of entry the memory learns or skips, sources shared between
    documents (long posting lists) and unique to one (lists of one)."""
    chance = random.Random(7)
    shared = [sentence(chance) for _ in range(60)]
    for number in range(DOCUMENTS):
        sources = [chance.choice(shared) if chance.random() < 0.4 else sentence(chance)
                   for _ in range(entries)]
        for locale in LOCALES:
            po = polib.POFile()
            po.metadata = {"Language": locale, "Content-Type": "text/plain; charset=UTF-8"}
            for index, source in enumerate(dict.fromkeys(sources)):
                kind = index % 9
                translation = f"{locale}: {source[::-1]}" if kind != 8 else ""
                po.append(polib.POEntry(
                    msgid=source, msgstr=translation, msgctxt="table" if kind == 3 else None,
                    flags=["fuzzy"] if kind == 5 else []))
            po.append(polib.POEntry(msgid="файл", msgid_plural="файлы",
                                    msgstr_plural={0: f"{locale} file", 1: f"{locale} files"}))
            write_po(po, root / "locales" / locale / "LC_MESSAGES" / f"doc{number:02}.po")


def contents(path: Path) -> dict[str, list]:
    """Every row of every table, meta included but for the database's own id."""
    db = sqlite3.connect(path)
    try:
        tables = [name for (name,) in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        rows = {name: sorted(db.execute(f'SELECT * FROM "{name}"').fetchall(), key=repr)
                for name in tables}
        rows["meta"] = [row for row in rows["meta"] if row[0] != "id"]
        return rows
    finally:
        db.close()


def in_turn(root: Path, catalogs: list[CatalogFile] | None = None) -> Path:
    """The memory learned in one go (no parts), as ``update -j 1`` makes it."""
    path = root / "in-turn.sqlite3"
    made_anew(path, "ru", catalogs or project_catalogs(root)).close()
    return path


class PartsHere:
    """Makes the parts one after the other in this process, noting what it was given."""

    def __init__(self) -> None:
        self.jobs: list = []

    def __call__(self, jobs: list) -> None:
        self.jobs.append(jobs)
        learn_parts(jobs)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    write_project(tmp_path)
    return tmp_path


@pytest.fixture
def taken(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each memory made in parts took them (False: learned in one go instead)."""
    answers: list[bool] = []
    take = store.TranslationMemory._take_parts

    def noted(self, paths):
        answers.append(take(self, paths))
        return answers[-1]

    monkeypatch.setattr(store.TranslationMemory, "_take_parts", noted)
    return answers


def test_parts_give_the_memory_learning_in_one_go_gives(project: Path, taken: list[bool]) -> None:
    parts = PartsHere()
    made = project / "parts.sqlite3"
    made_anew(made, "ru", project_catalogs(project), make_parts=parts).close()
    assert [[(job[1][0].locale, len(job[1])) for job in jobs] for jobs in parts.jobs] == [
        [("de", 2 * DOCUMENTS), ("en", DOCUMENTS), ("zh_CN", DOCUMENTS)]]
    assert taken == [True]
    expected = contents(in_turn(project))
    assert contents(made) == expected
    counters = dict(row for row in expected["meta"] if row[0].startswith(("counter:", "floor:")))
    assert counters == {"counter:de": "1", "floor:de": "1", "counter:en": "1", "counter:zh": "1"}
    assert {row[0] for row in expected["changes"]} == {"en", "zh"}  # de's: too many to keep
    assert sorted(p.name for p in project.iterdir()) == ["in-turn.sqlite3", "locales",
                                                         "parts.sqlite3"]  # no part left


def test_the_parts_are_made_at_once_by_the_workers_and_this_process(
    project: Path, taken: list[bool]
) -> None:
    made = project / "parts.sqlite3"
    executor = process_pool(2)
    try:
        make_parts = part_maker(executor)
        assert make_parts is not None
        made_anew(made, "ru", project_catalogs(project), make_parts=make_parts).close()
    finally:
        executor.shutdown()
    assert taken == [True]
    assert contents(made) == contents(in_turn(project))
    assert part_maker(None) is None and part_maker(InlineExecutor()) is None  # -j 1: in one go


def test_ids_two_languages_share_are_settled_by_learning_in_turn(
    project: Path, monkeypatch: pytest.MonkeyPatch, taken: list[bool]
) -> None:
    """Digests alike: every locale's segment of a source under the same id."""
    monkeypatch.setattr(store, "_segment_id",
                        lambda origin, key, occurrence: store._source_key(key[2]) + occurrence)
    parts = PartsHere()
    made = project / "parts.sqlite3"
    made_anew(made, "ru", project_catalogs(project), make_parts=parts).close()
    assert len(parts.jobs) == 1 and taken == [False]  # tried, refused when copied in
    assert contents(made) == contents(in_turn(project))


@pytest.mark.parametrize("case", ["one language", "few catalogs", "a language comes back"])
def test_a_memory_that_cannot_be_made_in_parts_is_learned_in_one_go(project: Path, case: str) -> None:
    catalogs = project_catalogs(project)
    if case == "one language":
        catalogs = [c for c in catalogs if c.locale in ("de", "de_AT")]
    elif case == "few catalogs":
        catalogs = catalogs[:store._PARTS_FROM - 1]  # three languages, one catalog short
    else:  # German, English, then German again
        catalogs = sorted(catalogs, key=lambda c: (c.locale == "de_AT", c.locale, c.name))
    parts = PartsHere()
    made = project / "parts.sqlite3"
    made_anew(made, "ru", catalogs, make_parts=parts).close()
    assert parts.jobs == []
    assert contents(made) == contents(in_turn(project, catalogs))


def test_a_broken_catalog_in_a_part_is_named_and_leaves_no_memory(project: Path) -> None:
    broken = project / "locales" / "en" / "LC_MESSAGES" / "doc17.po"
    broken.write_text(broken.read_text("utf-8") + 'msgid "unterminated\n', "utf-8")
    made = project / ".tolmach-cache" / "memory.sqlite3"
    executor = process_pool(2)
    try:
        with pytest.raises(Exception, match=r"doc17\.po") as raised:
            made_anew(made, "ru", project_catalogs(project),
                      make_parts=part_maker(executor))
    finally:
        executor.shutdown()
    assert type(raised.value).__name__ == "CatalogError"
    assert list(made.parent.iterdir()) == []


def test_tm_rebuild_makes_the_parts_on_its_jobs(
    project: Path, taken: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    from click.testing import CliRunner

    from tolmach.cli import cli

    (project / "pyproject.toml").write_text(
        '[tool.tolmach]\nsource-locale = "ru"\nlocales = ["de", "de_AT", "en", "zh_CN"]\n'
        'documents = ["seeds/*.md"]\n', "utf-8")
    monkeypatch.chdir(project)
    outputs, memories = [], []
    for jobs in ("2", "1"):
        result = CliRunner().invoke(cli, ["tm", "rebuild", "-j", jobs])
        assert result.exit_code == 0, result.output
        outputs.append(result.output)
        memories.append(contents(project / ".tolmach-cache" / "memory.sqlite3"))
    assert taken == [True]  # -j 1 learned it in one go
    assert outputs[0] == outputs[1] and outputs[0].endswith(f"from {4 * DOCUMENTS} catalogs.\n")
    assert memories[0] == memories[1]
