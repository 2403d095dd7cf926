"""A memory of an older layout, as a new tolmach finds it under ``.tolmach-cache``.

The memory is a copy of what the catalogs hold, plus what was imported. A copy of the
catalogs alone is made again from them without a word; one that holds imported
compendia is not thrown away unasked: the command stops and says to rebuild it (which
drops them, to be imported again).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tolmach.memory.store import (
    SCHEMA_VERSION,
    CatalogFile,
    TranslationMemory,
    TranslationMemoryError,
)
from tolmach.memory.tmx import TranslationUnit

CATALOG = """msgid ""
msgstr ""
"Language: de\\n"
"Content-Type: text/plain; charset=UTF-8\\n"

msgid "Первый абзац статьи."
msgstr "Der erste Absatz des Artikels."
"""


def catalog(root: Path) -> CatalogFile:
    path = root / "locales" / "de" / "LC_MESSAGES" / "doc.po"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(CATALOG, "utf-8")
    return CatalogFile(path, "locales/de/LC_MESSAGES/doc.po", "de", "doc")


def age(database: Path) -> None:
    """Mark the database as written by an older tolmach."""
    with sqlite3.connect(database) as db:
        db.execute("UPDATE meta SET value = '0' WHERE key = 'schema'")


def test_an_older_memory_of_the_catalogs_alone_is_made_again_from_them(tmp_path):
    database = tmp_path / "memory.sqlite3"
    with TranslationMemory(database) as memory:
        memory.refresh([catalog(tmp_path)])
        before = [m.target for m in memory.search("Первый абзац статьи.", "de")]
    age(database)
    with TranslationMemory(database) as memory:
        assert memory.count() == 0  # started anew
        assert memory.refresh([catalog(tmp_path)]) == 1
        assert [m.target for m in memory.search("Первый абзац статьи.", "de")] == before
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == SCHEMA_VERSION


def test_an_older_memory_with_imported_units_is_kept_and_the_command_says_what_to_do(tmp_path):
    database = tmp_path / "memory.sqlite3"
    with TranslationMemory(database) as memory:
        memory.import_units("glossary.tmx", [TranslationUnit("Ядро", "Kern", "de")])
    age(database)
    with pytest.raises(TranslationMemoryError) as raised:
        TranslationMemory(database)
    assert "expected" in str(raised.value) and "tolmach tm rebuild" in str(raised.value)
    with sqlite3.connect(database) as db:  # nothing dropped
        assert db.execute("SELECT COUNT(*) FROM segments").fetchone()[0] == 1


def test_a_memory_indexed_with_other_prefixes_is_made_again_like_an_older_one(tmp_path):
    """The index takes a segment out by the prefixes this tolmach gives its source: a
    memory whose prefixes a tolmach made otherwise would keep stale entries, so it is
    made again from the catalogs."""
    from tolmach.memory import store

    database = tmp_path / "memory.sqlite3"
    with TranslationMemory(database) as memory:
        memory.refresh([catalog(tmp_path)])
    with sqlite3.connect(database) as db:
        db.execute("UPDATE meta SET value = 'made-otherwise' WHERE key = 'prefixes'")
    with TranslationMemory(database) as memory:
        assert memory.count() == 0  # started anew
        assert memory.refresh([catalog(tmp_path)]) == 1
        assert [m.target for m in memory.search("Первый абзац", "de")] == ["Der erste Absatz des Artikels."]
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT value FROM meta WHERE key = 'prefixes'").fetchone()[0] == \
            store._prefixes_version()
