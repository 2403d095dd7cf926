"""Waivers: a translator's "this check is wrong here, and here is why", kept in the catalog.

A waiver is a translator comment, because translator comments are what GNU ``msgcat`` and
``msgmerge``, Poedit, Lokalize, Weblate and XLIFF round trips (``po2xliff``/``xliff2po``)
all keep::

    # tolmach: ignore numbers — 6.8 is the driver version, not a decimal
    # tolmach: ignore numbers, punctuation

The older flag form ``#, ignore-numbers`` is still read, but those tools drop unknown
flags. ``tolmach update`` pins each comment waiver to the source text it was given for,
``[msgid 1a2b3c4d]`` (the first hex digits of the msgid's SHA-256), so that when the
source changes the waiver lapses where everyone can see it instead of silently covering
a new text.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

import polib

__all__ = [
    "FLAG_PREFIX",
    "Waiver",
    "fingerprint",
    "flags_as_comment",
    "pin_waivers",
    "waiver_comment",
    "waivers_in",
]

FLAG_PREFIX = "ignore-"
_PIN_LENGTH = 8
_WAIVER_RE = re.compile(
    r"^tolmach:\s*ignore(?:\s+|-)(?P<checks>[\w-]+(?:\s*,\s*[\w-]+)*)"
    r"(?:\s*\[msgid\s+(?P<pin>[0-9a-f]{4,64})\])?"
    r"\s*(?:[—–]|--?)?\s*(?P<reason>.*?)\s*$"
)


@dataclass(frozen=True)
class Waiver:
    """One check waived on one entry, and whether it still holds for the entry's msgid."""

    check: str
    reason: str = ""
    pin: str | None = None  # fingerprint of the msgid it was given for; None: not pinned yet
    form: str = "comment"  # "comment" or "flag"

    def holds_for(self, msgid: str) -> bool:
        """True unless the waiver was given for another source text."""
        return self.pin is None or fingerprint(msgid).startswith(self.pin)

    @property
    def written(self) -> str:
        """How the waiver appears in the catalog, for messages."""
        if self.form == "flag":
            return f"#, {FLAG_PREFIX}{self.check}"
        return f"# tolmach: ignore {self.check}"


def fingerprint(msgid: str) -> str:
    """The short digest that ties a waiver to one source text.

    >>> fingerprint("Версия 6.8")
    '6526cb08'
    """
    return hashlib.sha256(msgid.encode("utf-8")).hexdigest()[:_PIN_LENGTH]


def waivers_in(entry: polib.POEntry) -> list[Waiver]:
    """Every waiver on ``entry``: comment waivers first, then ``ignore-<check>`` flags."""
    if not entry.flags and "tolmach:" not in (entry.tcomment or ""):
        return []
    found = []
    for line in (entry.tcomment or "").split("\n"):
        match = _WAIVER_RE.match(line.strip())
        if match:
            for name in re.split(r"\s*,\s*", match["checks"]):
                found.append(Waiver(name, match["reason"], match["pin"]))
    found += [
        Waiver(flag[len(FLAG_PREFIX) :], form="flag")
        for flag in entry.flags
        if flag.startswith(FLAG_PREFIX)
    ]
    return found


def waiver_comment(checks: list[str], reason: str = "", msgid: str | None = None) -> str:
    """A translator-comment line waiving ``checks``, pinned to ``msgid`` when given.

    >>> waiver_comment(["numbers"], "version number", "Версия 6.8")
    'tolmach: ignore numbers [msgid 6526cb08] — version number'
    """
    line = f"tolmach: ignore {', '.join(checks)}"
    if msgid is not None:
        line += f" [msgid {fingerprint(msgid)}]"
    return f"{line} — {reason}" if reason else line


def pin_waivers(tcomment: str, msgid: str) -> str:
    """The translator comment with every unpinned waiver pinned to ``msgid``; other lines,
    and waivers already pinned (even to another text: they have lapsed), stay as written."""
    if "tolmach:" not in tcomment:
        return tcomment
    lines = []
    for line in tcomment.split("\n"):
        match = _WAIVER_RE.match(line.strip())
        if match and match["pin"] is None:
            checks = re.split(r"\s*,\s*", match["checks"])
            line = waiver_comment(checks, match["reason"], msgid)
        lines.append(line)
    return "\n".join(lines)


def flags_as_comment(entry: polib.POEntry, msgid: str) -> tuple[list[str], str]:
    """``ignore-<check>`` flags moved into a pinned waiver comment: (other flags, comment).

    Used when an entry's source text changed: a flag cannot say which text it was given
    for, a pinned comment can, and lapses visibly.
    """
    names = [flag[len(FLAG_PREFIX) :] for flag in entry.flags if flag.startswith(FLAG_PREFIX)]
    flags = [flag for flag in entry.flags if not flag.startswith(FLAG_PREFIX)]
    comment = pin_waivers(entry.tcomment or "", msgid)
    if names:
        comment = "\n".join(filter(None, [comment, waiver_comment(names, "", msgid)]))
    return flags, comment
