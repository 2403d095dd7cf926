"""The translation memory: every translation of the project, in SQLite.

It holds the reviewed (translated, not fuzzy) entries of every catalog of the
project, all documents and locales, plus the compendia a user imports (TMX or
PO files).  A catalog is read again only when its size or modification time
changed, so keeping the memory current costs little.

Look-ups find similar source strings through an index of word prefixes kept
in the database (with counts, so the rarest prefixes of a query are used) and
score the short list with the similarity `tolmach.catalog.merge` uses.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Self, TypeVar

from rapidfuzz import fuzz

from tolmach.catalog.pofile import read_po
from tolmach.catalog.similarity import tokens
from tolmach.fileio import LinkGuard
from tolmach.memory.tmx import TranslationUnit

T = TypeVar("T")

SCHEMA_VERSION = "1"
_BUDGET = 3000  # index entries a look-up may read
_SHORTLIST = 60
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
    features TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS segments_by_source ON segments (language, source);
CREATE INDEX IF NOT EXISTS segments_by_origin ON segments (origin_id);
CREATE INDEX IF NOT EXISTS segments_by_length ON segments (language, length);
CREATE TABLE IF NOT EXISTS tokens (
    language TEXT NOT NULL, token TEXT NOT NULL, segment_id INTEGER NOT NULL,
    PRIMARY KEY (language, token, segment_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS token_counts (
    language TEXT NOT NULL, token TEXT NOT NULL, df INTEGER NOT NULL,
    PRIMARY KEY (language, token)) WITHOUT ROWID;
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
_COUNT = "INSERT INTO token_counts VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET df = df + excluded.df"


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

    def __init__(self, path: Path, source_locale: str = "ru", timeout: float = 2.0) -> None:
        self.path = Path(path)
        self.source_locale = source_locale
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
        self.db.execute("PRAGMA journal_mode = WAL")
        self.db.execute("PRAGMA synchronous = NORMAL")
        self.db.executescript(_SCHEMA)
        stored = dict(self.db.execute("SELECT key, value FROM meta"))
        if not stored:
            self.db.executemany(
                "INSERT INTO meta VALUES (?, ?)",
                [("schema", SCHEMA_VERSION), ("source_locale", self.source_locale)],
            )
        elif stored.get("schema") != SCHEMA_VERSION:
            raise sqlite3.DatabaseError(f"schema {stored.get('schema')}, expected {SCHEMA_VERSION}")
        elif stored.get("source_locale") != self.source_locale:
            raise TranslationMemoryError(
                self.path,
                f"the memory holds translations from {stored['source_locale']}, "
                f"the project translates from {self.source_locale}; run `tolmach tm rebuild`",
            )
        if "id" not in stored:  # what tells this database from one made again later
            self.db.execute("INSERT OR IGNORE INTO meta VALUES ('id', ?)", (os.urandom(8).hex(),))

    def state(self, language: str) -> str:
        """A token that changes whenever the segments in ``language`` change (or the
        database is made anew): an answer of :meth:`best` recorded with it still holds
        while the token is the same."""
        rows = dict(self._guarded(lambda: self.db.execute(
            "SELECT key, value FROM meta WHERE key IN ('id', ?)", (f"state:{language}",)
        ).fetchall()))
        return f"{rows.get('id', '')}:{rows.get(f'state:{language}', '')}"

    def _touch(self, languages: Iterable[str]) -> None:
        """Give each language whose segments change a new :meth:`state`."""
        self.db.executemany(
            "INSERT OR REPLACE INTO meta VALUES (?, ?)",
            [(f"state:{language}", os.urandom(8).hex()) for language in sorted(set(languages))],
        )

    # ------------------------------------------------------------ filling

    def refresh(self, catalogs: Iterable[CatalogFile]) -> int:
        """Learn the catalogs that changed and forget the ones gone; returns how many were read."""
        return self._guarded(self._refresh, list(catalogs))

    def _refresh(self, catalogs: list[CatalogFile]) -> int:
        known = dict(self.db.execute("SELECT name, stamp FROM origins WHERE kind = 'catalog'"))
        changed = [
            catalog for catalog in catalogs if known.get(catalog.name) != _stamp(catalog.path)
        ]
        units = {catalog.name: list(_catalog_units(catalog)) for catalog in changed}
        present = {catalog.name for catalog in catalogs}
        with self._transaction():
            for name in sorted(known.keys() - present):
                self._forget_origin(name)
            for catalog in changed:
                self._replace_origin(
                    catalog.name,
                    "catalog",
                    catalog.document,
                    _stamp(catalog.path),
                    units[catalog.name],
                )
        return len(changed)

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
                        self._replace_origin(catalog.name, "catalog", catalog.document,
                                             _stamp(catalog.path), [])

        self._guarded(action)

    def import_units(self, name: str, units: list[TranslationUnit]) -> int:
        """Add a compendium's units under its name, replacing an earlier import of it."""

        def action() -> int:
            with self._transaction():
                return self._replace_origin(name, "compendium", None, "imported", units)

        return self._guarded(action)

    def _transaction(self) -> _Transaction:
        return _Transaction(self.db)

    def _replace_origin(
        self, name: str, kind: str, document: str | None, stamp: str, units: list[TranslationUnit]
    ) -> int:
        self._forget_origin(name)
        origin = self.db.execute(
            "INSERT INTO origins (name, kind, document, stamp) VALUES (?, ?, ?, ?)",
            (name, kind, document, stamp),
        ).lastrowid
        first = self.db.execute("SELECT COALESCE(MAX(id), 0) FROM segments").fetchone()[0] + 1
        rows, postings = [], []
        for number, unit in enumerate(units, start=first):
            language, features = language_of(unit.locale), sorted(set(tokens(unit.source)))
            rows.append(
                (
                    number,
                    origin,
                    unit.locale,
                    language,
                    unit.context,
                    unit.source,
                    unit.target,
                    len(unit.source),
                    "\t".join(features),
                )
            )
            postings += [(language, feature, number) for feature in features]
        self.db.executemany("INSERT INTO segments VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        self._index(postings, +1)
        self._touch(row[3] for row in rows)
        return len(units)

    def _forget_origin(self, name: str) -> None:
        """Remove an origin with its segments and their index entries."""
        rows = self.db.execute(
            "SELECT s.id, s.language, s.features FROM segments s JOIN origins o "
            "ON o.id = s.origin_id WHERE o.name = ?",
            (name,),
        ).fetchall()
        postings = [
            (language, feature, number)
            for number, language, features in rows
            for feature in features.split("\t")
            if feature
        ]
        self._index(postings, -1)
        self._touch(language for _, language, _ in rows)
        self.db.execute("DELETE FROM origins WHERE name = ?", (name,))

    def _index(self, postings: list[tuple[str, str, int]], sign: int) -> None:
        """Add (+1) or remove (-1) index entries and keep the prefix counts right."""
        if sign > 0:
            self.db.executemany("INSERT OR IGNORE INTO tokens VALUES (?, ?, ?)", postings)
        else:
            self.db.executemany(
                "DELETE FROM tokens WHERE language = ? AND token = ? AND segment_id = ?", postings
            )
        counts = Counter((language, feature) for language, feature, _ in postings)
        self.db.executemany(_COUNT, [(*key, sign * count) for key, count in counts.items()])

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
        self, text: str, locale: str, *, threshold: float = 0.6, exclude_document: str | None = None
    ) -> MemoryMatch | None:
        """The closest translation of `text` into `locale`, or None below the threshold."""
        found = self.search(
            text, locale, threshold=threshold, limit=1, exclude_document=exclude_document
        )
        return found[0] if found else None

    def search(
        self,
        text: str,
        locale: str,
        *,
        threshold: float = 0.6,
        limit: int = 5,
        exclude_document: str | None = None,
    ) -> list[MemoryMatch]:
        """The best distinct translations of `text` into `locale`, best first.

        Ties go to the exact locale, then to the origin first by name (a catalog's path,
        a compendium's file name), then to the earlier entry in it: the same answer
        whatever order the catalogs were learned in.
        `exclude_document` leaves out that document's own catalog for `locale`,
        which its merge already knows.
        """
        return self._guarded(self._search, text, locale, threshold, limit, exclude_document)

    def _search(
        self, text: str, locale: str, threshold: float, limit: int, exclude_document: str | None
    ) -> list[MemoryMatch]:
        language = language_of(locale)
        ids = self._candidates(text, language, threshold)
        if not ids:
            return []
        rows = self.db.execute(
            "SELECT s.id, s.source, s.target, s.locale, s.context, o.name, o.kind, o.document "
            f"FROM segments s JOIN origins o ON o.id = s.origin_id WHERE s.id IN "
            f"({','.join('?' * len(ids))})",
            ids,
        ).fetchall()
        cutoff = threshold * 100
        ranked = []
        for number, source, target, row_locale, context, name, kind, document in rows:
            if not _locale_fits(row_locale, locale):
                continue
            if (
                exclude_document
                and kind == "catalog"
                and document == exclude_document
                and row_locale == locale
            ):
                continue
            score = 100.0 if source == text else fuzz.ratio(text, source, score_cutoff=cutoff)
            if score >= cutoff:
                match = MemoryMatch(
                    score / 100,
                    source,
                    target,
                    row_locale,
                    context,
                    _origin_label(name, kind, document, row_locale),
                )
                ranked.append(((-score, row_locale != locale, name, number), match))
        ranked.sort(key=lambda pair: pair[0])
        distinct: dict[tuple[str, str], MemoryMatch] = {}
        for _, match in ranked:
            distinct.setdefault((match.source, match.target), match)
        return list(distinct.values())[:limit]

    def _candidates(self, text: str, language: str, threshold: float) -> list[int]:
        """Segment ids worth scoring: exact sources, shared rare prefixes, similar lengths."""
        ids = [
            row[0]
            for row in self.db.execute(
                "SELECT id FROM segments WHERE language = ? AND source = ? ORDER BY id LIMIT 20",
                (language, text),
            )
        ]
        wanted = sorted(set(tokens(text)))
        if wanted:
            counts = self.db.execute(
                "SELECT df, token FROM token_counts WHERE language = ? AND df > 0 AND token IN "
                f"({','.join('?' * len(wanted))})",
                (language, *wanted),
            ).fetchall()
            chosen, spent = [], 0
            for df, token in sorted(counts):  # rarest first, as FuzzyIndex does
                if len(chosen) >= 4 and spent + df > _SHORTLIST:
                    break
                if len(chosen) >= 2 and spent + df > _BUDGET:
                    break
                chosen.append(token)
                spent += df
            if chosen:
                ids += [
                    row[0]
                    for row in self.db.execute(
                        "SELECT segment_id FROM tokens WHERE language = ? AND token IN "
                        f"({','.join('?' * len(chosen))}) GROUP BY segment_id "
                        "ORDER BY COUNT(*) DESC, segment_id LIMIT ?",
                        (language, *chosen, _SHORTLIST),
                    )
                ]
        if sum(" " not in token for token in wanted) < 3:  # a few words only
            ratio = threshold / (2 - threshold) if threshold < 2 else 1.0
            ids += [
                row[0]
                for row in self.db.execute(
                    "SELECT id FROM segments WHERE language = ? AND length BETWEEN ? AND ? "
                    "ORDER BY id LIMIT 2000",
                    (language, int(len(text) * ratio), int(len(text) / max(ratio, 1e-9)) + 1),
                )
            ]
        return list(dict.fromkeys(ids))


class _Transaction:
    """BEGIN IMMEDIATE … COMMIT, rolled back on any error: all or nothing."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")


def _stamp(path: Path) -> str:
    """What tells that a file changed: its size and modification time."""
    status = path.stat()
    return f"{status.st_size}:{status.st_mtime_ns}"


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
    per folder; a catalog linked from outside (itself, or a folder on its way) is refused,
    each folder's links followed once rather than every catalog's whole path.
    """
    locales = Path(root) / locales_dir
    found = _catalog_parts(str(locales))
    if not found:
        return []
    shown = locales.relative_to(root).as_posix()
    shown = "" if shown == "." else shown + "/"
    guard = LinkGuard()
    catalogs = []
    for parts in found:  # a catalog linked from outside is never read into the memory
        path = locales.joinpath(*parts)
        guard.inside(locales, path, where=f"{locales_dir}/", refused=_NOT_FOLLOWED)
        messages = max(n for n, part in enumerate(parts[:-1]) if part == "LC_MESSAGES")
        name = parts[-1][:-3] if parts[-1] != ".po" else parts[-1]  # as with_suffix("")
        document = "/".join((*parts[messages + 1:-1], name))
        catalogs.append(CatalogFile(path, shown + "/".join(parts), parts[messages - 1], document))
    return catalogs


def _catalog_parts(locales: str) -> list[tuple[str, ...]]:
    """The parts (from ``locales``) of every ``*/LC_MESSAGES/**/*.po``, sorted as paths
    are: a locale folder and LC_MESSAGES may be links to folders, ``**`` follows none."""
    found: list[tuple[str, ...]] = []
    for locale in _listing(locales):
        messages = os.path.join(locale.path, "LC_MESSAGES")
        if _is_folder(locale) and os.path.isdir(messages):
            _collect_catalogs(messages, (locale.name, "LC_MESSAGES"), found)
    found.sort()
    return found


def _collect_catalogs(folder: str, parts: tuple[str, ...], found: list) -> None:
    for entry in _listing(folder):
        if entry.name.endswith(".po"):
            found.append((*parts, entry.name))
        if _is_folder(entry) and not entry.is_symlink():
            _collect_catalogs(entry.path, (*parts, entry.name), found)


def _listing(folder: str) -> list[os.DirEntry]:
    try:
        with os.scandir(folder) as entries:
            return list(entries)
    except OSError:  # not there, not a folder, not readable: glob finds nothing there
        return []


def _is_folder(entry: os.DirEntry) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def project_memory(
    root: Path, source_locale: str, locales_dir: str = "locales"
) -> TranslationMemory:
    """Open the project's memory under its cache folder, brought up to date with its catalogs.

    A memory made by this call is removed again when a catalog cannot be read: bad input
    leaves nothing behind.
    """
    path = Path(root) / CACHE_FILE
    existed = path.exists()
    memory = TranslationMemory(path, source_locale)
    try:
        memory.refresh(project_catalogs(root, locales_dir))
    except BaseException:
        memory.close()
        if not existed:
            for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
                leftover.unlink(missing_ok=True)
        raise
    return memory
