"""Document + translations → localized Markdown.

The skeleton is copied byte for byte; each slot receives either its original bytes (no
translation, or a translation equal to the source) or the translation re-emitted: one
line per line of the msgstr, each further line behind the container prefix of the slot
(``> ``, list indentation ...), optionally re-wrapped at a width.

A msgstr never brings a line break its msgid did not have: carriage returns become line
feeds, and the other characters that some reader takes for a line end (U+2028, U+2029,
U+0085, form and vertical tab, 0x1C–0x1E) become spaces (:func:`normalize_line_breaks`).
The checks report each such character, so the change is never silent.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass

from tolmach.markdown.document import Document, Segment
from tolmach.markdown.frontmatter import block_scalar_text, quote_scalar
from tolmach.markdown.frontmatter_data import quote_data_string

__all__ = [
    "LINE_SEPARATORS",
    "Assembly",
    "apply_translations",
    "assemble",
    "emit_translation",
    "line_breaks_added",
    "normalize_line_breaks",
    "wrap_text",
]

Lookup = Mapping[str, str] | Callable[[str], str | None]

#: Characters other than LF that some reader takes for a line end (``str.splitlines``).
LINE_SEPARATORS = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_SEPARATOR_NAMES = {
    "\r": "carriage return",
    "\x0b": "vertical tab",
    "\x0c": "form feed",
    "\x1c": "file separator (0x1C)",
    "\x1d": "group separator (0x1D)",
    "\x1e": "record separator (0x1E)",
    "\x85": "next line (U+0085)",
    "\u2028": "line separator (U+2028)",
    "\u2029": "paragraph separator (U+2029)",
}
_SEPARATOR_RE = re.compile(f"[{LINE_SEPARATORS}]")

# A word that would start a block if a wrapped line began with it (or a table's
# delimiter row: ``:--``, ``---|``).
_BLOCK_START_RE = re.compile(
    r"^(?:[-+*]|\d{1,9}[.)]|#{1,6}|>|=+|-+|`{3,}|~{3,}|\|)(?:\s|$)|^(?:>|<|`{3,}|~{3,}|\||[-:])"
)
_UNDERLINE_RE = re.compile(r"^[ \t]*(?:=+|-+)[ \t]*$")
# Spans a wrapped line may not break inside: code spans, and anything in angle brackets
# on one line (an autolink, a raw HTML tag, a ``<destination>``).
_PROTECTED_RE = re.compile(r"(?<!\\)(`+)(?!`).*?(?<!`)\1(?!`)|<[^<>\n]*>", re.S)
_DEFINITION_START_RE = re.compile(r"^\s{0,3}\[[^\]]*\]:")


@dataclass(frozen=True)
class Assembly:
    """A built text and where its re-emitted slots landed in it.

    ``slots`` holds ``(segment index, start, end)`` in the built text for every slot
    that received a translation (not the ones that kept their source bytes), in order.
    """

    text: str
    slots: tuple[tuple[int, int, int], ...] = ()


def apply_translations(
    document: Document, translations: Lookup, *, wrap_width: int = 0, force: bool = False
) -> str:
    """Rebuild the document with translated slots.

    ``translations`` maps a msgid to its msgstr (missing or empty: keep the source).
    ``force`` re-emits even translations equal to the source, which exercises the same
    path a real translation takes.
    """
    return assemble(document, translations, wrap_width=wrap_width, force=force).text


def assemble(
    document: Document,
    translations: Lookup,
    *,
    wrap_width: int = 0,
    force: bool = False,
    keep_source: Collection[int] = (),
) -> Assembly:
    """:func:`apply_translations`, telling where each translation went; the segments
    whose indices are in ``keep_source`` keep their source bytes whatever the catalog says."""
    lookup = translations.get if isinstance(translations, Mapping) else translations
    text = document.text
    out: list[str] = []
    slots: list[tuple[int, int, int]] = []
    size = cursor = 0
    for index, seg in enumerate(document.segments):
        out.append(text[cursor : seg.start])
        size += seg.start - cursor
        translated = None if index in keep_source else lookup(seg.text) or None
        if translated is None or (translated == seg.text and not force):
            piece = text[seg.start : seg.end]
        else:
            piece = emit_translation(seg, translated, wrap_width, _column(text, seg.start))
            slots.append((index, size, size + len(piece)))
        out.append(piece)
        size += len(piece)
        cursor = seg.end
    out.append(text[cursor:])
    return Assembly("".join(out), tuple(slots))


def _column(text: str, pos: int) -> int:
    """Column of ``pos`` on its line (a line ends at LF, CR LF or CR)."""
    return pos - (max(text.rfind("\n", 0, pos), text.rfind("\r", 0, pos)) + 1)


def normalize_line_breaks(translated: str, source: str = "") -> str:
    r"""``translated`` without line-end characters its ``source`` does not have: CR LF and
    CR become LF, the others (:data:`LINE_SEPARATORS`) a space.

    >>> normalize_line_breaks("Title\rInjected")
    'Title\nInjected'
    >>> normalize_line_breaks("a\u2028b", "x\u2028y")
    'a\u2028b'
    """
    if not _SEPARATOR_RE.search(translated):
        return translated
    kept = set(source) & set(LINE_SEPARATORS)
    text = translated if "\r" in kept else translated.replace("\r\n", "\n").replace("\r", "\n")
    return _SEPARATOR_RE.sub(lambda m: m.group() if m.group() in kept else " ", text)


def line_breaks_added(translated: str, source: str = "") -> list[str]:
    r"""Names of the line-end characters in ``translated`` that ``source`` does not have.

    >>> line_breaks_added("a\rb\u2028c")
    ['carriage return', 'line separator (U+2028)']
    """
    if not _SEPARATOR_RE.search(translated):  # the usual case: nothing to name
        return []
    found = {ch for ch in _SEPARATOR_RE.findall(translated) if ch not in source}
    return [name for ch, name in _SEPARATOR_NAMES.items() if ch in found]


def emit_translation(seg: Segment, translated: str, wrap_width: int = 0, column: int = 0) -> str:
    """The bytes that fill a slot with ``translated``."""
    translated = normalize_line_breaks(translated, seg.text)
    if seg.quoting in ("plain", "single", "double"):
        return quote_scalar(translated.replace("\n", " "), seg.quoting)
    if seg.quoting in ("literal", "folded"):
        translated = block_scalar_text(translated)
    if seg.quoting and seg.quoting.startswith("title"):
        return _escape_title(" ".join(translated.split("\n")), seg.quoting[-1])
    if seg.quoting == "html-text":
        return _inert_start(" ".join(translated.split()))
    if seg.quoting in ("toml-basic", "toml-literal", "json"):
        return quote_data_string(translated.replace("\n", " "), seg.quoting)
    if seg.quoting and seg.quoting[:-1] in _QUOTED_VALUES:
        return _QUOTED_VALUES[seg.quoting[:-1]](" ".join(translated.split("\n")), seg.quoting[-1])
    if seg.single_line:
        return " ".join(part.strip() for part in translated.split("\n"))
    lines = translated.split("\n")
    if wrap_width > 0 and seg.quoting is None:
        prefix_width = len(seg.continuation.lstrip("\r\n").expandtabs(4))
        lines = [
            wrapped
            for index, line in enumerate(lines)
            for wrapped in wrap_text(line, wrap_width, column if index == 0 else prefix_width)
        ]
    if seg.kind != "html block":
        lines[1:] = [_not_underline(line) for line in lines[1:]]
    return seg.continuation.join(lines)


_BLOCK_MARKER_RE = re.compile(r"^(?:[#>+*=`~|:!\[-]|\d+[.)])")


def _inert_start(text: str) -> str:
    """A translated text run of an HTML block, made inert. Where HTML is rendered, the
    run is text; a Markdown reader that does not take raw HTML (the published site)
    reads it as Markdown. So every character Markdown gives meaning to — a tag's ``<``,
    brackets, emphasis, a backslash, a block marker at the start — is written as an
    entity, which reads the same in both, and whitespace is collapsed as HTML shows it."""
    text = "".join(f"&#{ord(ch)};" if ch in _MARKDOWN_SIGNIFICANT else ch for ch in text)
    if _BLOCK_MARKER_RE.match(text):
        return f"&#{ord(text[0])};{text[1:]}"
    return text


_MARKDOWN_SIGNIFICANT = frozenset("\\`*_[]<!|~")


def _attribute_value(text: str, quote: str) -> str:
    """An HTML/JSX attribute value between ``quote`` characters: the quote as an entity."""
    return text.replace(quote, "&quot;" if quote == '"' else "&#39;")


def _go_string(text: str, quote: str) -> str:
    """A Hugo shortcode argument between double quotes: Go string escapes."""
    return text.replace("\\", "\\\\").replace('"', '\\"') if quote == '"' else text


_QUOTED_VALUES = {"attribute": _attribute_value, "go": _go_string}


def _not_underline(line: str) -> str:
    """Escape a line of only ``=`` or ``-``: behind the slot's prefix it would turn the
    lines above into a heading (in the source it can only have been a lazy line)."""
    if not _UNDERLINE_RE.match(line):
        return line
    body = line.lstrip(" \t")
    return line[: len(line) - len(body)] + "\\" + body


def _escape_title(text: str, closer: str) -> str:
    """A link title that cannot end early: every unescaped delimiter gets a backslash,
    and so does a backslash at the end, which would escape the closing delimiter."""
    specials = "()" if closer == ")" else closer
    out: list[str] = []
    pos = 0
    while pos < len(text):
        ch = text[pos]
        if ch == "\\" and pos + 1 < len(text):
            out.append(text[pos : pos + 2])  # an escape pair stays as it is
            pos += 2
            continue
        out.append("\\" + ch if ch in specials or ch == "\\" else ch)
        pos += 1
    return "".join(out)


def wrap_text(text: str, width: int, first_indent: int = 0, indent: int | None = None) -> list[str]:
    """Break ``text`` at single spaces so lines fit ``width`` columns, never where the
    break would change the Markdown: inside code spans or ``<…>`` (autolinks, HTML,
    destinations), before a word that starts a block, after a backslash, or at a run
    of spaces (that would make a hard break). Text that starts like a link reference
    definition (``[label]: …``) is not wrapped: its first line could become one."""
    indent = first_indent if indent is None else indent
    if _DEFINITION_START_RE.match(text):
        return [text]
    lines: list[str] = []
    current: list[str] = []  # words of the line being filled
    length = 0
    limit = width - first_indent
    for word in _breakable_words(text):
        fits = length + 1 + len(word) <= limit
        if current and not fits and _may_start_line(word) and not current[-1].endswith("\\"):
            lines.append(" ".join(current))
            current, length = [word], len(word)
            limit = width - indent
            continue
        length += len(word) + (1 if current else 0)
        current.append(word)
    lines.append(" ".join(current))
    return lines


def _breakable_words(text: str) -> list[str]:
    """Split at single spaces outside code spans and ``<…>``; other whitespace stays
    inside words."""
    protected = [m.span() for m in _PROTECTED_RE.finditer(text)]
    words: list[str] = []
    start = 0
    span = 0  # the first protected span that does not end before the current position
    for pos, ch in enumerate(text):
        if ch != " ":
            continue
        while span < len(protected) and protected[span][1] <= pos:
            span += 1
        if span < len(protected) and protected[span][0] < pos:
            continue
        if pos == 0 or text[pos - 1] in " \t" or text[pos + 1 : pos + 2] in (" ", "\t", ""):
            continue
        words.append(text[start:pos])
        start = pos + 1
    words.append(text[start:])
    return words


def _may_start_line(word: str) -> bool:
    return not _BLOCK_START_RE.match(word)
