"""Running the checks over entries and catalogs, with waivers.

A published translation (translated, not fuzzy, not obsolete) goes through every entry
check; every entry goes through the catalog checks, whose hits are summed per catalog.
A waiver (:mod:`tolmach.catalog.waivers`: the translator comment
``# tolmach: ignore <check> — reason``, or the older flag ``#, ignore-<check>``) waives
that check for the entry: its findings are kept, marked ``waived``, so the report shows
them apart for review. A waiver naming no check is an error on that entry; one pinned to
another source text has lapsed: the check applies again and a warning says why. A check
may also report a message as already waived (:class:`~tolmach.checks.registry.WaivedMessage`,
e.g. a term waived by a ``glossary-waive`` comment): it is marked ``waived`` the same way.
"""

from __future__ import annotations

import difflib
import re
from collections import defaultdict
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import polib

from tolmach.catalog.waivers import Waiver, waivers_in
from tolmach.checks.config import CheckConfig
from tolmach.checks.hints import how_to_fix
from tolmach.checks.registry import (
    CHECKS,
    Check,
    CheckError,
    DocumentContext,
    EntryContext,
    Finding,
    WaivedMessage,
    parse_kind,
    registered,
)

registered()  # the checks run here: their families register themselves when imported

__all__ = [
    "check_catalog",
    "check_entry",
    "count_waivers",
    "lapsed_waivers",
    "read_catalog",
    "waivers_of",
]

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
    asset_variants: Any = None,
    source: str = "",
    dialect: Any = None,
) -> list[Finding]:
    """Findings of the entry checks on one entry, waived ones marked, plus bad and lapsed
    waivers. ``source`` is where the text is in the Markdown (``article.md:12``);
    ``dialect`` (a :class:`~tolmach.markdown.dialects.Dialect`) tells which spans of the
    entry are protected atoms (``{{ x }}``, shortcodes, math …)."""
    config = config or CheckConfig()
    return _check_entry(
        entry, locale, config, list(_enabled(config, "entry")), termbase, source_locale, path,
        asset_variants, source, dialect,
    )


def _check_entry(
    entry: polib.POEntry,
    locale: str,
    config: CheckConfig,
    checks: list[Check],
    termbase: Any,
    source_locale: str,
    path: str,
    asset_variants: Any,
    source: str,
    dialect: Any,
) -> list[Finding]:
    """:func:`check_entry` with the enabled checks listed once per catalog."""
    source = source or _first_occurrence(entry)
    waivers = waivers_in(entry)
    findings: list[Finding] = []
    waived: set[str] = set()
    if waivers:
        findings += _bad_waivers(entry, path, source, waivers)
        findings += _lapsed(entry, path, source, waivers)
        waived = {w.check for w in waivers if w.holds_for(entry.msgid)}
    if not _is_published(entry):
        return findings
    used: set[str] = set()
    contexts = list(_contexts(entry, locale, source_locale, termbase, asset_variants, dialect))
    for check in checks:
        for ctx, prefix in contexts:
            for message in _messages(check, ctx):
                is_waived = check.name in waived
                if is_waived:
                    used.add(check.name)
                is_waived = is_waived or isinstance(message, WaivedMessage)
                findings.append(
                    _finding(entry, path, check, config, prefix + message, is_waived, source)
                )
    if waived:
        findings.extend(_stale_waivers(entry, path, waived - used, config, source))
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
    asset_variants: Any = None,
    sources: Mapping[str, str] | None = None,
    dialect: Any = None,
    document: DocumentContext | None = None,
) -> list[Finding]:
    """All findings for one catalog, in line order: entry checks, then catalog counts,
    then, given the ``document`` the catalog translates, the document checks.

    ``asset_variants`` lets a translation point to an existing localized variant of an
    image (see :func:`tolmach.markdown.assets.variant_checker`); ``sources`` maps a msgid
    to its place in the Markdown source (``article.md:12``); without it, an entry's first
    ``#:`` reference is used.
    """
    config = config or CheckConfig()
    sources = sources or {}
    checks = list(_enabled(config, "entry"))
    findings: list[Finding] = []
    for entry in po:
        findings.extend(
            _check_entry(
                entry, locale, config, checks, termbase, source_locale, path, asset_variants,
                sources.get(entry.msgid, ""), dialect,
            )
        )
    findings.extend(_catalog_counts(po, path, locale, config, source_locale, sources))
    if document is not None:
        findings.extend(_document_findings(po, path, config, document, sources))
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
    """Check names waived on ``entry``: by comments that hold for its msgid, and by flags."""
    return {w.check for w in waivers_in(entry) if w.holds_for(entry.msgid)}


def lapsed_waivers(entry: polib.POEntry) -> list[Waiver]:
    """Waivers given for another source text than the entry's msgid."""
    return [w for w in waivers_in(entry) if not w.holds_for(entry.msgid)]


def _first_occurrence(entry: polib.POEntry) -> str:
    """``path:line`` of the entry's first ``#:`` reference, or ``""``."""
    if not entry.occurrences:
        return ""
    path, line = entry.occurrences[0]
    return f"{path}:{line}" if line else path


def count_waivers(po: polib.POFile) -> int:
    """Waivers declared on live entries: ``ignore-<check>`` flags and ``glossary-waive``
    comments, whether or not they excuse anything (``tolmach stats`` shows them)."""
    from tolmach.glossary.compliance import declared_waivers

    return sum(
        len(waivers_of(entry)) + len(declared_waivers(entry.tcomment))
        for entry in po
        if not entry.obsolete
    )


def _is_published(entry: polib.POEntry) -> bool:
    if entry.obsolete or "fuzzy" in entry.flags:
        return False
    forms = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
    return any(form.strip() for form in forms)


def _enabled(config: CheckConfig, per: str) -> Iterator[Check]:
    return (c for c in CHECKS.values() if c.per == per and config.enabled(c.name))


def _contexts(
    entry: polib.POEntry,
    locale: str,
    source_locale: str,
    termbase: Any,
    asset_variants: Any = None,
    dialect: Any = None,
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
            ctx = EntryContext(
                source, target, locale, source_locale, kind, termbase, entry, asset_variants, dialect
            )
            yield ctx, prefix


def _finding(
    entry: polib.POEntry,
    path: str,
    check: Check,
    config: CheckConfig,
    message: str,
    waived: bool,
    source: str = "",
) -> Finding:
    return Finding(
        path,
        entry.linenum or 0,
        check.name,
        config.severity_of(check.name),
        message,
        entry.msgid,
        waived,
        source,
        how_to_fix(check.name),
    )


def _bad_waivers(
    entry: polib.POEntry, path: str, source: str, waivers: list[Waiver]
) -> Iterator[Finding]:
    """A waiver that names no check is an error: a typo must not hide as a waiver."""
    for waiver in waivers:
        if waiver.check in CHECKS:
            continue
        close = difflib.get_close_matches(waiver.check, list(CHECKS), n=1)
        if waiver.form == "flag":
            hint = f" (did you mean ignore-{close[0]}?)" if close else ""
            message = f"flag ignore-{waiver.check} names no check{hint}"
        else:
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            message = f"waiver 'tolmach: ignore {waiver.check}' names no check{hint}"
        yield Finding(
            path,
            entry.linenum or 0,
            WAIVER_CHECK,
            "error",
            message,
            entry.msgid,
            source=source,
            fix=how_to_fix(WAIVER_CHECK),
        )


def _lapsed(entry: polib.POEntry, path: str, source: str, waivers: list[Waiver]) -> list[Finding]:
    """A waiver given for an earlier source text no longer waives: say so, once each."""
    return [
        Finding(
            path,
            entry.linenum or 0,
            WAIVER_CHECK,
            "warning",
            f"waiver 'ignore {waiver.check}' was given for an earlier source text "
            f"[msgid {waiver.pin}]; the check applies again",
            entry.msgid,
            source=source,
            fix=(
                f"check the translation against the new source, then delete "
                f"'[msgid {waiver.pin}]' to renew the waiver, or delete the waiver"
            ),
        )
        for waiver in waivers
        if waiver.check in CHECKS and not waiver.holds_for(entry.msgid)
    ]


def _stale_waivers(
    entry: polib.POEntry, path: str, unused: set[str], config: CheckConfig, source: str = ""
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
                source,
            )


def _catalog_counts(
    po: polib.POFile,
    path: str,
    locale: str,
    config: CheckConfig,
    source_locale: str,
    sources: Mapping[str, str],
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
            first = counted[0]
            yield Finding(
                path,
                first.linenum or 0,
                check.name,
                config.severity_of(check.name),
                _count_message(check, counted),
                first.msgid,
                source=sources.get(first.msgid) or _first_occurrence(first),
                fix=how_to_fix(check.name),
            )
        for entry in waived:
            source = sources.get(entry.msgid) or _first_occurrence(entry)
            message = f"{check.name}: waived on this entry"
            yield _finding(entry, path, check, config, message, True, source)


def _document_findings(
    po: polib.POFile,
    path: str,
    config: CheckConfig,
    document: DocumentContext,
    sources: Mapping[str, str],
) -> Iterator[Finding]:
    """Document checks name msgids; a finding sits at the line of that msgid's entry."""
    entries = {e.msgid: e for e in po if not e.obsolete and not e.msgctxt}
    for check in _enabled(config, "document"):
        for item in _messages(check, document):
            msgid, message, place = _document_item(item)
            entry = entries.get(msgid)
            if entry is None:
                yield Finding(path, 0, check.name, config.severity_of(check.name), message, msgid)
                continue
            waived = check.name in waivers_of(entry)
            source = place or sources.get(msgid) or _first_occurrence(entry)
            yield _finding(entry, path, check, config, message, waived, source)


def _document_item(item: str | tuple) -> tuple[str, str, str]:
    """A document check yields a message, ``(msgid, message)``, or ``(msgid, message,
    source place)`` when it knows which occurrence of the text is at fault."""
    if not isinstance(item, tuple):
        return "", item, ""
    return (item[0], item[1], item[2] if len(item) > 2 else "")


def _all_forms(entry: polib.POEntry) -> str:
    if entry.msgid_plural:
        forms = list(entry.msgstr_plural.values())
        return "" if not all(f.strip() for f in forms) else "\n".join(forms)
    return entry.msgstr


def _count_message(check: Check, entries: list[polib.POEntry]) -> str:
    lines = [str(e.linenum or 0) for e in entries[:_FIRST_LINES]]
    more = ", …" if len(entries) > _FIRST_LINES else ""
    return f"{check.summary.format(n=len(entries))} (lines {', '.join(lines)}{more})"
