"""What the benchmarks share: finding ../shared, timing a child process, medians.

A child is timed from outside, through GNU time, because the kernel's peak memory of
a process forked from this one would start at this (larger) process's size. Wall time
is taken here; CPU (user + system) and peak resident memory are the child's own.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GNU_TIME = "/usr/bin/time"  # the program, not the shell keyword


def shared_data(start: Path = ROOT) -> Path | None:
    """``shared/data`` beside the repository or beside one of its parent folders.

    A clone sits next to ``shared/``; a git worktree may sit one level deeper.
    """
    for folder in (start, *start.parents):
        candidate = folder / "shared" / "data"
        if candidate.is_dir():
            return candidate
    return None


def seed_glossary(project: Path) -> str:
    """Copy the seed's glossary into ``project/locales`` and return the settings it needs:
    the ``[tool.tolmach.domains]`` table of the seed (its terms name those domains).

    The benchmark's documents belong to none of them, as in the seed's own mapping, so
    domain terms are filtered out per document as in any project with scopes.
    """
    import tomllib

    glossary = ROOT / "locales" / "glossary.toml"
    (project / "locales").mkdir(parents=True, exist_ok=True)
    if not glossary.is_file():
        return ""
    shutil.copyfile(glossary, project / "locales" / "glossary.toml")
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    domains = settings.get("tool", {}).get("tolmach", {}).get("domains", {})
    lines = [f"{name} = {json.dumps(list(patterns))}" for name, patterns in domains.items()]
    return "\n[tool.tolmach.domains]\n" + "\n".join(lines) + "\n" if lines else ""


def tolmach_executable() -> str:
    """The ``tolmach`` script of this checkout's virtual environment, else the one on PATH."""
    local = ROOT / ".venv" / "bin" / "tolmach"
    if local.is_file():
        return str(local)
    found = shutil.which("tolmach")
    if found is None:
        raise SystemExit("tolmach is not installed: run `make venv` first")
    return found


def compile_tolmach(python: str) -> None:
    """Byte-compile tolmach's modules, as pip does when it installs a package.

    An editable install has no ``.pyc`` files of its own until a run writes them, and
    none is ever written under PYTHONDONTWRITEBYTECODE: every timed run would then
    compile the modules it imports, which no installed tolmach does.
    """
    script = (
        "import compileall, pathlib, tolmach; "
        "compileall.compile_dir(pathlib.Path(tolmach.__file__).parent, quiet=1)"
    )
    subprocess.run([python, "-c", script], check=True)


@dataclass
class Measurement:
    """One run of a child process, measured from outside."""

    wall: float  # seconds; for a stopped run, how long it ran
    cpu: float  # user + system seconds of the child
    peak_mib: float  # maximum resident set size of the child
    returncode: int
    stdout: str
    stderr: str
    timed_out: bool = False


def stop_cleanly_on_sigterm() -> None:
    """SIGTERM ends the benchmark as Ctrl-C does: the running child is stopped and the
    temporary folders are removed. Output goes out line by line, even into a file."""
    signal.signal(signal.SIGTERM, _interrupted)
    sys.stdout.reconfigure(line_buffering=True)  # tables appear as they are printed


def _interrupted(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def have_gnu_time() -> bool:
    return Path(GNU_TIME).is_file()


def measure(
    command: Sequence[str],
    *,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    timeout: float | None = None,
    ok: Sequence[int] = (0,),
) -> Measurement:
    """Run ``command`` once; a return code outside ``ok`` stops the benchmark.

    On timeout the command is killed; its CPU until then (a lower bound) is read from
    /proc, and its peak memory is not known (0).
    """
    if not have_gnu_time():
        raise SystemExit("GNU time (/usr/bin/time) is needed: install the `time` package")
    with tempfile.TemporaryDirectory(prefix="tolmach-measure-") as scratch:
        report, out, err = (Path(scratch) / name for name in ("time", "out", "err"))
        with out.open("wb") as stdout, err.open("wb") as stderr:
            started = time.perf_counter()
            child = subprocess.Popen(
                [GNU_TIME, "-f", "%U %S %M", "-o", str(report), *command],
                cwd=cwd,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=stdout,
                stderr=stderr,
                start_new_session=True,
            )
            timed_out, used = False, None
            try:
                child.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                timed_out, used = True, group_usage(child.pid)
                os.killpg(child.pid, signal.SIGKILL)
                child.wait()
            except BaseException:
                os.killpg(child.pid, signal.SIGKILL)
                child.wait()
                raise
            wall = time.perf_counter() - started
        text_out = out.read_text("utf-8", "replace")
        text_err = err.read_text("utf-8", "replace")
        user, system, kilobytes = _time_report(report) if used is None else (*used, 0)
    if not timed_out and child.returncode not in ok:
        shown = " ".join(command)
        raise SystemExit(f"failed ({child.returncode}): {shown}\n{text_err[-3000:]}")
    return Measurement(
        wall, user + system, kilobytes / 1024, child.returncode, text_out, text_err, timed_out
    )


def group_usage(group: int) -> tuple[float, float]:
    """User and system seconds used so far by the live processes of a process group.

    For a run stopped at its timeout, read from /proc before it is killed: a lower
    bound of what the run would have cost.
    """
    ticks = os.sysconf("SC_CLK_TCK")
    user = system = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group:  # fields after the name: state, ppid, pgrp, ...
            user += int(fields[11]) / ticks
            system += int(fields[12]) / ticks
    return user, system


def _time_report(report: Path) -> tuple[float, float, int]:
    """GNU time's last line: user seconds, system seconds, peak kilobytes."""
    lines = report.read_text().strip().splitlines() if report.is_file() else []
    if not lines:
        return 0.0, 0.0, 0
    user, system, kilobytes = lines[-1].split()
    return float(user), float(system), int(kilobytes)


@dataclass
class Summary:
    """Medians of several measurements of the same thing."""

    wall: float
    cpu: float
    peak_mib: float
    runs: int
    timed_out: bool = False

    @classmethod
    def of(cls, runs: Sequence[Measurement]) -> Summary:
        return cls(
            statistics.median(m.wall for m in runs),
            statistics.median(m.cpu for m in runs),
            statistics.median(m.peak_mib for m in runs),
            len(runs),
            any(m.timed_out for m in runs),
        )


def seconds(value: float | None, timed_out: bool = False) -> str:
    if value is None:
        return "–"
    return f"> {value:.2f} s" if timed_out else f"{value:.2f} s"


def ratio(numerator: float | None, denominator: float | None) -> str:
    if not numerator or not denominator:
        return "–"
    return f"{numerator / denominator:.2f}×"


def machine_note() -> str:
    """CPUs and load, printed with every table: figures from a busy machine are noisy."""
    load = os.getloadavg()
    return f"{os.cpu_count()} CPUs, load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}"
