"""pymorphy3 reads its dictionary with the C DAWG reader (``pymorphy3[fast]``), which must
find exactly what the pure-Python reader finds: glossary matches depend on it."""

from __future__ import annotations

import os

import dawg_python
import pytest

from tolmach.glossary.match import lemma_analyzer, normalize_word, tokenize

# Inflected forms, ё and е spellings, a suppletive form, a word the dictionary lacks.
_TEXT = (
    "Ускорителям нужны ядра и стойки; люди шли к ещё одной стойке. Ёлки и елки, "
    "стали сталью, гпушками, программистами, вычислений, HIP-программ, переиспользуемость."
)


def _fast_reader():
    try:
        import dawg
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("the C DAWG reader (package DAWG2, pymorphy3[fast]) is not installed")
        pytest.skip("the C DAWG reader (DAWG2) is not installed; install pymorphy3[fast]")
    return dawg


def test_the_analyzer_uses_the_c_reader():
    _fast_reader()
    import pymorphy3.dawg

    assert pymorphy3.dawg.EXTENSION_AVAILABLE


def test_both_readers_find_the_same_entries():
    dawg = _fast_reader()
    path = lemma_analyzer().dictionary.path
    fast = dawg.RecordDAWG(">HH").load(f"{path}/words.dawg")
    slow = dawg_python.RecordDAWG(">HH").load(f"{path}/words.dawg")
    substitutes = slow.compile_replaces({"е": "ё"})
    words = [normalize_word(t.text) for t in tokenize(_TEXT) if t.cyrillic]
    assert len(words) > 20
    for word in words:
        expected = slow.similar_items(word, substitutes)
        assert fast.similar_items(word, fast.compile_replaces({"е": "ё"})) == expected, word
    assert any(slow.similar_items(w, substitutes) for w in words)  # the test sees real hits
