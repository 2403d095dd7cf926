"""Term discovery: what in the sources looks like a term the termbase lacks, ranked.

A reviewer reading a technical article marks three kinds of words: names in Latin
script (``UALink``, ``MI355X``), Russian noun phrases that name a concept
(«коллективные операции», «плотность вычислений», «KV-кэш») and single nouns that mean
something specific in the domain («задержка», «профилировщик»). This module proposes
all three, ranked by *termhood*: how much more often a candidate occurs in the project
than in general Russian.

Termhood starts from how rare a word is in general Russian (:mod:`~tolmach.glossary.
baseline`, news frequencies shipped with the package): ``log10(1000 / uses per
million)``, 0 for everyday words, 3 for words seen once in a million or less. It is
weighted by how often the documents use the candidate (``1 + log2(f)``; a use in a
heading, where articles name topics, counts half; more when several documents use it)
and by the known terms within a few words of its uses (terms keep company). A phrase
gets the mean rarity of its words, a bonus, another when it shares a word with a
multiword term of the termbase («ускоренное вычисление» beside «открытые
вычисления»), and C-value's correction for a phrase seen only inside a longer one.
Hyphenated Latin–Cyrillic forms are nearly always terms and get a bonus.

Each candidate carries its occurrences (document, line, form as written) and, where
catalogs hold translations, the target words that occur with it
(:mod:`~tolmach.glossary.alignment`).
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from tolmach.glossary.alignment import TranslatedEntry, target_aligner
from tolmach.glossary.baseline import MAX_RARITY, baseline_frequency, rarity
from tolmach.glossary.match import (
    SourceIndex,
    Token,
    is_cyrillic,
    lemma_pattern,
    mask_code_and_urls,
    morph_analyzer,
    normalize_word,
    tokenize,
    word_lemmas,
)
from tolmach.glossary.terms import Termbase

__all__ = [
    "Candidate",
    "Occurrence",
    "SourceSegment",
    "TranslatedEntry",
    "baseline_frequency",
    "discover_terms",
    "rarity",
]

_LATIN_RE = re.compile(r"[A-Za-z\u00C0-\u024F][0-9A-Za-z\u00C0-\u024F]+")
_CAMEL_RE = re.compile(r"[a-z][A-Z]|[A-Z]{2}[a-z]")
_NOUN_SKIP = frozenset({"Name", "Surn", "Patr", "Geox", "Orgn", "Abbr", "Init"})
_ADJECTIVES = frozenset({"ADJF", "PRTF"})
_COMPOUND_BONUS = 2.5
_PHRASE_BONUS = 0.5
_NAME_BONUS = 1.0
_MIN_WORD_LENGTH = 4
_MIN_PHRASE_WORD = 3
_COMMON_DEPENDENT = 0.5  # rarity below this: used more than ~300 times in a million words
_NEAR = 6  # known terms within this many words of a candidate keep it company
_TERM_COMPANY = 0.5  # weight of that company
_COMPANY_CAP = 3  # ... counted up to three terms
_HEADING_WEIGHT = 0.5  # headings name topics, often rhetorically: a use there counts half
_VOCABULARY_BONUS = 1.0  # a phrase sharing a word with a known multiword term


@dataclass(frozen=True)
class SourceSegment:
    """One translatable text of a source document, with the line it starts on."""

    document: str
    line: int
    text: str
    heading: bool = False


@dataclass(frozen=True)
class Occurrence:
    document: str
    line: int
    form: str


@dataclass(frozen=True)
class Candidate:
    """A proposed term: its dictionary form, why it was proposed and where it occurs."""

    text: str
    kind: str
    score: float
    occurrences: tuple[Occurrence, ...]
    aligned: tuple[tuple[str, tuple[str, ...]], ...] = ()  # locale → target words

    @property
    def count(self) -> int:
        return len(self.occurrences)

    @property
    def documents(self) -> int:
        return len({o.document for o in self.occurrences})


@dataclass
class _Found:
    kind: str
    words: tuple[str, ...]  # lemmas of the words, for the baseline
    occurrences: list[Occurrence] = field(default_factory=list)
    weights: list[float] = field(default_factory=list)  # each use: 1, or less in a heading
    terms_near: list[int] = field(default_factory=list)  # each use: known terms close by


# --- discovery -------------------------------------------------------------------------


def discover_terms(
    termbase: Termbase,
    segments: Iterable[SourceSegment],
    translations: Iterable[TranslatedEntry] = (),
    limit: int | None = None,
) -> list[Candidate]:
    """Candidates the termbase does not cover, best first (``limit`` of them)."""
    segments = list(segments)
    ignored = SourceIndex((lemma_pattern(p, False), p) for p in termbase.ignored)
    found: dict[str, _Found] = {}
    words_seen = 0
    for segment in segments:
        text = mask_code_and_urls(segment.text)
        tokens = tokenize(text)
        words_seen += len(tokens)
        terms = termbase.find_in_source(segment.text, segment.heading)
        spans = [(m.start, m.end) for m in terms]
        term_tokens = [i for i, t in enumerate(tokens) if any(a <= t.start < b for a, b in spans)]
        spans += [(h.start, h.end) for h in ignored.find(segment.text)]
        for key, kind, words, first, last in _proposals(text, tokens, spans):
            entry = found.setdefault(key, _Found(kind, words))
            form = text[tokens[first].start : tokens[last].end]
            entry.occurrences.append(Occurrence(segment.document, segment.line, form))
            entry.weights.append(_HEADING_WEIGHT if segment.heading else 1.0)
            entry.terms_near.append(
                sum(1 for i in term_tokens if first - _NEAR <= i <= last + _NEAR)
            )
    scores = _scores(found, _vocabulary(termbase))
    ranked = sorted(found, key=lambda key: (-scores[key], key.casefold()))[:limit]
    aligned = target_aligner(list(translations))
    return [
        Candidate(
            key,
            found[key].kind,
            round(scores[key], 3),
            tuple(found[key].occurrences),
            aligned({o.form for o in found[key].occurrences}),
        )
        for key in ranked
    ]


def _proposals(text: str, tokens: list[Token], spans: list[tuple[int, int]]):
    """``(key, kind, lemmas, first token, last token)`` for every candidate in a segment."""

    def covered(first: int, last: int) -> bool:
        start, end = tokens[first].start, tokens[last].end
        return any(a <= start and end <= b for a, b in spans)

    def touches(index: int) -> bool:
        return any(a <= tokens[index].start < b for a, b in spans)

    for i, token in enumerate(tokens):
        following = tokens[i + 1] if i + 1 < len(tokens) else None
        if (
            following is not None
            and not token.cyrillic
            and following.cyrillic
            and text[token.end : following.start] == "-"
            and _LATIN_RE.fullmatch(token.text)
            and not covered(i, i + 1)
        ):
            noun = _noun_lemma(following.text)
            if noun:
                yield f"{token.text}-{noun}", "Latin–Cyrillic compound", (noun,), i, i + 1
                continue
        if touches(i):
            continue
        if not token.cyrillic:
            if _LATIN_RE.fullmatch(token.text) and not _hyphen_joined(text, tokens, i):
                yield token.text, _latin_kind(token.text), (token.text,), i, i
            continue
        noun = _noun_lemma(token.text)
        if noun and len(noun) >= _MIN_WORD_LENGTH and not _hyphen_joined(text, tokens, i):
            yield noun, "noun", (noun,), i, i
        if following is None or not following.cyrillic or touches(i + 1):
            continue
        if text[token.end : following.start].strip() or _hyphen_joined(text, tokens, i):
            continue
        if _hyphen_joined(text, tokens, i + 1):
            continue
        if min(len(token.text), len(following.text)) < _MIN_PHRASE_WORD:
            continue
        phrase = _agreeing_phrase(token.text.lower(), following.text.lower())
        if phrase:
            yield phrase[0], "adjective + noun", phrase[1], i, i + 1
        phrase = _genitive_phrase(token.text.lower(), following.text.lower())
        if phrase:
            yield phrase[0], "noun + genitive", phrase[1], i, i + 1


def _hyphen_joined(text: str, tokens: list[Token], i: int) -> bool:
    """Part of a hyphenated word («ИИ-разработку»): proposed as a whole or not at all."""
    before = i > 0 and text[tokens[i - 1].end : tokens[i].start] == "-"
    after = i + 1 < len(tokens) and text[tokens[i].end : tokens[i + 1].start] == "-"
    return before or after


def _latin_kind(word: str) -> str:
    if any(ch.isdigit() for ch in word):
        return "letters and digits"
    if _CAMEL_RE.search(word):
        return "CamelCase"
    return "Latin script"


@functools.lru_cache(maxsize=50_000)
def _noun_lemma(word: str) -> str | None:
    """The noun a word form most likely is, in dictionary form, or None."""
    parses = morph_analyzer().parse(word.lower())
    if not parses:
        return None
    best = parses[0]
    if best.tag.POS != "NOUN" or _NOUN_SKIP & set(best.tag.grammemes):
        return None
    return normalize_word(best.normal_form)


@functools.lru_cache(maxsize=50_000)
def _agreeing_phrase(adjective: str, noun: str) -> tuple[str, tuple[str, str]] | None:
    """Adjective + noun in the same case, number and gender («коллективные операции»)."""
    adjectives = [p for p in morph_analyzer().parse(adjective) if _is_adjective(p)]
    nouns = [p for p in morph_analyzer().parse(noun) if p.tag.POS == "NOUN"]
    for adj in adjectives:
        for head in nouns:
            if _agree(adj.tag, head.tag):
                number = "plur" if "Pltm" in head.tag else "sing"
                gender = head.lexeme[0].tag.gender or "masc"
                wanted = {"plur", "nomn"} if number == "plur" else {gender, "sing", "nomn"}
                inflected = adj.inflect(wanted)
                left = inflected.word if inflected else adj.normal_form
                lemmas = (normalize_word(adj.normal_form), normalize_word(head.normal_form))
                return f"{left} {head.normal_form}", lemmas
    return None


@functools.lru_cache(maxsize=50_000)
def _genitive_phrase(head: str, dependent: str) -> tuple[str, tuple[str, str]] | None:
    """Noun + noun in the genitive («плотность вычислений»): the head in dictionary form."""
    heads = [p for p in morph_analyzer().parse(head) if p.tag.POS == "NOUN"]
    dependents = [p for p in morph_analyzer().parse(dependent) if p.tag.POS == "NOUN"]
    if not heads or not dependents or heads[0].tag.POS != "NOUN":
        return None
    if dependents[0].tag.POS != "NOUN" or dependents[0].tag.case != "gent":
        return None
    if _NOUN_SKIP & set(heads[0].tag.grammemes) or _NOUN_SKIP & set(dependents[0].tag.grammemes):
        return None
    if rarity(dependents[0].normal_form) < _COMMON_DEPENDENT:
        return None  # «суперкомпьютер мира»: a very common word adds no concept
    lemmas = (normalize_word(heads[0].normal_form), normalize_word(dependents[0].normal_form))
    return f"{heads[0].normal_form} {dependent}", lemmas


def _is_adjective(parse) -> bool:
    return parse.tag.POS in _ADJECTIVES and "Apro" not in parse.tag


def _agree(adj, noun) -> bool:
    if adj.case != noun.case or adj.number != noun.number:
        return False
    return noun.number != "sing" or adj.gender == noun.gender


# --- ranking ---------------------------------------------------------------------------


def _scores(found: Mapping[str, _Found], vocabulary: frozenset[str]) -> dict[str, float]:
    """Termhood × frequency × the company of known terms, with C-value's nesting.

    Frequency counts as ``1 + log2(f)`` (a word seen 4 times weighs 3 times one seen
    once; a use in a heading counts half) and a little more when several documents use
    it. Terms keep company: each known term within a few words of a use adds weight.
    """
    longer: dict[str, list[str]] = defaultdict(list)
    keys = list(found)
    for shorter, other in itertools.permutations(keys, 2):
        if len(found[shorter].words) < 2:
            continue  # C-value is about phrases; a word inside a phrase is still a word
        if len(other) > len(shorter) and f" {shorter} " in f" {other} ":
            longer[shorter].append(other)
    scores = {}
    for key, entry in found.items():
        frequency = sum(entry.weights)
        nested = [sum(found[k].weights) for k in longer.get(key, [])]
        if nested:
            frequency = max(frequency - sum(nested) / len(nested), _HEADING_WEIGHT)
        documents = len({o.document for o in entry.occurrences})
        weight = 1 + math.log2(frequency) if frequency >= 1 else frequency
        weight *= 1 + 0.5 * (documents - 1)
        company = min(sum(entry.terms_near) / len(entry.terms_near), _COMPANY_CAP) / _COMPANY_CAP
        termhood = _termhood(entry)
        if len(entry.words) > 1 and vocabulary & set(entry.words):
            termhood += _VOCABULARY_BONUS
        scores[key] = termhood * weight * (1 + _TERM_COMPANY * company)
    return scores


def _vocabulary(termbase: Termbase) -> frozenset[str]:
    """Lemmas of the Russian words of the termbase's multiword terms."""
    words: set[str] = set()
    for term in termbase.terms:
        tokens = tokenize(term.source)
        if len(tokens) > 1:
            for token in tokens:
                if token.cyrillic:
                    words |= word_lemmas(token.text)
    return frozenset(words)


def _termhood(entry: _Found) -> float:
    """How rare the candidate's words are in general Russian, per kind of candidate."""
    rare = [rarity(word) for word in entry.words]
    if entry.kind == "Latin–Cyrillic compound":
        return max(rare[0], 2.0) + _COMPOUND_BONUS
    if not is_cyrillic(entry.words[0]):
        return MAX_RARITY + _NAME_BONUS
    if len(rare) > 1:
        return sum(rare) / len(rare) + _PHRASE_BONUS
    return rare[0]
