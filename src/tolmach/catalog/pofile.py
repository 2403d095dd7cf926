"""Read, format and write gettext catalogs.

polib parses well but reports errors vaguely and wraps long strings its own
way.  Here a catalog is checked first, so that every error names its file and
line, and written back wrapped exactly as GNU msgcat, msgmerge and Poedit wrap
it: a catalog edited in Poedit and rewritten by tolmach keeps its line breaks.

A string that does not fit on its ``msgid "`` line is written as ``msgid ""``
followed by continuation lines, broken where :mod:`tolmach.catalog.linebreak` allows.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import re
from pathlib import Path

import polib

from tolmach.catalog.linebreak import fits_unbroken, wrap
from tolmach.catalog.poreader import (
    DEFAULT_WIDTH,
    RESERVED,
    RESERVED_PROBLEMS,
    CatalogError,
    read_po,
    string_values,
    written_text,
)
from tolmach.fileio import write_atomic

__all__ = [
    "DEFAULT_WIDTH", "GENERATOR", "CatalogError", "KnownLines", "format_po", "read_po", "write_po",
]

GENERATOR = "tolmach"  # the X-Generator of the templates and catalogs tolmach writes


def _escape(text: str) -> str:
    """The string as written between quotes in a PO file."""
    return text.translate(_ESCAPE_OUT) if _NEEDS_ESCAPE.search(text) else text


_NEEDS_ESCAPE = re.compile('[\\\\"\n\t\r\a\b\f\v]')
_ESCAPE_OUT = str.maketrans(
    {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r", "\a": "\\a"}
    | {"\b": "\\b", "\f": "\\f", "\v": "\\v"}
)


# ---------------------------------------------------------------- formatting


def format_po(po: polib.POFile, width: int = DEFAULT_WIDTH, known: KnownLines | None = None) -> str:
    """Serialize a catalog byte for byte as GNU msgcat would (``width=0``: ``--no-wrap``).

    Obsolete entries go last, each part of an entry in gettext's order; like
    gettext, an obsolete entry without translation is dropped, it carries nothing.
    With ``known``, string lines that were read (``read_po(keep_text=True)``) and are
    known to be written this way are copied instead of wrapped again, and ``known``
    learns the lines of this catalog.
    """
    blocks = [_format_header(po, width)]
    blocks += [_format_entry(entry, width, known) for entry in po if not entry.obsolete]
    blocks += [
        _format_entry(entry, width, known)
        for entry in po
        if entry.obsolete and _first_msgstr(entry)
    ]
    return "\n".join(block for block in blocks if block)


class KnownLines:
    """Digests of string lines (msgctxt to msgstr) that :func:`format_po` wrote, so that
    lines read back unchanged can be copied: wrapping is most of the cost of writing.

    A digest covers the lines and the width they were wrapped for, and the lines say
    their values, so a known digest means the lines are what formatting their values
    gives. ``known``: from earlier writes; ``written``: the lines of this catalog.
    ``untranslated``, shared by the catalogs of one template in several locales, keeps
    the lines made for untranslated entries, which are the same in each of them.
    """

    def __init__(
        self,
        known: set[bytes] | frozenset[bytes] = frozenset(),
        untranslated: dict[tuple, str] | None = None,
    ) -> None:
        self.known = known
        self.written: set[bytes] = set()
        self.copied = 0
        self.untranslated = untranslated

    @staticmethod
    def digest(width: int, lines: str) -> bytes:
        data = f"{width}\n{lines}".encode("utf-8", "surrogatepass")
        return hashlib.blake2b(data, digest_size=16).digest()

    @classmethod
    def from_bytes(cls, data: bytes) -> KnownLines:
        return cls({data[i : i + 16] for i in range(0, len(data) - len(data) % 16, 16)})

    def to_bytes(self) -> bytes:
        """What this catalog's lines are known by, in a stable order."""
        return b"".join(sorted(self.written))


def _first_msgstr(entry: polib.POEntry) -> str:
    """The singular translation, or the first plural form."""
    if entry.msgid_plural:
        return entry.msgstr_plural.get(0, entry.msgstr_plural.get("0", ""))
    return entry.msgstr


def _format_header(po: polib.POFile, width: int) -> str:
    """The header entry: comments, flags and the metadata as msgstr."""
    if not po.metadata and not po.header:
        return ""
    lines = [_comment_line("#", text) for text in po.header.split("\n")] if po.header else []
    fuzzy = po.metadata_is_fuzzy
    if fuzzy:
        lines.append("#, " + (", ".join(fuzzy) if isinstance(fuzzy, list) else "fuzzy"))
    metadata = "".join(f"{key}: {value}\n" for key, value in po.metadata.items())
    lines += _string_lines("", "msgid", "", width)
    lines += _string_lines("", "msgstr", metadata, width)
    return "\n".join(lines) + "\n"


def _format_entry(entry: polib.POEntry, width: int, known: KnownLines | None = None) -> str:
    """One entry with its comments, previous ids and strings."""
    lines = (
        [_comment_line("#", text) for text in entry.tcomment.split("\n")] if entry.tcomment else []
    )
    if entry.comment:
        lines += [_comment_line("#.", text) for text in entry.comment.split("\n")]
    lines += _reference_lines(entry.occurrences, width)  # the width before no-wrap
    if entry.flags:
        if "no-wrap" in entry.flags:
            width = 0
        flags = sorted(entry.flags, key=lambda flag: flag != "fuzzy")
        if not _first_msgstr(entry) and "fuzzy" in flags:
            flags.remove("fuzzy")  # gettext: an untranslated entry is not fuzzy
        if flags:
            lines.append("#, " + ", ".join(flags))
    if entry.previous_msgid is not None or entry.previous_msgctxt is not None or (
        entry.previous_msgid_plural is not None
    ):
        marker = "#~" if entry.obsolete else ""
        for field in ("msgctxt", "msgid", "msgid_plural"):
            value = getattr(entry, "previous_" + field, None)
            if value is not None:
                lines += _source_string_lines((marker or "#") + "| ", field, value, width)
    strings = _strings_of(entry, width, known)
    return "\n".join(lines) + "\n" + strings if lines else strings


def _strings_of(entry: polib.POEntry, width: int, known: KnownLines | None) -> str:
    """The msgctxt..msgstr lines of an entry: copied when read so and known, else made."""
    if known is not None:
        written = written_text(entry)
        if written is not None:
            digest = known.digest(width, written)
            if digest in known.known:
                known.written.add(digest)
                known.copied += 1
                return written
    if known is None:
        return _format_strings(entry, width)
    memo = known.untranslated
    if memo is None or entry.msgstr or any(entry.msgstr_plural.values()):
        strings = _format_strings(entry, width)
    else:
        key = (width, string_values(entry))
        strings = memo.get(key)
        if strings is None:
            strings = memo[key] = _format_strings(entry, width)
    known.written.add(known.digest(width, strings))
    return strings


def _format_strings(entry: polib.POEntry, width: int) -> str:
    prefix = "#~ " if entry.obsolete else ""
    lines = []
    if entry.msgctxt is not None:
        lines += _source_string_lines(prefix, "msgctxt", entry.msgctxt, width)
    lines += _source_string_lines(prefix, "msgid", entry.msgid, width)
    if entry.msgid_plural:
        lines += _source_string_lines(prefix, "msgid_plural", entry.msgid_plural, width)
        for index in sorted(entry.msgstr_plural, key=int):
            lines += _string_lines(prefix, f"msgstr[{index}]", entry.msgstr_plural[index], width)
    else:
        lines += _string_lines(prefix, "msgstr", entry.msgstr, width)
    return "\n".join(lines) + "\n"


def _comment_line(marker: str, text: str) -> str:
    """A comment line; an empty comment is the bare marker, as gettext writes it."""
    return f"{marker} {text}" if text else marker


def _reference_lines(occurrences: list[tuple[str, str]], width: int) -> list[str]:
    """``#:`` lines holding as many ``file:line`` as fit in the width; no repeats."""
    if len(occurrences) == 1:  # most entries: one line, however long
        path, line = occurrences[0]
        line = str(line)
        return [f"#: {path}:{line}" if line else f"#: {path}"]
    lines: list[str] = []
    current, column = "", 0
    for path, line in dict.fromkeys((path, str(line)) for path, line in occurrences):
        reference = f" {path}:{line}" if str(line) else f" {path}"
        if current and column + len(reference) > (width or DEFAULT_WIDTH):
            lines.append(current)
            current = ""
        if not current:
            current, column = "#:", 2
        current += reference
        column += len(reference)
    return [*lines, current] if current else lines


@functools.lru_cache(maxsize=8192)
def _source_string_lines(prefix: str, keyword: str, value: str, width: int) -> tuple[str, ...]:
    """:func:`_string_lines` of a source string (msgctxt, msgid, msgid_plural and their
    previous values), remembered: the catalogs of one template in every locale write the
    same ones, and wrapping is most of the cost of formatting."""
    return tuple(_string_lines(prefix, keyword, value, width))


def _string_lines(prefix: str, keyword: str, value: str, width: int) -> list[str]:
    """A keyword and its string as PO lines, wrapped as gettext's write-po does.

    The string is cut after each newline; when it has several such portions, or
    its first portion would need a break, an empty ``""`` opens it.
    """
    reserved = RESERVED.search(value)
    if reserved:
        problem = RESERVED_PROBLEMS[reserved.group()]
        raise ValueError(f"{keyword} {value[:40]!r} holds {problem}; it cannot be written")
    portions = re.findall(r"[^\n]*\n|[^\n]+", value) or [""]
    limit = width - 2 - len(prefix) if width > 0 else 1 << 30  # room for the quotes
    texts = [_escape(portion) for portion in portions]
    if len(texts) == 1 and len(texts[0]) * 2 + len(keyword) + 1 <= limit:
        return [f'{prefix}{keyword} "{texts[0]}"']  # fits, however wide its characters
    lines = [f'{prefix}{keyword} ""']
    for portion, text in zip(portions, texts, strict=True):
        final = len(text) - 2 if portion.endswith("\n") else None  # never break before it
        if len(texts) == 1 and fits_unbroken(text, limit, len(keyword) + 1, final):
            return [f'{prefix}{keyword} "{text}"']
        cuts = [0, *wrap(text, limit, 0, final), len(text)]
        lines += [f'{prefix}"{text[a:b]}"' for a, b in itertools.pairwise(cuts)]
    return lines


# ---------------------------------------------------------------- writing


def write_po(po: polib.POFile, path: Path, width: int = DEFAULT_WIDTH) -> bool:
    """Write a catalog atomically; leave the file alone when its bytes would not change.

    Returns True when the file was written.  Unchanged files keep their mtime,
    so builds and diffs do not churn; a replaced file keeps its permissions.
    """
    try:
        text = format_po(po, width)
    except ValueError as error:
        raise CatalogError(path, None, str(error)) from None
    return write_atomic(Path(path), text)
