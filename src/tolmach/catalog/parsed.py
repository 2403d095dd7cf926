"""Templates kept parsed between runs: a catalog's template usually has not changed when
the catalog is merged again (a translator edited it), and parsing it costs more than
the merge. A template is kept with the word count of each msgid, which every merged
catalog's progress needs.

The record is the template's entries as plain values (:mod:`marshal`), stamped with what
it depends on: the digest of the template's bytes and the caller's version (tolmach and
its settings). Anything that does not fit the stamp or does not load is read as missing.
"""

from __future__ import annotations

import hashlib
import marshal
import sys
from collections.abc import Callable
from pathlib import Path

import polib

from tolmach.catalog.poreader import DEFAULT_WIDTH
from tolmach.catalog.status import word_count
from tolmach.fileio import count_work, no_garbage_collection, write_cache_file

__all__ = ["ParsedTemplates", "word_counts"]

#: The attributes of a parsed entry, as the reader sets them (poreader.make_entry).
_FIELDS = (
    "msgid", "msgstr", "msgid_plural", "msgstr_plural", "msgctxt", "obsolete", "encoding",
    "comment", "tcomment", "occurrences", "flags", "previous_msgctxt", "previous_msgid",
    "previous_msgid_plural", "linenum",
)
_WORDS = "tolmach_word_counts"  # msgid -> words, kept on the POFile
_NEW_ENTRY = polib.POEntry.__new__


def word_counts(po: polib.POFile) -> dict[str, int]:
    """msgid → :func:`~tolmach.catalog.status.word_count` for a template's entries,
    counted once per template (its catalogs in every locale share it)."""
    found = po.__dict__.get(_WORDS)
    if found is None:
        found = po.__dict__[_WORDS] = {entry.msgid: word_count(entry.msgid) for entry in po}
    return found


class ParsedTemplates:
    """Parsed templates kept in ``folder``, one file per template path. Templates parsed
    anew are recorded by :meth:`save`, when the command has done its work: a command that
    fails leaves the project as it was, its cache included. Only the main process records
    (``update`` parses there each template it merges, before its workers start)."""

    def __init__(self, folder: Path, version: str) -> None:
        self.folder = folder
        self.version = version
        self.pending: list[tuple[Path, bytes, polib.POFile]] = []

    def read(self, path: Path, name: str, parse: Callable[[Path], polib.POFile]) -> polib.POFile:
        """The template at ``path`` (``name`` is its project-relative name), from the
        record when it holds these bytes, else parsed by ``parse``."""
        try:
            data = path.read_bytes()
        except OSError:
            return parse(path)  # it says what is wrong
        stamp = self._stamp(data)
        record = self._record_file(name)
        try:
            kept = record.read_bytes()
        except OSError:
            kept = b""
        if kept.startswith(stamp):
            po = self._load(kept[len(stamp) :], path)
            if po is not None:
                count_work("parse")
                return po
        po = parse(path)
        if not _in_worker():  # a worker's parses would pile up unsaved
            self.pending.append((record, stamp, po))
        return po

    def save(self) -> None:
        """Record the templates parsed anew (only a cache: one that cannot be written is
        parsed again next time)."""
        for record, stamp, po in self.pending:
            write_cache_file(record, stamp + _dump(po))
        self.pending.clear()

    def _stamp(self, data: bytes) -> bytes:
        content = hashlib.blake2b(data, digest_size=16).hexdigest()
        return f"{self.version} {marshal.version} {content}\n".encode()

    def _record_file(self, name: str) -> Path:
        key = hashlib.blake2b(name.encode("utf-8", "surrogatepass"), digest_size=16)
        return self.folder / key.hexdigest()

    @staticmethod
    def _load(data: bytes, path: Path) -> polib.POFile | None:
        po = polib.POFile(wrapwidth=DEFAULT_WIDTH)
        po.fpath = str(path)
        try:
            with no_garbage_collection():
                po.header, po.metadata, po.metadata_is_fuzzy, rows, words = marshal.loads(data)
                list.extend(po, map(_entry, rows))  # polib's append looks for duplicates
                po.__dict__[_WORDS] = dict(zip((e.msgid for e in po), words, strict=True))
        except (EOFError, ValueError, TypeError):
            return None
        return po


def _in_worker() -> bool:
    """A worker process of the run's executor (which loaded multiprocessing to start it)."""
    started = sys.modules.get("multiprocessing")
    return started is not None and started.parent_process() is not None


def _entry(row: tuple) -> polib.POEntry:
    entry = _NEW_ENTRY(polib.POEntry)
    entry.__dict__.update(zip(_FIELDS, row, strict=True))
    return entry


def _dump(po: polib.POFile) -> bytes:
    counts = word_counts(po)
    rows = [tuple(getattr(entry, field) for field in _FIELDS) for entry in po]
    words = [counts[entry.msgid] for entry in po]
    return marshal.dumps((po.header, po.metadata, po.metadata_is_fuzzy, rows, words))
