"""Running the checks over entries and catalogs, with waivers.

A published translation (translated, not fuzzy, not obsolete) goes through every entry
check; every entry goes through the catalog checks, whose hits are summed per catalog.
A flag ``#, ignore-<check>`` (Weblate's convention) waives that check for the entry: its
findings are kept, marked ``waived``, so the report shows them apart for review. A flag
naming no check is an error on that entry.
"""

from __future__ import annotations

import difflib
import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import polib

from tolmach.checks.config import CheckConfig
from tolmach.checks.registry import (
    CHECKS,
    Check,
    CheckError,
    DocumentContext,
    EntryContext,
    Finding,
    parse_kind,
)

__all__ = ["check_catalog", "check_entry", "read_catalog", "waivers_of"]

WAIVER_PREFIX = "ignore-"
WAIVER_CHECK = "waiver"
_FIRST_LINES = 5


def check_entry(
    entry: polib.POEntry,
    locale: str,
    config: CheckConfig | None = None,
    *,
    termbase: Any = None,
    source_locale: str = "ru",
    path: str = "<entry>",
    dialect: Any = None,
) -> list[Finding]:
    """Findings of the entry checks on one entry, waived ones marked, plus bad waivers.

    ``dialect`` (a :class:`~tolmach.markdown.dialects.Dialect`) tells which spans of the
    entry are protected atoms (``{{ x }}``, shortcodes, math …)."""
    config = config or CheckConfig()
    waived = waivers_of(entry)
    findings = list(_bad_waivers(entry, path, waived))
    if not _is_published(entry):
        return findings
    used: set[str] = set()
    contexts = list(_contexts(entry, locale, source_locale, termbase, dialect))
    for check in _enabled(config, "entry"):
        for ctx, prefix in contexts:
            for message in _messages(check, ctx):
                is_waived = check.name in waived
                if is_waived:
                    used.add(check.name)
                findings.append(_finding(entry, path, check, config, prefix + message, is_waived))
    findings.extend(_stale_waivers(entry, path, waived - used, config))
    return findings


def _messages(check: Check, ctx: Any) -> list:
    """The check's messages; a check that fails on a translation is an error, not a crash.

    Translations are untrusted input: one that trips a check must not stop the others
    or let ``build --strict`` publish it.
    """
    try:
        return list(check.function(ctx))
    except Exception as error:  # noqa: BLE001 - reported as a finding
        return [f"check failed on this entry ({type(error).__name__}: {error})"]


def check_catalog(
    po: polib.POFile,
    path: str,
    locale: str,
    config: CheckConfig | None = None,
    termbase: Any = None,
    source_locale: str = "ru",
    dialect: Any = None,
    document: DocumentContext | None = None,
) -> list[Finding]:
    """All findings for one catalog, in line order: entry checks, then catalog counts,
    then, given the ``document`` the catalog translates, the document checks."""
    config = config or CheckConfig()
    findings: list[Finding] = []
    for entry in po:
        findings.extend(
            check_entry(
                entry,
                locale,
                config,
                termbase=termbase,
                source_locale=source_locale,
                path=path,
                dialect=dialect,
            )
        )
    findings.extend(_catalog_counts(po, path, locale, config, source_locale))
    if document is not None:
        findings.extend(_document_findings(po, path, config, document))
    findings.sort(key=lambda f: (f.path, f.line, f.check))
    return findings


def read_catalog(path: str | Path) -> polib.POFile:
    """Read a .po file; any reason it cannot be read becomes a :class:`CheckError`."""
    name = str(path)
    if not Path(path).is_file():
        raise CheckError(name, 0, "no such catalog file")
    try:
        return polib.pofile(name, wrapwidth=0)
    except UnicodeDecodeError as error:
        data = Path(path).read_bytes()
        line = data.count(b"\n", 0, error.start) + 1
        raise CheckError(name, line, f"not valid {error.encoding}: {error.reason}") from error
    except (OSError, ValueError) as error:
        match = re.search(r"\(line (\d+)\)", str(error))
        line = int(match.group(1)) if match else 0
        raise CheckError(name, line, f"cannot read the catalog: {error}") from error


def waivers_of(entry: polib.POEntry) -> set[str]:
    """Check names waived on ``entry`` by ``ignore-<check>`` flags."""
    return {f[len(WAIVER_PREFIX) :] for f in entry.flags if f.startswith(WAIVER_PREFIX)}


def _is_published(entry: polib.POEntry) -> bool:
    if entry.obsolete or "fuzzy" in entry.flags:
        return False
    forms = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
    return any(form.strip() for form in forms)


def _enabled(config: CheckConfig, per: str) -> Iterator[Check]:
    return (c for c in CHECKS.values() if c.per == per and config.enabled(c.name))


def _contexts(
    entry: polib.POEntry, locale: str, source_locale: str, termbase: Any, dialect: Any = None
) -> Iterator[tuple[EntryContext, str]]:
    """One context per translated form; plural forms say which form a message is about."""
    kind = parse_kind(entry.comment)
    if not entry.msgid_plural:
        forms = [(entry.msgid, entry.msgstr, "")]
    else:
        forms = [
            (entry.msgid if index == 0 else entry.msgid_plural, text, f"msgstr[{index}]: ")
            for index, text in sorted(entry.msgstr_plural.items())
        ]
    for source, target, prefix in forms:
        if target.strip():
            context = EntryContext(source, target, locale, source_locale, kind, termbase, entry, dialect)
            yield context, prefix


def _finding(
    entry: polib.POEntry, path: str, check: Check, config: CheckConfig, message: str, waived: bool
) -> Finding:
    return Finding(
        path,
        entry.linenum or 0,
        check.name,
        config.severity_of(check.name),
        message,
        entry.msgid,
        waived,
    )


def _bad_waivers(entry: polib.POEntry, path: str, waived: set[str]) -> Iterator[Finding]:
    for name in sorted(waived - CHECKS.keys()):
        close = difflib.get_close_matches(name, list(CHECKS), n=1)
        hint = f" (did you mean ignore-{close[0]}?)" if close else ""
        yield Finding(
            path,
            entry.linenum or 0,
            WAIVER_CHECK,
            "error",
            f"flag ignore-{name} names no check{hint}",
            entry.msgid,
        )


def _stale_waivers(
    entry: polib.POEntry, path: str, unused: set[str], config: CheckConfig
) -> Iterator[Finding]:
    """A waiver with nothing to waive is still listed: reviewers should see every waiver."""
    for name in sorted(unused & CHECKS.keys()):
        if CHECKS[name].per == "entry":
            yield Finding(
                path,
                entry.linenum or 0,
                name,
                config.severity_of(name),
                f"ignore-{name}: nothing to waive (stale waiver?)",
                entry.msgid,
                True,
            )


def _catalog_counts(
    po: polib.POFile, path: str, locale: str, config: CheckConfig, source_locale: str
) -> Iterator[Finding]:
    hits: dict[str, list[polib.POEntry]] = defaultdict(list)
    checks = list(_enabled(config, "catalog"))
    for entry in po:
        ctx = EntryContext(
            entry.msgid,
            _all_forms(entry),
            locale,
            source_locale,
            parse_kind(entry.comment),
            None,
            entry,
        )
        for check in checks:
            if any(True for _ in check.function(ctx)):
                hits[check.name].append(entry)
    for check in checks:
        entries = hits.get(check.name, [])
        waived = [e for e in entries if check.name in waivers_of(e)]
        counted = [e for e in entries if check.name not in waivers_of(e)]
        if counted:
            yield Finding(
                path,
                counted[0].linenum or 0,
                check.name,
                config.severity_of(check.name),
                _count_message(check, counted),
                counted[0].msgid,
            )
        for entry in waived:
            yield _finding(entry, path, check, config, f"{check.name}: waived on this entry", True)


def _document_findings(
    po: polib.POFile, path: str, config: CheckConfig, document: DocumentContext
) -> Iterator[Finding]:
    """Document checks name msgids; a finding sits at the line of that msgid's entry."""
    entries = {e.msgid: e for e in po if not e.obsolete and not e.msgctxt}
    for check in _enabled(config, "document"):
        for item in _messages(check, document):
            msgid, message = item if isinstance(item, tuple) else ("", item)
            entry = entries.get(msgid)
            if entry is None:
                yield Finding(path, 0, check.name, config.severity_of(check.name), message, msgid)
                continue
            waived = check.name in waivers_of(entry)
            yield _finding(entry, path, check, config, message, waived)


def _all_forms(entry: polib.POEntry) -> str:
    if entry.msgid_plural:
        forms = list(entry.msgstr_plural.values())
        return "" if not all(f.strip() for f in forms) else "\n".join(forms)
    return entry.msgstr


def _count_message(check: Check, entries: list[polib.POEntry]) -> str:
    lines = [str(e.linenum or 0) for e in entries[:_FIRST_LINES]]
    more = ", …" if len(entries) > _FIRST_LINES else ""
    return f"{check.summary.format(n=len(entries))} (lines {', '.join(lines)}{more})"
