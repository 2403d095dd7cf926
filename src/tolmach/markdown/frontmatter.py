"""Translatable values of front matter (``title``, ``description`` ...).

Only values at key paths named in the configuration are translated (``hero.tagline``,
``features.*.details``: ``*`` is any key or list item); everything else in the
front matter is skeleton. A value may be a plain, single- or double-quoted scalar on
the key's line, or a block scalar (``|`` or ``>``) on the lines below it. Building a
translation writes it back with the same quoting, switching a plain scalar to double
quotes when the translated text would otherwise change its YAML meaning.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from tolmach.markdown.frontmatter_data import data_values
from tolmach.markdown.segment import Line, Segment

if TYPE_CHECKING:  # pragma: no cover
    from markdown_it.token import Token


_KEY_RE = re.compile(
    r"^(?P<indent> *)(?P<dashes>(?:- +)*)(?P<key>[A-Za-z_][\w-]*):"
    r"(?:[ \t]+(?P<value>[^\s#].*?)|[ \t]+#.*)?[ \t]*$"
)
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
    """Segments for the values at the key paths ``keys`` (``title``, ``hero.tagline``,
    ``features.*.details``) in a front_matter token, YAML, TOML or JSON."""
    if not token.map:
        return
    patterns = [tuple(key.split(".")) for key in keys]
    form = (token.meta or {}).get("format", "yaml")
    if form == "yaml":
        yield from _yaml_values(token, lines, patterns)
    else:
        yield from data_values(form, token, lines, patterns)


def _yaml_values(token: Token, lines: list[Line], patterns) -> Iterator[Segment]:
    first, stop = token.map[0] + 1, token.map[1] - 1
    stack: list[tuple[int, str]] = []  # (column, key or "*" for a sequence item)
    index = first
    while index < stop:
        line = lines[index]
        match = _KEY_RE.match(line.body)
        index += 1
        if not match:
            continue
        column = _enter(stack, match)
        key, value = match.group("key"), match.group("value")
        path = (*(part for _, part in stack), key)
        if value is None:
            stack.append((column, key))
            continue
        wanted = matches_key_path(path, patterns)
        kind = f"front matter: {'.'.join(path)}"
        if _BLOCK_RE.match(value):
            block = _block_scalar(lines, index, stop, column)
            if block:
                index = block[-1] + 1  # its lines are text, not keys
                if wanted:
                    yield _block_segment(Segment, block, lines, kind, folded=value.startswith(">"))
            continue
        if not wanted:
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


def _enter(stack: list[tuple[int, str]], match: re.Match) -> int:
    """Update the path stack for a ``key:`` line (after any ``- `` item markers); return
    the column of the key."""
    column = len(match.group("indent"))
    dashes = match.group("dashes")
    if not dashes:
        while stack and stack[-1][0] >= column:
            stack.pop()
        return column
    for dash in re.findall(r"- +", dashes):
        while stack and stack[-1][0] > column:
            stack.pop()
        if stack and stack[-1][0] == column and stack[-1][1] == "*":
            stack.pop()  # the next item of the same sequence
        stack.append((column, "*"))
        column += len(dash)
    return column


def matches_key_path(path: tuple[str, ...], patterns) -> bool:
    """True if ``path`` is one of ``patterns``, where ``*`` stands for any key or item.

    >>> matches_key_path(("features", "*", "details"), [("features", "*", "details")])
    True
    """
    return any(
        len(p) == len(path) and all(a == "*" or a == b for a, b in zip(p, path, strict=True))
        for p in patterns
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


def _block_scalar(lines: list[Line], index: int, stop: int, column: int = 0) -> list[int]:
    """Line numbers of a block scalar's content: the lines indented more than its key."""
    found: list[int] = []
    while index < stop:
        body = lines[index].body
        if body.strip() and len(body) - len(body.lstrip(" ")) <= column:
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
