"""Read gettext catalogs: every error names its file and line, well-formed ones read fast.

polib's parser reports errors without saying what is wrong. Here every line is checked
as the entries are built (:class:`_Reader`), with one shortcut: an entry whose string
lines are written the way gettext writes them (``msgid "…"`` and continuation lines,
one space after the keyword, nothing after the closing quote) is matched whole by one
regular expression, and only its comment lines go through the line-by-line reader.
Anything else, an error included, is left to that reader from where the shortcut
stopped, so both read the same entries and raise the same errors.
"""

from __future__ import annotations

import re
from pathlib import Path

import polib

from tolmach.fileio import count_work, no_garbage_collection

__all__ = [
    "DEFAULT_WIDTH",
    "RESERVED",
    "RESERVED_PROBLEMS",
    "CatalogError",
    "carry_text",
    "parse_catalog",
    "read_po",
    "string_values",
    "written_text",
]

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
RESERVED = re.compile("[\x00\x04]")
RESERVED_PROBLEMS = {
    "\x00": "U+0000 (NUL), where gettext ends a string",
    "\x04": "U+0004 (EOT), which gettext reserves as the context separator",
}

# --- the shortcut: whole entries as gettext writes them ------------------------------

_Q = r'"[^"\\\n\x04]*(?:\\[\\"ntrvbfa][^"\\\n\x04]*)*"'  # a well-formed quoted string
# Comment and previous-string (#|, #~|) lines, each ending in a character that is not
# blank (the line reader strips blanks; these lines go through it).
_HEAD = r"(?P<head>(?:#(?:[^~\n][^\n]*|~[ \t]*\|[^\n]*)?(?<![ \t\f\v])\n)*)"


def _entry_pattern(prefix: str) -> re.Pattern[str]:
    string = rf"{_Q}\n(?:{prefix}{_Q}\n)*"
    return re.compile(
        rf"\n*{_HEAD}(?:{prefix}msgctxt (?P<msgctxt>{string}))?{prefix}msgid (?P<msgid>{string})"
        rf"(?:{prefix}msgid_plural (?P<msgid_plural>{string}))?"
        rf"(?:{prefix}msgstr (?P<msgstr>{string})|(?P<plural>(?:{prefix}msgstr\[\d+\] {string})+))"
        r"\n*"
    )


_LIVE = _entry_pattern("")
_OBSOLETE = _entry_pattern("#~ ")
# What may follow an entry the shortcut took: the end, or a line that starts another
# entry for the line reader too (anything else might still belong to this entry).
_OPENS = re.compile(
    r"#(?![~|])|#~?\|[ \t]*[^ \t\n\"]|(?:#~[ \t]*)?(?:msgctxt|msgid)(?![\w\[])"
)
_STRING_FIELDS = frozenset({"msgctxt", "msgid", "msgid_plural", "msgstr"})
_COMMENT_KEYS = {".": "comment", ":": "occurrences", ",": "flags"}
_PLURAL_FORM = re.compile(rf"(?:#~ )?msgstr\[(\d+)\] ({_Q}\n(?:(?:#~ )?{_Q}\n)*)")
_NEW_POENTRY = polib.POEntry.__new__


#: Where an entry read with ``keep_text`` keeps the lines of its strings as they were
#: written, and the values they held (:func:`written_text`).
_WRITTEN = "tolmach_written"


def read_po(path: Path, *, keep_text: bool = False) -> polib.POFile:
    """Parse a UTF-8 catalog into polib objects; refuse broken ones at the bad line.

    ``keep_text`` keeps, on each entry the fast path read, the lines of its strings as
    written, so that a writer can copy them when nothing changed (:func:`written_text`).
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise CatalogError(path, None, f"cannot read: {error.strerror or error}") from error
    count_work("parse")
    return parse_catalog(_decode_catalog(data, path), path, keep_text=keep_text)


def parse_catalog(
    text: str, path: Path | str, *, shortcut: bool = True, keep_text: bool = False
) -> polib.POFile:
    """A catalog from its text; ``path`` names it in errors. ``shortcut=False`` reads
    every line with the line reader (the tests compare the two)."""
    po = polib.POFile(wrapwidth=DEFAULT_WIDTH)
    po.fpath = str(path)
    with no_garbage_collection():
        _Reader(po, Path(path), keep_text).read(text, shortcut)
    return po


def string_values(entry: polib.POEntry) -> tuple:
    """What an entry's string lines say: context, ids, translations, obsolete or not."""
    plural = entry.msgstr_plural
    return (
        entry.msgctxt,
        entry.msgid,
        entry.msgid_plural,
        entry.msgstr,
        tuple(sorted(plural.items())) if plural else (),
        entry.obsolete,
    )


def written_text(entry: polib.POEntry) -> str | None:
    """The msgctxt..msgstr lines of ``entry`` as they stood in the file it was read from
    (with ``keep_text``), if its strings are still what those lines say; else None."""
    kept = entry.__dict__.get(_WRITTEN)
    if kept is None or kept[1] != string_values(entry):
        return None
    return kept[0]


def carry_text(target: polib.POEntry, source: polib.POEntry) -> None:
    """Let ``target`` reuse the written lines of ``source`` (checked again when used)."""
    kept = source.__dict__.get(_WRITTEN)
    if kept is not None:
        target.__dict__[_WRITTEN] = kept


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


def _joined(block: str, prefix: str) -> str:
    """The value of a string and its continuation lines, already checked well-formed:
    no line break inside quotes, so ``"`` LF ``"`` only ever joins two lines."""
    value = block[1:-2]
    if "\n" in value:
        value = value.replace(f'"\n{prefix}"', "")
    return _ESCAPE_IN.sub(_unescape, value) if "\\" in value else value


class _Reader:
    """Builds polib entries from the checked lines of a catalog, one pass."""

    def __init__(self, po: polib.POFile, path: Path, keep_text: bool = False) -> None:
        self.po, self.path, self.keep_text = po, path, keep_text
        self.seen: dict[tuple[bool, str | None, str], int] = {}
        self.entry: dict = {}
        self.field = ""  # the string field that a "..." line continues
        self.number = 0

    def fail(self, message: str, number: int | None = None) -> CatalogError:
        return CatalogError(self.path, number or self.number, message)

    def read(self, text: str, shortcut: bool = True) -> None:
        start, number = self.read_entries(text) if shortcut and "\r" not in text else (0, 1)
        for self.number, raw in enumerate(text[start:].split("\n"), start=number):
            self.line(raw.strip(_BLANKS))  # a line ends at LF or CRLF only, as in gettext
        self.finish()

    def read_entries(self, text: str) -> tuple[int, int]:
        """Whole well-formed entries, from the start; where the line reader takes over
        (offset and line number)."""
        if not text.endswith("\n"):
            text += "\n"
        position, number, end = 0, 1, len(text)
        while position < end:
            match = _LIVE.match(text, position) or _OBSOLETE.match(text, position)
            if (
                match is None
                or (match.end() < end and not _OPENS.match(text, match.end()))
                or not self.take(match, number)
            ):
                self.entry, self.field = {}, ""
                break
            number += text.count("\n", position, match.end())
            position = match.end()
        return position, number

    def take(self, match: re.Match[str], number: int) -> bool:
        """Add one matched entry; False (nothing added) when the line reader must judge it."""
        text, start = match.string, match.start()
        head_start, head_end = match.span("head")
        if head_end > head_start:
            self.number = number + text.count("\n", start, head_start)
            self.head(text[head_start : head_end - 1].split("\n"))
        obsolete = match.re is _OBSOLETE
        prefix = "#~ " if obsolete else ""
        msgctxt, msgid, msgid_plural, msgstr, forms = match.group(
            "msgctxt", "msgid", "msgid_plural", "msgstr", "plural"
        )
        msgid = _joined(msgid, prefix)
        if msgctxt is not None:
            msgctxt = _joined(msgctxt, prefix)
        key = (obsolete, msgctxt, msgid)
        if key in self.seen or (forms is not None) != (msgid_plural is not None):
            return False
        plural: dict[str, str] = {}
        if forms is not None:
            for form in _PLURAL_FORM.finditer(forms):
                if form.group(1) in plural:
                    return False
                plural[form.group(1)] = _joined(form.group(2), prefix)
        line = number + text.count("\n", start, match.start("msgid"))
        entry, self.entry, self.field = self.entry, {}, ""
        self.seen[key] = line
        msgstr = "" if msgstr is None else _joined(msgstr, prefix)
        if msgid == "" and msgctxt is None and not obsolete:
            self.read_header({**entry, "msgstr": msgstr})
            return True
        made = _NEW_POENTRY(polib.POEntry)
        get = entry.get
        comment, tcomment = get("comment"), get("tcomment")
        made.__dict__.update(
            msgid=msgid,
            msgstr=msgstr,
            msgid_plural="" if msgid_plural is None else _joined(msgid_plural, prefix),
            msgstr_plural={int(index): value for index, value in plural.items()},
            msgctxt=msgctxt,
            obsolete=obsolete,
            encoding=polib.default_encoding,
            comment="\n".join(comment) if comment is not None else "",
            tcomment="\n".join(tcomment) if tcomment is not None else "",
            occurrences=get("occurrences", []),
            flags=get("flags", []),
            previous_msgctxt=get("previous_msgctxt"),
            previous_msgid=get("previous_msgid"),
            previous_msgid_plural=get("previous_msgid_plural"),
            linenum=line,
        )
        if self.keep_text:
            begin = text.rfind("\n", 0, match.start("msgctxt" if msgctxt is not None else "msgid")) + 1
            end = match.end("msgstr" if forms is None else "plural")
            made.__dict__[_WRITTEN] = (text[begin:end], string_values(made))
        list.append(self.po, made)  # polib's append looks for duplicates: `seen` did
        return True

    def head(self, lines: list[str]) -> None:
        """The comment and previous-string lines of an entry the shortcut took; the usual
        ``#.``, ``#:`` and ``#,`` lines directly, the others through :meth:`line`."""
        entry = self.entry
        for line in lines:
            kind = line[1:2]
            if kind == ":" and line[2:3] == " ":
                found = entry.get("occurrences")
                if found is None:
                    found = entry["occurrences"] = []
                for reference in line[3:].split():
                    path, _, number = reference.rpartition(":")
                    found.append((path, number) if path and number.isdigit() else (reference, ""))
            elif kind == "." and line[2:3] == " ":
                entry.setdefault("comment", []).append(line[3:])
            else:
                self.line(line.strip(_BLANKS))
            self.number += 1

    def line(self, line: str) -> None:
        """One line of the catalog, blanks stripped."""
        if not line:
            return
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

    def comment_line(self, line: str) -> None:
        if "msgid" in self.entry:
            if "has_msgstr" not in self.entry:
                raise self.fail("comment between msgid and msgstr")
            self.finish()
        kind, text = line[1:2], line[2:].removeprefix(" ")
        key = _COMMENT_KEYS.get(kind, "tcomment")
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
            raise self.fail("the string holds " + RESERVED_PROBLEMS["\x04"])
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
        """A polib entry, its attributes set as ``POEntry(...)`` sets them, without the
        cost of its keyword-argument constructor (a catalog may hold 50,000 entries)."""
        plural = {int(key[7:-1]): value for key, value in entry.items() if key[:7] == "msgstr["}
        if bool(plural) != ("msgid_plural" in entry):
            message = "a plural entry needs msgstr[N] lines, a singular one a msgstr line"
            raise self.fail(message, entry["line"])
        made = _NEW_POENTRY(polib.POEntry)
        made.__dict__.update(
            msgid=entry["msgid"],
            msgstr=entry.get("msgstr", ""),
            msgid_plural=entry.get("msgid_plural", ""),
            msgstr_plural=plural,
            msgctxt=entry.get("msgctxt"),
            obsolete=entry["obsolete"],
            encoding=polib.default_encoding,
            comment="\n".join(entry["comment"]) if "comment" in entry else "",
            tcomment="\n".join(entry["tcomment"]) if "tcomment" in entry else "",
            occurrences=entry.get("occurrences", []),
            flags=entry.get("flags", []),
            previous_msgctxt=entry.get("previous_msgctxt"),
            previous_msgid=entry.get("previous_msgid"),
            previous_msgid_plural=entry.get("previous_msgid_plural"),
            linenum=entry["line"],
        )
        return made

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
