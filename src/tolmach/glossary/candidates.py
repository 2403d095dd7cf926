"""Words in the sources that look like terms but are not in the termbase.

A Russian article names products and technologies in Latin script (``UALink``,
``MI355X``) and repeats its domain terms as adjective + noun phrases («рабочая
нагрузка»). Whatever of that no term (and no ``[ignore]`` phrase) covers is a candidate,
ranked by how often it occurs.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from tolmach.glossary.match import (
    SourceIndex,
    Token,
    lemma_pattern,
    mask_code_and_urls,
    morph_analyzer,
    tokenize,
)
from tolmach.glossary.terms import Termbase

__all__ = ["Candidate", "find_candidates"]

_LATIN_WORD_RE = re.compile(r"[A-Za-z\u00C0-\u024F][0-9A-Za-z\u00C0-\u024F]+")
_CAMEL_RE = re.compile(r"[a-z][A-Z]|[A-Z]{2}[a-z]")
_ADJECTIVES = frozenset({"ADJF", "PRTF"})


@dataclass(frozen=True)
class Candidate:
    text: str
    count: int
    reason: str


def find_candidates(
    termbase: Termbase, texts: Iterable[str], min_phrase_count: int = 2
) -> list[Candidate]:
    """Uncovered Latin words, CamelCase, letter+digit tokens and frequent noun phrases.

    Latin-script tokens count from their first occurrence; a noun phrase only once it is
    seen ``min_phrase_count`` times. Most frequent first.
    """
    ignored = SourceIndex((lemma_pattern(p, False), p) for p in termbase.ignored)
    words: Counter[tuple[str, str]] = Counter()
    phrases: Counter[str] = Counter()
    for text in texts:
        tokens = _uncovered_tokens(text, termbase, ignored)
        words.update((t.text, _reason(t.text)) for t in tokens if _looks_like_name(t.text))
        phrases.update(_noun_phrases(text, tokens))
    found = [Candidate(text, n, reason) for (text, reason), n in words.items()]
    found += [Candidate(p, n, "noun phrase") for p, n in phrases.items() if n >= min_phrase_count]
    return sorted(found, key=lambda c: (-c.count, c.text.casefold()))


def _uncovered_tokens(text: str, termbase: Termbase, ignored: SourceIndex) -> list[Token]:
    spans = [(m.start, m.end) for m in termbase.find_in_source(text)]
    spans += [(h.start, h.end) for h in ignored.find(text)]
    return [
        t
        for t in tokenize(mask_code_and_urls(text))
        if not any(start <= t.start < end for start, end in spans)
    ]


def _looks_like_name(word: str) -> bool:
    """Latin-script words of two or more characters; numbers such as 70B or 3x are not."""
    return bool(_LATIN_WORD_RE.fullmatch(word))


def _reason(word: str) -> str:
    if any(ch.isdigit() for ch in word):
        return "letters and digits"
    if _CAMEL_RE.search(word):
        return "CamelCase"
    return "Latin script"


def _noun_phrases(text: str, tokens: list[Token]) -> Iterable[str]:
    """Adjective + noun pairs that agree, in dictionary form («рабочая нагрузка»)."""
    for left, right in itertools.pairwise(tokens):
        if not (left.cyrillic and right.cyrillic) or text[left.end : right.start].strip():
            continue
        phrase = _agreeing_phrase(left.text.lower(), right.text.lower())
        if phrase:
            yield phrase


@functools.lru_cache(maxsize=50_000)
def _agreeing_phrase(adjective: str, noun: str) -> str | None:
    """Any reading of the pair as adjective + noun in the same case, number and gender
    («рабочие нагрузки» is most often read as a noun, «рабочие», but need not be)."""
    adjectives = [p for p in morph_analyzer().parse(adjective) if _is_adjective(p)]
    nouns = [p for p in morph_analyzer().parse(noun) if p.tag.POS == "NOUN"]
    for adj in adjectives:
        for head in nouns:
            if _agree(adj.tag, head.tag):
                gender = head.lexeme[0].tag.gender or "masc"
                inflected = adj.inflect({gender, "sing", "nomn"})
                return f"{inflected.word if inflected else adj.normal_form} {head.normal_form}"
    return None


def _is_adjective(parse) -> bool:
    return parse.tag.POS in _ADJECTIVES and "Apro" not in parse.tag


def _agree(adj, noun) -> bool:
    if adj.case != noun.case or adj.number != noun.number:
        return False
    return noun.number != "sing" or adj.gender == noun.gender
