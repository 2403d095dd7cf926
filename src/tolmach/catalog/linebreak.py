"""Where GNU gettext may break a long string across lines of a PO file.

GNU gettext wraps with the Unicode line breaking algorithm of libunistring (UAX #14,
pair-table form): a line may break after spaces, after ``\\n``, after hyphens, between
CJK ideographs, and so on, and fills lines greedily by display width. Reproducing it
exactly keeps a catalog edited in Poedit and rewritten by tolmach byte for byte the same.
"""

from __future__ import annotations

import bisect
import itertools
import re
import unicodedata
from functools import lru_cache

__all__ = ["break_lines", "break_opportunities", "fits_unbroken", "wrap"]

# Line break classes of UAX #14 as libunistring resolves them (AI and XX as AL,
# CJ as NS).  _PAIRS[before][after] says whether a line may break between two
# characters: D directly, I only when spaces come between, P never.
_PAIRS_TABLE = """
OP PPPPPPPPPPPPPPPPPPPPPIPI  CL DPPIIPPPPIIDDDDIIIDDPIPI  CP DPPIIIPPPIIIIIDIIIDDPIPI
QU PPPIIIPPPIIIIIIIIIIIPIPI  GL IPPIIIPPPIIIIIIIIIIIPIPI  NS DPPIIIPPPDDDDDDIIIDDPIPI
EX DPPIIIPPPDDDDDDIIIDDPIPI  SY DPPIIIPPPDDIDIDIIIDDPIPI  IS DPPIIIPPPDDIDDDIIIDDPIPI
PR IPPIIIPPPDDIIIIIIIDDPIPI  PO IPPIIIPPPDDIIIDIIIDDPIPI  NU IPPIIIPPPIIIIIDIIIDDPIPI
AL IPPIIIPPPIIIIIDIIIDDPIPI  HL IPPIIIPPPIIIIIDIIIDDPIPI  ID DPPIIIPPPDIDDDDIIIDDPIPI
IN DPPIIIPPPDDDDDDIIIDDPIPI  HY DPPIDIPPPDDIDDDIIIDDPIPI  BA DPPIDIPPPDDDDDDIIIDDPIPI
BB IPPIIIPPPIIIIIIIIIIIPIPI  B2 DPPIIIPPPDDDDDDIIIDPPIPI  ZW DDDDDDDDDDDDDDDDDDDDPDDD
CM IPPIIIPPPIIIIIDIIIDDPIPI  WJ IPPIIIPPPIIIIIIIIIIIPIPI  ZWJ IPPIIIPPPIIIIIIIIIIIPIPI
"""
_CLASSES = _PAIRS_TABLE.split()[::2]  # the columns come in the order of the rows
_PAIRS = {
    name: dict(zip(_CLASSES, cells, strict=True))
    for name, cells in zip(*[iter(_PAIRS_TABLE.split())] * 2, strict=True)
}
# An East Asian opening bracket (OPW) is an OP that may follow a letter or digit.
_PAIRS["OPW"] = _PAIRS["OP"]
for _name, _row in _PAIRS.items():
    _row["OPW"] = "D" if _name in ("AL", "HL", "NU") else _row["OP"]

# Characters whose class the Unicode general category does not tell: a class,
# then its characters, printable ASCII as themselves, others as hex code points.
_CLASS_LIST = """
SP 0020  BA 0009 |  EX ! ?  QU 0022 0027  PR $ + 005c  PO %  OP ( [ {  CP ) ]  CL }
IS , . : ;  HY -  SY /
GL 00a0 034f 2007 2011 202f  OP 00a1 00bf 201a 201e  PO 00a2 00b0 2030-2037 20a7 20b6 20bb
PO 20be 2103 2109 ff05 ffe0  PR 00a3-00a5 00b1 2116 2212 2213 ff04 ffe1 ffe5 ffe6
QU 00ab 00bb 2018 2019 201b-201d 201f 2039 203a  BA 00ad 058a 2010 2012 2013 2027 2056
BA 2058-205b 205d 205e 3000  BB 00b4  B2 2014  ZW 200b  CM 200c 3035  ZWJ 200d  IS 037e 2044
IN 2024-2026 22ef  NS 203c 203d 2047-2049 3005 301c 303b 303c 309b-309e 30a0 30fb-30fe
NS ff1a ff1b ff65 ff70 ff9e ff9f  WJ 2060 feff  AL 2061-2064 25fd 25fe  ID 303f
CL 3001 3002 301e 301f ff0c ff0e ff61 ff64  EX ff01 ff1f  OPW 301d ff62
NS 3041 3043 3045 3047 3049 3063 3083 3085 3087 308e 3095 3096 30a1 30a3 30a5 30a7 30a9
NS 30c3 30e3 30e5 30e7 30ee 30f5 30f6 31f0-31ff ff67-ff6f
"""


def _parse_class_list(text: str) -> dict[str, str]:
    """Read `_CLASS_LIST` into a character → class map."""
    classes: dict[str, str] = {}
    current = ""
    for token in text.split():
        if len(token) > 1 and token.isupper():
            current = token
        elif len(token) == 1:
            classes[token] = current
        else:
            low, _, high = token.partition("-")
            for code in range(int(low, 16), int(high or low, 16) + 1):
                classes[chr(code)] = current
    return classes


_LISTED_CLASSES = _parse_class_list(_CLASS_LIST)
_WIDE_RANGES = ((0x1F000, 0x1FAFF), (0xFF66, 0xFFDC))  # emoji, halfwidth kana and Hangul
_CATEGORY_CLASSES = {"Ps": "OP", "Pe": "CL", "Pi": "QU", "Pf": "QU", "Sc": "PR", "Nd": "NU"}


@lru_cache(maxsize=4096)
def _break_class(char: str) -> str:
    """The UAX #14 line break class of a character, for the scripts catalogs use."""
    if char in _LISTED_CLASSES:
        return _LISTED_CLASSES[char]
    code, category = ord(char), unicodedata.category(char)
    if 0x05D0 <= code <= 0x05F2 or 0xFB1D <= code <= 0xFB4F:
        return "HL"
    if category in ("Mn", "Mc", "Me", "Cc", "Cf"):
        return "CM"
    if category == "Zs":
        return "BA"
    wide = unicodedata.east_asian_width(char) in ("W", "F")
    if wide or any(low <= code <= high for low, high in _WIDE_RANGES):
        return {"Ps": "OPW", "Pe": "CL"}.get(category, "ID")
    return _CATEGORY_CLASSES.get(category, "AL")


@lru_cache(maxsize=4096)
def _column_width(char: str) -> int:
    """Columns a character takes on a terminal; control characters count nothing."""
    if unicodedata.category(char) in ("Mn", "Me", "Cc", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


_NARROW = re.compile("[ -~\u00a0-\u00ac\u00ae-\u02ff\u0370-\u0482\u048a-\u052f\u1e00-\u1eff\u2010-\u2027]*")


@lru_cache(maxsize=4)
def _column_offsets(text: str) -> list[int] | None:
    """Column at which each character starts; None when each takes exactly one column.

    A string is wrapped twice in a row (after its keyword, then on lines of its own),
    so the last few answers are kept; nobody changes the list."""
    if _NARROW.fullmatch(text):
        return None
    return [0, *itertools.accumulate(map(_column_width, text))]


@lru_cache(maxsize=65536)
def _word_breaks(word: str) -> tuple[str, tuple[int, ...], str]:
    """Break opportunities inside a space-free piece of escaped text (UAX #14).

    Returns the class the piece starts with, the offsets where a line may break
    before a character (never inside an escape sequence), and the class that
    governs what may follow.  Words repeat, so the answer is cached.
    """
    first = _break_class(word[0])
    last = "AL" if first == "CM" else first  # a mark without a base counts as a letter
    hebrew_dash, escape = False, word[0] == "\\"
    offsets: list[int] = []
    for index in range(1, len(word)):
        char = word[index]
        cls = _break_class(char)
        sealed, escape = escape, char == "\\" and not escape
        if cls == "CM" and last != "ZW":
            hebrew_dash = False
            continue  # a combining mark joins the character before it
        cls = "AL" if cls == "CM" else cls
        may_break = last == "ZW" or (not hebrew_dash and _PAIRS[last][cls] == "D")
        if may_break and not sealed:
            offsets.append(index)
        hebrew_dash = last == "HL" and cls in ("HY", "BA")  # LB21a
        last = cls
    return first, tuple(offsets), last


def break_opportunities(text: str) -> list[int]:
    """Offsets in escaped text before which a line may break, as libunistring finds them."""
    positions: list[int] = []
    last, offset = "BK", 0
    for word in text.split(" "):
        if word:
            first, inner, end = _word_breaks(word)
            if last != "BK" and (first == "CM" or last == "ZW" or _PAIRS[last][first] != "P"):
                positions.append(offset)  # after spaces, only P forbids a break
            positions.extend([offset + inner_offset for inner_offset in inner])
            last = end
        offset += len(word) + 1
    return positions


def break_lines(text: str, positions: list[int], width: int, start: int) -> list[int]:
    """Greedy line filling as libunistring's width-aware breaking: the break offsets.

    A piece runs from one break opportunity to the next and includes its trailing
    spaces; it moves to a new line when it would end past ``width``.
    """
    columns = _column_offsets(text)
    breaks: list[int] = []
    last_break: int | None = None
    line_start = -start  # where column 0 would be
    for position in [*positions, len(text)]:
        end = columns[position] if columns else position
        if last_break is not None and end - line_start > width:
            breaks.append(last_break)
            line_start = columns[last_break] if columns else last_break
        last_break = position
    return breaks


def wrap(text: str, width: int, start: int = 0, exclude: int | None = None) -> list[int]:
    """The break offsets :func:`break_lines` gives for all of ``text``'s opportunities
    (but ``exclude``), found without listing them all.

    Each line ends at the last opportunity that fits, or at the first one after the
    line's start when none fits; only the words around each line's end are looked at,
    so a long string costs its line count, not its word count.
    """
    columns = _column_offsets(text)
    end = len(text)
    total = columns[end] if columns else end
    breaks: list[int] = []
    line_start, line_column = 0, -start
    while total - line_column > width:
        room = line_column + width
        last = bisect.bisect_right(columns, room) - 1 if columns else min(room, end)
        cut = _last_opportunity(text, last, line_start, exclude)
        if cut is None:
            cut = _first_opportunity(text, line_start, exclude)
            if cut is None:
                break
        breaks.append(cut)
        line_start, line_column = cut, columns[cut] if columns else cut
    return breaks


def fits_unbroken(text: str, width: int, start: int = 0, exclude: int | None = None) -> bool:
    """Whether :func:`wrap` would leave ``text`` on one line (``wrap(...) == []``), decided
    from the first line alone: it fits, or nothing lets it break."""
    columns = _column_offsets(text)
    end = len(text)
    room = width - start
    if (columns[end] if columns else end) <= room:
        return True
    last = bisect.bisect_right(columns, room) - 1 if columns else min(room, end)
    if _last_opportunity(text, last, 0, exclude) is not None:
        return False
    return _first_opportunity(text, 0, exclude) is None


def _last_opportunity(text: str, last: int, after: int, exclude: int | None) -> int | None:
    """The greatest break opportunity in ``(after, last]``, walking back word by word."""
    stop = last + 1  # the search covers text[:stop]
    while stop > after + 1:
        word_start = text.rfind(" ", 0, stop) + 1
        if word_start == stop:  # a space: step over it
            stop -= 1
            continue
        word_end = text.find(" ", word_start)
        for offset in reversed(_word_opportunities(text, word_start, word_end)):
            if after < offset <= last and offset != exclude:
                return offset
        stop = word_start - 1
    return None


def _first_opportunity(text: str, after: int, exclude: int | None) -> int | None:
    """The least break opportunity past ``after`` (a line that nothing lets fit)."""
    positions = [p for p in break_opportunities(text) if p > after and p != exclude]
    return positions[0] if positions else None


def _word_opportunities(text: str, word_start: int, word_end: int) -> list[int]:
    """The opportunities of one space-free word of ``text``, as break_opportunities
    finds them: before it (decided by the word before), and inside it."""
    word = text[word_start:word_end] if word_end >= 0 else text[word_start:]
    first, inner, _ = _word_breaks(word)
    found = [word_start + offset for offset in inner]
    before_end = word_start - 1
    while before_end >= 0 and text[before_end] == " ":
        before_end -= 1
    if before_end >= 0:  # a word comes before: the pair of classes decides
        previous = text[text.rfind(" ", 0, before_end) + 1 : before_end + 1]
        last = _word_breaks(previous)[2]
        if first == "CM" or last == "ZW" or _PAIRS[last][first] != "P":
            found.insert(0, word_start)
    return found
