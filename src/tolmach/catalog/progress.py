"""Progress and update reports as scripts read them: JSON, CSV and plain text.

One row per catalog, keyed by its project-relative path, its locale (gettext name and
BCP 47 tag) and its document, the same keys ``tolmach check --format json`` uses, with
the counts of :class:`~tolmach.catalog.status.CatalogStats` (a memory suggestion counts
as untranslated in both) or :class:`~tolmach.catalog.merge.UpdateSummary`.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass

from tolmach.catalog.merge import UpdateSummary
from tolmach.catalog.status import CatalogStats

__all__ = [
    "JSON_SCHEMA_VERSION",
    "STATS_COLUMNS",
    "CatalogRow",
    "progress_record",
    "stats_cells",
    "stats_csv",
    "stats_json",
    "stats_text",
    "update_json",
    "update_text",
]

JSON_SCHEMA_VERSION = 1
STATS_COLUMNS = (
    "locale", "document", "translated", "fuzzy", "untranslated", "words done", "%", "waived"
)  # fmt: skip


@dataclass(frozen=True)
class CatalogRow:
    """One catalog of one locale and document, with what a command found out about it."""

    path: str
    locale: str
    tag: str
    document: str
    stats: CatalogStats
    summary: UpdateSummary | None = None
    written: bool = False
    created: bool = False
    waivers: int = 0  # waivers the catalog declares (``tolmach stats``)

    def key(self) -> dict[str, str]:
        return {"path": self.path, "locale": self.locale, "tag": self.tag, "document": self.document}


def progress_record(stats: CatalogStats) -> dict[str, float | int]:
    """The counts of a catalog, as both ``stats`` and ``check`` print them in JSON."""
    return {
        "translated": stats.translated,
        "fuzzy": stats.fuzzy,
        "untranslated": stats.untranslated,
        "obsolete": stats.obsolete,
        "total": stats.total,
        "words_translated": stats.translated_words,
        "words_fuzzy": stats.fuzzy_words,
        "words_untranslated": stats.untranslated_words,
        "words_total": stats.total_words,
        "percent": round(stats.percent, 1),
    }


def _total(rows: Sequence[CatalogRow]) -> CatalogStats:
    fields = ("translated", "fuzzy", "untranslated", "translated_words", "fuzzy_words",
              "untranslated_words", "obsolete")
    return CatalogStats(*(sum(getattr(row.stats, name) for row in rows) for name in fields))


def stats_json(rows: Sequence[CatalogRow]) -> str:
    document = {
        "version": JSON_SCHEMA_VERSION,
        "catalogs": [
            row.key() | progress_record(row.stats) | {"waived": row.waivers} for row in rows
        ],
        "total": progress_record(_total(rows)) | {"waived": sum(row.waivers for row in rows)},
    }
    return json.dumps(document, ensure_ascii=False, indent=2)


def stats_csv(rows: Sequence[CatalogRow]) -> str:
    out = io.StringIO()
    fields = ["path", "locale", "tag", "document", *progress_record(CatalogStats()), "waived"]
    writer = csv.DictWriter(out, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow(row.key() | progress_record(row.stats) | {"waived": row.waivers})
    return out.getvalue()


def stats_cells(rows: Sequence[CatalogRow]) -> list[list[str]]:
    """The table's rows as text, with a total row when there is more than one catalog."""
    def cells(locale: str, document: str, s: CatalogStats, waivers: int) -> list[str]:
        return [locale, document, str(s.translated), str(s.fuzzy), str(s.untranslated),
                f"{s.translated_words}/{s.total_words}", f"{s.percent:.0f}", str(waivers)]

    lines = [cells(row.tag, row.document, row.stats, row.waivers) for row in rows]
    if len(rows) > 1:
        lines.append(cells("total", "", _total(rows), sum(row.waivers for row in rows)))
    return lines


def stats_text(rows: Sequence[CatalogRow]) -> str:
    """Plain aligned columns, no box characters: what a pipe or a log file wants."""
    table = [list(STATS_COLUMNS), *stats_cells(rows)]
    widths = [max(len(line[i]) for line in table) for i in range(len(STATS_COLUMNS))]
    out = []
    for line in table:
        padded = [
            cell.ljust(width) if i < 2 else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(line, widths, strict=True))
        ]
        out.append("  ".join(padded).rstrip())
    return "\n".join(out) + "\n"


def update_text(row: CatalogRow) -> str:
    """``wrote locales/de/LC_MESSAGES/a.po: +3 new, ~2 fuzzy, −1 obsolete, 40 kept``."""
    state = "created" if row.created else "wrote" if row.written else "unchanged"
    return f"{state} {row.path}: {row.summary}"


def update_json(rows: Sequence[CatalogRow]) -> str:
    total = sum((row.summary or UpdateSummary() for row in rows), UpdateSummary())
    document = {
        "version": JSON_SCHEMA_VERSION,
        "catalogs": [
            row.key() | {"created": row.created, "written": row.written} | _counts(row.summary)
            for row in rows
        ],
        "total": _counts(total)
        | {"catalogs": len(rows), "written": sum(1 for row in rows if row.written)},
    }
    return json.dumps(document, ensure_ascii=False, indent=2)


def _counts(summary: UpdateSummary | None) -> dict[str, int]:
    summary = summary or UpdateSummary()
    return {
        "new": summary.new,
        "fuzzy": summary.fuzzy,
        "obsolete": summary.obsolete,
        "kept": summary.kept,
        "memory": summary.memory,
    }
