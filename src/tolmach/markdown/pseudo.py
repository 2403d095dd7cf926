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

import functools
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

# Spans copied unchanged: they bind tighter than brackets and emphasis. Each kind is
# tried where its first character stands; the ones that may run far (comments,
# processing instructions, CDATA, declarations, tags with quoted values) are tried
# only when their closing text still occurs further on, so no start scans in vain.
_ESCAPE_RE = re.compile(r"\\[!-/:-@\[-`{-~]")
_AUTOLINK_RE = re.compile(
    r"""<[A-Za-z][A-Za-z0-9.+-]{1,31}:[^\s<>]*>
      | <[A-Za-z0-9.!\#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?
        (?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*>""",
    re.X,
)
_TAG_RE = re.compile(
    r"</?[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s\"'=<>`]+|'[^']*'|\"[^\"]*\"))?)*\s*/?>"
)
_ENTITY_RE = re.compile(r"&(?:[A-Za-z][A-Za-z0-9]{1,31}|\#[0-9]{1,7}|\#[xX][0-9A-Fa-f]{1,6});")
_FOOTNOTE_RE = re.compile(r"\[\^[^\]\s]*\]")
# (opening text, closing text): the span runs to the first closing text after it.
_DELIMITED = (("<!--", "-->"), ("<![CDATA[", "]]>"), ("<?", "?>"))
_DECLARATION_START_RE = re.compile(r"<![A-Za-z]")
_ATOM_START_RE = re.compile(r"[\\<&\[`]")
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
    return _Pseudo(text, protected).translate()


class _Next:
    """The next occurrence of a string at or after a position, remembered: asked from
    left to right, each search covers new ground only."""

    def __init__(self, text: str, needle: str) -> None:
        self.text, self.needle, self.found = text, needle, -2

    def at_or_after(self, pos: int) -> int:
        if self.found == -1 or self.found >= pos:
            return self.found
        self.found = self.text.find(self.needle, pos)
        return self.found


def _atoms(text: str) -> dict[int, int]:
    """Start → end of every span copied unchanged, found left to right as the parser does."""
    atoms: dict[int, int] = {}
    closers = {opening: _Next(text, closing) for opening, closing in _DELIMITED}
    tag_end = _Next(text, ">")
    next_ticks = _next_runs_of_equal_length(text)
    pos = 0
    while (start := _ATOM_START_RE.search(text, pos)) is not None:
        pos = start.start()
        if text[pos] == "`":
            run = _TICKS_RE.match(text, pos).end()
            close = next_ticks.get(pos)
            if close is not None:
                atoms[pos] = close
            pos = close if close is not None else run
            continue
        end = _atom_end(text, pos, closers, tag_end)
        if end is not None and end > pos:
            atoms[pos] = end
            pos = end
        else:
            pos += 1
    return atoms


def _with_protected(atoms: dict[int, int], protected: dict[int, int]) -> dict[int, int]:
    """``atoms`` with the dialect's protected spans laid over them: a CommonMark atom
    that starts inside a protected span, or runs into one, gives way to it."""
    if not protected:
        return atoms
    spans = sorted(protected.items())
    kept = {}
    for start, end in atoms.items():
        if not any(s < end and start < e for s, e in spans):
            kept[start] = end
    kept.update(protected)
    return kept


def _atom_end(text: str, pos: int, closers: dict, tag_end: _Next) -> int | None:
    ch = text[pos]
    if ch == "\\":
        match = _ESCAPE_RE.match(text, pos)
    elif ch == "&":
        match = _ENTITY_RE.match(text, pos)
    elif ch == "[":
        match = _FOOTNOTE_RE.match(text, pos)
    else:
        for opening, closing in _DELIMITED:
            if text.startswith(opening, pos):
                found = closers[opening].at_or_after(pos + len(opening))
                if found != -1:
                    return found + len(closing)
        next_gt = tag_end.at_or_after(pos)
        if next_gt == -1:
            return None  # no ">" further on: no tag, autolink or declaration
        if _DECLARATION_START_RE.match(text, pos):
            return next_gt + 1  # a declaration runs to the first ">"
        match = _AUTOLINK_RE.match(text, pos) or _TAG_RE.match(text, pos)
    return match.end() if match else None


def _next_runs_of_equal_length(text: str) -> dict[int, int]:
    """For every backtick run, the end of the next run of the same length (a code span
    closes there), found in one pass from the right."""
    runs = [(m.start(), m.end()) for m in _TICKS_RE.finditer(text)]
    later: dict[int, int] = {}
    closes: dict[int, int] = {}
    for start, end in reversed(runs):
        length = end - start
        if length in later:
            closes[start] = later[length]
        later[length] = end
    return closes


class _Pseudo:
    """One pseudo-translation, in one pass with an explicit stack: no recursion, so no
    depth of nested brackets can exhaust Python's stack, and no bracket is matched or
    label measured twice (prefix counts answer "is there a bracket in there")."""

    def __init__(self, text: str, protected: dict[int, int] | None = None) -> None:
        self.text = text
        self.atoms = _with_protected(_atoms(text), protected or {})
        self.match = _matching_brackets(text, self.atoms) if "[" in text else {}

    @functools.cached_property
    def brackets(self) -> list[int]:
        return _prefix_counts(self.text, self.atoms, "[]")

    @functools.cached_property
    def markup(self) -> list[int]:
        return _prefix_counts(self.text, {}, _MARKUP_CHARS)

    @functools.cached_property
    def blank(self) -> list[int]:
        return _prefix_counts(self.text, {}, str.isspace)

    def translate(self) -> str:
        text, out = self.text, []
        end = len(text)
        stack: list[tuple[int, str, int, int]] = []  # (close, suffix, resume at, outer end)
        plain = pos = 0
        while True:
            if pos >= end:
                out.append(_accent(text[plain:end]))
                if not stack:
                    return "".join(out)
                close, suffix, resume, end = stack.pop()
                out.append(suffix)
                plain = pos = resume
                continue
            atom_end = self.atoms.get(pos)
            if atom_end is not None and atom_end <= end:
                out += [_accent(text[plain:pos]), text[pos:atom_end]]
                plain = pos = atom_end
                continue
            close = self.match.get(pos) if text[pos] == "[" else None
            if close is None or close >= end:
                pos += 1
                continue
            out.append(_accent(text[plain:pos]))
            whole, suffix, resume = self.group(pos, close, end)
            if whole is not None:  # copied as it is: nothing inside to translate
                out.append(whole)
                plain = pos = resume
                continue
            out.append("[")
            stack.append((close, suffix, resume, end))
            plain = pos = pos + 1
            end = close

    def group(self, open_: int, close: int, end: int) -> tuple[str | None, str, int]:
        """A ``[...]`` group: inline link, full/collapsed/shortcut reference, or plain text.

        Returns the text to write instead of it (or None: translate its inside), what
        follows the translated inside, and where to go on. Link text is translated;
        destinations, titles and labels are kept. A shortcut ``[label]`` becomes
        ``[translated][label]`` so a defined reference still resolves; one whose label
        holds markup is kept as it is.
        """
        text = self.text
        after = close + 1
        if after < end and text[after] == "(":
            dest_end = _scan_destination(text, after, end)
            if dest_end is not None:
                return None, text[close:dest_end], dest_end
        has_bracket = self._count(self.brackets, open_ + 1, close) > 0
        blank = self._count(self.blank, open_ + 1, close) == close - open_ - 1
        if after < end and text[after] == "[":
            label_close = self._label_close(after, end)
            if label_close is not None and label_close > after + 1:
                stop = _kept_destination(text, label_close + 1, end)
                return None, text[close:stop], stop
            if label_close == after + 1 and not blank and not has_bracket:
                stop = _kept_destination(text, label_close + 1, end)  # ``[][]`` is no reference
                return None, f"][{text[open_ + 1 : close]}]{text[label_close + 1 : stop]}", stop
        if blank or has_bracket:
            return None, "]", after
        if self._count(self.markup, open_ + 1, close) == 0:
            return None, f"][{text[open_ + 1 : close]}]", after
        return text[open_:after], "", after  # a label with markup: copying doubles markup

    def _label_close(self, open_: int, end: int) -> int | None:
        # a footnote-like ``[^x]`` as a label closes with its own ``]``
        close = self.atoms[open_] - 1 if open_ in self.atoms else self.match.get(open_)
        return close if close is not None and close < end else None

    @staticmethod
    def _count(prefix: list[int], start: int, stop: int) -> int:
        return prefix[stop] - prefix[start]


def _matching_brackets(text: str, atoms: dict[int, int]) -> dict[int, int]:
    """Each ``[`` → its matching ``]``, atoms skipped, in one pass with a stack."""
    match: dict[int, int] = {}
    stack: list[int] = []
    pos = 0
    while True:
        found = _BRACKET_RE.search(text, pos)
        if found is None:
            return match
        pos = found.start()
        if pos in atoms:  # escapes, code, HTML, footnote references hold no brackets
            pos = atoms[pos]
            continue
        if text[pos] == "[":
            stack.append(pos)
        elif text[pos] == "]" and stack:
            match[stack.pop()] = pos
        pos += 1


_BRACKET_RE = re.compile(r"[\[\]\\<&`]")


def _prefix_counts(text: str, atoms: dict[int, int], chars) -> list[int]:
    """``counts[i]``: characters before ``i`` that are in ``chars`` (or for which it is
    true, if it is a function), atoms not counted."""
    counts = [0] * (len(text) + 1)
    wanted = chars if callable(chars) else chars.__contains__
    total = 0
    skip_until = 0
    for index, ch in enumerate(text):
        if index >= skip_until and index in atoms:
            skip_until = atoms[index]
        if index >= skip_until and wanted(ch):
            total += 1
        counts[index + 1] = total
    return counts


def _kept_destination(text: str, pos: int, end: int) -> int:
    """End of a ``(destination)`` right after a reference, else ``pos``. It is copied as it
    is: ``[a][b](c)`` links to ``b``, or is text and then a link to ``c``, depending on
    definitions this text does not show; copied, either reading keeps its structure."""
    if pos < end and text[pos] == "(":
        stop = _scan_destination(text, pos, end)
        if stop is not None:
            return stop
    return pos


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
