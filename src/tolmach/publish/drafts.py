"""Pass 1's rendered articles, kept on disk for pass 2 of a publish: a file per batch.

Publishing judges every document before it writes a page (see :mod:`tolmach.publish.site`),
and the article rendered while judging is kept as a *draft* until pass 2 puts the
resolved links in. A file per draft cost a millisecond or more to make on some disks,
and as much again to remove: a cold publish of 1,286 pages spent seconds on it. So the
drafts of one batch of documents are written together as one file, and each is found
again by where it lies in it (:class:`DraftAt`), which pass 1 hands back with its
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

__all__ = ["DraftAt", "DraftFile", "read_draft"]


@dataclass(frozen=True)
class DraftAt:
    """Where one draft lies: its file in the run's drafts folder, offset and length."""

    file: str
    offset: int
    length: int


class DraftFile:
    """The drafts of one batch, gathered here and written as one new file of ``folder``
    by :meth:`close` (through the atomic writer, as every file tolmach writes: a batch's
    drafts are a few megabytes at most)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.name = f"{os.getpid()}-{os.urandom(6).hex()}.drafts"
        self._parts: list[bytes] = []
        self._size = 0

    def add(self, draft: Any) -> DraftAt:
        """Keep ``draft``; where it will lie once the file is written."""
        data = pickle.dumps(draft, pickle.HIGHEST_PROTOCOL)
        self._parts.append(data)
        at = DraftAt(self.name, self._size, len(data))
        self._size += len(data)
        return at

    def close(self) -> bool:
        """Write the file; False when the system refused (then no draft of it is there)."""
        if not self._parts:
            return True
        written = write_cache_file(self.folder / self.name, b"".join(self._parts))
        self._parts = []
        return written


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
