"""TMX 1.4b, the format in which OmegaT and other CAT tools exchange memories.

A TMX file holds translation units (``<tu>``), each with one variant (``<tuv>``)
per language; the header's ``srclang`` names the source language.  tolmach
writes one unit per source string and target language, with the gettext
context and the origin as ``<prop>`` elements, and reads any TMX 1.x, taking
inline codes (``<bpt>``, ``<ph>``...) as part of the text, since in a PO-based
project the markup is part of the string.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from xml.parsers import expat

from tolmach.fileio import write_atomic

TOOL_VERSION = "0.1.0"
_XML_LANG = "http://www.w3.org/XML/1998/namespace lang"
# Characters XML 1.0 cannot carry at all; a unit holding one is left out.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


class TmxError(Exception):
    """A TMX file that cannot be used, with its place."""

    def __init__(self, path: Path | str, line: int | None, message: str) -> None:
        self.path, self.line, self.message = Path(path), line, message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line is not None else f"{self.path}"
        return f"{where}: {self.message}"


@dataclass(frozen=True)
class TranslationUnit:
    """One source string and its translation into one language."""

    source: str
    target: str
    locale: str
    context: str | None = None
    origin: str | None = None  # where the translation comes from, e.g. "rocm7.po"


# ---------------------------------------------------------------- writing


def write_tmx(units: Iterable[TranslationUnit], path: Path, source_locale: str) -> int:
    """Write units as TMX 1.4b; returns how many were written (some may not fit XML)."""
    header = (
        f'<header creationtool="tolmach" creationtoolversion="{TOOL_VERSION}" '
        f'segtype="paragraph" o-tmf="PO" adminlang="en" srclang="{_lang(source_locale)}" '
        'datatype="plaintext"/>'
    )
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<!DOCTYPE tmx SYSTEM "tmx14.dtd">',
        '<tmx version="1.4">',
        f"  {header}",
        "  <body>",
    ]
    written = 0
    for unit in units:
        if _NOT_XML.search(unit.source + unit.target + (unit.context or "") + (unit.origin or "")):
            continue
        lines += _unit_lines(unit, source_locale)
        written += 1
    lines += ["  </body>", "</tmx>", ""]
    write_atomic(path, "\n".join(lines))
    return written


def _unit_lines(unit: TranslationUnit, source_locale: str) -> list[str]:
    lines = ["    <tu>"]
    if unit.context is not None:
        lines.append(f'      <prop type="x-context">{_escape(unit.context)}</prop>')
    if unit.origin:
        lines.append(f'      <prop type="x-origin">{_escape(unit.origin)}</prop>')
    for locale, text in ((source_locale, unit.source), (unit.locale, unit.target)):
        lines.append(f'      <tuv xml:lang="{_lang(locale)}"><seg>{_escape(text)}</seg></tuv>')
    lines.append("    </tu>")
    return lines


def _escape(text: str) -> str:
    """Escape for XML element content; keep carriage returns through parsing."""
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\r", "&#13;")
    )


def _lang(locale: str) -> str:
    """A gettext locale (zh_CN) as a TMX/BCP 47 language tag (zh-CN)."""
    return locale.replace("_", "-")


def _locale(lang: str) -> str:
    """A TMX language tag (zh-CN, de-de) as a gettext locale (zh_CN, de_DE)."""
    language, _, region = lang.replace("_", "-").partition("-")
    return f"{language.lower()}_{region.upper()}" if region else language.lower()


# ---------------------------------------------------------------- reading


def read_tmx(path: Path, source_locale: str) -> list[TranslationUnit]:
    """Read the units of a TMX file whose source language is `source_locale`.

    Refuses, with file and line, what is not well-formed XML, not TMX, or
    written from another source language.
    """
    reader = _TmxReader(Path(path), source_locale)
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise TmxError(path, None, f"cannot read: {error.strerror or error}") from error
    try:
        reader.parser.Parse(data, True)
    except expat.ExpatError as error:
        message = expat.ErrorString(error.code)
        raise TmxError(path, error.lineno, f"not well-formed XML: {message}") from error
    if not reader.seen_tmx:
        raise TmxError(path, None, "not a TMX file (no <tmx> root element)")
    return reader.units


class _TmxReader:
    """An expat handler that collects units and knows the current line."""

    def __init__(self, path: Path, source_locale: str) -> None:
        self.path, self.source = path, _locale(source_locale)
        self.parser = expat.ParserCreate(namespace_separator=" ")
        self.parser.StartElementHandler = self.start
        self.parser.EndElementHandler = self.end
        self.parser.CharacterDataHandler = self.text
        self.units: list[TranslationUnit] = []
        self.seen_tmx = False
        self.srclang: str | None = None
        self.variants: list[tuple[str, str]] = []
        self.props: dict[str, str] = {}
        self.lang = ""
        self.buffer: list[str] | None = None  # collecting <seg> or <prop> text
        self.prop_type = ""

    def fail(self, message: str) -> TmxError:
        return TmxError(self.path, self.parser.CurrentLineNumber, message)

    def start(self, name: str, attributes: dict[str, str]) -> None:
        if name == "tmx":
            if not attributes.get("version", "").startswith("1."):
                raise self.fail(f"unsupported TMX version {attributes.get('version')!r}")
            self.seen_tmx = True
        elif not self.seen_tmx:
            raise self.fail(f"not a TMX file: <{name}> where <tmx> was expected")
        elif name == "header":
            self.check_source_language(attributes.get("srclang"))
        elif name == "tu":
            self.variants, self.props = [], {}
        elif name == "tuv":
            self.lang = attributes.get(_XML_LANG) or attributes.get("lang") or ""
            if not self.lang:
                raise self.fail("<tuv> without xml:lang")
        elif name == "seg":
            self.buffer = []
        elif name == "prop" and self.buffer is None:
            self.prop_type, self.buffer = attributes.get("type", ""), []

    def check_source_language(self, srclang: str | None) -> None:
        if not srclang:
            raise self.fail("<header> has no srclang attribute")
        self.srclang = srclang
        if srclang != "*all*" and _locale(srclang).split("_")[0] != self.source.split("_")[0]:
            raise self.fail(
                f"source language is {srclang}, but the project translates from {self.source}"
            )

    def text(self, data: str) -> None:
        if self.buffer is not None:
            self.buffer.append(data)

    def end(self, name: str) -> None:
        if name == "seg" and self.buffer is not None:
            self.variants.append((self.lang, "".join(self.buffer)))
            self.buffer = None
        elif name == "prop" and self.buffer is not None:
            self.props[self.prop_type] = "".join(self.buffer)
            self.buffer = None
        elif name == "tu":
            self.finish_unit()

    def finish_unit(self) -> None:
        """One unit per target variant, paired with the source variant."""
        if self.srclang is None:
            raise self.fail("<tu> before the <header> that names the source language")
        sources = [
            text
            for lang, text in self.variants
            if _locale(lang).split("_")[0] == self.source.split("_")[0]
        ]
        if not sources:
            return  # a unit without the source language: nothing to reuse
        for lang, text in self.variants:
            locale = _locale(lang)
            if locale.split("_")[0] != self.source.split("_")[0] and text:
                self.units.append(
                    TranslationUnit(
                        source=sources[0],
                        target=text,
                        locale=locale,
                        context=self.props.get("x-context"),
                        origin=self.props.get("x-origin"),
                    )
                )
