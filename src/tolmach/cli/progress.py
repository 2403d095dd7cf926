"""How a long command shows how far it got: a bar on a terminal, a line in a log.

The library reports ``(what, done, total, cached)`` per phase (see
:data:`tolmach.jobs.executor.Progress`); :class:`ProgressDisplay` turns that into a
rich progress bar with counts and time left, on standard error, once a command has run
for :data:`DELAY` seconds (shorter ones never flicker), and removes it when done. When
standard error is not a terminal, a command that ran that long ends with one summary
line instead. ``--quiet`` shows neither. The bar draws only when a report comes in (no
thread), so worker processes can be forked at any time.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

__all__ = ["DELAY", "ProgressDisplay"]

DELAY = 1.0  # seconds a command runs before it shows its progress


class ProgressDisplay:
    """The ``progress`` callback of a run, for a command named ``command``."""

    def __init__(
        self, command: str, *, quiet: bool = False, jobs: int = 1, stream: TextIO | None = None
    ) -> None:
        self.command = command
        self.quiet = quiet
        self.jobs = jobs
        self.stream = stream if stream is not None else sys.stderr
        self.terminal = _is_terminal(self.stream)
        self.started = time.monotonic()
        self.phases: dict[str, tuple[int, int, int]] = {}  # what → (done, total, cached)
        self.bar = None
        self.tasks: dict[str, int] = {}

    def __call__(self, what: str, done: int, total: int, cached: int = 0) -> None:
        self.phases[what] = (done, total, cached)
        if self.quiet or not self.terminal:
            return
        if self.bar is None:
            if done >= total or time.monotonic() - self.started < DELAY:
                return
            self._start_bar()
        assert self.bar is not None
        if what not in self.tasks:
            self.tasks[what] = self.bar.add_task(what, total=total)
        self.bar.update(self.tasks[what], completed=done, total=total)
        self.bar.refresh()

    def _start_bar(self) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.bar = Progress(
            TextColumn(f"{self.command}: [progress.description]{{task.description}}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
            console=Console(file=self.stream),
            transient=True,
            auto_refresh=False,
        )
        self.bar.start()

    def close(self) -> None:
        """Remove the bar, or print the summary line of a long run in a log."""
        if self.bar is not None:
            self.bar.stop()
            self.bar = None
            return
        elapsed = time.monotonic() - self.started
        if self.quiet or self.terminal or elapsed < DELAY or not self.phases:
            return
        print(self.summary(elapsed), file=self.stream, flush=True)

    def summary(self, elapsed: float) -> str:
        """``tolmach update: 3,000 catalogs (12 done, 2,988 unchanged) in 4.2 s, 2 processes``."""
        parts = []
        for what, (_, total, cached) in self.phases.items():
            worked = total - cached
            parts.append(f"{total:,} {what} ({worked:,} done, {cached:,} unchanged)")
        processes = f", {self.jobs} processes" if self.jobs > 1 else ""
        return f"tolmach {self.command}: {'; '.join(parts)} in {elapsed:.1f} s{processes}"


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
