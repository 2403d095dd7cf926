"""Findings written into a copy of a catalog, where a translator works: the PO editor.

Each finding becomes a translator comment on its entry (``# tolmach check: error:
[numbers] … — how to fix``), which Poedit, Lokalize and Weblate show next to the
translation. The copy is for reading; the catalog itself is never touched. Counts per
catalog (untranslated, fuzzy, obsolete) are not about one entry and are left out.
"""

from __future__ import annotations

import copy
from collections import defaultdict
from collections.abc import Iterable

import polib

from tolmach.checks.registry import Finding, registered

__all__ = ["ANNOTATION_PREFIX", "annotate_catalog"]

ANNOTATION_PREFIX = "tolmach check: "


def annotate_catalog(po: polib.POFile, findings: Iterable[Finding]) -> polib.POFile:
    """A copy of ``po`` with each entry's findings as translator comments, earlier
    annotations replaced."""
    by_line: dict[int, list[Finding]] = defaultdict(list)
    for finding in findings:
        check = registered().get(finding.check)
        if check is None or check.per == "entry":
            by_line[finding.line].append(finding)
    annotated = copy.deepcopy(po)
    for entry in annotated:
        kept = [
            line
            for line in (entry.tcomment or "").split("\n")
            if line and not line.startswith(ANNOTATION_PREFIX)
        ]
        notes = [ANNOTATION_PREFIX + _note(f) for f in by_line.get(entry.linenum or 0, [])]
        entry.tcomment = "\n".join(kept + notes)
    return annotated


def _note(finding: Finding) -> str:
    severity = "waived" if finding.waived else finding.severity
    text = f"{severity}: [{finding.check}] {finding.message}"
    return f"{text} — {finding.fix}" if finding.fix and not finding.waived else text
