"""Pseudo-localization: a fake translation that shows what the pipeline would do.

Every translatable letter becomes an accented Latin look-alike and vowels are doubled
(text grows about 30 %, as translations from Russian into German often do), while
everything Markdown or HTML gives meaning to stays byte for byte: code spans, link
destinations and titles, reference labels, autolinks, raw HTML, entity references and
backslash escapes. Rendering a pseudo-translated document must give the same HTML
structure as the source; only text may differ.

>>> pseudo_translate("Привет, `code` and [link](http://x.org)")
'Ƥŕííṽééŧ, `code` ááñđ [ŀííñķ](http://x.org)'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

__all__ = ["pseudo_catalog", "pseudo_translate"]

_LATIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_ACCENTED = "áƀçđéƒğĥíĵķŀɱñóƥʠŕšŧúṽŵẋýžÁƁÇĐÉƑĞĤÍĴĶĿṀÑÓƤɊŔŠŦÚṼŴẊÝŽ"
_CYRILLIC = {
    "а": "á", "б": "ƀ", "в": "ṽ", "г": "ğ", "д": "đ", "е": "é", "ё": "ë", "ж": "ž",
    "з": "ź", "и": "í", "й": "ĵ", "к": "ķ", "л": "ŀ", "м": "ɱ", "н": "ñ", "о": "ó",
    "п": "ƥ", "р": "ŕ", "с": "š", "т": "ŧ", "у": "ú", "ф": "ƒ", "х": "ĥ", "ц": "ç",
    "ч": "č", "ш": "ŝ", "щ": "ŝ", "ъ": "ʼ", "ы": "ý", "ь": "ʹ", "э": "ê", "ю": "ü",
    "я": "ä",
}
_CYRILLIC.update({k.upper(): v.upper() for k, v in _CYRILLIC.items() if v.upper() != v})
_CYRILLIC.update({"Ъ": "ʼ", "Ь": "ʹ"})
_TABLE = {ord(a): b for a, b in zip(_LATIN, _ACCENTED, strict=True)}
_TABLE.update({ord(k): v for k, v in _CYRILLIC.items()})
_VOWELS = set("aeiouyAEIOUYаеёиоуыэюяАЕЁИОУЫЭЮЯ")

# Spans copied unchanged: they bind tighter than brackets and emphasis.
_ATOMS = re.compile(
    r"""
    \\[!-/:-@\[-`{-~]                                  # backslash escape
  | <[A-Za-z][A-Za-z0-9.+-]{1,31}:[^\s<>]*>            # URI autolink
  | <[A-Za-z0-9.!\#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?
      (?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*>   # email autolink
  | <!--.*?-->                                         # HTML comment
  | <\?.*?\?>                                          # processing instruction
  | <![A-Za-z][^>]*>                                   # declaration
  | <!\[CDATA\[.*?\]\]>                                # CDATA
  | </?[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?)*\s*/?>
  | &(?:[A-Za-z][A-Za-z0-9]{1,31}|\#[0-9]{1,7}|\#[xX][0-9A-Fa-f]{1,6});   # entity
  | \[\^[^\]\s]*\]                                     # footnote reference
    """,
    re.X | re.S,
)
_MARKUP_CHARS = frozenset("`*_<>&\\![]")
_TITLE_RE = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|\((?:\\.|[^()\\])*\)', re.S)


_TICKS_RE = re.compile(r"`+")


Protect = Callable[[str], Iterable]  # text → spans with .start and .end (dialect atoms)


def pseudo_translate(text: str, protect: Protect | None = None) -> str:
    """Accent and lengthen the letters of ``text``, keeping all markup intact.

    ``protect`` gives the spans a dialect keeps verbatim (``Dialect.atoms``): template
    expressions, shortcodes, math, bare URLs, JSX.
    """
    protected = {a.start: a.end for a in protect(text)} if protect else {}
    return _translate(text, 0, len(text), _atoms(text, protected))


def _atoms(text: str, protected: dict[int, int] | None = None) -> dict[int, int]:
    """Start → end of every span copied unchanged, found left to right as the parser does."""
    atoms: dict[int, int] = {}
    protected = protected or {}
    pos = 0
    while pos < len(text):
        if pos in protected:
            atoms[pos] = protected[pos]
            pos = protected[pos]
            continue
        if text[pos] == "`":
            run = _TICKS_RE.match(text, pos).end()
            close = _closing_ticks(text, run, run - pos)
            if close is not None:
                atoms[pos] = close
            pos = close if close is not None else run
            continue
        match = _ATOMS.match(text, pos)
        if match and match.end() > pos:
            atoms[pos] = match.end()
            pos = match.end()
        else:
            pos += 1
    return atoms


def _closing_ticks(text: str, start: int, length: int) -> int | None:
    """End of the backtick run of exactly ``length`` that closes a code span, if any."""
    for run in _TICKS_RE.finditer(text, start):
        if run.end() - run.start() == length:
            return run.end()
    return None


def _translate(text: str, start: int, end: int, atoms: dict[int, int]) -> str:
    """Pseudo-translate ``text[start:end]``: atoms copied, bracket groups handled as links."""
    out: list[str] = []
    plain = pos = start
    while pos < end:
        atom_end = atoms.get(pos)
        if atom_end is not None and atom_end <= end:
            out += [_accent(text[plain:pos]), text[pos:atom_end]]
            plain = pos = atom_end
        elif text[pos] == "[" and (close := _matching_bracket(text, pos, end, atoms)) is not None:
            out.append(_accent(text[plain:pos]))
            piece, pos = _bracket_group(text, pos, close, end, atoms)
            out.append(piece)
            plain = pos
        else:
            pos += 1
    out.append(_accent(text[plain:end]))
    return "".join(out)


def _bracket_group(text: str, open_: int, close: int, end: int, atoms) -> tuple[str, int]:
    """A ``[...]`` group: inline link, full/collapsed/shortcut reference, or plain text.

    Link text is translated; destinations, titles and labels are kept. A shortcut
    ``[label]`` becomes ``[translated][label]`` so a defined reference still resolves;
    one whose label holds markup is kept as it is.
    """
    inner = _translate(text, open_ + 1, close, atoms)
    label = text[open_ + 1 : close]
    after = close + 1
    if after < end and text[after] == "(":
        dest_end = _scan_destination(text, after, end)
        if dest_end is not None:
            return "[" + inner + text[close:dest_end], dest_end
    if after < end and text[after] == "[":
        label_close = _matching_bracket(text, after, end, atoms)
        if label_close is not None and label_close > after + 1:
            stop = _kept_destination(text, label_close + 1, end)
            return "[" + inner + text[close:stop], stop
        if label_close == after + 1 and label.strip():  # ``[][]`` is no collapsed reference
            stop = _kept_destination(text, label_close + 1, end)
            return f"[{inner}][{label}]" + text[label_close + 1 : stop], stop
    if not label.strip() or _has_bracket(label, atoms, open_ + 1):
        return "[" + inner + "]", after
    if _MARKUP_CHARS.isdisjoint(label):
        return f"[{inner}][{label}]", after
    return "[" + label + "]", after  # a label with markup: copying it would double the markup


def _kept_destination(text: str, pos: int, end: int) -> int:
    """End of a ``(destination)`` right after a reference, else ``pos``. It is copied as it
    is: ``[a][b](c)`` links to ``b``, or is text and then a link to ``c``, depending on
    definitions this text does not show; copied, either reading keeps its structure."""
    if pos < end and text[pos] == "(":
        stop = _scan_destination(text, pos, end)
        if stop is not None:
            return stop
    return pos


def _matching_bracket(text: str, open_: int, end: int, atoms) -> int | None:
    depth, pos = 0, open_
    while pos < end:
        atom_end = atoms.get(pos)
        if atom_end is not None and pos != open_:
            pos = atom_end
            continue
        ch = text[pos]
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
            if depth == 0:
                return pos
        pos += 1
    return None


def _has_bracket(label: str, atoms, offset: int) -> bool:
    """True if ``label`` holds an unescaped bracket (then it cannot be a reference label)."""
    pos, end = offset, offset + len(label)
    while pos < end:
        if pos in atoms:
            pos = atoms[pos]
            continue
        if label[pos - offset] in "[]":
            return True
        pos += 1
    return False


def _scan_destination(text: str, open_paren: int, end: int) -> int | None:
    """End of ``(destination "title")`` after a link text, or None if it is not one."""
    pos = _skip_space(text, open_paren + 1, end)
    if pos < end and text[pos] == "<":
        close = text.find(">", pos)
        if close == -1 or close >= end or "\n" in text[pos:close]:
            return None
        pos = close + 1
    else:
        depth = 0
        while pos < end and ord(text[pos]) > 0x20 and text[pos] != "\x7f":
            ch = text[pos]
            if ch == "\\" and pos + 1 < end:
                pos += 2
                continue
            if ch == "(":
                depth += 1
            elif ch == ")":
                if depth == 0:
                    break
                depth -= 1
            pos += 1
        if depth:
            return None
    spaced = _skip_space(text, pos, end)
    if spaced > pos and (title := _TITLE_RE.match(text, spaced)) and title.end() <= end:
        pos = _skip_space(text, title.end(), end)
    else:
        pos = spaced
    return pos + 1 if pos < end and text[pos] == ")" else None


def _skip_space(text: str, pos: int, end: int) -> int:
    while pos < end and text[pos] in " \t\n":
        pos += 1
    return pos


def _accent(chunk: str) -> str:
    return "".join(
        (c.translate(_TABLE) * 2) if c in _VOWELS else c.translate(_TABLE) for c in chunk
    )


def pseudo_catalog(po, protect: Protect | None = None):
    """Fill every entry of a polib catalog with its pseudo-translation (in place)."""
    for entry in po:
        if entry.msgid_plural:
            forms = [entry.msgid, entry.msgid_plural]
            entry.msgstr_plural = {
                k: pseudo_translate(forms[min(k, 1)], protect)
                for k in sorted(entry.msgstr_plural or {0: ""})
            }
        else:
            entry.msgstr = pseudo_translate(entry.msgid, protect)
        if "fuzzy" in entry.flags:
            entry.flags.remove("fuzzy")
    return po
