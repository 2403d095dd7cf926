"""The passages of a reviewer page, made as HTML in Python rather than in a template loop.

A reviewer page shows every segment of a document with its translation and findings:
tens of thousands of rows per run, where Jinja's per-value overhead (attribute lookups,
a loop context, one escape and one yield per output) was most of the time a reviewer
page took. Here each row is one f-string, each value escaped once with
:func:`markupsafe.escape`, exactly as the template's autoescaping did, so the bytes are
the same. Translations and finding messages are untrusted: nothing reaches the page
without being escaped.

The source half of a row (line, kind, source text) is the same on every locale's page
of a document, so :class:`SourceRows` makes it once per document.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from markupsafe import Markup, escape

from tolmach.publish.pages import Language, Page, Passage

__all__ = ["SourceRows", "findings_html", "jump_html", "passages_html", "source_rows"]

#: :func:`escape` remembered, for the few words that recur on every row (a status, a
#: severity, a check's name, a segment's kind): the same result without the cost.
#: ``typed``: a ``Markup`` is never taken for the equal ``str``, which it does not escape.
_escape_word = lru_cache(maxsize=1024, typed=True)(escape)


class SourceRows:
    """The source half of each passage row, kept for the document whose pages are being
    made: its locales' pages hold the very same segments, so the rows made for the first
    serve the others (known by identity, so a different document is never mistaken)."""

    def __init__(self) -> None:
        self._segments: tuple = ()
        self._source: Language | None = None
        self._rows: list[str] = []

    def of(self, passages: Sequence[Passage], source: Language) -> list[str]:
        segments = tuple(p.segment for p in passages)
        if not self._same(segments, source):
            self._segments, self._source = segments, source
            self._rows = source_rows(segments, source)
        return self._rows

    def _same(self, segments: tuple, source: Language) -> bool:
        return (source == self._source and len(segments) == len(self._segments)
                and all(a is b for a, b in zip(segments, self._segments, strict=True)))


def source_rows(segments: Iterable, source: Language) -> list[str]:
    """Per segment, the row's place (anchor, line, kind) and its source text."""
    src = f'<div class="src" lang="{escape(source.tag)}" dir="{escape(source.direction)}">'
    return [
        f'<div class="where"><a href="#s{n}">{escape(segment.line)}</a>'
        f'<span class="kind">{_escape_word(segment.kind)}</span></div>\n'
        f'{src}{escape(segment.text)}</div>\n'
        for n, segment in enumerate(segments, start=1)
    ]


def passages_html(page: Page, source_rows: Sequence[str]) -> Markup:
    """Every passage of ``page``, one row each, ``source_rows`` its source halves."""
    lang = page.language
    tgt = f'<div class="tgt" lang="{escape(lang.tag)}" dir="{escape(lang.direction)}">'
    return Markup("".join([
        _passage_html(n, passage, row, tgt)
        for n, (passage, row) in enumerate(zip(page.passages, source_rows, strict=True), start=1)
    ]))


def _passage_html(n: int, passage: Passage, source_row: str, tgt: str) -> str:
    status = _escape_word(passage.status)
    findings = passage.findings
    worst = passage.worst if findings else None  # no findings, nothing at worst
    classes = f"status-{status} {_escape_word(worst)}" if worst else f"status-{status}"
    translation = escape(passage.translation) if passage.translation else ""
    return (f'<div class="passage {classes}" id="s{n}">\n{source_row}'
            f'{tgt}{translation}<span class="status" lang="en" dir="ltr">{status}</span></div>\n'
            f'{_findings_list(findings) if findings else ""}</div>\n')


def findings_html(findings: Sequence) -> Markup:
    """A list of check findings, each with its severity, check and message; nothing
    when there are none."""
    return Markup(_findings_list(findings) if findings else "")


def _findings_list(findings: Sequence) -> str:
    items = "".join([_finding_html(f) for f in findings])
    return f'<ul class="findings">\n{items}</ul>\n'


def _finding_html(finding) -> str:
    severity = _escape_word(finding.severity)
    waived = finding.waived
    return (f'<li class="finding {severity}{" waived" if waived else ""}">'
            f'<span class="badge">{severity}</span> <code>{_escape_word(finding.check)}</code> '
            f'{escape(finding.message)}{" <em>(waived)</em>" if waived else ""}</li>\n')


def jump_html(page: Page) -> Markup:
    """Links to the passages with findings, by line, coloured by the worst; nothing when
    no passage has any."""
    flagged = [(n, p) for n, p in enumerate(page.passages, start=1) if p.findings]
    if not flagged:
        return Markup("")
    links = ",\n".join([
        f'<a href="#s{n}" class="{_escape_word(p.worst or "waived")}">line {escape(p.segment.line)}</a>'
        for n, p in flagged
    ])
    return Markup(f'<p class="jump">Findings at\n{links}\n</p>\n')
