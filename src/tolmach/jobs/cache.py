"""Results of units of work, remembered under the content they were made from.

A unit (a document's template, a catalog in one locale, a localized document, a page)
is recorded with a **key**: a digest of everything its result depends on — the bytes
of its input files (source, template, catalog, glossary), the options of the run — and
with the digests of the files it wrote. Next time, a unit whose key is the same and
whose outputs still hold those bytes is not run: its recorded result stands in, and
nothing is parsed or written. What cannot be hashed beforehand (an answer of the
translation memory, whether an image variant exists) is recorded as *conditions*, which
the caller checks again before a record counts.

Everything lives under ``.tolmach-cache/results/``, in a folder named after the tolmach
version, its code and dependencies, and the project's settings, so any change there
starts afresh; deleting the folder only makes the next run slower. Each step keeps one
JSON file (one per shard with ``--shard``, so shards' caches merge by copying files
together), replaced atomically when the run ends well: a killed run leaves the previous
file, a torn one reads as empty.

File digests are SHA-256 of the bytes. A file is read again only when its size,
modification time or inode changed, or when it was modified too shortly before it was
hashed: a later write in the same tick of the file system's clock would leave its time
unchanged (git's "racy" entries). How short is told by the time itself: one with
digits below the millisecond comes from a clock of fine ticks (:data:`FINE_RACY_SECONDS`),
any other may come from one of whole seconds or two (:data:`RACY_SECONDS`).
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import os
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Any

import orjson

from tolmach.fileio import no_garbage_collection, write_cache_file

__all__ = ["CACHE_DIR", "MISS", "FileDigests", "ResultCache", "content_digest", "key_of"]

CACHE_DIR = Path(".tolmach-cache") / "results"
DIGESTS_FILE = "files.json"
RACY_SECONDS = 2.0  # FAT's two-second times, and any clock of whole seconds
FINE_RACY_SECONDS = 0.1  # a clock of ticks of a few milliseconds (Linux, NTFS, APFS)
FORMAT = 2  # of the files below; part of the folder's name
MISS = object()  # what :meth:`ResultCache.get` returns when no record holds


def content_digest(content: str | bytes) -> str:
    """The digest of text (as UTF-8) or bytes, as :class:`FileDigests` gives files."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    return hashlib.sha256(data).hexdigest()[:32]


@contextlib.contextmanager
def _kept_for_the_run() -> Iterator[None]:
    """Make records that the run keeps to its end: with the cycle collector paused, then
    out of its sight (``gc.freeze``) until :meth:`ResultCache.save`.

    Decoded JSON holds no reference cycle, and a thousand documents' records are about a
    hundred thousand objects: a full collection walks them all, which happened two or
    three times a run and once more as the process ended, a tenth of a second each.
    Frozen objects are still freed as soon as nothing refers to them."""
    with no_garbage_collection():
        try:
            yield
        finally:
            gc.freeze()


#: How cache files and keys are encoded: compact UTF-8 JSON, keys sorted (the same bytes
#: for the same records), keys that are not strings written as strings.
_JSON_OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def key_of(*parts: Any) -> str:
    """One digest for a unit's inputs: file digests, names, options (JSON-able values)."""
    return content_digest(orjson.dumps(parts, option=_JSON_OPTIONS))


class FileDigests:
    """Content digests of files under ``root``, each read at most once per run."""

    def __init__(self, root: Path, known: dict[str, list] | None = None) -> None:
        self.root = root
        self._prefix = _prefix_of(root)
        self.known = known if known is not None else {}  # path → [size, mtime, inode, at, digest]
        self.changed = False
        self.memo: dict[str, str] = {}
        self.hashed = 0  # files read to be hashed this run

    def relative(self, path: Path) -> str:
        """The path as the records name it: relative to the root, else as given.

        A ``Path``'s text is already normalized, so a prefix of text stands in for
        ``relative_to`` (asked tens of thousands of times by a run that does nothing).
        """
        if self._prefix and isinstance(path, PurePath):
            text = str(path)
            if text.startswith(self._prefix):
                return text[len(self._prefix):]
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:
            return path.as_posix()

    def digest(self, path: Path) -> str:
        """The digest of the file's bytes; ``""`` when there is no such file, and a
        digest nothing matches when it cannot be read (the step then says why)."""
        name = self.relative(path)
        found = self.memo.get(name)
        if found is None:
            found = self.memo[name] = self._digest(path, name)
        return found

    def digest_of(self, name: str) -> str:
        """:meth:`digest` of the file the records name ``name`` (relative to the root)."""
        found = self.memo.get(name)
        if found is None:
            path = os.path.join(self.root, name)
            found = self.memo[name] = self._digest(path, name)
        return found

    def learn(self, known: dict[str, list]) -> None:
        """Take digests another process made (its :attr:`known`): they stand for this run
        and are kept for the next, as if hashed here."""
        for name, record in known.items():
            self.known[name] = record
            self.memo.setdefault(name, record[4])
        self.changed = self.changed or bool(known)

    def forget(self, path: Path) -> None:
        """The file is about to change: hash it again when next asked."""
        self.memo.pop(self.relative(path), None)

    def settle(self, path: Path) -> None:
        """Hash the file again, unless this run already hashed it long enough after its
        last change for the digest to hold next time (see :func:`_settled`)."""
        name = self.relative(path)
        record = self.known.get(name)
        if name in self.memo and record is not None and _settled(record[1], record[3]):
            return
        self.memo.pop(name, None)
        self.digest(path)

    def _digest(self, path: Path, name: str) -> str:
        try:
            before = os.stat(path)
        except (FileNotFoundError, NotADirectoryError):
            self._drop(name)
            return ""
        except OSError:
            return _unmatchable()
        signature = [before.st_size, before.st_mtime_ns, before.st_ino]
        record = self.known.get(name)
        if record is not None and record[:3] == signature and _settled(before.st_mtime_ns, record[3]):
            return record[4]
        try:
            with open(path, "rb") as handle:
                data = handle.read()
                after = os.fstat(handle.fileno())
        except OSError:
            return _unmatchable()
        self.hashed += 1
        digest = content_digest(data)
        if [after.st_size, after.st_mtime_ns, after.st_ino] == signature:
            self.known[name] = [*signature, time.time_ns(), digest]
            self.changed = True
        return digest

    def _drop(self, name: str) -> None:
        if self.known.pop(name, None) is not None:
            self.changed = True


def _prefix_of(root: Path) -> str:
    """The text every path under ``root`` starts with (``""``: no shortcut for this root)."""
    text = str(root)
    if text in ("", "."):
        return ""
    return text if text.endswith("/") else text + "/"


def _settled(mtime_ns: int, hashed_at_ns: int) -> bool:
    """Whether a file was last modified clearly before it was hashed: so long before that
    the clock that stamped it has ticked since, whatever its tick."""
    window = RACY_SECONDS if mtime_ns % 1_000_000 == 0 else FINE_RACY_SECONDS
    return mtime_ns < hashed_at_ns - int(window * 1e9)


def _unmatchable() -> str:
    return "unreadable:" + os.urandom(8).hex()


@dataclass
class Record:
    """What a unit gave, for a key: its outputs' digests, its result, its conditions."""

    key: str
    payload: Any = None
    outputs: dict[str, str] = field(default_factory=dict)  # project-relative path → digest
    conditions: list = field(default_factory=list)  # [kind, *arguments, answer]
    document: str | None = None  # the document the unit belongs to, if any

    def to_json(self) -> list:
        return [self.key, self.payload, self.outputs, self.conditions, self.document]

    @classmethod
    def from_json(cls, data: list) -> Record:
        key, payload, outputs, conditions, document = data
        return cls(key, payload, dict(outputs), list(conditions), document)


class ResultCache:
    """The records of every step, for one version of tolmach and the project's settings.

    ``version``: a digest of what every result depends on besides its own inputs (see
    :func:`tolmach.project.cache_version`). ``scope`` names the file this run writes
    (``None``: the project's own; a shard's label with ``--shard``). With ``trust=False``
    (``--force``) no record is believed, but the results are recorded afresh.
    """

    def __init__(
        self, root: Path, version: str, *, scope: str | None = None, trust: bool = True
    ) -> None:
        self.root = root
        self.base = root / CACHE_DIR
        self.folder = self.base / f"v{FORMAT}-{version}"
        self.scope = scope
        self.trust = trust
        self.files = FileDigests(root, self._read_json(self.base / DIGESTS_FILE, {}))
        self.stages: dict[str, _Stage] = {}
        self._written: dict[Path, None] = {}  # files the run wrote or found, once each (see put)
        self.hits = 0
        self.misses = 0

    # --- reading --------------------------------------------------------------------

    def digest(self, path: Path) -> str:
        return self.files.digest(path)

    def learn_digests(self, known: dict[str, list]) -> None:
        """File digests a worker made (see :meth:`FileDigests.learn`)."""
        self.files.learn(known)

    def get(
        self,
        stage: str,
        unit: str,
        key: str,
        holds: Callable[[list], bool] | None = None,
    ) -> Any:
        """The payload recorded for ``unit`` under ``key``, or :data:`MISS`.

        A record counts only if every file it wrote still has the digest it wrote, and
        ``holds(condition)`` is true of each of its conditions.
        """
        record = self.find(stage, unit, key)
        if record is None or not self.confirm(stage, unit, record, holds):
            return MISS
        return record.payload

    def find(self, stage: str, unit: str, key: str) -> Record | None:
        """The record of ``unit`` under ``key`` whose outputs hold, conditions unchecked
        (see :meth:`confirm`); None, and a miss counted, when there is none."""
        if self.trust:
            for record in self._stage(stage).candidates(unit):
                if record.key == key and self._outputs_hold(record):
                    return record
        self.misses += 1
        return None

    def confirm(
        self, stage: str, unit: str, record: Record, holds: Callable[[list], bool] | None
    ) -> bool:
        """Whether a found record's conditions hold; if so it counts as a hit."""
        if record.conditions and (holds is None or not all(map(holds, record.conditions))):
            self.misses += 1
            return False
        self._stage(stage).keep(unit, record)
        self.hits += 1
        return True

    def records_of(self, stage: str) -> list[Record]:
        """Every record of ``stage`` as this run leaves it: its own and the shards'."""
        records = self._stage(stage)
        return [*records.own.values(), *(r for other in records.others for r in other.values())]

    def recorded(self, stage: str) -> bool:
        """Whether any record of ``stage`` may count in this run (none: every unit of it
        will run, as on a cold cache or with ``--force``)."""
        if not self.trust:
            return False
        records = self._stage(stage)
        return bool(records.own) or any(records.others)

    def _outputs_hold(self, record: Record) -> bool:
        return all(
            self.files.digest_of(name) == digest for name, digest in record.outputs.items()
        )

    # --- writing --------------------------------------------------------------------

    def put(
        self,
        stage: str,
        unit: str,
        key: str,
        payload: Any = None,
        *,
        outputs: dict[Path, str] | None = None,
        conditions: Iterable[list] = (),
        document: str | None = None,
    ) -> None:
        """Record a unit's result; ``outputs`` maps each file it wrote (or found holding
        the right bytes) to the digest of those bytes."""
        written = {self.files.relative(path): digest for path, digest in (outputs or {}).items()}
        for path in outputs or {}:
            self.wrote(path)
        record = Record(key, payload, written, list(conditions), document)
        self._stage(stage).put(unit, record)

    def wrote(self, path: Path) -> None:
        """A file the run wrote (a unit's output, or a list or an asset besides them): its
        digest is made again when the run saves (see :meth:`_hash_what_was_written`)."""
        self.files.forget(path)
        self._written[path] = None

    def drop(self, stage: str, unit: str) -> None:
        """Forget what was recorded for a unit (it failed, or no longer exists)."""
        self._stage(stage).drop(unit)

    def save(self, documents: Iterable[str] | None = None) -> None:
        """Write what this run learned. ``documents``: the project's documents now;
        records of other documents are dropped. Never raises: the cache is optional."""
        live = set(documents) if documents is not None else None
        for name, stage in self.stages.items():
            data = stage.own_json(live)
            if data is not None:
                self._write_json(self.folder / self._file_name(name), data)
        self._hash_what_was_written()
        if self.files.changed:
            self._write_json(self.base / DIGESTS_FILE, self.files.known)
        self._prune_other_versions()
        gc.unfreeze()  # the run is over: what it kept goes back to the collector

    def _hash_what_was_written(self) -> None:
        """Read the run's outputs once more, now that most have settled, so that the next
        run takes each one's size and time for its digest.

        A file hashed within a tick of its last change is read again by the next run
        (see :func:`_settled`): a change in that tick would not show in its stamp. So a
        cold ``publish`` of a thousand documents left its 3,000 pages to be read by the
        run after it, which then took nearly twice as long as the runs after that. Read here,
        each counts from now; only the last tenth of a second's writes are read again."""
        for path in self._written:
            self.files.settle(path)
        self._written.clear()

    # --- files ------------------------------------------------------------------------

    def _stage(self, name: str) -> _Stage:
        stage = self.stages.get(name)
        if stage is None:
            own_name = self._file_name(name)
            own = self._read_records(self.folder / own_name)
            others = [
                self._read_records(path)
                for path in sorted(self.folder.glob(f"{name}.*json"))
                if path.name != own_name
            ]
            stage = self.stages[name] = _Stage(own, others)
        return stage

    def _file_name(self, stage: str) -> str:
        return f"{stage}.{self.scope}.json" if self.scope else f"{stage}.json"

    def _read_records(self, path: Path) -> dict[str, Record]:
        data = self._read_json(path, {})
        try:
            return {unit: Record.from_json(item) for unit, item in data.items()}
        except (TypeError, ValueError, AttributeError):
            return {}

    @staticmethod
    def _read_json(path: Path, empty: Any) -> Any:
        """A cache file's content; ``empty`` when it is missing, torn or not ours."""
        try:
            with _kept_for_the_run():
                data = orjson.loads(path.read_bytes())
        except (OSError, ValueError):  # orjson.JSONDecodeError is a ValueError
            return empty
        return data if isinstance(data, type(empty)) else empty

    @staticmethod
    def _write_json(path: Path, data: Any) -> None:
        encoded = orjson.dumps(data, option=_JSON_OPTIONS)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError:
            return
        write_cache_file(path, encoded)

    def _prune_other_versions(self) -> None:
        """Folders of other versions or settings are of no use any more."""
        import shutil

        try:
            folders = [p for p in self.base.iterdir() if p.is_dir() and p != self.folder]
        except OSError:
            return
        for folder in folders:
            shutil.rmtree(folder, ignore_errors=True)


class _Stage:
    """One step's records: this run's own file, and the files of other shards."""

    def __init__(self, own: dict[str, Record], others: list[dict[str, Record]]) -> None:
        self.own = own
        self.others = others
        self.dirty = False

    def candidates(self, unit: str) -> list[Record]:
        found = [self.own[unit]] if unit in self.own else []
        return found + [other[unit] for other in self.others if unit in other]

    def keep(self, unit: str, record: Record) -> None:
        """A record that held this run stays in this run's file."""
        if self.own.get(unit) is not record:
            self.own[unit] = record
            self.dirty = True

    def put(self, unit: str, record: Record) -> None:
        self.own[unit] = record
        self.dirty = True

    def drop(self, unit: str) -> None:
        if self.own.pop(unit, None) is not None:
            self.dirty = True

    def own_json(self, live: set[str] | None) -> dict | None:
        """The file's new content, or None when it would not change."""
        if live is not None:
            gone = [u for u, r in self.own.items() if r.document is not None and r.document not in live]
            for unit in gone:
                del self.own[unit]
            self.dirty = self.dirty or bool(gone)
        if not self.dirty:
            return None
        return {unit: record.to_json() for unit, record in self.own.items()}


_DEPENDENCIES = ("markdown_it", "mdit_py_plugins", "polib", "babel", "pymorphy3", "rapidfuzz",
                 "snowballstemmer", "jinja2", "markupsafe")


def environment_digest() -> str:
    """What every result depends on besides the project: tolmach's own files (code,
    templates, data), the Python version, and the installed distributions beside its
    dependencies (their ``*.dist-info`` names carry the versions). Read without
    importing anything, in a few milliseconds."""
    import sys
    from importlib.util import find_spec

    digest = hashlib.sha256(sys.version.encode())
    package = Path(__file__).resolve().parents[1]
    for path in sorted(package.rglob("*")):
        if "__pycache__" in path.parts or not path.is_file():
            continue
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(path.read_bytes())
    folders = set()
    for name in _DEPENDENCIES:
        spec = find_spec(name)
        if spec is not None and spec.origin:
            folders.add(Path(spec.origin).parent.parent)
    for folder in sorted(folders):
        try:
            names = sorted(n for n in os.listdir(folder) if n.endswith(".dist-info"))
        except OSError:
            continue
        digest.update("\n".join(names).encode())
    return digest.hexdigest()[:32]
