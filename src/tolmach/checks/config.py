"""``[tool.tolmach.checks]``: which checks run and how severe each one is.

    [tool.tolmach.checks]
    severity = { length = "error", punctuation = "warning" }
    disable = ["repeated-word"]

A name that is not a check is a mistake worth stopping for (a typo would silently keep a
check on or off), so it raises :class:`CheckError` with the file and the line.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tolmach.checks.registry import SEVERITIES, CheckError, Severity, registered

__all__ = ["CheckConfig"]

_SECTION = "[tool.tolmach.checks"
_KEYS = ("severity", "disable")


@dataclass(frozen=True)
class CheckConfig:
    """Severity overrides and disabled checks; the defaults come from the registry."""

    severity: Mapping[str, Severity] = field(default_factory=dict)
    disabled: frozenset[str] = frozenset()

    def severity_of(self, name: str) -> Severity:
        return self.severity.get(name, registered()[name].severity)

    def enabled(self, name: str) -> bool:
        return name not in self.disabled

    @classmethod
    def from_mapping(
        cls, table: Mapping[str, Any] | None, path: str = "pyproject.toml", text: str = ""
    ) -> CheckConfig:
        """Read ``[tool.tolmach.checks]`` (or ``[tool.tolmach]`` holding it).

        ``path`` and ``text`` are the config file and its content, used to name the line
        of a mistake.
        """
        table = dict(table or {})
        if isinstance(table.get("checks"), Mapping):
            table = dict(table["checks"])
        where = _Locator(path, text)
        for key in table:
            if key not in _KEYS:
                raise where.error(
                    key,
                    f"unknown setting {key!r} in [tool.tolmach.checks]; known: {', '.join(_KEYS)}",
                )
        severity = _read_severity(table.get("severity", {}), where)
        disabled = _read_disable(table.get("disable", []), where)
        return cls(severity=severity, disabled=disabled)


def _read_severity(value: Any, where: _Locator) -> dict[str, Severity]:
    if not isinstance(value, Mapping):
        raise where.error("severity", 'severity must be a table: { check = "error" }')
    result: dict[str, Severity] = {}
    for name, level in value.items():
        where.require_check(name, "severity")
        if level not in SEVERITIES:
            raise where.error(
                name, f'severity of {name!r} must be "error" or "warning", not {level!r}'
            )
        result[name] = level
    return result


def _read_disable(value: Any, where: _Locator) -> frozenset[str]:
    if isinstance(value, str) or not isinstance(value, list | tuple):
        raise where.error("disable", "disable must be a list of check names")
    for name in value:
        where.require_check(str(name), "disable")
    return frozenset(str(name) for name in value)


@dataclass(frozen=True)
class _Locator:
    """Finds the line of a key in the config text, preferring the checks section."""

    path: str
    text: str

    def require_check(self, name: str, setting: str) -> None:
        if name not in registered():
            raise self.error(name, f"unknown check {name!r} in {setting}{_suggestion(name)}")

    def error(self, name: str, message: str) -> CheckError:
        return CheckError(self.path, self.line_of(name), message)

    def line_of(self, name: str) -> int:
        lines = self.text.splitlines()
        pattern = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")
        section = next(
            (i for i, line in enumerate(lines) if line.strip().startswith(_SECTION)), None
        )
        order = list(range(section or 0, len(lines))) + list(range(section or 0))
        for index in order:
            if pattern.search(lines[index].split("#", 1)[0]):
                return index + 1
        return (section + 1) if section is not None else 0


def _suggestion(name: str) -> str:
    close = difflib.get_close_matches(name, list(registered()), n=1)
    known = ", ".join(sorted(registered()))
    return f" (did you mean {close[0]!r}?)" if close else f"; known checks: {known}"
