"""Pass 1's rendered articles, kept on disk for pass 2 of a publish, many to a file.

Publishing judges every document before it writes a page (see :mod:`tolmach.publish.site`),
and the article rendered while judging is kept as a *draft* until pass 2 puts the
resolved links in. A file per draft cost a millisecond or more to make on some disks,
and as much again to remove: a cold publish of 1,286 pages spent seconds on it. So the
drafts of one batch of documents are written together, a megabyte to a file, and each
is found again by where it lies (:class:`DraftAt`), which pass 1 hands back with its
verdicts.

Drafts are a cache of the run: a draft that could not be written or read is made again
by rendering the page from scratch, never a reason to fail.
"""

from __future__ import annotations

import os
import pickle
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tolmach.fileio import write_cache_file

__all__ = ["FILE_BYTES", "DraftAt", "DraftFile", "read_draft"]

#: A draft file is written once it holds this much: a batch's drafts are not all kept in
#: memory (a publish's peak memory is a target), and still only a few files are made.
FILE_BYTES = 1 << 20


@dataclass(frozen=True)
class DraftAt:
    """Where one draft lies: its file in the run's drafts folder, offset and length."""

    file: str
    offset: int
    length: int


class DraftFile:
    """The drafts of one batch, gathered here and written into files of ``folder`` of
    about :data:`FILE_BYTES` each, through the atomic writer as every file tolmach
    writes (so a file is there whole or not at all); :meth:`close` writes the last."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._name = _new_name()
        self._parts: list[bytes] = []
        self._size = 0

    def add(self, draft: Any) -> DraftAt:
        """Keep ``draft``; where it will lie once its file is written."""
        data = pickle.dumps(draft, pickle.HIGHEST_PROTOCOL)
        at = DraftAt(self._name, self._size, len(data))
        self._parts.append(data)
        self._size += len(data)
        if self._size >= FILE_BYTES:
            self.close()
        return at

    def close(self) -> None:
        """Write the drafts gathered so far into their file; a refusal of the system
        leaves them missing (read as such)."""
        if self._parts:
            write_cache_file(self.folder / self._name, b"".join(self._parts))
        self._name, self._parts, self._size = _new_name(), [], 0


def _new_name() -> str:
    return f"{os.getpid()}-{os.urandom(6).hex()}.drafts"


def read_draft(folder: Path, at: DraftAt) -> Any | None:
    """The draft at ``at`` in ``folder``, or None when it cannot be read whole."""
    try:
        with open(folder / at.file, "rb") as handle:
            handle.seek(at.offset)
            data = handle.read(at.length)
        if len(data) != at.length:
            return None
        return pickle.loads(data)
    except (OSError, pickle.UnpicklingError, EOFError, ValueError):
        return None
