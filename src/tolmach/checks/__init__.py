"""Quality checks: catch broken translations before they are published.

Each check is a small function registered with a name, a severity and a one-line
explanation (see :mod:`tolmach.checks.registry`); one module per family. They are
registered when first asked for (:func:`~tolmach.checks.registry.registered`), in the
order ``tolmach check --list`` shows them: showing cached findings loads none of them.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from tolmach.checks.registry import FAMILIES, registered

__all__ = [
    "CHECKS",
    "FAMILIES",
    "CheckConfig",
    "CheckError",
    "DocumentContext",
    "EntryContext",
    "Finding",
    "check",
    "check_catalog",
    "check_entry",
    "read_catalog",
    "registered",
]

_HOMES = {
    "CheckConfig": "config",
    "CheckError": "registry",
    "DocumentContext": "registry",
    "EntryContext": "registry",
    "Finding": "registry",
    "check": "registry",
    "check_catalog": "runner",
    "check_entry": "runner",
    "read_catalog": "runner",
}


def __getattr__(name: str) -> Any:
    """The package's names, each imported when first used (PEP 562)."""
    if name == "CHECKS":
        return registered()
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"tolmach.checks.{home}"), name)
