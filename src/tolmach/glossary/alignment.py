"""Which target words go with a source word: co-occurrence across translated entries.

For a candidate term, the entries whose source contains it are compared with the rest
of the catalog: a word of the translations that occurs in those entries and rarely
elsewhere (Dice coefficient) is likely its translation. Chinese and Japanese have no
spaces, so their units are runs of two to four characters.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tolmach.glossary.match import mask_code_and_urls, tokenize

__all__ = ["TranslatedEntry", "target_aligner"]


@dataclass(frozen=True)
class TranslatedEntry:
    """A translated catalog entry: its source and its translation in one locale."""

    locale: str
    source: str
    target: str


def target_aligner(entries: Sequence[TranslatedEntry]):
    """A function giving, for the forms a term takes in the sources, the target words
    seen with it in each locale (up to three, best first)."""
    by_locale: dict[str, list[TranslatedEntry]] = defaultdict(list)
    for entry in entries:
        if entry.target.strip():
            by_locale[entry.locale].append(entry)
    units = {
        locale: [(e.source, frozenset(_target_units(locale, e.target))) for e in items]
        for locale, items in by_locale.items()
    }
    totals = {locale: Counter(u for _, us in items for u in us) for locale, items in units.items()}

    def align(forms: Iterable[str]) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """``(locale, best target words)`` for a term found in these forms."""
        forms = set(forms)
        result = []
        for locale in sorted(units):
            with_candidate = [us for source, us in units[locale] if any(f in source for f in forms)]
            if not with_candidate:
                continue
            together = Counter(u for us in with_candidate for u in us)
            dice = {
                unit: 2 * n / (len(with_candidate) + totals[locale][unit])
                for unit, n in together.items()
            }
            best: list[str] = []
            for unit in sorted(dice, key=lambda u: (-dice[u], -len(u), u)):
                if not any(unit in chosen or chosen in unit for chosen in best):
                    best.append(unit)
                if len(best) == 3:
                    break
            result.append((locale, tuple(best)))
        return tuple(result)

    return align


_STOP = frozenset(
    re.findall(
        r"\w+",
        "the a an of and or to in on for with by is are was be as at from that this it its "
        "der die das den dem des ein eine einer eines und oder zu im in am an auf für mit "
        "von vom ist sind wird werden als bei aus dass sich nicht",
    )
)
_CJK_RUN_RE = re.compile(r"[\u3400-\u9fff]+")


def _target_units(locale: str, text: str) -> Iterable[str]:
    """Words of a translation; for Chinese and Japanese, runs of 2–4 characters."""
    text = mask_code_and_urls(text)
    if locale.split("_")[0] in ("zh", "ja"):
        for run in _CJK_RUN_RE.findall(text):
            for size in (2, 3, 4):
                for i in range(len(run) - size + 1):
                    yield run[i : i + size]
        return
    for token in tokenize(text):
        word = token.text.casefold()
        if len(word) > 2 and word not in _STOP and not word.isdigit():
            yield word
