"""Stems of translations: the C stemmers (PyStemmer) give Snowball's reference stems.

The glossary check stems every word of a translation, so tolmach depends on PyStemmer,
which snowballstemmer hands its work to when it is installed. A glossary must match the
same words whichever of the two stems them: the stems are compared with snowballstemmer's
own pure-Python stemmers on the words of the published articles and on inflected words
of twelve of the languages tolmach stems (every one of them has a C stemmer).
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest
import Stemmer

from tolmach.glossary.match import _SNOWBALL, _stemmer, stem

ROOT = Path(__file__).resolve().parents[1]
WORD = re.compile(r"[^\W\d_]+")
#: Inflected forms a stemmer folds together, a few per language tolmach stems.
INFLECTED = {
    "english": "accelerators accelerated accelerating computing computations kernels",
    "german": "Beschleuniger Beschleunigern Rechenkernen Prozessoren Häuser Lehrclustern",
    "french": "accélérateurs calculées noyaux processeurs",
    "spanish": "aceleradores computación núcleos procesadores",
    "italian": "acceleratori calcolatori nuclei processori",
    "portuguese": "aceleradores computação núcleos processadores",
    "dutch": "versnellers berekeningen kernen processoren",
    "swedish": "acceleratorer beräkningar kärnor processorer",
    "russian": "ускорителями вычислениях ядрами процессоров",
    "turkish": "hızlandırıcılar hesaplamalar çekirdekler işlemciler",
    "finnish": "kiihdyttimet laskennat ytimet suorittimet",
    "greek": "επιταχυντές υπολογισμοί πυρήνες επεξεργαστές",
}


def reference_stemmer(algorithm: str):
    """snowballstemmer's pure-Python stemmer of ``algorithm`` (the one it would use
    without PyStemmer)."""
    module = importlib.import_module(f"snowballstemmer.{algorithm}_stemmer")
    return getattr(module, f"{algorithm.title()}Stemmer")()


def article_words(locale: str) -> set[str]:
    folder = ROOT / ("seeds" if locale == "ru" else f"output/{locale}")
    return {word.casefold() for path in folder.glob("*.md")
            for word in WORD.findall(path.read_text("utf-8"))}


def test_the_stemmers_are_the_c_ones():
    for language in ("de", "en", "ru"):
        assert isinstance(_stemmer(language), Stemmer.Stemmer)


@pytest.mark.parametrize("language", ["de", "en", "ru"])
def test_article_words_stem_as_the_reference_stems_them(language):
    words = sorted(article_words(language))
    assert len(words) > 300  # the articles are there and hold words
    reference = reference_stemmer(_SNOWBALL[language])
    differing = [w for w in words if stem(language, w) != reference.stemWord(w)]
    assert differing == []


@pytest.mark.parametrize("algorithm", sorted(INFLECTED))
def test_inflected_words_stem_as_the_reference_stems_them(algorithm):
    assert algorithm in _SNOWBALL.values()
    fast, reference = Stemmer.Stemmer(algorithm), reference_stemmer(algorithm)
    for word in INFLECTED[algorithm].casefold().split():
        assert fast.stemWord(word) == reference.stemWord(word), word


def test_every_language_tolmach_stems_has_a_c_stemmer():
    assert set(_SNOWBALL.values()) <= set(Stemmer.algorithms())
