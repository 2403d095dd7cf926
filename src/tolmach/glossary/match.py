"""The matching engine behind the termbase: tokens, lemmas, stems.

Source text (Russian) is matched by lemma through pymorphy3, so «ускорителям» finds the
term «ускоритель»; translations are matched by Snowball stem where the language has a
stemmer, and by substring for scripts written without spaces (Chinese, Japanese, ...).
In languages that write compounds as one word (German, Dutch, the Nordic languages) a
one-word target also matches as the head of a compound: *Prozessorkernen* has *Kern*
(``bench/bench_compounds.py`` measures this against dictionary-based splitters).
Terms are indexed by the key of their first word, so a segment costs one dictionary
look-up per token, not one regex per term.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

__all__ = [
    "Pattern",
    "SourceIndex",
    "TargetText",
    "Token",
    "compound_head_match",
    "compound_modifier_match",
    "is_cyrillic",
    "lemma_pattern",
    "mask_code_and_urls",
    "morph_analyzer",
    "normalize_word",
    "stem",
    "term_word_lemmas",
    "tokenize",
    "verbatim_pattern",
    "word_lemmas",
]

_LATIN = r"0-9A-Za-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F\u1E00-\u1EFF"
_CYRILLIC = r"\u0400-\u04FF"
# Latin letters with digits, Cyrillic words and runs of any other letters are separate
# tokens, so "HIP-программ" gives HIP and "ROCm的" gives ROCm, but "CHIP" stays whole.
_TOKEN_RE = re.compile(
    rf"[{_LATIN}]+|(?P<cyrillic>[{_CYRILLIC}]+)|[^\W\d_{_LATIN}{_CYRILLIC}]+"
)
# The same tokens as _TOKEN_RE, as plain strings: what a text's words are, at C speed.
_WORD_RE = re.compile(rf"[{_LATIN}]+|[{_CYRILLIC}]+|[^\W\d_{_LATIN}{_CYRILLIC}]+")
_CYRILLIC_RE = re.compile(rf"[{_CYRILLIC}]")

# Text that is not prose: inline code, link destinations, autolinks and bare URLs.
_NOT_PROSE_RE = re.compile(
    r"(`+).+?\1"
    r"|\]\([^)]*\)"
    r"|<[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*>"
    r"|<[^\s@<>]+@[^\s@<>]+>"
    r"|\bhttps?://[^\s<>()\[\]]+"
    r"|\bwww\.[^\s<>()\[\]]+",
    re.DOTALL,
)
# Each kind of span above holds one of these: a text without any has none.
_NOT_PROSE_MARKS = ("`", "](", "<", "http", "www.")
_MARKUP_IN_GAP_RE = re.compile(r"[*_~]")
_SPACE_RE = re.compile(r"\s+")

# Languages written without spaces between words: a required translation is a substring.
_UNSPACED_LANGUAGES = frozenset({"zh", "ja", "ko", "th", "lo", "km", "my", "bo"})
# Languages that write compounds as one word, inflected on the head (the last part),
# with the endings a noun or adjective head takes there.
_HEAD_ENDINGS = {
    "de": ("", "e", "en", "n", "er", "ern", "es", "s", "em", "ns"),
    "nl": ("", "s", "en", "e", "n"),
}
_LINKS = {"de": ("", "s", "es", "n", "en", "e"), "nl": ("", "s", "en", "e")}
_MIN_HEAD = 4  # «Kern» is a head worth finding; «KI» or «Rad» would find too much
_MIN_MODIFIER = 3
_MIN_REST = 4  # after a first part: «Kernel» is not «Kern» + «el»
_SNOWBALL = {
    "ar": "arabic", "ca": "catalan", "cs": "czech", "da": "danish", "de": "german",
    "el": "greek", "en": "english", "eo": "esperanto", "es": "spanish", "et": "estonian",
    "eu": "basque", "fa": "persian", "fi": "finnish", "fr": "french", "ga": "irish",
    "hi": "hindi", "hu": "hungarian", "hy": "armenian", "id": "indonesian",
    "it": "italian", "lt": "lithuanian", "nb": "norwegian", "ne": "nepali",
    "nl": "dutch", "nn": "norwegian", "no": "norwegian", "pt": "portuguese",
    "ro": "romanian", "ru": "russian", "sr": "serbian", "sv": "swedish", "ta": "tamil",
    "tr": "turkish", "yi": "yiddish",
}  # fmt: skip


class Token(NamedTuple):
    """One word of a text (a named tuple: texts have many, and a tuple is quick to make)."""

    text: str
    start: int
    end: int
    cyrillic: bool = False  # known from the tokenizer: no regex search per use


# A Token made without the named tuple's Python-level ``__new__``: texts have many words.
_token = functools.partial(tuple.__new__, Token)


def is_cyrillic(text: str) -> bool:
    return bool(_CYRILLIC_RE.search(text))


def _is_cyrillic_word(word: str) -> bool:
    """Whether a token of :data:`_WORD_RE` is a Cyrillic word (its letters are all of one
    kind, so the first tells)."""
    return "\u0400" <= word[0] <= "\u04ff"


def tokenize(text: str) -> list[Token]:
    """Split text into word tokens; script changes and punctuation separate tokens."""
    return [
        _token((m.group(), m.start(), m.end(), m.lastgroup == "cyrillic"))
        for m in _TOKEN_RE.finditer(text)
    ]


def mask_code_and_urls(text: str) -> str:
    """Blank out inline code and URLs, keeping offsets, so no term is found inside them."""
    if not any(mark in text for mark in _NOT_PROSE_MARKS):
        return text
    return _NOT_PROSE_RE.sub(lambda m: " " * len(m.group()), text)


def normalize_word(word: str) -> str:
    """Lower case with ё read as е, the way Russian is usually typed."""
    return word.lower().replace("ё", "е")


@functools.cache
def morph_analyzer():
    """The pymorphy3 analyzer: slow to create, so made once per process and only if needed."""
    import pymorphy3

    return pymorphy3.MorphAnalyzer()


@functools.cache
def lemma_analyzer():
    """A pymorphy3 analyzer for lemmas alone: plain tuples, and no ranking of the parses
    by probability, which costs more than the parsing and cannot change a set of lemmas."""
    import pymorphy3

    return pymorphy3.MorphAnalyzer(result_type=None, probability_estimator_cls=None)


@functools.lru_cache(maxsize=200_000)
def word_lemmas(word: str) -> frozenset[str]:
    """Every lemma pymorphy3 offers for a word: «ядра» may be «ядро» or something else.

    The forms of a word share one set (:data:`_LEMMA_SETS`): a run remembers the lemmas
    of every word it met, and a text meets most words in several forms."""
    word = normalize_word(word)
    lemmas = frozenset({normalize_word(parse[2]) for parse in lemma_analyzer().parse(word)} or {word})
    if len(_LEMMA_SETS) >= _MOST_LEMMA_SETS:  # as many as the words remembered: start again
        _LEMMA_SETS.clear()
    return _LEMMA_SETS.setdefault(lemmas, lemmas)


#: Each set of lemmas :func:`word_lemmas` gave, by itself: the one copy its words share.
_LEMMA_SETS: dict[frozenset[str], frozenset[str]] = {}
_MOST_LEMMA_SETS = 200_000


@functools.lru_cache(maxsize=20_000)
def term_word_lemmas(word: str) -> frozenset[str]:
    """Lemmas of a word written in a termbase; a word in dictionary form keeps only the
    readings in which it is its own lemma («стойка» is the noun, not a form of «стойкий»)."""
    word = normalize_word(word)
    lemmas = word_lemmas(word)
    return frozenset({word}) if word in lemmas else lemmas


def _normalize_gap(gap: str) -> str:
    return _SPACE_RE.sub(" ", _MARKUP_IN_GAP_RE.sub("", gap))


@dataclass(frozen=True, slots=True)
class _Word:
    """One word of a pattern: either a set of lemmas or an exact spelling."""

    lemmas: frozenset[str] | None
    text: str
    case_sensitive: bool
    plural_ok: bool = False

    def key(self) -> Iterable[str]:
        return self.lemmas if self.lemmas is not None else (self.text.casefold(),)

    def accepts(self, token: str, token_lemmas: frozenset[str] | None) -> bool:
        if self.lemmas is not None:
            return bool(token_lemmas and self.lemmas & token_lemmas) and (
                not self.case_sensitive or _same_capitals(self.text, token)
            )
        if self.plural_ok:
            plurals = (self.text + "s", self.text + "es")
            if token in plurals or (
                not self.case_sensitive and token.casefold() in map(str.casefold, plurals)
            ):
                return True
        if self.case_sensitive:
            return token == self.text
        return token.casefold() == self.text.casefold()


def _same_capitals(written: str, token: str) -> bool:
    """A case-sensitive Cyrillic term keeps its capitals: «ИИ» all caps, «Мета» initial."""
    if len(written) > 1 and written.isupper():
        return token.isupper()
    if written[:1].isupper():
        return token[:1].isupper()
    return True


@dataclass(frozen=True, slots=True)
class Pattern:
    """A term as a sequence of words, the separators between them, and trailing signs."""

    words: tuple[_Word, ...]
    gaps: tuple[str, ...]
    tail: str

    def match_at(self, text: str, tokens: Sequence[Token], i: int, lemmas) -> int | None:
        """End offset of a match starting at token i, or None."""
        if i + len(self.words) > len(tokens):
            return None
        for k, word in enumerate(self.words):
            token = tokens[i + k]
            if k and _normalize_gap(text[tokens[i + k - 1].end : token.start]) != self.gaps[k - 1]:
                return None
            if not word.accepts(token.text, lemmas(i + k)):
                return None
        end = tokens[i + len(self.words) - 1].end
        if self.tail and not text.startswith(self.tail, end):
            return None
        return end + len(self.tail)


def _pattern(phrase: str, make_word) -> Pattern:
    tokens = tokenize(phrase)
    if not tokens:
        raise ValueError(f"{phrase!r} has no words")
    gaps = tuple(_normalize_gap(phrase[a.end : b.start]) for a, b in itertools.pairwise(tokens))
    tail = phrase[tokens[-1].end :].strip()
    return Pattern(tuple(make_word(t.text) for t in tokens), gaps, tail)


def lemma_pattern(phrase: str, case_sensitive: bool) -> Pattern:
    """Cyrillic words match any inflected form; Latin words and numbers match whole."""

    def make_word(text: str) -> _Word:
        lemmas = term_word_lemmas(text) if is_cyrillic(text) else None
        return _Word(lemmas, text, case_sensitive)

    return _pattern(phrase, make_word)


def verbatim_pattern(phrase: str, case_sensitive: bool, plurals: bool = False) -> Pattern:
    """Every word must appear exactly as written (case per ``case_sensitive``).

    With ``plurals``, a last word that ends in a capital or a digit (an acronym or a
    model number: GPU, MI300X) may take the plural ending -s/-es that English, German
    and other languages add to such names: "64 GPUs" keeps the term GPU.
    """
    tokens = tokenize(phrase)
    last = tokens[-1].text if tokens else ""

    def make_word(text: str) -> _Word:
        inflectable = plurals and text == last and (text[-1:].isupper() or text[-1:].isdigit())
        return _Word(None, text, case_sensitive, inflectable)

    return _pattern(phrase, make_word)


Accept = Callable[[object, Sequence[Token], int, int, Callable[[int], frozenset[str] | None]], bool]


@dataclass(frozen=True, slots=True)
class Hit:
    item: object
    start: int
    end: int


class SourceIndex:
    """Patterns indexed by the key of their first word (a lemma or a casefolded token)."""

    def __init__(self, entries: Iterable[tuple[Pattern, object]]):
        self._by_key: dict[str, list[tuple[Pattern, object]]] = {}
        for pattern, item in entries:
            for key in pattern.words[0].key():
                self._by_key.setdefault(key, []).append((pattern, item))
        for candidates in self._by_key.values():
            candidates.sort(key=lambda entry: -len(entry[0].words))
        # Per Cyrillic word: may it start a term (does a lemma of it key a pattern)? Most
        # words start none, and a text repeats the words of others.
        self._may_start: dict[str, bool] = {}
        # Words seen to start no term, Cyrillic or not: a text of only these has no match.
        self._start_none: set[str] = set()

    def may_start(self, token: Token) -> bool:
        """Whether a pattern is keyed by ``token`` (one of its lemmas, or its casefolded
        text): where none is, no match starts."""
        if not token.cyrillic:
            return token.text.casefold() in self._by_key
        may = self._may_start.get(token.text)
        if may is None:
            may = not self._by_key.keys().isdisjoint(word_lemmas(token.text))
            self._may_start[token.text] = may
        return may

    def may_match(self, text: str) -> bool:
        """Whether some word of ``text`` (masked as :meth:`find` masks it) may start a
        term. Most texts hold none of the terms: they are told apart by a set of their
        words, without making a token per word or asking for each where it starts."""
        unseen = set(_WORD_RE.findall(text))
        unseen -= self._start_none
        for word in unseen:
            if self.may_start(_token((word, 0, len(word), _is_cyrillic_word(word)))):
                return True
            self._start_none.add(word)
        return False

    def find(self, text: str, accept: Accept | None = None) -> list[Hit]:
        """Longest matches, left to right, never overlapping; code and URLs are skipped.

        ``accept(item, tokens, start, end, lemmas)`` may refuse a match by its context
        (tokens ``start:end`` of the text); the next pattern at that place is tried.
        """
        text = mask_code_and_urls(text)
        if not self.may_match(text):
            return []
        tokens = tokenize(text)
        lemma_cache: dict[int, frozenset[str] | None] = {}

        def lemmas(i: int) -> frozenset[str] | None:
            if i not in lemma_cache:
                token = tokens[i]
                lemma_cache[i] = word_lemmas(token.text) if token.cyrillic else None
            return lemma_cache[i]

        hits: list[Hit] = []
        i = 0
        may_start = self.may_start
        while i < len(tokens):
            if not may_start(tokens[i]):
                i += 1
                continue
            hit = self._longest_at(text, tokens, i, lemmas, accept)
            if hit is None:
                i += 1
                continue
            hits.append(hit[0])
            i = hit[1]
        return hits

    def _longest_at(self, text, tokens, i, lemmas, accept) -> tuple[Hit, int] | None:
        token = tokens[i]
        if token.cyrillic:
            found = lemmas(i)
            if self._by_key.keys().isdisjoint(found):  # most words start no term
                return None
            keys = sorted(found)
        else:
            keys = (token.text.casefold(),)
        best: tuple[Hit, int] | None = None
        for key in keys:
            for pattern, item in self._by_key.get(key, ()):
                if best and len(pattern.words) <= best[1] - i:
                    break
                end = pattern.match_at(text, tokens, i, lemmas)
                if end is not None:
                    if accept is not None and not accept(
                        item, tokens, i, i + len(pattern.words), lemmas
                    ):
                        continue
                    best = (Hit(item, token.start, end), i + len(pattern.words))
                    break
        return best


@functools.cache
def _stemmer(language: str):
    """Loaded on first use: the stemmers of every language take a while to import, and
    a run that finds its matches in the match cache stems nothing."""
    name = _SNOWBALL.get(language)
    if not name:
        return None
    import snowballstemmer

    return snowballstemmer.stemmer(name)


@functools.lru_cache(maxsize=100_000)
def stem(language: str, word: str) -> str:
    """The Snowball stem of a word (casefolded), or the word itself without a stemmer."""
    stemmer = _stemmer(language)
    word = word.casefold()
    return stemmer.stemWord(word) if stemmer else word


@functools.lru_cache(maxsize=20_000)
def _phrase_stems(language: str, phrase: str) -> tuple[str, ...]:
    return tuple(stem(language, t.text) for t in tokenize(phrase))


class TargetText:
    """A translation prepared once for all the checks made on it."""

    def __init__(self, text: str, language: str):
        self.text = mask_code_and_urls(text)
        self.language = language
        self.tokens = tokenize(self.text)
        self._stems: tuple[str, ...] | None = None

    @property
    def unspaced(self) -> bool:
        return self.language in _UNSPACED_LANGUAGES

    def find_verbatim(self, pattern: Pattern) -> str | None:
        """The text of the first match of an exact-spelling pattern, if any."""
        for i in range(len(self.tokens)):
            end = pattern.match_at(self.text, self.tokens, i, lambda _i: None)
            if end is not None:
                return self.text[self.tokens[i].start : end]
        return None

    def find_translation(self, phrase: str, first_parts: bool = False) -> str | None:
        """The text that renders ``phrase`` in some inflected form, if any.

        In German and Dutch a one-word phrase may also be the head of a compound, and
        with ``first_parts`` its first part (for required terms, not forbidden ones).
        """
        if self.unspaced:
            at = self.text.casefold().find(phrase.casefold())
            return self.text[at : at + len(phrase)] if at >= 0 else None
        wanted = _phrase_stems(self.language, phrase)
        if not wanted:
            return None
        for i in _find_run(self.stems, wanted):
            return self.text[self.tokens[i].start : self.tokens[i + len(wanted) - 1].end]
        if len(wanted) == 1 and self.language in _HEAD_ENDINGS:
            for token in self.tokens:
                if compound_head_match(self.language, token.text, phrase) or (
                    first_parts and compound_modifier_match(self.language, token.text, phrase)
                ):
                    return token.text
        return None

    @property
    def stems(self) -> tuple[str, ...]:
        if self._stems is None:
            self._stems = tuple(stem(self.language, t.text) for t in self.tokens)
        return self._stems


def compound_head_match(language: str, word: str, target: str) -> bool:
    """Whether ``word`` is a compound whose head is ``target`` in an inflected form:
    *Prozessorkernen* has the head *Kern*, *Lehrcluster* the head *Cluster*.

    The head is compared as written plus an inflection ending, not by stem: Snowball
    folds umlauts and strips suffixes, so *Rückstand* would end with the stem of
    *Ständer* and *unvollständiger* too (``bench/bench_compounds.py``).
    """
    endings = _HEAD_ENDINGS.get(language)
    head = target.casefold()
    whole = word.casefold()
    if endings is None or len(head) < _MIN_HEAD or " " in head:
        return False
    for ending in endings:
        if whole.endswith(head + ending) and len(whole) - len(head + ending) >= _MIN_MODIFIER:
            return True
    return False


def compound_modifier_match(language: str, word: str, target: str) -> bool:
    """Whether ``word`` is a compound whose first part is ``target``, with a linking
    letter: *Beschleunigerkarten* starts with *Beschleuniger*, *Trainingsdaten* with
    *Training*. Looser than the head (*Kerneltreiber* would start with *Kern*), so it
    only satisfies a required term; forbidden ones are matched by head only."""
    links = _LINKS.get(language)
    first = target.casefold()
    whole = word.casefold()
    if links is None or len(first) < _MIN_HEAD or " " in first:
        return False
    return any(
        whole.startswith(first + link) and len(whole) - len(first + link) >= _MIN_REST
        for link in links
    )


def _find_run(haystack: Sequence[str], needle: Sequence[str]) -> Iterator[int]:
    first, size = needle[0], len(needle)
    for i, item in enumerate(haystack):
        if item == first and tuple(haystack[i : i + size]) == tuple(needle):
            yield i
