"""The check registry: small declared functions with a name, a severity and a title.

A check is a function ``(ctx: EntryContext) -> Iterable[str]`` that yields one message
per problem it sees in a single translation. A check that honours waivers of its own
(the glossary's ``glossary-waive`` comments) yields a :class:`WaivedMessage` for what
they excuse, so the report lists it apart and counts it. ``@check`` records it in :data:`CHECKS`;
the first line of its docstring is the explanation ``tolmach check --list`` shows.

Most checks look at each published translation. Checks declared with
``per="catalog"`` (untranslated, fuzzy, obsolete) see every entry, and the runner sums
their hits into one finding per catalog, because one finding per empty entry would bury
everything else. Checks declared with ``per="document"`` (structure) see the catalog
built into its source document and yield ``(msgid, message)`` pairs, which the runner
turns into findings on those entries.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from importlib import import_module
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    import polib

    from tolmach.checks.inline import InlineMarkup
    from tolmach.markdown.verify import VerifiedBuild

__all__ = [
    "CHECKS",
    "Check",
    "CheckError",
    "DocumentContext",
    "EntryContext",
    "Finding",
    "Severity",
    "WaivedMessage",
    "check",
    "parse_kind",
    "registered",
]

Severity = Literal["error", "warning"]
SEVERITIES: tuple[Severity, ...] = ("error", "warning")
CheckFunction = Callable[[Any], Iterable[Any]]
Per = Literal["entry", "catalog", "document"]


@dataclass(frozen=True)
class Check:
    """One registered check."""

    name: str
    severity: Severity
    explanation: str
    function: CheckFunction
    per: Per = "entry"
    summary: str = "{n} entries"  # catalog checks: how the count reads


CHECKS: dict[str, Check] = {}

# One module per family; importing one registers its checks. This order is the order of
# `tolmach check --list`.
FAMILIES = (
    "markup",
    "unsafe",
    "numbers",
    "structure",
    "glossary",
    "punctuation",
    "typography",
    "length",
    "completeness",
)


def registered() -> dict[str, Check]:
    """Every check, by name, in the order of :data:`FAMILIES`.

    The families are imported on first use, not with this module: a ``check`` that
    only restores cached findings needs :class:`Finding` but none of them (nor the
    Markdown parser they load).
    """
    if not _families_loaded:
        for family in FAMILIES:
            import_module(f"tolmach.checks.{family}")
        _families_loaded.append(True)
    return CHECKS


_families_loaded: list[bool] = []


class WaivedMessage(str):
    """A finding's message that a waiver on the entry already excuses."""

    __slots__ = ()


def check(
    name: str,
    severity: Severity = "error",
    *,
    per: Per = "entry",
    summary: str = "{n} entries",
) -> Callable[[CheckFunction], CheckFunction]:
    """Register the decorated function as the check ``name``."""
    if severity not in SEVERITIES:
        raise ValueError(f"check {name!r}: severity must be one of {SEVERITIES}")

    def register(function: CheckFunction) -> CheckFunction:
        if name in CHECKS:
            raise ValueError(f"check {name!r} is registered twice")
        doc = (function.__doc__ or "").strip().splitlines()
        if not doc:
            raise ValueError(f"check {name!r} needs a docstring: its first line explains it")
        CHECKS[name] = Check(name, severity, doc[0].strip(), function, per, summary)
        return function

    return register


@dataclass(frozen=True)
class Finding:
    """One problem found in one catalog, at the line where its entry starts, with the
    place of its text in the Markdown source and what to do about it."""

    path: str
    line: int
    check: str
    severity: Severity
    message: str
    msgid: str = ""
    waived: bool = False
    source: str = ""  # "seeds/article.ru.md:12": where the text is in the source
    fix: str = ""  # how to fix it, or waive it

    @classmethod
    def restored(cls, fields: dict[str, Any]) -> Finding:
        """A finding from every one of its fields, as a cache recorded them, made without
        the frozen class's ``__init__``, which sets each field through
        ``object.__setattr__``: a no-op ``check`` of a thousand documents restores fifty
        thousand findings, in half the time so."""
        finding = object.__new__(cls)
        object.__setattr__(finding, "__dict__", fields)
        return finding

    def __str__(self) -> str:
        """``path.po:LINE (source.md:LINE): severity: [check] message — how to fix``."""
        source = f" ({self.source})" if self.source else ""
        if self.waived:
            return f"{self.path}:{self.line}{source}: waived: [{self.check}] {self.message}"
        fix = f" — {self.fix}" if self.fix else ""
        return f"{self.path}:{self.line}{source}: {self.severity}: [{self.check}] {self.message}{fix}"


class CheckError(Exception):
    """Input the checks cannot work with: it names the file and the line."""

    def __init__(self, path: str, line: int, message: str) -> None:
        super().__init__(f"{path}:{line}: {message}")
        self.path = path
        self.line = line
        self.message = message


_KIND_RE = re.compile(
    r"^\s*(heading(?: \d)?|table(?: header)? cell|paragraph|list item|blockquote|footnote)\b"
)


@lru_cache(maxsize=4096)  # an entry's comment is read once per check pass and locale
def parse_kind(comment: str | None) -> str | None:
    """The block type from an extracted comment such as ``table cell, under "X"``.

    >>> parse_kind('table cell, under "Results"')
    'table cell'
    >>> parse_kind("heading 2")
    'heading 2'
    """
    for line in (comment or "").splitlines():
        match = _KIND_RE.match(line)
        if match:
            return match.group(1)
    return None


@dataclass(frozen=True)
class EntryContext:
    """What a check sees: one source string, one translation of it and where it lives."""

    source: str
    target: str
    locale: str
    source_locale: str = "ru"
    kind: str | None = None
    termbase: Any = None
    entry: polib.POEntry | None = field(default=None, compare=False)
    # ``(source file, old, new) -> bool``: is ``new`` an existing localized variant of the
    # asset ``old``? Given by a project (see :func:`tolmach.markdown.assets.variant_checker`).
    asset_variants: Callable[[str, str, str], bool] | None = field(default=None, compare=False)

    def is_asset_variant(self, old: str, new: str) -> bool:
        """Whether ``new`` is an existing localized variant of ``old`` next to a source
        file of this entry (its ``#:`` references)."""
        if self.asset_variants is None or self.entry is None:
            return False
        sources = {path for path, _ in self.entry.occurrences}
        return any(self.asset_variants(source, old, new) for source in sources)
    dialect: Any = field(default=None, compare=False)  # a markdown Dialect, for its atoms

    @property
    def language(self) -> str:
        """The target language without region: ``zh_CN`` → ``zh``."""
        return language_of(self.locale)

    @property
    def source_language(self) -> str:
        return language_of(self.source_locale)

    @property
    def is_heading(self) -> bool:
        return bool(self.kind and self.kind.startswith("heading"))

    @property
    def is_table_cell(self) -> bool:
        """Header cells too: a ``|`` splits them as it splits body cells."""
        return self.kind in ("table cell", "table header cell")

    @cached_property
    def source_markup(self) -> InlineMarkup:
        """The inline parse of the source, shared by every check of this entry."""
        from tolmach.checks.inline import inline_markup

        return inline_markup(self.source)

    @cached_property
    def target_markup(self) -> InlineMarkup:
        """The inline parse of the translation, shared by every check of this entry."""
        from tolmach.checks.inline import inline_markup

        return inline_markup(self.target)

    @cached_property
    def source_atoms(self) -> tuple:
        """The dialect's protected spans of the source (``{{ x }}``, shortcodes …)."""
        return tuple(self.dialect.atoms(self.source)) if self.dialect is not None else ()

    @cached_property
    def target_atoms(self) -> tuple:
        return tuple(self.dialect.atoms(self.target)) if self.dialect is not None else ()


@dataclass(frozen=True)
class DocumentContext:
    """What a document check sees: the catalog's translations built into the source
    document and verified, where the source lives, and which checks are enabled."""

    source_path: str
    verified: VerifiedBuild
    locale: str
    enabled: frozenset[str] = frozenset()


@lru_cache(maxsize=256)
def language_of(locale: str) -> str:
    """``zh_CN``, ``zh-Hans`` and ``ZH`` all name the language ``zh``."""
    return re.split(r"[_\-@.]", locale.strip(), maxsplit=1)[0].lower()
