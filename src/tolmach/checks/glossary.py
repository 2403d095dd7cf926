"""Glossary: the termbase's terms are translated as the termbase says.

The matching itself (morphology, forbidden and required terms) lives in
:mod:`tolmach.glossary`; this adapter only feeds it one entry with its translator
comment. A translator can waive a single term with ``# glossary-waive: TERM — reason``
(a waiver without a reason is reported; what a waiver excuses is listed as waived), or
the whole check with ``#, ignore-glossary``. A finding for a Russian word that may
mean something else where it was found says how to waive it. Without a termbase the
check says nothing.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator

from tolmach.checks.registry import EntryContext, WaivedMessage, check

__all__ = ["glossary"]


@check("glossary")
def glossary(ctx: EntryContext) -> Iterator[str]:
    """Terms of the termbase translated as the termbase prescribes."""
    if ctx.termbase is None:
        return
    comment = (ctx.entry.tcomment if ctx.entry is not None else "") or ""
    violations = _compliance_check()(
        ctx.termbase, ctx.source, ctx.target, ctx.locale, comment, heading=ctx.is_heading
    )
    for violation in violations:
        message = f"{violation.message}; {violation.hint}" if violation.hint else violation.message
        yield WaivedMessage(message) if violation.waived else message


@functools.cache
def _compliance_check() -> Callable:
    """The glossary's entry check, imported on first use: only projects with a termbase
    need it, and an import statement run per entry costs more than the check of most."""
    from tolmach.glossary.compliance import check_entry

    return check_entry
