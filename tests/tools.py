"""External tools translators use (GNU gettext, translate-toolkit), for tests that run them.

A tool missing fails the test when the environment variable CI is set (CI installs GNU
gettext, and translate-toolkit comes with the ``[test]`` extra) and skips it, saying
why, on a developer's machine without it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

__all__ = ["external_tool", "run_tool"]


def external_tool(name: str) -> str:
    """The path of ``name``: on PATH, or a script beside this Python (translate-toolkit)."""
    found = shutil.which(name)
    beside = Path(sys.executable).parent / name
    if found is None and beside.is_file():
        found = str(beside)
    if found is None:
        hint = "install GNU gettext" if name.startswith("msg") else "pip install -e '.[test]'"
        if os.environ.get("CI"):
            pytest.fail(f"{name} not found: {hint} (.ci/run does)")
        pytest.skip(f"{name} not installed ({hint}); this test runs it")
    return found


def run_tool(name: str, *args: str | Path) -> str:
    """Run a tool, fail the test with its output when it fails; its standard output."""
    result = subprocess.run(
        [external_tool(name), *map(str, args)], capture_output=True, text=True
    )
    assert result.returncode == 0, f"{name} failed: {result.stderr or result.stdout}"
    return result.stdout
