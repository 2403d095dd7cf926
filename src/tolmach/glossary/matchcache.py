"""Glossary matches remembered: source text → the terms found in it, across locales and runs.

Finding terms lemmatizes every word (pymorphy3), the costliest part of extract, update
and check. What is found in a text depends only on the text, on whether it is a heading
(for terms that hold only in headings, or never in them) and on the terms that hold in
its document — not on the locale. So a termbase remembers what it found per text
(:class:`MatchTable`), and a project keeps the tables under ``.tolmach-cache/``
(:class:`MatchStore`) for the next run.

A table is named by a digest of what matching depends on: each term's spellings, case
rule and context conditions, in order, and the versions of tolmach, pymorphy3 and its
dictionary. A changed glossary, scope or domain, or an upgrade, gives another name, so
a stale table is never used; translations and notes do not matter (a match names its
term by position, and the term is read from the termbase as it is now). Texts are
stored by a 128-bit digest. The file is rewritten only when a run found something new;
each text carries the number of the last such run that used it, and a text (or a table)
no run has used in the last :data:`KEEP_SAVES` of them goes. A run that looks at a few
documents thus keeps what the others hold. Worker processes match too, and send what
they found back to the process that started the run, which saves it with its own.

Beside the tables, :class:`UniqueTerms` remembers the last glossary text found free of
duplicate terms (under the same versions), so a run whose texts are all remembered does
not load the morphology only to check the glossary again.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import marshal
import os
from collections.abc import Callable, Iterable
from importlib import metadata
from pathlib import Path

from tolmach.fileio import WriteError, write_atomic, write_cache_file

__all__ = [
    "CACHE_FILE",
    "UNIQUE_FILE",
    "Found",
    "MatchStore",
    "MatchTable",
    "UniqueTerms",
    "matching_versions",
    "table_name",
]

CACHE_FILE = Path(".tolmach-cache") / "glossary-matches"
UNIQUE_FILE = Path(".tolmach-cache") / "glossary-unique"
FORMAT = 2
#: What a text holds: ``(term index, start, end)`` per match, in text order.
Found = tuple[tuple[int, int, int], ...]
#: A text not used by this many saving runs in a row is dropped (an edited paragraph's
#: old wording, a glossary's older table).
KEEP_SAVES = 100


@functools.cache
def matching_versions() -> str:
    """The versions whose change may change what is found: tolmach, pymorphy3 and its
    Russian dictionary."""
    names = ("tolmach", "pymorphy3", "pymorphy3-dicts-ru")
    found = []
    for name in names:
        try:
            found.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            found.append(f"{name} -")
    return "; ".join(found)


class MatchTable:
    """What one set of terms found, per text: looked up in this run, or stored before."""

    def __init__(self, name: str, stored: dict[bytes, Found] | None = None) -> None:
        self.name = name
        self.stored = stored or {}  # by digest of text and heading: from the last runs
        self.found: dict[tuple[str, bool], Found] = {}  # by text: this run
        self.learned: dict[bytes, Found] = {}  # by digest: found by this run's workers
        self.new = 0
        self._unsent: list[tuple[str, bool]] = []  # found here, not yet taken (see take_new)
        self._unsent_by = os.getpid()  # a forked worker starts its own list

    def get(self, text: str, heading: bool, find: Callable[[], Found]) -> Found:
        """What ``text`` holds: remembered, or found now by ``find()``."""
        key = (text, heading)
        found = self.found.get(key)
        if found is None:
            found = self.stored.get(_text_key(text, heading)) if self.stored else None
            if found is None:
                found = find()
                self.new += 1
                self._note_unsent(key)
            self.found[key] = found
        return found

    def _note_unsent(self, key: tuple[str, bool]) -> None:
        if self._unsent_by != os.getpid():  # what the parent found before the fork is its own
            self._unsent, self._unsent_by = [], os.getpid()
        self._unsent.append(key)

    def take_new(self) -> dict[bytes, Found]:
        """What was found by matching since the last call, by stored key: what a worker
        sends back to the process that saves (see :meth:`MatchStore.take_new`).

        A worker never saves, so from here on it keeps every text it looked up by its
        key, as the stored texts are: 16 bytes a text instead of the text itself, so its
        memory grows that much slower with the documents it goes through."""
        if self._unsent_by != os.getpid():
            return {}
        keys = {key: _text_key(*key) for key in self.found}  # every unsent one is found
        taken = {keys[key]: self.found[key] for key in self._unsent}
        self._unsent.clear()
        self.stored.update((keys[key], found) for key, found in self.found.items())
        self.found.clear()
        return taken

    def learn(self, found: dict[bytes, Found]) -> None:
        """Keep what another process found, as if found here: answered from now on,
        and saved with this run's texts."""
        fresh = {key: value for key, value in found.items() if key not in self.stored}
        self.stored.update(fresh)
        self.learned.update(fresh)
        self.new += len(fresh)

    def used(self) -> dict[bytes, Found]:
        """The texts this run looked up (found now or remembered, here or by a worker),
        by their stored key."""
        used = dict(self.learned)
        used.update((_text_key(text, heading), found) for (text, heading), found in self.found.items())
        return used


def _text_key(text: str, heading: bool) -> bytes:
    digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16)
    digest.update(b"h" if heading else b"-")
    return digest.digest()


class MatchStore:
    """The tables of a project, in one file under its cache folder."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.tables: dict[str, MatchTable] = {}
        self._stored: dict[str, dict[bytes, tuple[Found, int]]] | None = None
        self._saves = 0  # saving runs so far: the age of what is stored

    def table(self, name: str) -> MatchTable:
        """The table named ``name`` (a digest of the terms), with what was stored for it."""
        table = self.tables.get(name)
        if table is None:
            stored = self._load().get(name, {})
            table = MatchTable(name, {key: found for key, (found, _) in stored.items()})
            self.tables[name] = table
        return table

    def save(self) -> bool:
        """Store the tables of this run if they found anything new; never fails a command
        (the cache is only a cache: a read-only or full disk just means no saving)."""
        if not any(table.new for table in self.tables.values()):
            return False
        save = self._saves + 1
        tables: dict[str, dict[bytes, tuple[Found, int]]] = {}
        for name, stored in self._load().items():  # what this run did not use ages
            kept = {key: entry for key, entry in stored.items() if save - entry[1] < KEEP_SAVES}
            if kept:
                tables[name] = kept
        for name, table in self.tables.items():  # what it used is as new
            tables.setdefault(name, {}).update(
                (key, (found, save)) for key, found in table.used().items()
            )
        try:
            write_atomic(self.path, marshal.dumps({"format": FORMAT, "saves": save, "tables": tables}))
        except WriteError:
            return False
        for name, table in self.tables.items():
            table.stored = {key: found for key, (found, _) in tables[name].items()}
            table.new = 0
            table.learned.clear()
        self._stored, self._saves = tables, save
        return True

    def take_new(self) -> dict[str, dict[bytes, Found]] | None:
        """In a worker: what its batches matched since the last call, by table (None for
        nothing). The workers never save; the process that started the run learns this
        (:meth:`learn`) and saves it with its own. Texts a worker only looked up in the
        stored tables are not sent: they stay stored, and age as texts no run used."""
        taken = {}
        for name, table in self.tables.items():
            found = table.take_new()
            if found:
                taken[name] = found
        return taken or None

    def learn(self, taken: dict[str, dict[bytes, Found]]) -> None:
        """Keep what a worker matched (:meth:`take_new`) as this run's own."""
        for name, found in taken.items():
            self.table(name).learn(found)

    def _load(self) -> dict[str, dict[bytes, tuple[Found, int]]]:
        """The stored tables; none when the file is missing, unreadable or of another format."""
        if self._stored is None:
            self._stored = {}
            with contextlib.suppress(OSError, ValueError, EOFError, TypeError, KeyError):
                data = marshal.loads(self.path.read_bytes())
                if isinstance(data, dict) and data.get("format") == FORMAT:
                    self._stored, self._saves = data["tables"], data["saves"]
        return self._stored


def table_name(parts: Iterable[object]) -> str:
    """A digest naming what matching depends on (see the module docstring)."""
    digest = hashlib.sha256(matching_versions().encode())
    for part in parts:
        digest.update(repr(part).encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    return digest.hexdigest()[:32]


class UniqueTerms:
    """The digest of the last glossary text found free of duplicate terms, in one small
    file under the cache folder; a text with another digest is checked in full."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._digest: str | None = None
        self._known = False

    def known(self, text: str) -> bool:
        """Whether ``text`` is the glossary remembered as free of duplicates."""
        self._digest = table_name([text])
        try:
            self._known = self.path.read_text("ascii") == self._digest
        except (OSError, ValueError):
            self._known = False
        return self._known

    def remember(self) -> None:
        """The text last asked about passed the check: remember it (only if new, so a
        run that changes nothing writes nothing)."""
        if self._digest is not None and not self._known:
            self._known = write_cache_file(self.path, self._digest.encode("ascii"))
