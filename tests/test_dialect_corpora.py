"""Opt-in: every file of the real corpora survives identity, pseudo and forced builds
under its dialect, and javascript.info's callouts and definition lists are offered for
translation.

The corpora are not part of the project (licences, size): they are read from
``../shared/data`` (or ``$TOLMACH_SHARED_DATA``) and only when ``TOLMACH_CORPORA=1``, as
they take a minute. ``bench/bench_dialects.py`` prints the same figures, with words and
timings, and with ``--renderers`` runs the real site generators on them.
"""

from __future__ import annotations

import os
import tarfile
from pathlib import Path

import pytest

from tolmach.config import DEFAULT_ATTRIBUTES, DEFAULT_FRONT_MATTER_KEYS
from tolmach.markdown.dialects import resolve_dialect
from tolmach.markdown.document import SegmentOptions, parse_document
from tolmach.markdown.fidelity import check_fidelity

DATA = Path(os.environ.get("TOLMACH_SHARED_DATA", Path(__file__).resolve().parents[2] / "shared" / "data"))
CORPORA = {
    "javascript.info": ("peers-corpus-ru-javascript-info.tar.xz", "", "javascript-info", (), ()),
    "fastapi": ("dialects-corpus-ru.tar.xz", "fastapi-ru/docs/", "mkdocs-material", ("+liquid",), ()),
    "react.dev": ("dialects-corpus-ru.tar.xz", "react-ru/", "docusaurus", (), ("titleText",)),
}

pytestmark = pytest.mark.skipif(
    os.environ.get("TOLMACH_CORPORA") != "1", reason="opt-in: TOLMACH_CORPORA=1 (reads ../shared/data)"
)


def corpus(name: str) -> tuple[list[tuple[str, str]], SegmentOptions]:
    archive, prefix, dialect, syntax, attributes = CORPORA[name]
    if not (DATA / archive).is_file():
        pytest.skip(f"{archive} is not in {DATA}")
    with tarfile.open(DATA / archive) as tar:
        files = [
            (m.name, tar.extractfile(m).read().decode("utf-8"))
            for m in sorted(tar.getmembers(), key=lambda m: m.name)
            if m.isfile() and m.name.startswith(prefix) and m.name.endswith(".md")
        ]
    chosen = resolve_dialect(dialect, syntax, (*DEFAULT_ATTRIBUTES, *attributes))
    keys = (*DEFAULT_FRONT_MATTER_KEYS, *chosen.front_matter_keys)
    return files, SegmentOptions(front_matter_keys=keys, dialect=chosen)


@pytest.mark.parametrize("name", list(CORPORA))
def test_every_file_survives_all_three_modes(name):
    files, options = corpus(name)
    failed = {path: modes for path, text in files if (modes := check_fidelity(text, options=options))}
    assert failed == {}
    assert len(files) > 40


def test_javascript_info_callouts_and_definition_lists_are_offered():
    files, options = corpus("javascript.info")
    kinds: dict[str, int] = {}
    for _, text in files:
        for seg in parse_document(text, options).segments:
            kind = seg.kind.split(" (")[0]
            kinds[kind] = kinds.get(kind, 0) + 1
    assert kinds["callout body"] > 500 and kinds["callout header"] > 200
    assert kinds["definition term"] > 400 and kinds["definition"] > 400
