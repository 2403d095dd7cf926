"""How faithfully the pipeline round-trips Markdown, measured three ways.

1. identity: every msgstr equals its msgid → the output is the source, byte for byte;
2. pseudo: every msgstr is the pseudo-translation → same HTML elements and attributes;
3. forced: every msgstr equals its msgid but goes through the translated path
   (lines joined, prefixes re-applied) → the same HTML, text included.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from tolmach.markdown.build import apply_translations
from tolmach.markdown.compare import same_html, same_structure
from tolmach.markdown.dialects import Dialect
from tolmach.markdown.document import SegmentOptions, parse_document
from tolmach.markdown.pseudo import pseudo_translate

__all__ = ["FidelityReport", "check_fidelity", "measure_fidelity"]

MODES = ("identity", "pseudo", "forced")


@dataclass
class FidelityReport:
    """Failures per mode, by the names of the inputs that failed."""

    total: int = 0
    failures: dict[str, list[str]] = field(default_factory=lambda: {m: [] for m in MODES})

    def rate(self, mode: str) -> float:
        return 100.0 * (self.total - len(self.failures[mode])) / self.total if self.total else 100.0

    def summary(self) -> str:
        return ", ".join(
            f"{mode} {self.rate(mode):.1f}% ({self.total - len(self.failures[mode])}/{self.total})"
            for mode in MODES
        )


def check_fidelity(
    text: str, preset: str = "tolmach", options: SegmentOptions | None = None
) -> list[str]:
    """The modes in which ``text`` does not survive the pipeline.

    With ``options`` naming a dialect, the document is segmented, pseudo-translated
    (its atoms protected) and rendered with that dialect's parser.
    """
    document = parse_document(text, options)
    dialect: Dialect | None = options.dialect if options is not None else None
    protect = dialect.atoms if dialect is not None and dialect.atom_labels else None
    failed = []
    if apply_translations(document, {}) != text:
        failed.append("identity")
    pseudo = apply_translations(document, lambda s: pseudo_translate(s, protect))
    if not same_structure(text, pseudo, preset, dialect):
        failed.append("pseudo")
    forced = apply_translations(document, lambda s: s, force=True)
    if not same_html(text, forced, preset, dialect):
        failed.append("forced")
    return failed


def measure_fidelity(
    named_texts: Iterable[tuple[str, str]],
    preset: str = "tolmach",
    options: SegmentOptions | None = None,
) -> FidelityReport:
    """Run :func:`check_fidelity` over ``(name, text)`` pairs."""
    report = FidelityReport()
    for name, text in named_texts:
        report.total += 1
        for mode in check_fidelity(text, preset, options):
            report.failures[mode].append(name)
    return report
