"""Showing findings: to people (grouped per file, waivers apart, a summary) and as JSON.

The human form puts each finding on one ``path:line: severity: [check] message`` line,
which editors and terminals turn into a jump to the entry.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict
from typing import Any

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.markup import escape
from rich.segment import Segment
from rich.table import Table

from tolmach.checks.config import CheckConfig
from tolmach.checks.registry import Finding, Severity, registered

__all__ = ["has_errors", "list_checks", "render_human", "render_json", "summarize"]

JSON_SCHEMA_VERSION = 1
_COUNTS = ("errors", "warnings", "waived")
_COUNT_OF = {"error": "errors", "warning": "warnings"}
_STYLE = {"error": "bold red", "warning": "yellow", "waived": "dim"}


def list_checks(config: CheckConfig | None = None) -> list[tuple[str, Severity, str]]:
    """``(name, severity, explanation)`` of every enabled check, severities as configured."""
    config = config or CheckConfig()
    return [
        (name, config.severity_of(name), check.explanation)
        for name, check in registered().items()
        if config.enabled(name)
    ]


def has_errors(findings: Iterable[Finding]) -> bool:
    """True when an error is not waived: ``tolmach check`` exits 1, ``build --strict`` stops."""
    return any(f.severity == "error" and not f.waived for f in findings)


def summarize(findings: Iterable[Finding], paths: Iterable[str] = ()) -> dict[str, dict[str, int]]:
    """Errors, warnings and waived findings per file; ``paths`` adds clean files as zeros."""
    summary: dict[str, dict[str, int]] = {p: dict.fromkeys(_COUNTS, 0) for p in paths}
    # counted as (path, kind) pairs first: a no-op check of a thousand documents sums
    # tens of thousands of findings into a few thousand rows
    kinds = Counter(
        (f.path, "waived" if f.waived else _COUNT_OF.get(f.severity) or f"{f.severity}s")
        for f in findings
    )
    for (path, kind), number in kinds.items():
        summary.setdefault(path, dict.fromkeys(_COUNTS, 0))[kind] += number
    return summary


def render_human(findings: Sequence[Finding], console: Console, paths: Sequence[str] = ()) -> None:
    """Findings grouped per file, then the waivers, then a summary table.

    ``paths`` names every file checked, so clean ones appear in the table too.
    """
    if not findings:
        console.print("No findings.")
    by_path: dict[str, list[Finding]] = {}
    waived = []
    for finding in findings:
        if finding.waived:
            waived.append(finding)
        else:
            by_path.setdefault(finding.path, []).append(finding)
    plain = _plain_output(console)
    width = console.width  # asked once: rich measures the terminal each time
    for path, active in by_path.items():
        if plain and _shown_as_is(path, width):
            console.file.write(f"{path}\n{_joined(active)}\n")
            continue
        console.print(f"[bold]{escape(path)}[/bold]")
        _print_lines(console, active)
        console.print()
    if waived:
        console.print("[bold]Waived (flags ignore-<check>, glossary-waive comments)[/bold]")
        _print_lines(console, waived)
        console.print()
    if findings or paths:
        summary = summarize(findings, paths)
        if console.is_terminal:
            console.print(_summary_table(summary))
        elif plain and all(_shown_as_is(path) for path in summary):
            console.file.write(_plain_summary(summary) + "\n")
        else:
            console.print(_plain_summary(summary), markup=False, highlight=False, soft_wrap=True)


def _plain_output(console: Console) -> bool:
    """Whether the console would write text as it is (a file or a pipe, no colours, not
    recording): thousands of lines are then written directly, not rendered one by one."""
    return not console.is_terminal and console.color_system is None and not console.record \
        and not console.is_jupyter


def _shown_as_is(text: str, width: int | None = None) -> bool:
    """Whether rich would print ``text`` unchanged on a line of ``width`` (None: no wrapping):
    nothing it strips, expands, replaces (``:emoji:``) or reads as markup, and no wrap."""
    return (
        text.isprintable()
        and text == text.strip()
        and not any(mark in text for mark in ":[]\\")
        and (width is None or cell_len(text) <= width)
    )


def _joined(findings: Sequence[Finding]) -> str:
    """The lines :func:`_print_lines` prints, as the text a plain console receives."""
    return "".join([f"{line}\n" for line in map(str, findings)])


def render_json(
    findings: Sequence[Finding], paths: Sequence[str] = (), progress: Mapping[str, Any] | None = None
) -> str:
    """A stable document for CI and editors: every finding, and counts per file and in all.

    ``progress`` maps a catalog's path to its row (:class:`tolmach.catalog.progress.CatalogRow`):
    each file then also says its locale, document and the counts ``tolmach stats --format
    json`` gives, under the same names.
    """
    from tolmach.catalog.progress import progress_record

    summary: dict[str, dict[str, Any]] = dict(summarize(findings, paths))
    totals = {key: sum(c[key] for c in summary.values()) for key in _COUNTS}
    for path, row in (progress or {}).items():
        counts = summary.setdefault(path, dict.fromkeys(_COUNTS, 0))
        summary[path] = row.key() | counts | {"progress": progress_record(row.stats)}
    document = {
        "version": JSON_SCHEMA_VERSION,
        "findings": [asdict(f) for f in findings],
        "summary": {"files": summary, "total": totals},
    }
    return json.dumps(document, ensure_ascii=False, indent=2)


def _print_lines(console: Console, findings: Sequence[Finding]) -> None:
    """One line per finding, styled by its severity."""
    console.print(_Lines(findings), highlight=False, soft_wrap=True)


class _Lines:
    """Finding lines as rich segments: no markup to parse and nothing to measure, so a
    report of thousands of findings costs time in proportion to them."""

    def __init__(self, findings: Sequence[Finding]) -> None:
        self.findings = findings

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        styles = {name: console.get_style(style) for name, style in _STYLE.items()}
        for finding in self.findings:
            yield Segment(str(finding), styles["waived" if finding.waived else finding.severity])
            yield Segment.line()


def _plain_summary(summary: dict[str, dict[str, int]]) -> str:
    """The summary as aligned plain-text columns: a pipe, a log or a CI page shows no
    box-drawing characters (and ``grep``/``awk`` read it)."""
    rows = [["file", *_COUNTS]]
    rows += [[path, *(str(counts[k]) for k in _COUNTS)] for path, counts in summary.items()]
    if len(summary) > 1:
        rows.append(["total", *(str(sum(c[k] for c in summary.values())) for k in _COUNTS)])
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["tolmach check"]
    for row in rows:
        cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def _summary_table(summary: dict[str, dict[str, int]]) -> Table:
    table = Table(title="tolmach check", title_justify="left")
    table.add_column("file")
    for column in _COUNTS:
        table.add_column(column, justify="right")
    for path, counts in summary.items():
        table.add_row(escape(path), *(str(counts[k]) for k in _COUNTS))
    if len(summary) > 1:
        totals = [str(sum(c[k] for c in summary.values())) for k in _COUNTS]
        table.add_row("[bold]total[/bold]", *totals)
    return table
