"""The termbase: which terms an article uses, and how each must reach every language.

The file is ``locales/glossary.toml``. Each term is one ``[[term]]`` table::

    [[term]]
    source = "ускоритель"          # a word or phrase as written in the source (Russian)
    kind = "translate"             # "translate": the listed translation is required
    note = "GPU accelerator card"  # definition or note, shown to translators
    translations = { en = "accelerator", de = "Beschleuniger", zh_CN = "加速器" }
    forbidden = { en = ["booster"] }   # reported even when the required one is present

    [[term]]
    source = "NVIDIA"
    kind = "keep"                  # "keep": must appear verbatim in every translation...
    translations = { zh_CN = ["英伟达", "NVIDIA"] }   # ...except the locales listed here

- ``translations`` / ``forbidden`` map a locale code (``en``, ``zh_CN``; Babel syntax) to
  one string or a list; the first string is the preferred one, the others are allowed
  variants. A ``translate`` term needs at least one locale; a locale it does not list
  has no requirement.
- ``case-sensitive`` (bool) defaults to true for ``keep`` terms and false otherwise. In
  Cyrillic terms it means the capitals must match (``ПО`` is software, ``по`` is not).
- ``variants`` (string or list): other spellings of the source, found in the source
  like it; a keep-term may appear in a translation in any of them
  (``source = "DeepSeek R1"``, ``variants = ["DeepSeek-R1"]``).
- ``scope`` (list): the documents the term holds in, by name or glob of names
  (``["rocm7", "guide/**"]``); ``domain`` (string or list): the domains it holds in,
  which ``[tool.tolmach.domains]`` in pyproject.toml maps to documents. With neither,
  a term holds in every document; with both, in the documents either one names.
- ``context`` (table): conditions on the words around the term, so one word with two
  meanings can have one entry per meaning: ``previous`` / ``next`` (the word right
  before / after must be one of a list), ``not-previous`` / ``not-next``, ``near`` /
  ``not-near`` (one of the words is / none is in the same segment), ``headings =
  "only"`` or ``"never"``. Russian words are compared by lemma:
  ``context = { not-next = ["данные", "результат"] }``. Two entries for the same word
  must differ in scope, domain or context.
- ``[ignore]`` ``phrases = [...]``: words that ``tolmach glossary candidates`` should
  not propose (ordinary abbreviations, quoted idioms). Real names belong in the termbase.

Matching: Russian words match in any inflected form (pymorphy3 lemmas, ё read as е),
phrases as lemma sequences; Latin words and numbers match as whole tokens (``HIP`` in
``HIP-программ`` but not in ``CHIP``); nothing matches inside inline code or URLs. In a
translation a required term matches by Snowball stem (*accelerators*, *Beschleunigern*)
and, for Chinese and Japanese, as a substring. A keep-term must appear exactly, in the
same case; a name ending in a capital or digit may take a plural ending (GPU → GPUs).

Waiver: a translator comment ``# glossary-waive: TERM — reason`` on a catalog entry
waives that one term for that entry; ``tolmach check`` lists the waived finding and
counts it. The reason is mandatory; ``—``, ``–``, ``--`` or `` - `` separate it from
the term. A waiver without a reason waives nothing and is itself reported.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from babel import Locale, UnknownLocaleError

from tolmach.glossary.match import lemma_pattern, tokenize
from tolmach.glossary.senses import CONTEXT_KEYS, HEADING_RULES, Context, context_from_items
from tolmach.glossary.terms import (
    KINDS,
    GlossaryError,
    Targets,
    Term,
    Termbase,
    quote_term,
)

__all__ = ["build_termbase", "load_termbase", "parse_termbase", "term_table"]

_TERM_FIELDS = frozenset(
    {
        "source",
        "kind",
        "note",
        "case-sensitive",
        "translations",
        "forbidden",
        "variants",
        "scope",
        "domain",
        "context",
    }
)
_LOCALE_RE = re.compile(r"^[A-Za-z]{2,3}(?:_[A-Za-z0-9]{2,8})*$")
_TOML_LINE_RE = re.compile(r"line (\d+)")
_TERM_HEADER_RE = re.compile(r"^\s*\[\[\s*term\s*\]\]")

# --- loading -------------------------------------------------------------------------


def load_termbase(path: str | Path, known_unique: Callable[[str], bool] | None = None) -> Termbase:
    """Read and validate a termbase file; every problem raises :class:`GlossaryError`.

    ``known_unique(text)`` may say that this very text was found free of duplicate
    terms before: that check lemmatizes every term, and loading the morphology costs a
    run that finds every text's terms remembered more than all the rest of the load.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise GlossaryError(
            path, None, None, f"cannot read the glossary: {error.strerror}"
        ) from None
    return parse_termbase(text, path, unique=known_unique is not None and known_unique(text))


def parse_termbase(text: str, path: str | Path = "<glossary>", unique: bool = False) -> Termbase:
    """Parse glossary TOML; ``path`` only names the file in error messages; ``unique``:
    the text is known to hold no duplicate terms (see :func:`load_termbase`)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        found = _TOML_LINE_RE.search(str(error))
        line = int(found.group(1)) if found else text.count("\n") + 1
        raise GlossaryError(path, line, None, f"TOML syntax error: {error}") from None
    unknown = sorted(set(data) - {"term", "ignore"})
    if unknown:
        raise GlossaryError(
            path, _line_of_key(text, unknown[0]), None, f"unknown table or key {unknown[0]!r}"
        )
    tables = data.get("term", [])
    if not isinstance(tables, list):
        raise GlossaryError(
            path, _line_of_key(text, "term"), None, "'term' must be an array of [[term]] tables"
        )
    lines = _term_header_lines(text)
    blocks = [(lines[i] if i < len(lines) else 0, table) for i, table in enumerate(tables)]
    return build_termbase(blocks, _ignore_list(data.get("ignore", {}), text, path), path, text,
                          unique=unique)


def build_termbase(
    blocks: Iterable[tuple[int, Mapping[str, Any]]],
    ignored: Iterable[str] = (),
    path: str | Path = "<glossary>",
    text: str = "",
    unique: bool = False,
) -> Termbase:
    """Validate term tables (each with the line it starts on) into a Termbase.

    The TOML loader and the TBX/CSV importers share this, so every source of terms
    obeys the same rules. ``text`` lets errors point at the offending key's line;
    ``unique`` skips the look for duplicates, for a text known to hold none.
    """
    terms: list[Term] = []
    seen: dict[tuple, Term] = {}
    for line, table in blocks:
        term = _term_from_table(table, line, path, text)
        terms.append(term)
        if unique:
            continue
        for spelling in term.spellings:
            words = lemma_pattern(spelling, False).words
            key = (
                tuple(tuple(sorted(w.key())) for w in words),
                term.scope,
                term.domains,
                term.context,
            )
            first = seen.get(key)
            if first is not None and first is not term:
                message = (
                    f"duplicate term {term.display}: same as {first.display} on line "
                    f"{first.line} (two entries for one word need a different scope, "
                    "domain or context)"
                )
                raise GlossaryError(path, term.line or line, term.source, message)
            seen[key] = term
    return Termbase(tuple(terms), tuple(ignored))


def term_table(term: Term) -> dict[str, Any]:
    """A term as the table the file holds, keys in the file's order, defaults left out.

    The inverse of reading: :func:`build_termbase` makes the same term of it, so every
    writer (TOML, TBX, CSV, OmegaT) goes through one shape.
    """
    table: dict[str, Any] = {"source": term.source, "kind": term.kind}
    if term.case_sensitive != (term.kind == "keep"):
        table["case-sensitive"] = term.case_sensitive
    if term.note:
        table["note"] = term.note
    if term.variants:
        table["variants"] = list(term.variants)
    if term.scope:
        table["scope"] = list(term.scope)
    if term.domains:
        table["domain"] = term.domains[0] if len(term.domains) == 1 else list(term.domains)
    if term.context:
        table["context"] = {
            key: list(value) if isinstance(value, tuple) else value
            for key, value in term.context.items()
        }
    for name, targets in (("translations", term.translations), ("forbidden", term.forbidden)):
        if targets:
            table[name] = {loc: _plain(values) for loc, values in targets}
    return table


def _plain(value):
    """One string stays a string; a list of one is written as that string."""
    if isinstance(value, tuple):
        return value[0] if len(value) == 1 else list(value)
    return value


def _term_from_table(table: Mapping[str, Any], line: int, path, text: str) -> Term:
    source = table.get("source")
    if not isinstance(source, str) or not source.strip():
        raise GlossaryError(path, line, None, "a [[term]] needs a non-empty 'source' string")
    source = source.strip()

    def fail(message: str, key: str = "source") -> GlossaryError:
        return GlossaryError(
            path, _line_in_block(text, line, key), source, f"term {quote_term(source)}: {message}"
        )

    if not tokenize(source):
        raise fail("'source' has no words")
    unknown = sorted(set(table) - _TERM_FIELDS)
    if unknown:
        raise fail(f"unknown field {unknown[0]!r}", unknown[0])
    kind = table.get("kind")
    if kind not in KINDS:
        raise fail(f"unknown kind {kind!r} (expected 'keep' or 'translate')", "kind")
    note = table.get("note", "")
    if not isinstance(note, str):
        raise fail("'note' must be a string", "note")
    case_sensitive = table.get("case-sensitive", kind == "keep")
    if not isinstance(case_sensitive, bool):
        raise fail("'case-sensitive' must be true or false", "case-sensitive")
    translations = _locale_table(table.get("translations", {}), "translations", fail)
    forbidden = _locale_table(table.get("forbidden", {}), "forbidden", fail)
    if kind == "translate" and not translations:
        raise fail("a 'translate' term needs 'translations' for at least one locale", "kind")
    required = dict(translations)
    for locale, targets in forbidden:
        clash = {t.casefold() for t in targets} & {t.casefold() for t in required.get(locale, ())}
        if clash:
            raise fail(f"{min(clash)!r} is both required and forbidden in {locale}", "forbidden")
    term_line = _line_in_block(text, line, "source")
    return Term(
        source,
        kind,
        translations,
        forbidden,
        note.strip(),
        case_sensitive,
        term_line,
        variants=_strings(table.get("variants", ()), "variants", fail, allow_single=True),
        scope=_strings(table.get("scope", ()), "scope", fail),
        domains=_strings(table.get("domain", ()), "domain", fail, allow_single=True),
        context=_context(table.get("context", {}), fail),
    )


def _strings(value: Any, name: str, fail, allow_single: bool = False) -> tuple[str, ...]:
    if allow_single and isinstance(value, str):
        value = [value]
    if not isinstance(value, list | tuple) or not all(
        isinstance(v, str) and v.strip() for v in value
    ):
        shape = "a string or a list of strings" if allow_single else "a list of strings"
        raise fail(f"'{name}' must be {shape}", name)
    return tuple(v.strip() for v in value)


def _context(value: Any, fail) -> Context:
    if not isinstance(value, Mapping):
        raise fail("'context' must be a table such as { not-next = [\"данные\"] }", "context")
    unknown = sorted(set(value) - CONTEXT_KEYS.keys())
    if unknown:
        known = ", ".join(CONTEXT_KEYS)
        raise fail(f"unknown context condition {unknown[0]!r} (known: {known})", unknown[0])
    items = []
    for key in CONTEXT_KEYS:
        if key not in value:
            continue
        if key == "headings":
            if value[key] not in HEADING_RULES:
                raise fail(f"context 'headings' must be one of {', '.join(HEADING_RULES)}", key)
            items.append((key, value[key]))
        else:
            items.append((key, _strings(value[key], f"context.{key}", fail, allow_single=True)))
    return context_from_items(items)


def _locale_table(value: Any, name: str, fail) -> Targets:
    if not isinstance(value, Mapping):
        raise fail(f'\'{name}\' must be a table of locale = "text" or ["text", ...]', name)
    result = []
    for locale, targets in value.items():
        _check_locale(locale, fail)
        targets = [targets] if isinstance(targets, str) else targets
        if (
            not isinstance(targets, list)
            or not targets
            or not all(isinstance(t, str) and t.strip() for t in targets)
        ):
            raise fail(f"'{name}.{locale}' must be a non-empty string or list of strings", locale)
        result.append((locale, tuple(t.strip() for t in targets)))
    return tuple(result)


def _check_locale(locale: str, fail) -> None:
    if not _LOCALE_RE.match(locale):
        raise fail(f"unknown locale {locale!r} (write it like en, de or zh_CN)", locale)
    try:
        Locale.parse(locale)
    except (ValueError, UnknownLocaleError):
        raise fail(f"unknown locale {locale!r}", locale) from None


def _ignore_list(value: Any, text: str, path) -> tuple[str, ...]:
    if isinstance(value, Mapping) and set(value) - {"phrases"}:
        key = min(set(value) - {"phrases"})
        raise GlossaryError(path, _line_of_key(text, key), None, f"unknown key {key!r} in [ignore]")
    phrases = value.get("phrases", []) if isinstance(value, Mapping) else None
    if not isinstance(phrases, list) or not all(isinstance(p, str) and p.strip() for p in phrases):
        raise GlossaryError(
            path, _line_of_key(text, "phrases"), None, "[ignore] phrases must be a list of strings"
        )
    return tuple(p.strip() for p in phrases)


@functools.lru_cache(maxsize=4)
def _term_header_lines(text: str) -> list[int]:
    """Line numbers of the ``[[term]]`` headers, outside multi-line strings."""
    lines, in_string = [], None
    for number, line in enumerate(text.splitlines(), start=1):
        if in_string is None and _TERM_HEADER_RE.match(line):
            lines.append(number)
        for quote in ('"""', "'''"):
            if (in_string in (None, quote)) and line.count(quote) % 2:
                in_string = None if in_string else quote
    return lines


def _line_of_key(text: str, key: str, first: int = 1, last: int | None = None) -> int | None:
    pattern = re.compile(rf"(^|[{{,\s\[.])[\"']?{re.escape(key)}[\"']?\s*[=\].]")
    for number, line in enumerate(text.splitlines()[first - 1 : last], start=first):
        if pattern.search(line.split("#", 1)[0]):
            return number
    return None


def _line_in_block(text: str, start: int, key: str) -> int:
    """The line of ``key`` inside the term table that begins on line ``start``."""
    if not text or not start:
        return start
    following = [n for n in _term_header_lines(text) if n > start]
    return _line_of_key(text, key, start, following[0] - 1 if following else None) or start
