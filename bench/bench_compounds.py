"""Which German compound matching works on our catalogs: a splitter or Snowball on the head.

A German translation often writes a term inside a compound: *Lehrcluster* holds
*Cluster*, *Prozessorkernen* holds *Kern*. Every (word, single-word German target)
pair of the de catalogs where the target's stem occurs inside the word's stem is a
case; the pairs listed in GOLD are real constituents, every other one is a false
lookalike (*Beweis* holds the letters of *Eisen*, *Kernel* those of *Kern*). Methods:

- ``stem``: the word's Snowball stem equals the target's (what matching did before);
- ``snowball-head``: the word's Snowball stem ends with the target's stem (4+ letters,
  3+ letters before it), which finds the compound's head, where German inflects;
- ``inflected-head``: the word ends with the target as written plus a German ending
  (what tolmach uses: :func:`tolmach.glossary.match.compound_head_match`);
- ``head-or-modifier``: also a word that starts with the target and a linking letter
  (what satisfies a *required* term; a forbidden one is matched by head only, since
  *Kerneltreiber* starts with the letters of *Kern*);
- ``charsplit-fst`` and ``compound-split``: the parts a splitter gives (recursively,
  splits scored above 0), compared stem to stem — run when the package is installed
  (charsplit-fst needs Python 3.12 or later; compound-split is GPL-3.0).

    .venv/bin/python bench/bench_compounds.py
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

import polib

from tolmach.glossary import load_termbase
from tolmach.glossary.match import (
    compound_head_match,
    compound_modifier_match,
    stem,
    tokenize,
)

ROOT = Path(__file__).resolve().parent.parent
# Pairs whose target is a real constituent of the word (checked by hand).
GOLD = {
    ("Lehrcluster", "Cluster"),
    ("Lehrcluster", "Lehre"),
    ("Prozessorkernen", "Kern"),
    ("Softwaredefinierte", "Software"),
}


def cases() -> list[tuple[str, str]]:
    termbase = load_termbase(ROOT / "locales" / "glossary.toml")
    targets = {
        text
        for term in termbase.terms
        for locale, values in (*term.translations, *term.forbidden)
        if locale == "de"
        for text in values
        if len(tokenize(text)) == 1 and len(text) >= 4
    }
    words = {
        token.text
        for path in sorted((ROOT / "locales" / "de" / "LC_MESSAGES").glob("*.po"))
        for entry in polib.pofile(str(path))
        for token in tokenize(entry.msgstr)
    }
    found = []
    for word in sorted(words):
        for target in sorted(targets):
            word_stem, target_stem = stem("de", word), stem("de", target)
            if target_stem in word_stem and word_stem != target_stem:
                found.append((word, target))
    return found


def by_stem(word: str, target: str) -> bool:
    return stem("de", word) == stem("de", target)


def by_snowball_head(word: str, target: str) -> bool:
    head, whole = stem("de", target), stem("de", word)
    return len(head) >= 4 and len(whole) >= len(head) + 3 and whole.endswith(head)


def by_inflected_head(word: str, target: str) -> bool:
    return compound_head_match("de", word, target)


def by_head_or_modifier(word: str, target: str) -> bool:
    return by_inflected_head(word, target) or compound_modifier_match("de", word, target)


def by_splitter(split: Callable[[str], list]) -> Callable[[str, str], bool]:
    @functools.cache
    def parts(word: str) -> tuple[str, ...]:
        """The word and, while the best split scores above 0, its parts (recursively)."""
        best = split(word) if len(word) >= 8 else []
        if not best or best[0][0] <= 0:
            return (word,)
        _, left, right = best[0]
        return (word, *parts(left), *parts(right))

    def matches(word: str, target: str) -> bool:
        return any(stem("de", p) == stem("de", target) for p in parts(word))

    return matches


def methods() -> dict[str, Callable[[str, str], bool] | str]:
    found: dict[str, Callable[[str, str], bool] | str] = {
        "stem": by_stem,
        "snowball-head": by_snowball_head,
        "inflected-head": by_inflected_head,
        "head-or-modifier": by_head_or_modifier,
    }
    try:
        from charsplit_fst import Splitter

        found["charsplit-fst"] = by_splitter(Splitter().split_compound)
    except ImportError:
        found["charsplit-fst"] = "not installed (needs Python 3.12+)"
    try:
        from compound_split import char_split

        found["compound-split"] = by_splitter(char_split.split_compound)
    except ImportError:
        found["compound-split"] = "not installed"
    return found


def main() -> None:
    pairs = cases()
    gold = [p for p in pairs if p in GOLD]
    print(f"{len(pairs)} lookalike pairs in the de catalogs, {len(gold)} real constituents")
    for name, method in methods().items():
        if isinstance(method, str):
            print(f"{name:15} {method}")
            continue
        hits = {p for p in pairs if method(*p)}
        true = len(hits & GOLD)
        false = sorted(hits - GOLD)
        missed = sorted(set(gold) - hits)
        print(
            f"{name:15} found {true}/{len(gold)}, false hits {len(false)}"
            f"{' ' + str(false) if false else ''}; missed {missed}"
        )


if __name__ == "__main__":
    main()
