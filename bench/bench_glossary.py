"""Benchmark: a 1,000-term glossary against 10,000 Russian segments.

Terms and segments are built from pymorphy3's own dictionary: nouns and adjectives are
collected by prefix, segments use them in random inflected forms (case and number), so
the lemma index sees what real text gives it. Every segment is matched
(``find_in_source``) and its English "translation" checked (``check_translation``).

CPU seconds are printed beside wall time: on a shared machine they vary less.
Scopes and senses are on unless ``--plain``: a tenth of the terms belong to a domain
(half of them to the benchmark document's), one in twenty has context conditions
(the word before or after, a word in the segment, headings), a tenth of the segments
are headings, and the termbase is the document's view (``for_document``).

    .venv/bin/python bench/bench_glossary.py [--terms 1000] [--segments 10000] [--plain]
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import replace

from tolmach.glossary import Term, Termbase, check_translation
from tolmach.glossary.match import morph_analyzer
from tolmach.glossary.senses import Context

PREFIXES = (
    "про",
    "пере",
    "вы",
    "за",
    "под",
    "раз",
    "об",
    "на",
    "при",
    "со",
    "ко",
    "ма",
    "ст",
    "ли",
)
CASES = ("nomn", "gent", "datv", "accs", "ablt", "loct")
NUMBERS = ("sing", "plur")


def dictionary_words(pos: str, wanted: int) -> list:
    """Lemmas of one part of speech, as pymorphy3 parses, taken from its dictionary."""
    morph, seen, found = morph_analyzer(), set(), []
    for prefix in PREFIXES:
        for word, tag, normal_form, _, _ in morph.iter_known_word_parses(prefix):
            if pos == tag.POS and word == normal_form and normal_form not in seen and len(word) > 4:
                seen.add(normal_form)
                found.append(morph.parse(normal_form)[0])
                if len(found) >= wanted:
                    return found
    return found


def make_termbase(nouns, adjectives, size: int, rng: random.Random) -> Termbase:
    """70% single nouns, 20% adjective + noun phrases, 10% Latin product names."""
    terms, sources = [], set()
    for i, noun in enumerate(nouns[: int(size * 0.7)]):
        terms.append(_translate(noun.word, f"target{i}"))
        sources.add(noun.word)
    for i in range(int(size * 0.2)):
        noun, adj = rng.choice(nouns), rng.choice(adjectives)
        gender = noun.tag.gender or "masc"
        inflected = adj.inflect({gender, "sing", "nomn"})
        phrase = f"{inflected.word if inflected else adj.word} {noun.word}"
        if phrase not in sources:
            terms.append(_translate(phrase, f"phrase{i} target"))
            sources.add(phrase)
    for i in range(size - len(terms)):
        terms.append(Term(f"Prod{i}X{rng.randint(10, 99)}", "keep"))
    return Termbase(tuple(terms))


def add_scopes_and_senses(termbase: Termbase, nouns, rng: random.Random) -> Termbase:
    """Domains on a tenth of the terms (half of them the document's), contexts on 5%."""
    terms = []
    for term in termbase.terms:
        roll = rng.random()
        if roll < 0.1:
            term = replace(term, domains=("bench" if roll < 0.05 else "elsewhere",))
        elif roll < 0.15:
            words = tuple(rng.choice(nouns).word for _ in range(3))
            context = rng.choice(
                (
                    Context(not_next=words),
                    Context(previous=words),
                    Context(near=words),
                    Context(not_near=words, headings="never"),
                )
            )
            term = replace(term, context=context)
        terms.append(term)
    return Termbase(tuple(terms), termbase.ignored)


def _translate(source: str, target: str) -> Term:
    return Term(
        source, "translate", (("en", (target,)),), (("en", ("wrong",)),), case_sensitive=False
    )


def make_segments(termbase: Termbase, nouns, adjectives, count: int, rng: random.Random):
    """Sentences of 12-20 words: inflected nouns and adjectives, a few product names."""
    names = [t.source for t in termbase.terms if t.kind == "keep"]
    segments = []
    for _ in range(count):
        words = []
        for _ in range(rng.randint(12, 20)):
            roll = rng.random()
            if roll < 0.05:
                words.append(rng.choice(names))
            else:
                parse = rng.choice(nouns if roll < 0.7 else adjectives)
                form = parse.inflect({rng.choice(CASES), rng.choice(NUMBERS)})
                words.append(form.word if form else parse.word)
        segments.append(" ".join(words).capitalize() + ".")
    return segments


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--terms", type=int, default=1000)
    parser.add_argument("--segments", type=int, default=10_000)
    parser.add_argument("--plain", action="store_true", help="No scopes, no senses.")
    args = parser.parse_args()
    rng = random.Random(20250601)

    started = time.perf_counter()
    nouns = dictionary_words("NOUN", args.terms * 2)
    adjectives = dictionary_words("ADJF", 300)
    termbase = make_termbase(nouns, adjectives, args.terms, rng)
    segments = make_segments(termbase, nouns, adjectives, args.segments, rng)
    headings = [False] * len(segments)
    if not args.plain:
        termbase = add_scopes_and_senses(termbase, nouns, rng)
        headings = [rng.random() < 0.1 for _ in segments]
    translation = "The target0 and phrase1 target meet a wrong Prod0X10."
    print(f"setup: {len(termbase.terms)} terms, {len(segments)} segments "
          f"in {time.perf_counter() - started:.1f} s")  # fmt: skip

    started = time.perf_counter()
    if not args.plain:
        termbase = termbase.for_document("bench", {"bench"})
    termbase.find_in_source("")
    mode = "plain" if args.plain else f"scopes and senses on, {len(termbase.terms)} terms hold"
    print(f"lemma index built on first use ({mode}): {time.perf_counter() - started:.2f} s")
    forms = len({w for s in segments for w in s.rstrip(".").lower().split()})
    for label in (f"cold ({forms} distinct word forms to parse)", "warm (parses cached)"):
        cpu = time.process_time()
        elapsed, matches, violations = run_once(termbase, segments, headings, translation)
        cpu = time.process_time() - cpu
        print(f"find_in_source + check_translation, {label}: {elapsed:.2f} s "
              f"({cpu:.2f} s CPU), {len(segments) / elapsed:,.0f} segments/s; "
              f"{matches} term matches, {violations} violations")  # fmt: skip


def run_once(
    termbase: Termbase, segments: list[str], headings: list[bool], translation: str
) -> tuple[float, int, int]:
    started = time.perf_counter()
    matches = violations = 0
    for segment, heading in zip(segments, headings, strict=True):
        matches += len(termbase.find_in_source(segment, heading))
        violations += len(check_translation(termbase, segment, translation, "en", heading=heading))
    return time.perf_counter() - started, matches, violations


if __name__ == "__main__":
    main()
