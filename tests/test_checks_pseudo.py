"""Pseudo translations of the CommonMark spec must pass the markup and unsafe checks.

Pseudo-localization changes letters and keeps every piece of markup, so any finding of
``markup`` or ``unsafe`` on a pseudo-translated spec example is a false alarm of the
check or a fault of the pseudo-localizer. Both are worth knowing; the failures are
collected into one message. And the checks are not blind: breaking the markup of the
same translations must be caught.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import NamedTuple

from tolmach.checks import CHECKS, EntryContext
from tolmach.checks.inline import inline_markup
from tolmach.checks.registry import parse_kind
from tolmach.markdown.document import parse_document
from tolmach.markdown.pseudo import pseudo_translate

SPEC = Path(__file__).parent / "data" / "commonmark-spec.json"
CHECKED = ("markup", "unsafe")

class Failure(NamedTuple):
    example: int
    check: str
    message: str
    source: str
    translation: str

    def __str__(self) -> str:
        return (
            f"example {self.example}: [{self.check}] {self.message}\n"
            f"    source:      {self.source!r}\n    translation: {self.translation!r}"
        )


@cache
def _translated_segments() -> tuple[tuple[int, str, str | None, str], ...]:
    """(example, source, kind, pseudo translation) for every segment of the spec."""
    found = []
    for example in json.loads(SPEC.read_text(encoding="utf-8")):
        for segment in parse_document(example["markdown"]).segments:
            kind = parse_kind(segment.comment)
            found.append((example["example"], segment.text, kind, pseudo_translate(segment.text)))
    return tuple(found)


def _failures(source: str, kind: str | None, translation: str) -> list[tuple[str, str]]:
    ctx = EntryContext(source, translation, "de", "ru", kind)
    return [(name, message) for name in CHECKED for message in CHECKS[name].function(ctx)]


@cache
def _all_failures() -> tuple[Failure, ...]:
    return tuple(
        Failure(example, name, message, source, translation)
        for example, source, kind, translation in _translated_segments()
        for name, message in _failures(source, kind, translation)
    )


def test_the_spec_gives_segments_to_check() -> None:
    assert len({example for example, *_ in _translated_segments()}) > 500


def test_pseudo_translations_raise_no_markup_or_unsafe_finding() -> None:
    failures = _all_failures()
    assert not failures, f"{len(failures)} false alarms:\n" + "\n".join(map(str, failures))


def test_dropping_backticks_from_a_pseudo_translation_is_caught() -> None:
    with_code = [
        (e, s, k, t)
        for e, s, k, t in _translated_segments()
        if inline_markup(s).code
    ]
    missed = [e for e, s, k, t in with_code if not _failures(s, k, t.replace("`", ""))]
    assert len(with_code) > 20
    assert not missed, f"not caught: examples {missed}"


def test_changing_link_destinations_in_a_pseudo_translation_is_caught() -> None:
    with_links = [
        (e, s, k, t)
        for e, s, k, t in _translated_segments()
        if "](/" in s and any(h.startswith("/") for h in inline_markup(s).links)
    ]
    missed = [e for e, s, k, t in with_links if not _failures(s, k, t.replace("](/", "](/x"))]
    assert len(with_links) > 20
    assert not missed, f"not caught: examples {missed}"
