"""Translatable values of YAML front matter (``title``, ``description`` ...).

Only top-level keys named in the configuration are translated; everything else in the
front matter is skeleton. A value may be a plain, single- or double-quoted scalar on
the key's line, or a block scalar (``|`` or ``>``) on the lines below it. Building a
translation writes it back with the same quoting, switching a plain scalar to double
quotes when the translated text would otherwise change its YAML meaning.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from tolmach.markdown.segment import Line, Segment

if TYPE_CHECKING:  # pragma: no cover
    from markdown_it.token import Token


_KEY_RE = re.compile(r"^(?P<key>[A-Za-z_][\w-]*):[ \t]+(?P<value>\S.*?)[ \t]*$")
_BLOCK_RE = re.compile(r"^[|>][+-]?[1-9]?[+-]?$")
_PLAIN_UNSAFE_START = set("-?:,[]{}#&*!|>'\"%@`")
_DOUBLE_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t"}
# What YAML does not allow in a file: C0 and C1 controls but tab, LF, CR and NEL; DEL;
# surrogates; U+FFFE and U+FFFF.
_NON_PRINTABLE_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]")
_RESERVED_PLAIN = re.compile(r"^(?:true|false|yes|no|on|off|null|~|[-+]?\d[\d._]*(?:e[-+]?\d+)?)$", re.I)


def locate_front_matter_values(
    token: Token, lines: list[Line], keys: Iterable[str]
) -> Iterator[Segment]:
    """Segments for the values of ``keys`` in a front_matter token."""
    if not token.map:
        return
    wanted = set(keys)
    first, stop = token.map[0] + 1, token.map[1] - 1
    index = first
    while index < stop:
        line = lines[index]
        match = _KEY_RE.match(line.body)
        index += 1
        if not match or match.group("key") not in wanted:
            continue
        key, value = match.group("key"), match.group("value")
        kind = f"front matter: {key}"
        if _BLOCK_RE.match(value):
            block = _block_scalar(lines, index, stop)
            if block:
                yield _block_segment(Segment, block, lines, kind, folded=value.startswith(">"))
            continue
        text, quoting, width = _scalar(value)
        if text is None or not text.strip():
            continue
        start = match.start("value")
        yield Segment(
            text=text,
            kind=kind,
            line=index,
            start=line.start + start,
            end=line.start + start + width,
            continuation=(line.ending or "\n"),
            single_line=True,
            quoting=quoting,
        )


def _scalar(value: str) -> tuple[str | None, str, int]:
    """(text, quoting, width in source) of a one-line YAML scalar."""
    if value[0] == '"':
        end = _closing_double_quote(value)
        if end is None:
            return None, "double", 0
        return _unescape_double(value[1:end]), "double", end + 1
    if value[0] == "'":
        end = value.find("'", 1)
        while end != -1 and value[end + 1 : end + 2] == "'":
            end = value.find("'", end + 2)
        if end == -1:
            return None, "single", 0
        return value[1:end].replace("''", "'"), "single", end + 1
    comment = re.search(r"[ \t]#", value)
    text = value[: comment.start()].rstrip() if comment else value
    return text, "plain", len(text)


def _closing_double_quote(value: str) -> int | None:
    pos = 1
    while pos < len(value):
        if value[pos] == "\\":
            pos += 2
            continue
        if value[pos] == '"':
            return pos
        pos += 1
    return None


def _unescape_double(body: str) -> str:
    table = {'"': '"', "\\": "\\", "n": "\n", "t": "\t", "/": "/"}
    return re.sub(r"\\(.)", lambda m: table.get(m.group(1), m.group(0)), body)


def _block_scalar(lines: list[Line], index: int, stop: int) -> list[int]:
    """Line numbers of a block scalar's content: the more-indented lines that follow."""
    found: list[int] = []
    while index < stop:
        body = lines[index].body
        if body.strip() and not body[:1].isspace():
            break
        found.append(index)
        index += 1
    while found and not lines[found[-1]].body.strip():
        found.pop()
    return found


def _block_segment(segment_cls, block: list[int], lines: list[Line], kind: str, folded: bool):
    first, last = lines[block[0]], lines[block[-1]]
    indent = len(first.body) - len(first.body.lstrip(" "))
    parts = [lines[i].body[indent:] for i in block]
    text = " ".join(p.strip() for p in parts if p.strip()) if folded else "\n".join(parts)
    return segment_cls(
        text=text,
        kind=kind,
        line=block[0] + 1,
        start=first.start + indent,
        end=last.start + len(last.body),
        continuation=(first.ending or "\n") + first.body[:indent],
        single_line=folded,
        quoting="folded" if folded else "literal",
    )


def quote_scalar(text: str, quoting: str | None) -> str:
    """YAML for a translated front-matter value, quoted as the source value was.

    A character YAML does not allow in a file (a control character) can only be written
    escaped, in double quotes, so a value holding one is double-quoted whatever it was.
    """
    unprintable = bool(_NON_PRINTABLE_RE.search(text))
    if quoting == "single" and not unprintable:
        return "'" + text.replace("'", "''") + "'"
    if quoting in ("double", "single") or (quoting == "plain" and (unprintable or _needs_quotes(text))):
        return '"' + "".join(_double_escape(ch) for ch in text) + '"'
    return text


def block_scalar_text(text: str) -> str:
    """A translated block scalar (``|`` or ``>``): no escapes exist there, so a character
    YAML does not allow in a file becomes U+FFFD, as the Markdown parser shows NUL."""
    return _NON_PRINTABLE_RE.sub("\ufffd", text)


def _double_escape(ch: str) -> str:
    escaped = _DOUBLE_ESCAPES.get(ch)
    if escaped is not None:
        return escaped
    if _NON_PRINTABLE_RE.match(ch):
        return f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}"
    return ch


def _needs_quotes(text: str) -> bool:
    return (
        not text
        or text[0] in _PLAIN_UNSAFE_START
        or text != text.strip()
        or ": " in text
        or " #" in text
        or "\n" in text
        or "\t" in text  # YAML 1.1 readers (PyYAML) refuse a tab in a plain scalar
        or text in ("=", "<<")  # YAML 1.1 value and merge keys
        or text.endswith(":")
        or bool(_RESERVED_PLAIN.match(text))
    )
