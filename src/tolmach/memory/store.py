"""The translation memory: every translation of the project, in SQLite.

It holds the reviewed (translated, not fuzzy) entries of every catalog of the
project, all documents and locales, plus the compendia a user imports (TMX or
PO files).  A catalog is read again only when its size or modification time
changed, so keeping the memory current costs little.

Look-ups find similar source strings through an index of word prefixes kept
in the database, one sorted list of segment ids for each prefix of a language (with
its length, so the rarest prefixes of a query are used), and score the short list
with the similarity `tolmach.catalog.merge` uses.

What the memory holds is a function of what it learned, not of the order: a segment's
id is a digest of its origin and content, and ties are broken by content. Each change
is journalled (the source texts whose segments came or went, under a per-language
counter), so a merge that asked the memory can tell, from the evidence of its look-ups
(:class:`Changes`), whether any change since could alter one of its answers.
"""

from __future__ import annotations

import contextlib
import hashlib
import heapq
import os
import shutil
import sqlite3
import sys
from array import array
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import Self, TypeVar

from rapidfuzz import fuzz

from tolmach.catalog.pofile import read_po
from tolmach.catalog.similarity import EXACT, tokens
from tolmach.fileio import LinkGuard, flush_to_disk, place_if_absent
from tolmach.memory.tmx import TranslationUnit

T = TypeVar("T")
#: reads catalogs: their reviewed translations as units, one list per catalog, in order
CatalogReader = Callable[[list["CatalogFile"]], list[list[TranslationUnit]]]
#: makes the parts of a memory made anew: each ``(source locale, catalogs, path)`` with
#: :func:`learn_parts`, all at once where it can (see :meth:`TranslationMemory._learn_in_parts`)
PartMaker = Callable[[list[tuple[str, list["CatalogFile"], Path]]], object]

SCHEMA_VERSION = "3"
_BUDGET = 3000  # index entries a look-up may read
_SHORTLIST = 60
_SCAN = 2000  # segments of a similar length a short look-up may score
_TOGETHER = 20000  # segments learned with one statement per table (bounds the memory used)
_PARTS_FROM = 100  # catalogs: fewer are learned in one go (a part costs a file and a process)
JOURNAL_LIMIT = 2000  # changed source texts kept per language; older changes count as "all"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS origins (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, kind TEXT NOT NULL,
    document TEXT, stamp TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS segments (
    id INTEGER PRIMARY KEY,
    origin_id INTEGER NOT NULL REFERENCES origins (id) ON DELETE CASCADE,
    locale TEXT NOT NULL, language TEXT NOT NULL, context TEXT,
    source TEXT NOT NULL, target TEXT NOT NULL, length INTEGER NOT NULL,
    source_key INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS segments_by_source ON segments (language, source_key);
CREATE INDEX IF NOT EXISTS segments_by_origin ON segments (origin_id);
CREATE INDEX IF NOT EXISTS segments_by_length ON segments (language, length);
CREATE TABLE IF NOT EXISTS postings (
    language TEXT NOT NULL, token TEXT NOT NULL, df INTEGER NOT NULL, ids BLOB NOT NULL,
    PRIMARY KEY (language, token)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS changes (
    language TEXT NOT NULL, counter INTEGER NOT NULL, source TEXT NOT NULL,
    segment INTEGER NOT NULL, added INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS changes_by_counter ON changes (language, counter);
"""
#: SQLite's words for a disk that cannot take the memory, and what to tell the user.
_STORAGE_PROBLEMS = {
    "disk is full": "no space left on the device for the translation memory; "
    "free some space and run the command again (nothing was changed)",
    "readonly": "the translation memory cannot be written (a read-only file system or no "
    "permission); make the folder writable and run the command again",
    "unable to open": "the translation memory cannot be created or opened (a read-only file "
    "system, no permission or no such folder); make the folder writable and run the command again",
}
_NOT_FOLLOWED = "nothing is read or written through it"
_ROOM_NEEDED = 1 << 20  # less free space than this, and an I/O error means a full disk


class TranslationMemoryError(Exception):
    """The memory cannot be used: locked, corrupt, or fed a file it cannot take."""

    def __init__(self, path: Path | str, message: str) -> None:
        self.path, self.line, self.message = str(path), None, message
        super().__init__(f"{path}: {message}")


@dataclass(frozen=True)
class MemoryMatch:
    """A translation found in the memory, with its similarity and origin."""

    score: float
    source: str
    target: str
    locale: str
    context: str | None
    origin: str  # "rocm7.po, de" or the compendium's file name


@dataclass(frozen=True)
class CatalogFile:
    """A project catalog the memory learns from."""

    path: Path
    name: str  # project-relative, e.g. "locales/de/LC_MESSAGES/rocm7.po"
    locale: str
    document: str


class TranslationMemory:
    """A SQLite translation memory; use as a context manager or call `close`."""

    def __init__(self, path: Path, source_locale: str = "ru", timeout: float = 2.0,
                 *, scratch: bool = False) -> None:
        self.path = Path(path)
        self.source_locale = source_locale
        self._scratch = scratch  # a file being made, to be moved into place (see made_anew)
        self._read: dict[int, tuple[str, str]] = {}  # see _sources_of
        self._read_version: tuple[int, int] | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, timeout=timeout, isolation_level=None)
        except OSError as error:
            problem = f"{error.strerror or error}".lower()
            raise TranslationMemoryError(
                self.path, f"the translation memory cannot be created ({problem})"
            ) from error
        except sqlite3.Error as error:
            raise self._explain(error) from error
        try:
            self._guarded(self._prepare)
        except BaseException:
            self.db.close()  # an open connection would keep SQLite's journal files
            raise

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        self.db.close()

    def _explain(self, error: sqlite3.Error) -> TranslationMemoryError:
        """Say what went wrong with the database, and what to do about it."""
        text = str(error)
        if "locked" in text or "busy" in text:
            return TranslationMemoryError(
                self.path,
                "the translation memory is locked by another process "
                "(another tolmach running?); try again when it has finished",
            )
        name = getattr(error, "sqlite_errorname", "")
        if name == "SQLITE_FULL" or (name.startswith("SQLITE_IOERR") and self._disk_full()):
            return TranslationMemoryError(self.path, _STORAGE_PROBLEMS["disk is full"])
        for clue, problem in _STORAGE_PROBLEMS.items():
            if clue in text:
                return TranslationMemoryError(self.path, problem)
        if name.startswith("SQLITE_IOERR"):
            return TranslationMemoryError(
                self.path,
                f"the translation memory cannot be written ({text}); check the disk and "
                "run the command again (nothing was changed)",
            )
        return TranslationMemoryError(
            self.path,
            f"the translation memory cannot be read ({text}); "
            "run `tolmach tm rebuild` to recreate it",
        )

    def _disk_full(self) -> bool:
        """SQLite reports a full disk as an I/O error when it cannot grow its shared memory."""
        try:
            return shutil.disk_usage(self.path.parent).free < _ROOM_NEEDED
        except OSError:
            return False

    def _guarded(self, action: Callable[..., T], *args: object) -> T:
        """Run a database action, turning SQLite errors into clear ones."""
        try:
            return action(*args)
        except sqlite3.Error as error:
            raise self._explain(error) from error

    def _prepare(self) -> None:
        self.db.execute("PRAGMA foreign_keys = ON")
        if self._scratch:  # a file made in one transaction: its journal keeps next to
            # nothing (pages added are not journalled), and nothing is waited for on disk
            self.db.execute("PRAGMA journal_mode = TRUNCATE")
            self.db.execute("PRAGMA synchronous = OFF")
        else:
            self.db.execute("PRAGMA journal_mode = WAL")
            self.db.execute("PRAGMA synchronous = NORMAL")
        stored = self._stored_meta()
        layout = _layout()
        outdated = bool(stored) and _layout_of(stored) != layout
        if outdated and self._only_catalogs():
            self._start_anew()  # a copy of the catalogs alone: learned again from them
            stored, outdated = {}, False
        if outdated:
            raise sqlite3.DatabaseError(f"schema {_layout_of(stored)}, expected {layout}")
        self.db.executescript(_SCHEMA)
        if not stored:
            self.db.executemany(
                "INSERT INTO meta VALUES (?, ?)",
                [("schema", SCHEMA_VERSION), ("prefixes", _prefixes_version()),
                 ("source_locale", self.source_locale)],
            )
        elif stored.get("source_locale") != self.source_locale:
            raise TranslationMemoryError(
                self.path,
                f"the memory holds translations from {stored['source_locale']}, "
                f"the project translates from {self.source_locale}; run `tolmach tm rebuild`",
            )
        if "id" not in stored:  # what tells this database from one made again later
            self.db.execute("INSERT OR IGNORE INTO meta VALUES ('id', ?)", (os.urandom(8).hex(),))

    def _stored_meta(self) -> dict[str, str]:
        """The meta table of an existing database; empty for a new one."""
        known = self.db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'")
        return dict(self.db.execute("SELECT key, value FROM meta")) if known.fetchone() else {}

    def _only_catalogs(self) -> bool:
        """Whether everything in the memory came from the project's catalogs (nothing
        imported), so that a memory of an older layout can be made again from them."""
        try:
            imported = self.db.execute("SELECT COUNT(*) FROM origins WHERE kind <> 'catalog'")
            return imported.fetchone()[0] == 0
        except sqlite3.Error:
            return False

    def _start_anew(self) -> None:
        tables = [name for (name,) in self.db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        self.db.execute("PRAGMA foreign_keys = OFF")
        for name in tables:
            self.db.execute(f'DROP TABLE IF EXISTS "{name}"')
        self.db.execute("PRAGMA foreign_keys = ON")

    def position(self, language: str) -> tuple[str, int]:
        """Where the memory is in ``language``: the database's id (new when it is made
        anew) and the count of changes so far; an answer of :meth:`best` recorded here
        holds later unless :meth:`changes_since` says otherwise."""
        rows = dict(self._guarded(lambda: self.db.execute(
            "SELECT key, value FROM meta WHERE key IN ('id', ?)", (f"counter:{language}",)
        ).fetchall()))
        return rows.get("id", ""), int(rows.get(f"counter:{language}", 0))

    def changes_since(self, language: str, counter: int) -> Changes | None:
        """What changed in ``language`` after ``counter``; None when the journal no
        longer reaches back that far (take everything as changed)."""
        return self._guarded(self._changes_since, language, counter)

    def _changes_since(self, language: str, counter: int) -> Changes | None:
        if counter < self._meta_number(f"floor:{language}"):
            return None
        entries = self.db.execute(
            "SELECT source, segment, added FROM changes WHERE language = ? AND counter > ? "
            "ORDER BY counter, segment", (language, counter)).fetchall()
        features = sorted({feature for source in {e[0] for e in entries} for feature in tokens(source)})
        counts: dict[str, int] = {}
        for chunk in range(0, len(features), 500):
            part = features[chunk:chunk + 500]
            counts.update(self.db.execute(
                "SELECT token, df FROM postings WHERE language = ? AND token IN "
                f"({','.join('?' * len(part))})", (language, *part)).fetchall())
        return Changes(entries, counts)

    def _meta_number(self, key: str) -> int:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return int(row[0]) if row else 0

    def _journal(self, changed: Iterable[tuple[str, str, int, bool]]) -> None:
        """Count a change in each language whose segments changed and note them
        ``(language, source, id, added)``; keep at most :data:`JOURNAL_LIMIT` a language,
        forgetting the oldest."""
        by_language: dict[str, list[tuple[str, int, bool]]] = defaultdict(list)
        for language, *change in changed:
            by_language[language].append(tuple(change))
        for language, changes in sorted(by_language.items()):
            counter = self._meta_number(f"counter:{language}") + 1
            self._set_meta(f"counter:{language}", counter)
            if len(changes) > JOURNAL_LIMIT:  # too much to note: everything changed
                self._forget_journal(language, counter)
                continue
            self.db.executemany("INSERT INTO changes VALUES (?, ?, ?, ?, ?)",
                                [(language, counter, *change) for change in changes])
            beyond = self.db.execute(
                "SELECT counter FROM changes WHERE language = ? ORDER BY counter DESC "
                "LIMIT 1 OFFSET ?", (language, JOURNAL_LIMIT)).fetchone()
            if beyond is not None:
                self._forget_journal(language, beyond[0])

    def _forget_journal(self, language: str, counter: int) -> None:
        """Drop the changes up to ``counter``: answers recorded before it no longer hold."""
        self.db.execute("DELETE FROM changes WHERE language = ? AND counter <= ?",
                        (language, counter))
        self._set_meta(f"floor:{language}", counter)

    def _set_meta(self, key: str, value: object) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, str(value)))

    # ------------------------------------------------------------ filling

    def refresh(self, catalogs: Iterable[CatalogFile], read: CatalogReader | None = None) -> int:
        """Learn the catalogs that changed and forget the ones gone; returns how many were read.

        ``read`` reads the changed catalogs (default: :func:`reviewed_units`, here); a
        caller with a pool of workers may share the reading out among them."""
        return self._guarded(self._refresh, list(catalogs), read or reviewed_units)

    def _refresh(self, catalogs: list[CatalogFile], read: CatalogReader) -> int:
        known = dict(self.db.execute("SELECT name, stamp FROM origins WHERE kind = 'catalog'"))
        changed = [
            catalog for catalog in catalogs if known.get(catalog.name) != _stamp(catalog.path)
        ]
        units = dict(zip([c.name for c in changed], read(changed) if changed else [], strict=True))
        present = {catalog.name for catalog in catalogs}
        with self._transaction():
            touched = []
            postings = _Postings()
            for name in sorted(known.keys() - present):
                touched += self._forget_origin(name, postings)
            touched += self._learn_many(
                ((catalog.name, "catalog", catalog.document, _stamp(catalog.path),
                  units.pop(catalog.name)) for catalog in changed),
                postings,
            )
            self._index(postings)
            self._journal(touched)
        return len(changed)

    def _learn_in_parts(self, catalogs: list[CatalogFile], make_parts: PartMaker) -> bool:
        """Learn a new memory's catalogs as parts, one language each, made at once by
        ``make_parts``: the first into this file itself, the others into files beside it,
        then copied in. The index and journal of a language depend on its own segments
        only, so this gives, row for row, what learning them in one go gives
        (:meth:`refresh`), in a fraction of its time on several cores.

        False, with nothing learned, when it cannot: one language, few catalogs, the
        catalogs of a language not one after the other (their origins would be numbered
        otherwise), or two languages' segments under one id (a clash of digests, which
        learning in turn settles by order: about one pair in four million of a source).
        """
        groups = _language_groups(catalogs)
        if groups is None or len(groups) < 2 or len(catalogs) < _PARTS_FROM:
            return False
        # the first part is learned into this file itself (nothing to copy); the others beside
        parts = [Path(f"{self.path}.part-{number}") for number in range(1, len(groups))]
        try:
            make_parts([(self.source_locale, group, path)
                        for group, path in zip(groups, [self.path, *parts], strict=True)])
            return self._guarded(self._take_parts, parts)
        finally:
            for path in parts:
                for made in (path, Path(f"{path}-journal")):
                    made.unlink(missing_ok=True)

    def _take_parts(self, paths: list[Path]) -> bool:
        """Copy the parts in, in order, each origin numbered as learning in turn numbers
        it; False, and the memory left empty, should a segment's id be taken already."""
        try:
            for path in paths:
                self.db.execute("ATTACH DATABASE ? AS part", (str(path),))
                try:
                    with self._transaction():
                        self._take_part()
                finally:
                    self.db.execute("DETACH DATABASE part")
        except sqlite3.IntegrityError:
            with self._transaction():
                for table in ("segments", "origins", "postings", "changes"):
                    self.db.execute(f"DELETE FROM {table}")
                self.db.execute("DELETE FROM meta WHERE key LIKE 'counter:%' OR key LIKE 'floor:%'")
            return False
        return True

    def _take_part(self) -> None:
        offset = self.db.execute("SELECT COALESCE(MAX(id), 0) FROM origins").fetchone()[0]
        self.db.execute(
            "INSERT INTO origins (id, name, kind, document, stamp) "
            "SELECT id + ?, name, kind, document, stamp FROM part.origins ORDER BY id", (offset,))
        self.db.execute(
            "INSERT INTO segments (id, origin_id, locale, language, context, source, target, "
            "length, source_key) SELECT id, origin_id + ?, locale, language, context, source, "
            "target, length, source_key FROM part.segments ORDER BY id", (offset,))
        self.db.execute("INSERT INTO postings (language, token, df, ids) "
                        "SELECT language, token, df, ids FROM part.postings")
        self.db.execute("INSERT INTO changes (language, counter, source, segment, added) "
                        "SELECT language, counter, source, segment, added FROM part.changes "
                        "ORDER BY rowid")
        self.db.execute("INSERT OR REPLACE INTO meta (key, value) SELECT key, value FROM part.meta "
                        "WHERE key LIKE 'counter:%' OR key LIKE 'floor:%'")

    def restamp(self, catalogs: Iterable[CatalogFile]) -> None:
        """Take catalogs as learned as they now are, without reading them: ``update``
        wrote them keeping the reviewed translations the memory learned of them (none, for
        a new one), so the next run neither reads them again nor sees the memory changed."""

        def action() -> None:
            known = {name for (name,) in self.db.execute(
                "SELECT name FROM origins WHERE kind = 'catalog'")}
            with self._transaction():
                for catalog in catalogs:
                    if catalog.name in known:
                        self.db.execute("UPDATE origins SET stamp = ? WHERE name = ?",
                                        (_stamp(catalog.path), catalog.name))
                    else:  # a new catalog without reviewed translations
                        self._learn(catalog.name, "catalog", catalog.document,
                                    _stamp(catalog.path), [])  # changes nothing

        self._guarded(action)

    def import_units(self, name: str, units: list[TranslationUnit]) -> int:
        """Add a compendium's units under its name, replacing an earlier import of it."""

        def action() -> int:
            with self._transaction():
                self._journal(self._learn(name, "compendium", None, "imported", units))
                return len(units)

        return self._guarded(action)

    def _transaction(self) -> _Transaction:
        return _Transaction(self.db)

    def _learn(
        self, name: str, kind: str, document: str | None, stamp: str, units: list[TranslationUnit]
    ) -> list[tuple[str, str, int, bool]]:
        """Make an origin hold ``units``: only the segments that differ are removed or
        added; the others stay as they are. Returns the changes for the journal."""
        postings = _Postings()
        changes = self._apply(self._plan(name, kind, document, stamp, units), postings)
        self._index(postings)
        return changes

    def _learn_many(self, origins: Iterable[tuple],
                    postings: _Postings | None = None) -> list[tuple[str, str, int, bool]]:
        """Learn origins (each the arguments of :meth:`_learn`) as :meth:`_learn` would one
        after the other, but a few thousand segments at a time with one statement for each
        table (far cheaper on a new memory), each segment under the id learning in turn
        would give it, and the index brought up to date once at the end (or, given
        ``postings``, by the caller, with other changes of the same transaction). Returns
        the changes for the journal, in the order of the origins."""
        touched: list[tuple[str, str, int, bool]] = []
        own = postings is None
        postings = _Postings() if postings is None else postings
        group: list[_Plan] = []
        size = 0
        keys: dict[str, int] = {}
        for origin in origins:
            group.append(self._plan(*origin, keys))
            size += len(group[-1].rows) + len(group[-1].gone)
            if size >= _TOGETHER:
                touched += self._apply_group(group, postings)
                group, size = [], 0
        touched += self._apply_group(group, postings)
        if own:
            self._index(postings)
        return touched

    def _apply_group(self, plans: list[_Plan], postings: _Postings) -> list[tuple[str, str, int, bool]]:
        if plans and not self._apply_together(plans, postings):
            for plan in plans:
                self._apply(plan, postings)
        return [change for plan in plans for change in plan.changes()]

    def _plan(
        self, name: str, kind: str, document: str | None, stamp: str, units: list[TranslationUnit],
        keys: dict[str, int] | None = None,
    ) -> _Plan:
        """Record the origin and work out which of its segments go and which come
        (``keys``: the keys of the sources met so far, see _segment_row)."""
        row = self.db.execute("SELECT id FROM origins WHERE name = ?", (name,)).fetchone()
        if row is None:
            origin = self.db.execute(
                "INSERT INTO origins (name, kind, document, stamp) VALUES (?, ?, ?, ?)",
                (name, kind, document, stamp),
            ).lastrowid
            held: dict[tuple, list[tuple]] = {}
        else:
            origin = row[0]
            self.db.execute("UPDATE origins SET kind = ?, document = ?, stamp = ? WHERE id = ?",
                            (kind, document, stamp, origin))
            held = defaultdict(list)
            for number, language, *key in self.db.execute(
                "SELECT id, language, locale, context, source, target "
                "FROM segments WHERE origin_id = ?", (origin,)
            ):
                held[tuple(key)].append((number, language, key[2]))
        wanted = Counter(_unit_key(unit) for unit in units)
        gone = [
            segment for key, segments in held.items() if len(segments) != wanted.get(key, 0)
            for segment in segments
        ]
        keys = {} if keys is None else keys
        rows = [
            _segment_row(name, origin, key, occurrence, keys) for key, times in wanted.items()
            if len(held.get(key, ())) != times for occurrence in range(times)
        ]
        return _Plan(gone, rows)

    def _apply(self, plan: _Plan, postings: _Postings) -> list[tuple[str, str, int, bool]]:
        """Remove the segments that go, then add the ones that come (ids as taken); their
        index entries go to ``postings``."""
        postings.remove(plan.gone)
        self.db.executemany("DELETE FROM segments WHERE id = ?", [(s[0],) for s in plan.gone])
        self._insert_segments(plan.rows)
        postings.add(plan.rows)
        return plan.changes()

    def _apply_together(self, plans: list[_Plan], postings: _Postings) -> bool:
        """All plans at once, each segment under the id doing them in turn would give it
        (:meth:`_ids_in_turn`); False, and nothing done, should SQLite still find an id
        taken (then they are done in turn)."""
        settled = self._ids_in_turn(plans)
        gone = [segment for plan in plans for segment in plan.gone]
        rows = sorted(([number, *row[1:]] for plan, numbers in zip(plans, settled, strict=True)
                       for row, number in zip(plan.rows, numbers, strict=True)),
                      key=lambda row: row[0])
        self.db.execute("SAVEPOINT together")
        try:
            self.db.executemany("DELETE FROM segments WHERE id = ?", [(s[0],) for s in gone])
            self.db.executemany("INSERT INTO segments VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        except sqlite3.IntegrityError:
            self.db.execute("ROLLBACK TO together")
            return False
        finally:
            self.db.execute("RELEASE together")
        for plan, numbers in zip(plans, settled, strict=True):
            for row, number in zip(plan.rows, numbers, strict=True):
                row[0] = number
        postings.remove(gone)
        postings.add(rows)
        return True

    def _ids_in_turn(self, plans: list[_Plan]) -> list[list[int]]:
        """The id each row of ``plans`` takes when the plans are carried out one after the
        other: each plan's segments go before its rows come, and a row whose id is taken
        (by a segment not yet gone, or by a row before it) takes the next free one, as in
        :meth:`_insert_segments`. Ids clash where many segments share a source (it gives
        their high bits): in a group of 20,000 of a real tree, now and then."""
        wanted = sorted({row[0] for plan in plans for row in plan.rows})
        present: set[int] = set()
        for start in range(0, len(wanted), 500):
            part = wanted[start:start + 500]
            present.update(number for (number,) in self.db.execute(
                f"SELECT id FROM segments WHERE id IN ({','.join('?' * len(part))})", part))
        known = set(wanted)  # ids whose presence in the database was asked

        def taken(number: int) -> bool:
            if number not in known:  # a row pushed past its own id: ask (rare)
                known.add(number)
                if self.db.execute("SELECT 1 FROM segments WHERE id = ?", (number,)).fetchone():
                    present.add(number)
            return number in present

        settled = []
        for plan in plans:
            present.difference_update(segment[0] for segment in plan.gone)
            known.update(segment[0] for segment in plan.gone)
            numbers = []
            for row in plan.rows:
                number = row[0]
                while taken(number):
                    number = number % _ID_SPACE + 1
                present.add(number)
                numbers.append(number)
            settled.append(numbers)
        return settled

    def _insert_segments(self, rows: list[list]) -> None:
        """Insert segments under their digest ids; one whose id is taken (two digests
        alike, about never) takes the next free one."""
        insert = "INSERT INTO segments VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
        self.db.execute("SAVEPOINT segments")
        try:
            self.db.executemany(insert, rows)
        except sqlite3.IntegrityError:
            self.db.execute("ROLLBACK TO segments")
            for row in rows:
                while self.db.execute("SELECT 1 FROM segments WHERE id = ?", (row[0],)).fetchone():
                    row[0] = row[0] % _ID_SPACE + 1
                self.db.execute(insert, row)
        finally:
            self.db.execute("RELEASE segments")

    def _forget_origin(self, name: str, postings: _Postings) -> list[tuple[str, str, int, bool]]:
        """Remove an origin with its segments, their index entries going to ``postings``;
        returns the changes for the journal."""
        rows = self.db.execute(
            "SELECT s.id, s.language, s.source FROM segments s JOIN origins o "
            "ON o.id = s.origin_id WHERE o.name = ?",
            (name,),
        ).fetchall()
        postings.remove(rows)
        self.db.execute("DELETE FROM origins WHERE name = ?", (name,))
        return [(language, source, number, False) for number, language, source in rows]

    def _index(self, postings: _Postings) -> None:
        """Bring the posting lists of the prefixes ``postings`` touches in line with the
        segments that went and came, one language at a time (what it holds at once is
        one language's changed lists). Each list is read, changed and written once,
        however many segments changed it; on a new memory nothing is read, and the lists
        come out of ``postings`` sorted."""
        for language in postings.languages():
            going, coming = postings.lists(language)
            touched = sorted(going.keys() | coming.keys())
            held = self._posting_lists(language, touched)
            emptied: list[tuple[str, str]] = []
            self.db.executemany("INSERT OR REPLACE INTO postings VALUES (?, ?, ?, ?)",
                                _changed_lists(language, touched, held, going, coming, emptied))
            self.db.executemany("DELETE FROM postings WHERE language = ? AND token = ?", emptied)
            del going, coming, held  # before the next language's lists are gathered

    def _posting_lists(self, language: str, prefixes: list[str]) -> dict[str, array]:
        """The stored posting lists of prefixes of ``language`` (those there are)."""
        if self.db.execute("SELECT 1 FROM postings LIMIT 1").fetchone() is None:
            return {}
        found = {}
        for start in range(0, len(prefixes), 500):
            part = prefixes[start:start + 500]
            found.update((token, _unpacked(ids)) for token, ids in self.db.execute(
                "SELECT token, ids FROM postings WHERE language = ? AND token IN "
                f"({','.join('?' * len(part))})", (language, *part)))
        return found

    # ------------------------------------------------------------ reading

    def count(self) -> int:
        return self._guarded(lambda: self.db.execute("SELECT COUNT(*) FROM segments").fetchone()[0])

    def units(self, locale: str | None = None) -> Iterator[TranslationUnit]:
        """Every stored unit, in a stable order, for export."""
        query = (
            "SELECT s.source, s.target, s.locale, s.context, o.name, o.kind, o.document "
            "FROM segments s JOIN origins o ON o.id = s.origin_id "
            + ("WHERE s.locale = ? " if locale else "")
            + "ORDER BY s.locale, s.source, s.context, s.target, o.name"
        )
        rows = self._guarded(lambda: self.db.execute(query, (locale,) if locale else ()).fetchall())
        for source, target, unit_locale, context, name, kind, document in rows:
            yield TranslationUnit(
                source,
                target,
                unit_locale,
                context,
                _origin_label(name, kind, document, unit_locale),
            )

    def best(
        self,
        text: str,
        locale: str,
        *,
        threshold: float = 0.6,
        exclude_document: str | None = None,
        evidence: list | None = None,
    ) -> MemoryMatch | None:
        """The closest translation of `text` into `locale`, or None below the threshold.

        ``evidence``, if given, gets what the answer depended on (see :class:`Changes`)."""
        found = self.search(text, locale, threshold=threshold, limit=1,
                            exclude_document=exclude_document, evidence=evidence)
        return found[0] if found else None

    def search(
        self,
        text: str,
        locale: str,
        *,
        threshold: float = 0.6,
        limit: int = 5,
        exclude_document: str | None = None,
        evidence: list | None = None,
    ) -> list[MemoryMatch]:
        """The best distinct translations of `text` into `locale`, best first.

        Ties go to the exact locale, then to the origin first by name (a catalog's path,
        a compendium's file name), then to the source, context and translation in
        code-point order: the same answer whatever order the catalogs were learned or
        changed in.
        `exclude_document` leaves out that document's own catalog for `locale`,
        which its merge already knows.
        """
        return self._guarded(
            self._search, text, locale, threshold, limit, exclude_document, evidence)

    def _search(
        self, text: str, locale: str, threshold: float, limit: int, exclude_document: str | None,
        evidence: list | None = None,
    ) -> list[MemoryMatch]:
        language = language_of(locale)
        ids = self._candidates(text, language, threshold, evidence)
        if not ids:
            return []
        cutoff = threshold * 100
        scores = {}  # the candidates close enough, scored; only they are read in full
        for number, (source, row_locale) in self._sources_of(ids):
            if _locale_fits(row_locale, locale):
                score = 100.0 if source == text else fuzz.ratio(text, source, score_cutoff=cutoff)
                if score >= cutoff:
                    scores[number] = score
        if not scores:
            return []
        rows = self.db.execute(
            "SELECT s.id, s.source, s.target, s.locale, s.context, o.name, o.kind, o.document "
            "FROM segments s JOIN origins o ON o.id = s.origin_id WHERE s.id IN "
            f"({','.join('?' * len(scores))})",
            list(scores),
        ).fetchall()
        ranked = []
        for number, source, target, row_locale, context, name, kind, document in rows:
            if (
                exclude_document
                and kind == "catalog"
                and document == exclude_document
                and row_locale == locale
            ):
                continue
            score = scores[number]
            match = MemoryMatch(
                score / 100,
                source,
                target,
                row_locale,
                context,
                _origin_label(name, kind, document, row_locale),
            )
            ranked.append(((-score, row_locale != locale, name, source, context is not None,
                            context or "", target), match))
        ranked.sort(key=lambda pair: pair[0])
        distinct: dict[tuple[str, str], MemoryMatch] = {}
        for _, match in ranked:
            distinct.setdefault((match.source, match.target), match)
        return list(distinct.values())[:limit]

    def _sources_of(self, ids: list[int]) -> Iterator[tuple[int, tuple[str, str]]]:
        """``(id, (source, locale))`` of segments, kept from one look-up to the next while
        the memory stays as it is (a merge's look-ups read many of the same segments)."""
        version = (self.db.execute("PRAGMA data_version").fetchone()[0], self.db.total_changes)
        if version != self._read_version:
            self._read.clear()
            self._read_version = version
        known = self._read
        missing = [number for number in ids if number not in known]
        if missing:
            for number, source, locale in self.db.execute(
                f"SELECT id, source, locale FROM segments WHERE id IN ({','.join('?' * len(missing))})",
                missing,
            ):
                known[number] = (source, locale)
        return ((number, known[number]) for number in ids if number in known)

    def _candidates(
        self, text: str, language: str, threshold: float, evidence: list | None = None
    ) -> list[int]:
        """Segment ids worth scoring: exact sources, shared rare prefixes, similar lengths.

        ``evidence`` gets ``[text, chosen, following, shortlist, scan]``: the prefixes
        whose index entries were read and the first one left out (each ``[count,
        prefix]``; None when none was), how many segments they named, and for a short
        text ``[low, high, found, last]``: the length window scanned, how many segments it
        gave, and the last id taken when that was all it may take (else None)."""
        ids = [
            row[0]
            for row in self.db.execute(
                "SELECT id FROM segments WHERE language = ? AND source_key = ? AND source = ? "
                "ORDER BY id LIMIT 20", (language, _source_key(text), text),
            )
        ]
        if threshold >= EXACT:  # only the same text can match: no prefix read, no scan
            if evidence is not None:
                evidence.append([text, [], None, 0, None])
            return ids
        wanted = sorted(set(tokens(text)))
        chosen: list[list] = []
        following, shortlist = None, []
        if wanted:
            counts = self.db.execute(
                "SELECT df, token FROM postings WHERE language = ? AND token IN "
                f"({','.join('?' * len(wanted))})",
                (language, *wanted),
            ).fetchall()
            chosen, following = _rarest(counts)
            if chosen:
                shortlist = self._most_shared(language, [token for _, token in chosen])
                ids += shortlist
        scan = None
        if sum(" " not in token for token in wanted) < 3:  # a few words only
            ratio = threshold / (2 - threshold) if threshold < 2 else 1.0
            low, high = int(len(text) * ratio), int(len(text) / max(ratio, 1e-9)) + 1
            similar = [
                row[0]
                for row in self.db.execute(
                    "SELECT id FROM segments WHERE language = ? AND length BETWEEN ? AND ? "
                    "ORDER BY id LIMIT ?",
                    (language, low, high, _SCAN),
                )
            ]
            ids += similar
            scan = [low, high, len(similar), max(similar) if len(similar) >= _SCAN else None]
        if evidence is not None:
            evidence.append([text, chosen, following, len(shortlist), scan])
        return list(dict.fromkeys(ids))


    def _most_shared(self, language: str, chosen: list[str]) -> list[int]:
        """The :data:`_SHORTLIST` segments holding the most of the ``chosen`` prefixes,
        ties to the lower id."""
        shared: Counter[int] = Counter()
        for (ids,) in self.db.execute(
            f"SELECT ids FROM postings WHERE language = ? AND token IN ({','.join('?' * len(chosen))})",
            (language, *chosen),
        ):
            shared.update(_unpacked(ids))
        most = heapq.nsmallest(_SHORTLIST, shared.items(), key=lambda item: (-item[1], item[0]))
        return [number for number, _ in most]


def _prefixes_version() -> str:
    """A digest of the prefixes :func:`tokens` gives a probe text. The index removes a
    segment's entries by the prefixes of its source as this tolmach makes them, so a
    memory indexed by a tolmach that made them otherwise is made again (or, holding
    imports, rebuilt) like one of an older schema."""
    probe = "Модели памяти ROCm 7.2 и HIP-ядра: 模型内存 — naïve Café 2026 ё Ё"
    return hashlib.blake2b("\t".join(tokens(probe)).encode(), digest_size=6).hexdigest()


def _layout() -> str:
    return f"{SCHEMA_VERSION}/{_prefixes_version()}"


def _layout_of(stored: dict[str, str]) -> str:
    """The schema and prefixes of a stored memory, as :func:`_layout` gives them."""
    return f"{stored.get('schema')}/{stored.get('prefixes')}"


def _rarest(counts: Iterable[tuple[int, str]]) -> tuple[list[list], list | None]:
    """The prefixes a look-up reads, rarest first as FuzzyIndex does, from ``(count,
    prefix)`` pairs; and the first one left out (None when all were taken)."""
    chosen: list[list] = []
    spent = 0
    for df, token in sorted(counts):
        if (len(chosen) >= 4 and spent + df > _SHORTLIST) or (
            len(chosen) >= 2 and spent + df > _BUDGET
        ):
            return chosen, [df, token]
        chosen.append([df, token])
        spent += df
    return chosen, None


class Changes:
    """What changed in a language's memory since an answer was recorded, and whether
    that could alter the answer.

    A look-up scores the segments its candidates name, so its answer stays while its
    candidates and their scores do. With the evidence :meth:`TranslationMemory.best`
    left, a change can alter the answer only if its source is the text asked (exact
    candidates); or is as similar to it as the threshold asks (rapidfuzz's Indel ratio,
    as the search scores: a match came or went); or shares prefixes with it so that the
    rarest ones would now be picked differently; or holds a picked prefix whose
    candidates may have been cut short; or, for a short text, falls in the length window
    scanned where that scan was or may now be cut short by other ids than before.
    """

    def __init__(self, entries: list[tuple[str, int, int]], counts: dict[str, int]) -> None:
        self.entries = entries  # (source, segment id, added)
        self.sources = sorted({source for source, _, _ in entries})
        self.features = {feature for source in self.sources for feature in tokens(source)}
        self.counts = counts  # segments holding each of those prefixes now

    def __bool__(self) -> bool:
        return bool(self.entries)

    def may_alter(self, asked: list, threshold: float) -> bool:
        """Whether the answer recorded with evidence ``asked`` may differ now."""
        if len(asked) != 5:
            return True
        text, chosen, following, shortlist, scan = asked
        cutoff = threshold * 100
        for source in self.sources:
            if source == text or fuzz.ratio(text, source, score_cutoff=cutoff) >= cutoff:
                return True
        if threshold >= EXACT:  # the look-up read the text's own segments only
            return False
        shared = self.features.intersection(tokens(text))
        if shared and (self._picks_differ(shared, chosen, following)
                       or self._shortlist_moves(shared, chosen, shortlist)):
            return True
        return scan is not None and self._scan_moves(*scan)

    def _picks_differ(self, shared: set[str], chosen: list, following: list | None) -> bool:
        """Whether the rarest prefixes of the text would be picked differently now. The
        prefixes left out and unchanged count at least as many as ``following``, so
        ``following`` as it was stands for them."""
        keys = {token: df for df, token in chosen}
        changed = {token: self.counts.get(token, 0) for token in shared}
        keys.update(changed)
        pairs = [(df, token) for token, df in keys.items() if df > 0]
        if following is not None:
            pairs.append((following[0], following[1]))
        picked, _ = _rarest(pairs)
        return {token for _, token in picked} != {token for _, token in chosen}

    def _shortlist_moves(self, shared: set[str], chosen: list, shortlist: int) -> bool:
        """Whether the segments named by the picked prefixes may be cut differently."""
        if shared.isdisjoint(token for _, token in chosen):
            return False
        return shortlist + sum(added for _, _, added in self.entries) >= _SHORTLIST

    def _scan_moves(self, low: int, high: int, found: int, last: int | None) -> bool:
        """Whether the segments a short text's length scan takes may differ by more than
        the changed ones (which are not similar enough to matter)."""
        inside = [(number, added) for source, number, added in self.entries
                  if low <= len(source) <= high]
        if not inside:
            return False
        if last is None:
            return found + sum(added for _, added in inside) >= _SCAN
        below = [added for number, added in inside if number <= last]
        return sum(below) != len(below) - sum(below)  # as many in as out: the cut stays


class _Transaction:
    """BEGIN IMMEDIATE … COMMIT, rolled back on any error: all or nothing."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")


@dataclass
class _Plan:
    """What learning an origin changes: the segments it gives up ``(id, language,
    source)`` and the rows of those it gains (their ids as finally taken)."""

    gone: list[tuple]
    rows: list[list]

    def changes(self) -> list[tuple[str, str, int, bool]]:
        """``(language, source, id, added)`` for the journal."""
        return [(language, source, number, False) for number, language, source in self.gone] \
            + [(row[3], row[5], row[0], True) for row in self.rows]


def _segment_row(name: str, origin: int, key: tuple, occurrence: int, keys: dict) -> list:
    """A segments row for the ``occurrence``-th unit ``key`` of an origin; ``keys`` keeps
    the key of each source (the same source comes in every locale)."""
    locale, context, source, target = key
    found = keys.get(source)
    if found is None:
        found = keys[source] = _source_key(source)
    return [_segment_id(name, key, occurrence), origin, locale, language_of(locale), context,
            source, target, len(source), found]


def _source_key(source: str) -> int:
    """What the exact look-ups find a source by: a 63-bit digest of it, a short key for
    the index where the text itself (a paragraph, often) would make it long."""
    return int.from_bytes(hashlib.blake2b(source.encode(), digest_size=8).digest()) >> 1


class _Postings:
    """Index entries to take out and put in, gathered while segments go and come and
    written by :meth:`TranslationMemory._index` in one pass: removals first, so a
    segment id that goes and comes again (an origin forgotten, another learned under a
    clashing id) stays. A segment comes at most once in a transaction (an origin is
    learned once in it, and ids are unique), so the lists of new prefixes need no
    merging. A segment's prefixes are those :func:`tokens` gives its source, worked out
    once for each source (a source comes in every locale, and goes as it came)."""

    def __init__(self) -> None:
        self.going: list[tuple[str, str, int]] = []  # (language, source, id)
        self.coming: list[tuple[str, str, int]] = []
        self.prefixes: dict[str, str] = {}  # source → its prefixes joined by tabs (compact)

    def remove(self, segments: Iterable[tuple]) -> None:
        """Segments ``(id, language, source, …)`` that went."""
        self.going += ((language, source, number) for number, language, source, *_ in segments)

    def add(self, rows: Iterable[list]) -> None:
        """Segments rows that came, under the ids they finally took."""
        self.coming += ((row[3], row[5], row[0]) for row in rows)

    def languages(self) -> list[str]:
        return sorted({entry[0] for entry in self.going} | {entry[0] for entry in self.coming})

    def lists(self, language: str) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
        """Prefix → segment ids in ``language``: of the entries going, and of those coming
        (sorted)."""
        self.coming.sort(key=lambda entry: entry[2])
        return self._grouped(self.going, language), self._grouped(self.coming, language)

    def _grouped(self, entries: list[tuple[str, str, int]], language: str) -> dict[str, list[int]]:
        """Each prefix's segment ids in ``language``, in the order of ``entries``."""
        lists: defaultdict[str, list[int]] = defaultdict(list)
        known = self.prefixes
        for entry_language, source, number in entries:
            if entry_language == language:
                prefixes = known.get(source)
                if prefixes is None:
                    prefixes = known[source] = "\t".join(sorted(set(tokens(source))))
                if prefixes:
                    for prefix in prefixes.split("\t"):
                        lists[prefix].append(number)
        return lists


def _changed_lists(language: str, touched: list[str], held: dict[str, array],
                   going: dict[str, list[int]], coming: dict[str, list[int]],
                   emptied: list[tuple[str, str]]) -> Iterator[tuple[str, str, int, bytes]]:
    """The rows of the prefixes whose lists changed, as they are to be stored; the
    prefixes left with none go to ``emptied``."""
    if not held and not going:  # all new (a memory being made): the lists as they came
        for token in touched:
            ids = coming[token]
            yield language, token, len(ids), _packed(ids)
        return
    for token in touched:
        stored = held.get(token)
        if stored is None and token not in going:
            ids = coming[token]
        else:
            kept = set(stored or ())
            kept.difference_update(going.get(token, ()))
            kept.update(coming.get(token, ()))
            ids = sorted(kept)
        if ids:
            yield language, token, len(ids), _packed(ids)
        elif stored is not None:
            emptied.append((language, token))


_LITTLE_ENDIAN = sys.byteorder == "little"


def _packed(ids: list[int]) -> bytes:
    """A posting list as stored: 64-bit little-endian ids (the same file on any machine)."""
    packed = array("q", ids)
    if not _LITTLE_ENDIAN:
        packed.byteswap()
    return packed.tobytes()


def _unpacked(stored: bytes) -> array:
    ids = array("q")
    ids.frombytes(stored)
    if not _LITTLE_ENDIAN:
        ids.byteswap()
    return ids


_ID_SPACE = 1 << 62


def _unit_key(unit: TranslationUnit) -> tuple[str, str | None, str, str]:
    return unit.locale, unit.context, unit.source, unit.target


def _segment_id(origin: str, key: tuple, occurrence: int) -> int:
    """A segment's id from its content, so that a memory holds the same ids however it was
    filled (look-ups that take the first ones take the same ones). The source decides the
    high bits: a translation edited in place keeps its place among the ids, so a scan cut
    at an id stays where it was."""
    locale, context, source, target = key
    rest = "\0".join((origin, locale, "" if context is None else f"={context}", target,
                      str(occurrence)))
    high = int.from_bytes(hashlib.blake2b(source.encode(), digest_size=5).digest())
    low = int.from_bytes(hashlib.blake2b(rest.encode(), digest_size=3).digest()) % (1 << 22)
    return (high << 22 | low) + 1


def _stamp(path: Path) -> str:
    """What tells that a file changed: its size and modification time."""
    status = path.stat()
    return f"{status.st_size}:{status.st_mtime_ns}"


def learn_parts(jobs: list[tuple[str, list[CatalogFile], Path]]) -> list[int]:
    """Make each part of a memory made anew (see :meth:`TranslationMemory._learn_in_parts`):
    some catalogs, read here, learned into a memory file (new, or the one being made, with
    nothing learned yet); how many each learned. A batch function a worker can run."""
    learned = []
    for source_locale, catalogs, path in jobs:
        with TranslationMemory(path, source_locale, scratch=True) as part:
            learned.append(part.refresh(catalogs))
    return learned


def part_maker(executor: Executor | None) -> PartMaker | None:
    """Makes a new memory's parts at once: on the executor's workers, and in this process,
    which would otherwise wait for them. None without a pool of two or more: one part at
    a time is no quicker than learning the memory in one go."""
    from tolmach.jobs.executor import run_beside, workers_of

    if workers_of(executor) < 2:
        return None

    def make(jobs: list[tuple[str, list[CatalogFile], Path]]) -> None:
        run_beside(learn_parts, [[job] for job in jobs], executor)

    return make


def _language_groups(catalogs: list[CatalogFile]) -> list[list[CatalogFile]] | None:
    """The catalogs in runs of one language, in order; None when a language comes back
    after another."""
    groups: list[list[CatalogFile]] = []
    seen: set[str] = set()
    for catalog in catalogs:
        language = language_of(catalog.locale)
        if groups and language_of(groups[-1][0].locale) == language:
            groups[-1].append(catalog)
        elif language in seen:
            return None
        else:
            seen.add(language)
            groups.append([catalog])
    return groups


def reviewed_units(catalogs: list[CatalogFile]) -> list[list[TranslationUnit]]:
    """What the memory learns of each catalog (its reviewed translations as units); a
    batch function a worker can run."""
    return [list(_catalog_units(catalog)) for catalog in catalogs]


def _catalog_units(catalog: CatalogFile) -> Iterator[TranslationUnit]:
    """The reviewed translations of a catalog: translated, not fuzzy, singular form."""
    for msgid, target, context in reviewed_translations(read_po(catalog.path)):
        yield TranslationUnit(msgid, target, catalog.locale, context, f"{catalog.document}.po")


def reviewed_translations(entries: Iterable) -> list[tuple[str, str, str | None]]:
    """``(msgid, translation, msgctxt)`` of the entries the memory learns from a catalog:
    translated, not fuzzy, singular form; a merge that keeps this list leaves the memory
    as it is (:meth:`TranslationMemory.restamp`)."""
    found = []
    for entry in entries:
        if "fuzzy" in entry.flags or entry.msgid == "":
            continue
        target = entry.msgstr_plural.get(0, "") if entry.msgid_plural else entry.msgstr
        if target:
            found.append((entry.msgid, target, entry.msgctxt))
    return found


def language_of(locale: str) -> str:
    """``de_AT`` → ``de``: the language part of a locale code."""
    return locale.replace("-", "_").split("_")[0].lower()


def _locale_fits(stored: str, wanted: str) -> bool:
    """de_AT serves de; de serves de_AT; zh_TW does not serve zh_CN."""
    return stored == wanted or stored == language_of(wanted) or wanted == language_of(wanted)


def _origin_label(name: str, kind: str, document: str | None, locale: str) -> str:
    if kind == "catalog":
        return f"{document}.po, {locale}"
    return f"{name}, {locale}"


# ------------------------------------------------------------ project layout

CACHE_FILE = Path(".tolmach-cache") / "memory.sqlite3"


def project_catalogs(root: Path, locales_dir: str = "locales") -> list[CatalogFile]:
    """The catalogs of a project: ``<locales>/<locale>/LC_MESSAGES/<document>.po``, where a
    document's name may hold folders (``guide/intro/index``); in path order.

    Found as ``Path.glob("*/LC_MESSAGES/**/*.po")`` finds them, with one directory listing
    per folder; a catalog linked from outside (itself, or a folder on its way) is refused.
    Below ``LC_MESSAGES`` the walk follows no link, so only a locale's ``LC_MESSAGES``
    (with the locale folder) and a catalog that is a link itself have links to follow:
    the listings say which are, and every other catalog costs no system call of its own.
    """
    locales = Path(root) / locales_dir
    found = _catalog_parts(str(locales))
    if not found:
        return []
    shown = locales.relative_to(root).as_posix()
    shown = "" if shown == "." else shown + "/"
    guard = LinkGuard()
    catalogs = []
    followed: set[str] = set()  # locales whose LC_MESSAGES was followed
    for parts, linked in found:  # a catalog linked from outside is never read into the memory
        path = locales.joinpath(*parts)
        if parts[0] not in followed:
            guard.inside(locales, locales / parts[0] / "LC_MESSAGES", where=f"{locales_dir}/",
                         refused=_NOT_FOLLOWED)
            followed.add(parts[0])
        if linked:
            guard.inside(locales, path, where=f"{locales_dir}/", refused=_NOT_FOLLOWED)
        messages = max(n for n, part in enumerate(parts[:-1]) if part == "LC_MESSAGES")
        name = parts[-1][:-3] if parts[-1] != ".po" else parts[-1]  # as with_suffix("")
        document = "/".join((*parts[messages + 1:-1], name))
        catalogs.append(CatalogFile(path, shown + "/".join(parts), parts[messages - 1], document))
    return catalogs


def _catalog_parts(locales: str) -> list[tuple[tuple[str, ...], bool]]:
    """The parts (from ``locales``) of every ``*/LC_MESSAGES/**/*.po``, sorted as paths
    are, each with whether the file is a link: a locale folder and LC_MESSAGES may be
    links to folders, ``**`` follows none."""
    found: list[tuple[tuple[str, ...], bool]] = []
    for locale in _listing(locales):
        messages = os.path.join(locale.path, "LC_MESSAGES")
        if _is_folder(locale) and os.path.isdir(messages):
            _collect_catalogs(messages, (locale.name, "LC_MESSAGES"), found)
    found.sort()
    return found


def _collect_catalogs(folder: str, parts: tuple[str, ...], found: list) -> None:
    for entry in _listing(folder):
        if entry.name.endswith(".po"):
            found.append(((*parts, entry.name), _is_link(entry)))
        if _is_folder(entry) and not entry.is_symlink():
            _collect_catalogs(entry.path, (*parts, entry.name), found)


def _listing(folder: str) -> list[os.DirEntry]:
    try:
        with os.scandir(folder) as entries:
            return list(entries)
    except OSError:  # not there, not a folder, not readable: glob finds nothing there
        return []


def _is_link(entry: os.DirEntry) -> bool:
    """Whether an entry is a link; one that cannot be told is followed as if it were."""
    try:
        return entry.is_symlink()
    except OSError:
        return True


def _is_folder(entry: os.DirEntry) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def project_memory(
    root: Path, source_locale: str, locales_dir: str = "locales", read: CatalogReader | None = None,
    make_parts: PartMaker | None = None,
) -> TranslationMemory:
    """Open the project's memory under its cache folder, brought up to date with its catalogs
    (``read`` as :meth:`TranslationMemory.refresh` takes it, ``make_parts`` as
    :func:`made_anew` does).

    A memory made by this call is removed again when a catalog cannot be read: bad input
    leaves nothing behind.
    """
    path = Path(root) / CACHE_FILE
    if not path.exists():
        return made_anew(path, source_locale, project_catalogs(root, locales_dir), read,
                         make_parts)
    return project_memory_at(path, source_locale, project_catalogs(root, locales_dir), read)


def made_anew(path: Path, source_locale: str, catalogs: list[CatalogFile],
              read: CatalogReader | None = None,
              make_parts: PartMaker | None = None) -> TranslationMemory:
    """A memory at ``path`` (where none is) learned from ``catalogs``, open; given
    ``make_parts``, learned in parts, one language each, where it can be.

    It is made in a file beside its place without a write-ahead log and without waiting
    for the disk, then synced once and linked into place: a memory of 100,000 segments
    is some 150 MB, which the log would write twice (once to the log, once into the
    file). A failure or an interruption leaves no memory at ``path``; the next one made
    removes what a process no longer running left aside. Should another process (a
    ``tm`` command, which takes no project lock) put its memory there first, that one is
    opened and brought up to date instead, so no two files ever answer to one name.
    """
    try:
        for leftover in _left_by_ended_processes(path):
            leftover.unlink(missing_ok=True)
    except OSError as error:
        raise _not_made(path, error) from error
    scratch = path.with_name(f"{path.name}.new-{os.getpid()}-{os.urandom(4).hex()}")
    journal = Path(f"{scratch}-journal")  # left empty when the file is closed
    memory = TranslationMemory(scratch, source_locale, scratch=True)
    try:
        if make_parts is None or not memory._learn_in_parts(catalogs, make_parts):
            memory.refresh(catalogs, read)
        memory.close()
        flush_to_disk(scratch)
        if not path.exists():  # a log or index of a memory no longer there would be read
            for stale in (Path(f"{path}-wal"), Path(f"{path}-shm")):
                stale.unlink(missing_ok=True)
        placed = place_if_absent(scratch, path)
        journal.unlink(missing_ok=True)
    except BaseException as error:
        memory.close()
        with contextlib.suppress(OSError):
            for leftover in (scratch, journal):
                leftover.unlink(missing_ok=True)
        if isinstance(error, OSError):
            raise _not_made(path, error) from error
        raise
    if placed:
        return TranslationMemory(path, source_locale)
    return project_memory_at(path, source_locale, catalogs, read)


def project_memory_at(path: Path, source_locale: str, catalogs: list[CatalogFile],
                      read: CatalogReader | None = None) -> TranslationMemory:
    """The memory at ``path``, opened and brought up to date with ``catalogs``."""
    memory = TranslationMemory(path, source_locale)
    try:
        memory.refresh(catalogs, read)
    except BaseException:
        memory.close()
        raise
    return memory


def _left_by_ended_processes(path: Path) -> Iterator[Path]:
    """Files a memory's making left beside ``path`` whose process no longer runs."""
    for leftover in path.parent.glob(f"{path.name}.new-*"):
        pid = leftover.name[len(path.name) + len(".new-"):].split("-")[0]
        if not (pid.isdigit() and _running(int(pid))):
            yield leftover


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: running
        return True
    return True


def _not_made(path: Path, error: OSError) -> TranslationMemoryError:
    return TranslationMemoryError(
        path, f"the translation memory cannot be made ({error.strerror or error}); "
        "make the folder writable (or free some space) and run the command again")
