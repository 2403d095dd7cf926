"""Quality checks: catch broken translations before they are published.

Each check is a small function registered with a name, a severity and a one-line
explanation (see :mod:`tolmach.checks.registry`); one module per family. Importing this
package registers them all, in the order ``tolmach check --list`` shows them.
"""

from __future__ import annotations

from importlib import import_module

from tolmach.checks.config import CheckConfig
from tolmach.checks.registry import (
    CHECKS,
    CheckError,
    DocumentContext,
    EntryContext,
    Finding,
    check,
)
from tolmach.checks.runner import check_catalog, check_entry, read_catalog

# One module per family; importing one registers its checks. This order is the order of
# `tolmach check --list`.
FAMILIES = (
    "markup",
    "unsafe",
    "numbers",
    "structure",
    "glossary",
    "punctuation",
    "length",
    "completeness",
)
for _family in FAMILIES:
    import_module(f"tolmach.checks.{_family}")

__all__ = [
    "CHECKS",
    "CheckConfig",
    "CheckError",
    "DocumentContext",
    "EntryContext",
    "Finding",
    "check",
    "check_catalog",
    "check_entry",
    "read_catalog",
]
