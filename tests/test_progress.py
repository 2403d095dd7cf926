"""Progress: a bar on a terminal, one summary line in a log, nothing with ``--quiet``.

A command shows its progress only once it has run for :data:`DELAY` seconds; these
tests set the delay to zero (every command is then "long") rather than wait, and check
what each long command prints on standard error: exactly one summary line when that is
not a terminal, nothing more with ``--quiet``, and the same standard output either way.
"""

from __future__ import annotations

import io
import re

import pytest
from pipeline_project import STEPS, make_project, run_command

import tolmach.cli.progress as progress_module
from tolmach.cli.progress import ProgressDisplay

SUMMARY = re.compile(
    r"^tolmach (?P<command>[a-z]+): (?:[\d,]+ [a-z ]+ \([\d,]+ done, [\d,]+ unchanged\)(?:; )?)+"
    r" in \d+\.\d s(?:, \d+ processes)?$"
)


@pytest.fixture
def project(tmp_path):
    return make_project(tmp_path, documents=4)


def summary_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("tolmach ")]


def test_a_long_command_ends_with_one_summary_line_in_a_log(project, monkeypatch):
    monkeypatch.setattr(progress_module, "DELAY", 0.0)
    for step in STEPS:
        ran = run_command(project, *step, "-j", "1")
        lines = summary_lines(ran.stderr)
        assert len(lines) == 1, (step, ran.stderr)
        match = SUMMARY.match(lines[0])
        assert match and match.group("command") == step[0], lines[0]
        assert "\x1b[" not in ran.stderr  # no bar, no colour: not a terminal
    again = run_command(project, "update", "-j", "1")
    assert "(0 done, 8 unchanged)" in summary_lines(again.stderr)[0]  # 4 documents × 2 locales


def test_quiet_adds_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(progress_module, "DELAY", 0.0)
    loud_project = make_project(tmp_path / "loud", documents=4)
    quiet_project = make_project(tmp_path / "quiet", documents=4)
    for step in STEPS:
        loud = run_command(loud_project, *step, "-j", "1")
        quiet = run_command(quiet_project, *step, "-j", "1", "--quiet")
        assert summary_lines(quiet.stderr) == [], step
        assert quiet.stdout == loud.stdout, step
        assert quiet.stderr == "\n".join(
            line for line in loud.stderr.splitlines() if not SUMMARY.match(line)
        ) + ("\n" if quiet.stderr else ""), step


def test_a_short_command_prints_no_summary(project):
    assert progress_module.DELAY >= 0.5
    for step in STEPS[:2]:
        ran = run_command(project, *step, "-j", "1")
        assert summary_lines(ran.stderr) == [], step  # done well within the delay


def test_the_summary_counts_work_and_cache(monkeypatch):
    monkeypatch.setattr(progress_module, "DELAY", 0.0)
    stream = io.StringIO()
    display = ProgressDisplay("update", jobs=2, stream=stream)
    display("catalogs", 2988, 3000, 2988)
    display("catalogs", 3000, 3000, 2988)
    display.close()
    (line,) = stream.getvalue().splitlines()
    assert re.fullmatch(
        r"tolmach update: 3,000 catalogs \(12 done, 2,988 unchanged\) in \d+\.\d s, 2 processes", line)


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_gets_a_bar_with_counts_that_goes_away(monkeypatch):
    monkeypatch.setattr(progress_module, "DELAY", 0.0)
    stream = Terminal()
    display = ProgressDisplay("build", stream=stream)
    display("documents", 0, 40)
    display("documents", 25, 40)
    display.close()
    drawn = stream.getvalue()
    assert "build: documents" in drawn and "25/40" in drawn
    assert "tolmach build:" not in drawn  # the bar instead of a summary line
    quiet = Terminal()
    display = ProgressDisplay("build", stream=quiet, quiet=True)
    display("documents", 25, 40)
    display.close()
    assert quiet.getvalue() == ""


def test_a_bar_waits_for_the_delay():
    stream = Terminal()
    display = ProgressDisplay("build", stream=stream)  # the real delay: far from over
    display("documents", 1, 40)
    display.close()
    assert stream.getvalue() == ""
