"""``--shard K/N``: a deterministic share of the documents for one machine of N.

A document belongs to the shard its name hashes to, so every machine computes the same
partition from the document list alone, and adding a document moves no other one. The
shards of a CI matrix together cover every document exactly once.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

__all__ = ["Shard", "parse_shard"]

_SHARD_RE = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")


@dataclass(frozen=True)
class Shard:
    """Shard ``index`` (1-based) of ``count``."""

    index: int
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    @property
    def label(self) -> str:
        """A name for files that belong to this shard: ``shard-2-of-4``."""
        return f"shard-{self.index}-of-{self.count}"

    def holds(self, document: str) -> bool:
        """Whether the document named ``document`` belongs to this shard."""
        return shard_of(document, self.count) == self.index


def shard_of(document: str, count: int) -> int:
    """The shard (1-based) a document name falls into, out of ``count``.

    >>> shard_of("guide/intro/index", 1)
    1
    """
    digest = hashlib.sha256(document.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % count + 1


def parse_shard(text: str) -> Shard:
    """``"2/4"`` → ``Shard(2, 4)``; a ValueError that says what is expected otherwise."""
    match = _SHARD_RE.match(text)
    if match is None:
        raise ValueError(f"shard {text!r} must be K/N, e.g. 2/4 (the second of four)")
    index, count = int(match.group(1)), int(match.group(2))
    if count < 1 or not 1 <= index <= count:
        raise ValueError(f"shard {text!r}: K must be between 1 and N (N at least 1)")
    return Shard(index, count)
