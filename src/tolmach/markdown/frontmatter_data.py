"""Translatable values of TOML (``+++``) and JSON (``{ … }``) front matter.

Values are found line by line with their key paths (``[params]`` tables, ``[[features]]``
arrays of tables, dotted keys; nested JSON objects and arrays) — only one-line string
values. Each one found is then checked against what ``tomllib`` or ``json`` reads at
the same path: a value the two readings disagree on stays skeleton rather than risk
a wrong slot.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterator
from typing import Any

from markdown_it.token import Token

from tolmach.markdown.segment import Line, Segment

__all__ = ["data_values", "quote_data_string"]

_TOML_KEY_RE = re.compile(
    r"""^[ \t]*(?P<key>(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')(?:[ \t]*\.[ \t]*(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*'))*)"""
    r"""[ \t]*=[ \t]*(?P<value>"(?:[^"\\]|\\.)*"|'[^']*')[ \t]*(?:#.*)?$"""
)
_TOML_TABLE_RE = re.compile(r"^[ \t]*(?P<open>\[\[?)[ \t]*(?P<name>[^\]]+?)[ \t]*\]\]?[ \t]*(?:#.*)?$")
_TOML_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def data_values(form: str, token: Token, lines: list[Line], patterns) -> Iterator[Segment]:
    """Segments for the strings at ``patterns`` in TOML or JSON front matter."""
    first, stop = token.map[0], token.map[1]
    if form == "toml":
        found = _toml_strings(lines, first + 1, stop - 1)
        reader = _read_toml
    else:
        found = _json_strings(lines, first, stop)
        reader = json.loads
    try:
        data = reader("\n".join(line.body for line in lines[first + (form == "toml") : stop - (form == "toml")]))
    except ValueError:
        return
    for path, index, start, end, text, quoting in found:
        if _matches(path, patterns) and text.strip() and _value_at(data, path) == text:
            line = lines[index]
            yield Segment(
                text=text,
                kind=f"front matter: {'.'.join(str(p) if isinstance(p, str) else '*' for p in path)}",
                line=index + 1,
                start=line.start + start,
                end=line.start + end,
                continuation=line.ending or "\n",
                single_line=True,
                quoting=quoting,
            )


def _read_toml(text: str) -> dict:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ValueError(str(error)) from None


def _matches(path: tuple, patterns) -> bool:
    return any(
        len(p) == len(path)
        and all(a == "*" or (isinstance(b, str) and a == b) for a, b in zip(p, path, strict=True))
        for p in patterns
    )


def _value_at(data: Any, path: tuple) -> Any:
    for part in path:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _toml_strings(lines: list[Line], first: int, stop: int):
    """(path, line, start, end, text, quoting) of each one-line string in TOML lines."""
    table: tuple = ()
    counts: dict[tuple, int] = {}
    for index in range(first, stop):
        body = lines[index].body
        header = _TOML_TABLE_RE.match(body)
        if header and not _TOML_KEY_RE.match(body):
            name = tuple(_toml_key_parts(header.group("name")))
            if header.group("open") == "[[":
                counts[name] = counts.get(name, -1) + 1
                table = (*name, counts[name])
            else:
                table = name
            continue
        match = _TOML_KEY_RE.match(body)
        if not match:
            continue
        raw = match.group("value")
        text = _toml_unquote(raw)
        if text is None:
            continue
        quoting = "toml-basic" if raw[0] == '"' else "toml-literal"
        path = (*table, *_toml_key_parts(match.group("key")))
        yield path, index, match.start("value"), match.end("value"), text, quoting


def _toml_key_parts(key: str) -> list[str]:
    return [part.strip().strip("\"'") for part in re.findall(r'"[^"]*"|\'[^\']*\'|[^.]+', key)]


def _toml_unquote(raw: str) -> str | None:
    if raw.startswith("'"):
        return raw[1:-1]
    try:
        return tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        return None


def _json_strings(lines: list[Line], first: int, stop: int):
    """(path, line, start, end, text, quoting) of each string value in JSON lines."""
    stack: list[list] = []  # [kind, key or index, expecting a key]
    for index in range(first, stop):
        body = lines[index].body
        pos = 0
        while pos < len(body):
            ch = body[pos]
            if ch == '"':
                end = _json_string_end(body, pos)
                if end is None:
                    return
                text = json.loads(body[pos:end])
                top = stack[-1] if stack else None
                if top and top[0] == "object" and top[2]:
                    top[1], top[2] = text, False
                elif top:
                    path = tuple(entry[1] for entry in stack)
                    yield path, index, pos, end, text, "json"
                pos = end
                continue
            if ch in "{[":
                stack.append(["object", None, True] if ch == "{" else ["array", 0, False])
            elif ch in "}]" and stack:
                stack.pop()
            elif ch == "," and stack:
                if stack[-1][0] == "array":
                    stack[-1][1] += 1
                else:
                    stack[-1][2] = True
            pos += 1


def _json_string_end(body: str, pos: int) -> int | None:
    pos += 1
    while pos < len(body):
        if body[pos] == "\\":
            pos += 2
            continue
        if body[pos] == '"':
            return pos + 1
        pos += 1
    return None


def quote_data_string(text: str, quoting: str) -> str:
    """A translated string written back as TOML or JSON, quoted as the source was."""
    if quoting == "json":
        return json.dumps(text, ensure_ascii=False)
    if quoting == "toml-literal" and "'" not in text and "\n" not in text:
        return f"'{text}'"
    escaped = "".join(_TOML_ESCAPES.get(ch, ch if ch >= " " else f"\\u{ord(ch):04x}") for ch in text)
    return f'"{escaped}"'
