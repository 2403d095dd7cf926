"""Fidelity on the 652 examples of the CommonMark 0.31.2 spec.

identity: msgstr = msgid gives the source byte for byte; pseudo: pseudo-translation
keeps the HTML structure; forced: msgstr = msgid through the translated path gives
the same HTML. Known failures are listed, with reasons, in a data file.
"""

import json
import tomllib
from pathlib import Path

import pytest

from tolmach.markdown.fidelity import MODES, check_fidelity

DATA = Path(__file__).parent / "data"
EXAMPLES = json.loads((DATA / "commonmark-spec.json").read_text("utf-8"))
KNOWN = {
    (f["example"], f["mode"])
    for f in tomllib.loads((DATA / "fidelity-known-failures.toml").read_text("utf-8"))["failure"]
}


def test_the_spec_file_is_complete():
    assert len(EXAMPLES) == 652


@pytest.mark.parametrize("preset", ["commonmark", "tolmach"])
def test_every_spec_example_survives_all_three_modes(preset):
    failures = {
        (example["example"], mode)
        for example in EXAMPLES
        for mode in check_fidelity(example["markdown"], preset)
    }
    rates = {
        mode: 100 * (len(EXAMPLES) - sum(1 for _, m in failures if m == mode)) / len(EXAMPLES)
        for mode in MODES
    }
    print(f"\nCommonMark fidelity ({preset}): " + ", ".join(f"{m} {r:.1f}%" for m, r in rates.items()))
    assert failures == KNOWN, f"unexpected: {sorted(failures - KNOWN)}, fixed: {sorted(KNOWN - failures)}"
