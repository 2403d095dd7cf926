"""Which pages go online: a translation is published only when it is verified.

A page in a target language is published when its share of translated source words
reaches the threshold and the checks find no error in its catalog (what
``tolmach build --strict`` demands of a localized Markdown file). ``allow_errors``
publishes pages with check errors all the same, and says so in the verdict; it never
lifts the threshold. The source page is always published: it is the original.
"""

from __future__ import annotations

from dataclasses import dataclass

from tolmach.publish.pages import Page

__all__ = ["Verdict", "judge"]


@dataclass(frozen=True)
class Verdict:
    """Whether a page is published, and in words why not (or why despite errors)."""

    published: bool
    reason: str = ""
    errors: int = 0

    @property
    def forced(self) -> bool:
        """Published although the checks found errors (``--allow-errors``)."""
        return self.published and self.errors > 0


def error_count(page: Page) -> int:
    """Unwaived check errors of a page's catalog, on its passages and catalog-wide."""
    findings = [f for p in page.passages for f in p.findings] + list(page.catalog_findings)
    return sum(1 for f in findings if f.severity == "error" and not f.waived)


def judge(page: Page, threshold: float, *, allow_errors: bool = False) -> Verdict:
    """The verdict on one page; ``threshold`` is a percentage of source words."""
    if page.progress is None:
        return Verdict(True)
    if not page.has_catalog:
        return Verdict(False, "no catalog")
    percent = page.progress.percent
    if percent < threshold:
        return Verdict(False, f"{percent:.0f}% translated, below the threshold of {threshold:g}%")
    errors = error_count(page)
    if errors and not allow_errors:
        return Verdict(False, f"{errors} check error{'s' if errors != 1 else ''}", errors)
    if errors:
        return Verdict(True, f"published with {errors} check error{'s' if errors != 1 else ''}",
                       errors)
    return Verdict(True)
