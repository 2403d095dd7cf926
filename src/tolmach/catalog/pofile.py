"""Read, format and write gettext catalogs.

polib parses well but reports errors vaguely and wraps long strings its own
way.  Here a catalog is checked first, so that every error names its file and
line, and written back wrapped exactly as GNU msgcat, msgmerge and Poedit wrap
it: a catalog edited in Poedit and rewritten by tolmach keeps its line breaks.

A string that does not fit on its ``msgid "`` line is written as ``msgid ""``
followed by continuation lines, broken where :mod:`tolmach.catalog.linebreak` allows.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import polib

from tolmach.catalog.linebreak import break_lines, break_opportunities
from tolmach.fileio import count_work, write_atomic

DEFAULT_WIDTH = 79


class CatalogError(Exception):
    """A catalog that cannot be used, with the place of the problem."""

    def __init__(self, path: Path | str, line: int | None, message: str) -> None:
        self.path = Path(path)
        self.line = line
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line is not None else f"{self.path}"
        return f"{where}: {self.message}"


# ---------------------------------------------------------------- reading

_ESCAPES = {"\\": "\\", '"': '"', "n": "\n", "t": "\t", "r": "\r", "v": "\v", "b": "\b", "f": "\f"}
_ESCAPES["a"] = "\a"  # the escapes GNU gettext writes, all of them
_QUOTED = re.compile(r'"[^"\\]*(?:\\[\\"ntrvbfa][^"\\]*)*"')
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)(")?(.*)$')  # body, closing quote, rest
_ESCAPE_IN = re.compile(r"\\(.)")
_CHARSET = re.compile(rb"charset=([^\\\"\s;]+)", re.IGNORECASE)
_FIELD = re.compile(r"(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)(?![\w\[])[ \t]*(.*)")
#: What separates tokens on a PO line, as GNU gettext's lexer skips it. Other characters
#: that Unicode calls line breaks (U+2028, U+0085, 0x1C...) are text inside a string.
_BLANKS = " \t\r\f\v"
#: A compiled catalog stores a context as ``msgctxt EOT msgid`` and ends a string at NUL:
#: msgfmt refuses EOT in a string and cuts it at NUL. tolmach writes neither, and refuses
#: EOT when reading (a NUL byte makes the whole file binary data).
_RESERVED = re.compile("[\x00\x04]")
_RESERVED_PROBLEMS = {
    "\x00": "U+0000 (NUL), where gettext ends a string",
    "\x04": "U+0004 (EOT), which gettext reserves as the context separator",
}


def read_po(path: Path) -> polib.POFile:
    """Parse a UTF-8 catalog into polib objects; refuse broken ones at the bad line.

    tolmach reads the file itself, checking each line as it builds the entries:
    polib's parser took two seconds for a catalog of 50,000 entries and reports
    errors without saying what is wrong.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise CatalogError(path, None, f"cannot read: {error.strerror or error}") from error
    count_work("parse")
    text = _decode_catalog(data, path)
    po = polib.POFile(wrapwidth=DEFAULT_WIDTH)
    po.fpath = str(path)
    _Reader(po, path).read(text)
    return po


def _decode_catalog(data: bytes, path: Path) -> str:
    """Refuse binary files and charsets other than UTF-8, before decoding."""
    nul = data.find(b"\0")
    if nul >= 0:
        message = "binary data (NUL byte): not a PO file"
        raise CatalogError(path, data.count(b"\n", 0, nul) + 1, message)
    header_end = data.find(b"\n\n")
    declared = _CHARSET.search(data, 0, header_end if header_end >= 0 else len(data))
    charset = declared.group(1).decode("ascii", "replace") if declared else "UTF-8"
    if charset.upper().replace("_", "-") not in ("UTF-8", "UTF8", "CHARSET", "ASCII"):
        message = f"charset {charset} is not supported; convert with `msgconv --to-code=UTF-8`"
        raise CatalogError(path, data.count(b"\n", 0, declared.start()) + 1, message)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise CatalogError(path, line, "invalid UTF-8: not a text catalog") from error


def _string_problem(token: str) -> str:
    """What is wrong with a quoted string that does not parse."""
    match = _STRING.match(token)
    if not match:
        return f"unexpected text: {token[:40]!r}"
    if not match.group(2):
        return "unterminated string (missing closing quote)"
    if match.group(3).strip():
        return "unexpected text after the closing quote"
    escapes = (escape.group(1) for escape in _ESCAPE_IN.finditer(match.group(1)))
    return f"bad escape sequence \\{next(e for e in escapes if e not in _ESCAPES)}"


class _Reader:
    """Builds polib entries from the checked lines of a catalog, one pass."""

    def __init__(self, po: polib.POFile, path: Path) -> None:
        self.po, self.path = po, path
        self.seen: dict[tuple[bool, str | None, str], int] = {}
        self.entry: dict = {}
        self.field = ""  # the string field that a "..." line continues
        self.number = 0

    def fail(self, message: str, number: int | None = None) -> CatalogError:
        return CatalogError(self.path, number or self.number, message)

    def read(self, text: str) -> None:
        for self.number, raw in enumerate(text.split("\n"), start=1):
            line = raw.strip(_BLANKS)  # a line ends at LF or CRLF only, as in gettext
            if not line:
                continue
            if line[0] == '"' and self.field:
                self.entry[self.field] += self.unquote(line)
            elif line[0] != "#":
                self.string_line(line, obsolete=False, previous=False)
            elif line[1:2] not in ("~", "|"):
                self.comment_line(line)
            else:
                obsolete = line[1] == "~"
                body = line[2:].lstrip(_BLANKS)
                previous = not obsolete or body.startswith("|")
                body = body[1:].lstrip(_BLANKS) if obsolete and previous else body
                if body:
                    self.string_line(body, obsolete and not previous, previous)
        self.finish()

    def comment_line(self, line: str) -> None:
        if "msgid" in self.entry:
            if "has_msgstr" not in self.entry:
                raise self.fail("comment between msgid and msgstr")
            self.finish()
        kind, text = line[1:2], line[2:].removeprefix(" ")
        key = {".": "comment", ":": "occurrences", ",": "flags"}.get(kind, "tcomment")
        if key == "tcomment":
            text = line[1:].removeprefix(" ")
        if key == "occurrences":
            self.entry.setdefault(key, []).extend(map(_occurrence, text.split()))
        elif key == "flags":
            self.entry.setdefault(key, []).extend(f.strip() for f in text.split(",") if f.strip())
        else:
            self.entry.setdefault(key, []).append(text)

    def string_line(self, line: str, obsolete: bool, previous: bool) -> None:
        if line.startswith('"'):
            if not self.field:
                raise self.fail("string without a keyword before it")
            self.entry[self.field] += self.unquote(line)
            return
        field = _FIELD.match(line)
        if not field:
            raise self.fail(f"unexpected text: {line[:40]!r}")
        self.start_field(("previous_" if previous else "") + field.group(1), obsolete)
        self.entry[self.field] = self.unquote(field.group(2))

    def unquote(self, token: str) -> str:
        """The value of a quoted string; a precise error when it is malformed."""
        if not _QUOTED.fullmatch(token):
            raise self.fail(_string_problem(token))
        body = token[1:-1]
        if "\x04" in body:
            raise self.fail("the string holds " + _RESERVED_PROBLEMS["\x04"])
        return _ESCAPE_IN.sub(_unescape, body) if "\\" in body else body

    def start_field(self, field: str, obsolete: bool) -> None:
        opens_entry = field in ("msgctxt", "msgid") or field.startswith("previous_")
        if opens_entry and "msgid" in self.entry:
            self.finish()
        if field in self.entry:
            raise self.fail(f"{field} repeated in one entry")
        if field.startswith("msgstr") or field == "msgid_plural":
            if "msgid" not in self.entry:
                raise self.fail(f"{field.split('[')[0]} without msgid")
            if "has_msgstr" in self.entry and field == "msgid_plural":
                raise self.fail("msgid_plural after msgstr")
        if field == "msgid":
            self.entry["line"] = self.number
        if field.startswith("msgstr"):
            self.entry["has_msgstr"] = True
        if not field.startswith("previous_"):
            self.entry["obsolete"] = obsolete
        self.field = field

    def finish(self) -> None:
        entry, self.entry, self.field = self.entry, {}, ""
        if "msgid" not in entry:
            return
        if "has_msgstr" not in entry:
            raise self.fail("missing msgstr after msgid", entry["line"])
        key = (entry["obsolete"], entry.get("msgctxt"), entry["msgid"])
        if key in self.seen:
            message = f"duplicate message definition (first defined at line {self.seen[key]})"
            raise self.fail(message, entry["line"])
        self.seen[key] = entry["line"]
        if entry["msgid"] == "" and entry.get("msgctxt") is None and not entry["obsolete"]:
            self.read_header(entry)
        else:
            self.po.append(self.make_entry(entry))

    def make_entry(self, entry: dict) -> polib.POEntry:
        plural = {int(key[7:-1]): value for key, value in entry.items() if key[:7] == "msgstr["}
        if bool(plural) != ("msgid_plural" in entry):
            message = "a plural entry needs msgstr[N] lines, a singular one a msgstr line"
            raise self.fail(message, entry["line"])
        return polib.POEntry(
            msgid=entry["msgid"],
            msgstr=entry.get("msgstr", ""),
            msgid_plural=entry.get("msgid_plural", ""),
            msgstr_plural=plural,
            msgctxt=entry.get("msgctxt"),
            obsolete=entry["obsolete"],
            linenum=entry["line"],
            tcomment="\n".join(entry.get("tcomment", [])),
            comment="\n".join(entry.get("comment", [])),
            occurrences=entry.get("occurrences", []),
            flags=entry.get("flags", []),
            previous_msgctxt=entry.get("previous_msgctxt"),
            previous_msgid=entry.get("previous_msgid"),
            previous_msgid_plural=entry.get("previous_msgid_plural"),
        )

    def read_header(self, entry: dict) -> None:
        self.po.header = "\n".join(entry.get("tcomment", []))
        self.po.metadata_is_fuzzy = entry.get("flags", [])
        key = None
        for line in filter(None, entry.get("msgstr", "").split("\n")):
            name, colon, value = line.partition(":")
            if colon:
                key = name
                self.po.metadata[key] = value.strip()
            elif key is not None:
                self.po.metadata[key] += "\n" + line.strip()


def _unescape(match: re.Match[str]) -> str:
    return _ESCAPES[match.group(1)]


def _occurrence(reference: str) -> tuple[str, str]:
    """``file:line`` as polib keeps it: (file, line), the line empty when absent."""
    path, _, line = reference.rpartition(":")
    return (path, line) if path and line.isdigit() else (reference, "")


def _escape(text: str) -> str:
    """The string as written between quotes in a PO file."""
    return text.translate(_ESCAPE_OUT) if _NEEDS_ESCAPE.search(text) else text


_NEEDS_ESCAPE = re.compile('[\\\\"\n\t\r\a\b\f\v]')
_ESCAPE_OUT = str.maketrans(
    {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r", "\a": "\\a"}
    | {"\b": "\\b", "\f": "\\f", "\v": "\\v"}
)


# ---------------------------------------------------------------- formatting


def format_po(po: polib.POFile, width: int = DEFAULT_WIDTH) -> str:
    """Serialize a catalog byte for byte as GNU msgcat would (``width=0``: ``--no-wrap``).

    Obsolete entries go last, each part of an entry in gettext's order; like
    gettext, an obsolete entry without translation is dropped, it carries nothing.
    """
    blocks = [_format_header(po, width)]
    blocks += [_format_entry(entry, width) for entry in po if not entry.obsolete]
    blocks += [
        _format_entry(entry, width) for entry in po if entry.obsolete and _first_msgstr(entry)
    ]
    return "\n".join(block for block in blocks if block)


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


def _format_entry(entry: polib.POEntry, width: int) -> str:
    """One entry with its comments, previous ids and strings."""
    lines = (
        [_comment_line("#", text) for text in entry.tcomment.split("\n")] if entry.tcomment else []
    )
    if entry.comment:
        lines += [_comment_line("#.", text) for text in entry.comment.split("\n")]
    lines += _reference_lines(entry.occurrences, width)  # the width before no-wrap
    if "no-wrap" in entry.flags:
        width = 0
    flags = sorted(entry.flags, key=lambda flag: flag != "fuzzy")
    if not _first_msgstr(entry) and "fuzzy" in flags:
        flags.remove("fuzzy")  # gettext: an untranslated entry is not fuzzy
    if flags:
        lines.append("#, " + ", ".join(flags))
    marker = "#~" if entry.obsolete else ""
    for field in ("msgctxt", "msgid", "msgid_plural"):
        value = getattr(entry, "previous_" + field, None)
        if value is not None:
            lines += _string_lines((marker or "#") + "| ", field, value, width)
    prefix = "#~ " if entry.obsolete else ""
    if entry.msgctxt is not None:
        lines += _string_lines(prefix, "msgctxt", entry.msgctxt, width)
    lines += _string_lines(prefix, "msgid", entry.msgid, width)
    if entry.msgid_plural:
        lines += _string_lines(prefix, "msgid_plural", entry.msgid_plural, width)
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


def _string_lines(prefix: str, keyword: str, value: str, width: int) -> list[str]:
    """A keyword and its string as PO lines, wrapped as gettext's write-po does.

    The string is cut after each newline; when it has several such portions, or
    its first portion would need a break, an empty ``""`` opens it.
    """
    reserved = _RESERVED.search(value)
    if reserved:
        problem = _RESERVED_PROBLEMS[reserved.group()]
        raise ValueError(f"{keyword} {value[:40]!r} holds {problem}; it cannot be written")
    portions = re.findall(r"[^\n]*\n|[^\n]+", value) or [""]
    limit = width - 2 - len(prefix) if width > 0 else 1 << 30  # room for the quotes
    texts = [_escape(portion) for portion in portions]
    if len(texts) == 1 and len(texts[0]) * 2 + len(keyword) + 1 <= limit:
        return [f'{prefix}{keyword} "{texts[0]}"']  # fits, however wide its characters
    lines = [f'{prefix}{keyword} ""']
    for portion, text in zip(portions, texts, strict=True):
        positions = break_opportunities(text)
        if portion.endswith("\n") and len(text) - 2 in positions:
            positions.remove(len(text) - 2)  # never break just before the final \n
        if len(texts) == 1 and not break_lines(text, positions, limit, len(keyword) + 1):
            return [f'{prefix}{keyword} "{text}"']
        cuts = [0, *break_lines(text, positions, limit, 0), len(text)]
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
