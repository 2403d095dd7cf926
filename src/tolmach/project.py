"""The project: configured documents and locales, and the file-level pipeline steps.

This is where paths are resolved, files read and written; the stages it calls
(:mod:`document`, :mod:`catalog`, :mod:`build`) work on plain objects.
"""

from __future__ import annotations

import contextlib
import difflib
import hashlib
import json
import os
import re
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import orjson
import polib

from tolmach.catalog.pofile import CatalogError, KnownLines, format_po, read_po
from tolmach.catalog.status import CatalogStats, catalog_stats, entry_lines, translations_of
from tolmach.config import (
    CONFIG_FILE,
    SOURCE_SUFFIXES,
    Config,
    ConfigError,
    add_target_locale,
    canonical_locale,
    config_file,
    document_name,
    load_config,
    locale_tag,
    new_settings,
    pattern_root,
    validate_locale,
)
from tolmach.fileio import (
    LinkGuard,
    SourceError,
    count_work,
    no_garbage_collection,
    read_source,
    relative_to_root,
    write_atomic,
    write_cache_file,
)
from tolmach.jobs.cache import FileDigests, ResultCache, content_digest, environment_digest, key_of
from tolmach.jobs.executor import RunOptions, carry_back, run_batches, workers_of
from tolmach.jobs.units import BATCHES_PER_WORKER, Fresh, Unit, run_units, warm_up

if TYPE_CHECKING:  # the parser, the merge and the verifier load when a document is worked on
    from tolmach.catalog.merge import UpdateSummary
    from tolmach.markdown.document import Document, ParsedText, SegmentOptions
    from tolmach.markdown.structure import Fingerprint
    from tolmach.markdown.verify import VerifiedBuild, Verifier

__all__ = [
    "BuildResult",
    "LocaleError",
    "Project",
    "SourceDocument",
    "StepResult",
    "init_project",
    "worker_project",
]

_GLOSSARY_PREFIX = "glossary:"
_HEADING_PREFIX = "heading"  # the first ``#.`` line says what the entry is: "heading 2"
_SOURCE_REFUSED = "not read (allow-outside-sources = true in [tool.tolmach] would allow it)"
_NOT_FOLLOWED = "nothing is read or written through it"
_UNREFERABLE_RE = re.compile(r"[\s\x00-\x1f\x7f]")  # a ``#:`` reference cannot hold these
_IN_PROCESS = RunOptions()  # a step's default run: this process, the cache used
#: Per catalog, the digests of the string lines ``update`` last wrote (KnownLines).
_KNOWN_LINES = Path(".tolmach-cache") / "catalog-lines"
_PARSED_TEMPLATES = Path(".tolmach-cache") / "templates"
_FINDINGS_FOLDER = "findings"  # in the cache's folder: see _findings_file


class LocaleError(ValueError):
    """A locale on the command line that is not a target of the project."""


@dataclass(frozen=True)
class SourceDocument:
    """A source article: its catalog name (``guide/intro/index``: its path from its root,
    without suffix and source-language tag) and its path relative to the project root."""

    name: str
    path: Path
    relpath: str
    suffix: str = ".md"  # of the source; localized outputs keep it (``.mdx`` stays ``.mdx``)


@dataclass(frozen=True)
class StepResult:
    """What a step did to one file."""

    path: Path
    written: bool
    locale: str | None = None
    document: str | None = None
    stats: CatalogStats | None = None
    summary: UpdateSummary | None = None  # update: what changed in the catalog
    created: bool = False  # update: the catalog did not exist before
    waivers: int = 0  # waivers declared in the catalog (flags and glossary-waive comments)
    warnings: tuple[str, ...] = ()
    reviewed_kept: bool = False  # update: the merge kept the reviewed translations as they were


@dataclass(frozen=True)
class BuildResult:
    """One localized document: written, unchanged, or skipped with a reason."""

    locale: str
    document: str
    path: Path
    stats: CatalogStats
    written: bool = False
    skipped: str | None = None
    findings: list = field(default_factory=list)
    notes: tuple[str, ...] = ()  # translations left out or changed by the build, one line each
    refused: bool = False  # strict: errors or structure changes kept it from being written


class Project:
    """Operations over all documents × locales of a configured project."""

    def __init__(self, config: Config):
        self.config = config
        self._source_lines: dict[str, dict[str, str]] = {}
        # (path, hints, text, document, its structure if it was read for verifying)
        self._last_loaded: (
            tuple[Path, bool, str, Document, Fingerprint | None, ParsedText | None] | None
        ) = None
        self._last_verifier: Verifier | None = None
        self._token = uuid.uuid4().hex  # names this project to the workers of its runs
        self._probes: list | None = None  # answers noted while a unit of work runs
        self._open_memory = None
        self._parsed_templates: dict[str, polib.POFile] = {}  # update: read once, merged once
        # update: the lines of untranslated entries, made once per template (KnownLines)
        self._untranslated_lines: tuple[polib.POFile | None, dict] = (None, {})
        self._paths: dict[tuple, Path] = {}  # see _remembered
        self._links = LinkGuard()  # where the project's files really are, folder by folder

    @property
    def root(self) -> Path:
        return self.config.root

    # --- sources --------------------------------------------------------------

    @cached_property
    def documents(self) -> list[SourceDocument]:
        """Every source document, named by its path from its root (see ``source-root``)."""
        matched = self.config.matched_documents()
        self._require_matches(matched)
        docs = []
        seen: dict[str, str] = {}
        for path, root in matched:
            if not self.config.allow_outside_sources:
                self._links.inside(self.root, path, where="the project", refused=_SOURCE_REFUSED)
            relpath = path.relative_to(self.root).as_posix()
            if _UNREFERABLE_RE.search(relpath):
                raise SourceError(
                    relpath,
                    None,
                    "a space or control character in the file name cannot be written in "
                    "a catalog reference (#: path:line); rename the file",
                )
            name = self._document_name(relpath, root)
            if name in seen:
                raise SourceError(
                    relpath,
                    None,
                    f"document name {name!r} is also the name of {seen[name]}; give both one "
                    "root with `source-root` in [tool.tolmach] (names then differ by folder) "
                    "or rename one of them",
                )
            seen[name] = relpath
            docs.append(SourceDocument(name, path, relpath, _suffix(path)))
        return docs

    def _require_matches(self, matched: list) -> None:
        """Documents globs that match no file at all are a mistake (a typo, a moved
        folder): extract, update and build would otherwise do nothing and exit 0."""
        if matched:
            return
        source = self.config.source
        text = source.read_text("utf-8") if source is not None and source.is_file() else ""
        patterns = ", ".join(repr(p) for p in self.config.documents)
        default = "" if "documents" in text else " (the default)"
        raise ConfigError(
            source.name if source is not None else "pyproject.toml",
            _line_of(text, "documents"),
            f"documents {patterns}{default} match no Markdown file; "
            "add an article there or change `documents`",
        )

    def unmatched_patterns(self) -> list[str]:
        """Documents globs that match no source file (the others do): worth a warning."""
        if len(self.config.documents) == 1 and self.__dict__.get("documents"):
            return []  # the one pattern matched the documents listed (no second walk)
        matched = {path for path, _ in self.config.matched_documents()}
        return [
            pattern
            for pattern in self.config.documents
            if not any(path in matched for path in self.config.glob(pattern))
        ]

    def _document_name(self, relpath: str, root: str) -> str:
        root = root.strip("/").removeprefix("./") if root not in (".", "") else ""
        if root and not relpath.startswith(root + "/"):
            raise SourceError(relpath, None, f"is not inside source-root {root!r}")
        name = document_name(relpath[len(root) + 1 :] if root else relpath, self.config.source_locale)
        first = name.split("/", 1)[0]
        if "/" in name and (first in self.config.locales or first == self.config.source_locale):
            raise SourceError(
                relpath,
                None,
                f"its catalog name {name!r} would start with the locale folder {first!r}; "
                "set `source-root` to the folder of the source language",
            )
        return name

    def shown(self, path: Path) -> str:
        """A path as messages show it: relative to the project root."""
        return relative_to_root(path, self.root)

    def segment_options(self, doc: SourceDocument) -> SegmentOptions:
        """Dialect and translatable extras of one document, overrides applied."""
        from tolmach.markdown.document import SegmentOptions

        settings = self.config.settings_for(doc.relpath)
        return SegmentOptions(
            front_matter_keys=settings.front_matter_keys,
            html_text=settings.html_text,
            dialect=settings.dialect,
        )

    def document_of(self, name: str) -> SourceDocument | None:
        """The document named ``name`` (its catalog name), or None."""
        found = self.__dict__.get("_by_name")
        if found is None:
            found = self.__dict__["_by_name"] = {doc.name: doc for doc in self.documents}
        return found.get(name)

    def load(self, doc: SourceDocument, hints: bool = False, *, verifying: bool = False) -> Document:
        """The document as its source now reads; the last one parsed is reused while its
        text stays the same (the steps go document by document, locale by locale).

        ``verifying``: the caller will verify builds of it (:meth:`verifier`); the source's
        structure is then taken from the same parse instead of a second one.
        """
        text = read_source(doc.path)
        last = self._last_loaded
        if last is not None and last[:3] == (doc.path, hints, text) and (
            last[4] is not None or not verifying
        ):
            return last[3]
        options = self.segment_options(doc)
        structure = parsed = None
        if verifying:
            from tolmach.markdown.verify import read_parsed

            document, structure, parsed = read_parsed(text, options, hints=hints)
        else:
            from tolmach.markdown.document import parse_document

            document = parse_document(text, options, hints=hints)
        self._last_loaded = (doc.path, hints, text, document, structure, parsed)
        return document

    def source_parse(self, document: Document) -> ParsedText | None:
        """The parse :meth:`load` read ``document`` with (verifying), once: for the one
        renderer of the source page (:class:`~tolmach.markdown.document.ParsedText`)."""
        last = self._last_loaded
        return last[5] if last is not None and last[3] is document else None

    def select_locales(self, locales: tuple[str, ...] | list[str] = ()) -> list[str]:
        """The target locales to work on, as gettext names: the given ones (gettext names
        or BCP 47 tags, each a configured target), else every configured one."""
        if not locales:
            return list(self.config.locales)
        return list(dict.fromkeys(self.target_locale(locale) for locale in locales))

    def add_locale(self, given: str) -> Project:
        """Add a target locale to the settings file (its other bytes kept) and return the
        project as it is now; a locale already there, the source locale, an unknown or
        miscased one is a :class:`LocaleError`."""
        code = validate_locale(given)
        if canonical_locale(code) != code:
            spelled = canonical_locale(code)
            raise LocaleError(
                f"locale {given!r} is written {locale_tag(spelled) if '-' in given else spelled!r}"
            )
        if code == self.config.source_locale:
            raise LocaleError(f"{given!r} is the source locale; it cannot be a target as well")
        if code in self.config.locales:
            raise LocaleError(f"locale {given!r} is configured already")
        source = self.config.source
        if source is None or not source.is_file():
            raise LocaleError(f"no settings file in {self.root} to add {given!r} to")
        add_target_locale(source, given)
        return Project(load_config(self.root))

    def target_locale(self, given: str) -> str:
        """The configured target ``given`` names (``de-DE`` names ``de_DE``); else a
        :class:`LocaleError` that suggests the closest one or ``tolmach locale add``."""
        code = validate_locale(given)
        configured = self.config.locales
        if code in configured:
            return code
        if code == self.config.source_locale:
            targets = ", ".join(configured) or "none yet"
            raise LocaleError(f"{given!r} is the source locale, not a target (targets: {targets})")
        close = [c for c in configured if c.lower() == code.lower()]
        close = close or difflib.get_close_matches(code, configured, n=1, cutoff=0.6)
        if close:
            raise LocaleError(
                f"locale {given!r} is not configured; did you mean {close[0]!r}?"
            )
        targets = ", ".join(configured) or "none yet"
        raise LocaleError(
            f"locale {given!r} is not configured (targets: {targets}); "
            f"add it with `tolmach locale add {locale_tag(canonical_locale(code))}`"
        )

    @cached_property
    def termbase(self):
        """The project's glossary, or None when the project has none.

        A term's domain must be one the configuration defines, or it would silently
        hold nowhere.
        """
        path = self.locales_file(self.config.glossary_path)
        if not path.is_file():
            return None
        from tolmach.glossary import GlossaryError, load_termbase
        from tolmach.glossary.matchcache import UNIQUE_FILE, UniqueTerms

        unique = UniqueTerms(self.root / UNIQUE_FILE)
        termbase = load_termbase(path, known_unique=unique.known)
        unique.remember()
        termbase.remember_in(self.glossary_matches)
        for term in termbase.terms:
            unknown = [d for d in term.domains if d not in self.config.domains]
            if unknown:
                raise GlossaryError(
                    self.shown(path),
                    term.line,
                    term.source,
                    f"term {term.display}: domain {unknown[0]!r} is not defined; map it to "
                    "documents under [tool.tolmach.domains] in pyproject.toml",
                )
        return termbase

    def domains_of(self, document: str) -> frozenset[str]:
        """The domains ``[tool.tolmach.domains]`` gives a document (by its name)."""
        from tolmach.glossary.senses import document_matches

        return frozenset(
            domain
            for domain, patterns in self.config.domains.items()
            if document_matches(patterns, document)
        )

    def termbase_for(self, document: str):
        """The terms that hold in one document (its scope and domains), or None."""
        termbase = self.termbase
        if termbase is None:
            return None
        found = termbase.for_document(document, self.domains_of(document))
        found.remember_in(self.glossary_matches)
        return found

    @cached_property
    def glossary_matches(self):
        """What the glossary found in texts, kept under the cache folder between runs."""
        from tolmach.glossary.matchcache import CACHE_FILE, MatchStore

        return MatchStore(self.root / CACHE_FILE)

    def remember_glossary_matches(self) -> None:
        """Keep what the glossary found in this run's texts for the next run
        (:mod:`tolmach.glossary.matchcache`); called when a step has finished."""
        if "glossary_matches" in self.__dict__:
            self.glossary_matches.save()

    def describe_terms(self, document: str, locale: str | None = None):
        """``(text, heading) -> "glossary: ..." line`` for one document's entries, or None."""
        termbase = self.termbase_for(document)
        if termbase is None:
            return None
        from tolmach.glossary import describe_terms

        return lambda text, heading=False: describe_terms(termbase, text, locale, heading)

    # --- steps ------------------------------------------------------------------
    #
    # Each step cuts its work into units (a document, or a document in one locale),
    # keyed by the digests of what they read (tolmach.jobs.cache); units whose key and
    # outputs are as recorded are not run again, the others run in batches on the run's
    # executor (tolmach.jobs.units). The worker side is the module-level ``_work_*``
    # functions at the end of this module.

    def extract(self, run: RunOptions = _IN_PROCESS) -> list[StepResult]:
        """Write ``locales/<doc>.pot`` for every document (of the run's shard); say which
        lines look like a syntax the document's dialect does not parse."""
        cache = self.result_cache(run)
        self._warm_up_if_cold("extract", cache, run, _warm_extract)
        digest = _digests(cache)
        glossary = digest(self.glossary_file())
        units = [
            Unit(doc.name, key_of("extract", doc.relpath, doc.name, digest(doc.path), glossary),
                 doc, doc.name)
            for doc in self.selected(run)
        ]
        results = run_units(
            "extract", units, _work_extract, self.run_context(), cache, run,
            restore=lambda unit, warnings: StepResult(
                self.template_path(unit.item.name), False, document=unit.item.name,
                warnings=tuple(warnings)),
            what="templates", weigh=lambda unit: _size_of(unit.item.path),
            # copies of one text go to one worker, which finds its terms once
            affinity=None if cache is None else lambda unit: digest(unit.item.path),
        )
        self.save_cache(cache)
        return results

    def template(self, doc: SourceDocument, document: Document | None = None) -> polib.POFile:
        from tolmach.catalog.template import extract_template

        pot = extract_template(
            document or self.load(doc), doc.relpath, project=doc.name, location=self.config.location
        )
        self._refresh_glossary_comments(pot, None, doc.name)
        return pot

    def update(
        self,
        locales: tuple[str, ...] | list[str] = (),
        *,
        keep_obsolete: bool | None = None,
        fuzzy_matching: bool | None = None,
        run: RunOptions = _IN_PROCESS,
    ) -> list[StepResult]:
        """Create or update ``locales/<locale>/LC_MESSAGES/<doc>.po`` from the templates.

        New entries are filled from the translation memory (every catalog of the project
        and the imported compendia) as fuzzy suggestions, when ``translation-memory`` is
        on. ``keep_obsolete`` (default: the ``keep-obsolete`` setting) keeps removed
        strings as ``#~`` entries. ``fuzzy_matching`` (default: the ``fuzzy-matching``
        setting, on) proposes translations of similar texts; off, only of the same text, as
        ``msgmerge -N``. Each result carries an :class:`UpdateSummary`.

        A catalog is merged again when its template, its own bytes, the glossary or the
        options changed since it was last merged, or, if that merge asked the memory,
        when a change of the memory since could alter one of its answers (the memory's
        journal against the evidence each look-up left, :class:`tolmach.memory.store.Changes`).
        """
        chosen = self.select_locales(locales)
        keep = self.config.keep_obsolete if keep_obsolete is None else keep_obsolete
        fuzzy = self.config.fuzzy_matching if fuzzy_matching is None else fuzzy_matching
        cache = self.result_cache(run)
        digest = _digests(cache)
        glossary = digest(self.glossary_file())
        docs = self.selected(run)
        templates = {doc.name: digest(self.template_path(doc.name)) for doc in docs}
        for doc in docs:  # before anything is read or written
            if not templates[doc.name]:
                self._read_template(doc)  # says which template is missing
        memory_on = self.config.translation_memory
        units = [
            Unit(f"{locale}/{doc.name}",
                 key_of("update", doc.name, locale, templates[doc.name], glossary, keep, fuzzy,
                        memory_on),
                 (doc, locale), doc.name)
            for doc in docs
            for locale in chosen
        ]
        states: dict[str, tuple[str, int]] = {}
        changes: dict[tuple[str, int], object] = {}

        def prepare(stale: list[Unit]) -> None:
            for name in dict.fromkeys(unit.item[0].name for unit in stale):
                # a broken template stops all, first; the workers take the ones read here
                self._parsed_templates[name] = self._read_template_named(name)
            if stale:  # a broken glossary is refused before the memory learns anything;
                _ = self.termbase  # with none stale, every key holds a glossary read fine
            if memory_on:
                with self._memory(self._memory_reader(run), run.executor) as memory:
                    from tolmach.memory.store import language_of

                    for locale in chosen:
                        states[language_of(locale)] = memory.position(language_of(locale))

        def holds(condition: list) -> bool:
            if condition[0] != "memory" or len(condition) != 6:
                return False
            _, language, database, counter, threshold, asked = condition
            if language not in states or states[language][0] != database:
                return False
            if counter == states[language][1]:
                return True
            if (language, counter) not in changes:
                changes[language, counter] = self._query_memory().changes_since(language, counter)
            since = changes[language, counter]
            return since is not None and not any(since.may_alter(a, threshold) for a in asked)

        try:
            results = run_units(
                "update", units, _work_update, self.run_context(keep=keep, fuzzy=fuzzy, memory=states),
                cache, run, restore=self._restore_update, holds=holds, what="catalogs",
                before_work=prepare,
            )
            if memory_on:
                self._restamp_memory(results)
        finally:
            self._close_query_memory()
            self._parsed_templates.clear()
        self.save_cache(cache)
        return results

    def _restamp_memory(self, results: list[StepResult]) -> None:
        """Catalogs this update wrote with the reviewed translations the memory learned
        of them: the memory takes them as they are now, so the next run reads nothing."""
        from tolmach.memory.store import CatalogFile

        kept = [
            CatalogFile(r.path, self.shown(r.path), r.locale or "", r.document or "")
            for r in results
            if r.written and r.reviewed_kept
        ]
        if kept:
            self._query_memory().restamp(kept)

    def _restore_update(self, unit: Unit, payload: dict) -> StepResult:
        from tolmach.catalog.merge import UpdateSummary

        doc, locale = unit.item
        stats = CatalogStats(*payload["stats"])
        return StepResult(self.catalog_path(locale, doc.name), False, locale, doc.name, stats,
                          UpdateSummary(kept=stats.total))

    def _read_template(self, doc: SourceDocument) -> polib.POFile:
        return self._read_template_named(doc.name)

    def _read_template_named(self, name: str) -> polib.POFile:
        path = self.template_path(name)
        if not path.is_file():
            raise CatalogError(self.shown(path), None, "template missing; run `tolmach extract` first")
        return self.parsed_templates.read(path, self.shown(path), read_po)

    @cached_property
    def parsed_templates(self):
        """Templates kept parsed between runs (:mod:`tolmach.catalog.parsed`)."""
        from tolmach.catalog.parsed import ParsedTemplates

        return ParsedTemplates(self.root / _PARSED_TEMPLATES, self.cache_version)

    def _memory(self, read=None, executor=None):
        """The project's memory, brought up to date (made anew in parts on ``executor``'s
        workers when it is missing)."""
        from tolmach.memory.store import part_maker, project_memory

        return project_memory(self.root, self.config.source_locale, self.config.locales_dir, read,
                              part_maker(executor))

    @staticmethod
    def _memory_reader(run: RunOptions):
        """Reads the catalogs the memory learns on the run's workers (a cold update reads
        them all), in batches of about equal size, without a progress report of its own."""
        from tolmach.memory.store import reviewed_units

        def read(catalogs: list) -> list:
            count = max(1, min(len(catalogs), workers_of(run.executor) * BATCHES_PER_WORKER))
            batches = [catalogs[n * len(catalogs) // count:(n + 1) * len(catalogs) // count]
                       for n in range(count)]
            return run_batches(reviewed_units, batches, replace(run, progress=None),
                               what="catalogs", sizes=[len(batch) for batch in batches])

        return read

    def _update_one(
        self, doc: SourceDocument, template: polib.POFile, locale: str, memory, keep: bool,
        fuzzy: bool,
    ) -> tuple[StepResult, str]:
        """Merge one catalog; the result and the digest of the catalog's bytes now."""
        from tolmach.catalog.merge import summarize_update, update_catalog
        from tolmach.catalog.parsed import word_counts

        path = self.catalog_path(locale, doc.name)
        with no_garbage_collection():  # tens of thousands of objects, no cycles
            old = read_po(path, keep_text=True) if path.is_file() else None
            merged = update_catalog(
                template,
                old,
                locale,
                fuzzy_threshold=self.config.fuzzy_threshold,
                memory=memory,
                document=doc.name,
                keep_obsolete=keep,
                fuzzy=fuzzy,
            )
            self._refresh_glossary_comments(merged, locale, doc.name)
            known = self._known_lines(path, template)
            written, digest = self._write_catalog(merged, path, known, staged=True)
            self._remember_lines(path, known)
            summary = summarize_update(old, merged)
            from tolmach.memory.store import reviewed_translations

            kept = reviewed_translations(old or ()) == reviewed_translations(merged)
            stats = catalog_stats(merged, word_counts(template))
        result = StepResult(
            path, written, locale, doc.name, stats, summary, created=old is None,
            reviewed_kept=kept,
        )
        return result, digest

    def _write_catalog(
        self,
        po: polib.POFile,
        path: Path,
        known: KnownLines | None = None,
        *,
        regenerable: bool = False,
        staged: bool = False,
    ) -> tuple[bool, str]:
        """Write a template or catalog as ``write_po`` does; whether the bytes changed, and
        their digest. ``known``: string lines that may be copied as read (KnownLines). A
        template is ``regenerable``; a merged catalog is ``staged``, put in place with the
        rest of its batch (see ``write_atomic``)."""
        try:
            text = format_po(po, self.config.po_width, known)
        except ValueError as error:
            raise CatalogError(path, None, str(error)) from None
        return write_atomic(path, text, regenerable=regenerable, staged=staged), content_digest(text)

    def _known_lines_file(self, path: Path) -> Path:
        name = hashlib.blake2b(self.shown(path).encode("utf-8", "surrogatepass"), digest_size=16)
        return self.root / _KNOWN_LINES / name.hexdigest()

    def _known_lines(self, path: Path, template: polib.POFile) -> KnownLines:
        """What ``update`` wrote in this catalog last time, if this tolmach with these
        settings wrote it (the digests say nothing about other formats); the lines of
        untranslated entries are made once for the catalogs of one template."""
        if self._untranslated_lines[0] is not template:
            self._untranslated_lines = (template, {})
        untranslated = self._untranslated_lines[1]
        try:
            data = self._known_lines_file(path).read_bytes()
        except OSError:
            data = b""
        stamp = self.cache_version.encode() + b"\n"
        known = KnownLines.from_bytes(data[len(stamp) :]) if data.startswith(stamp) else KnownLines()
        known.untranslated = untranslated
        return known

    def _remember_lines(self, path: Path, known: KnownLines) -> None:
        """Keep the digests of the catalog's string lines for the next update (only a
        cache: a project where it cannot be written just copies nothing)."""
        if known.written != known.known:
            stamp = self.cache_version.encode() + b"\n"
            write_cache_file(self._known_lines_file(path), stamp + known.to_bytes())

    def name_of(self, source: Path) -> str:
        """The catalog name of a file: the project's name for one of its documents, else
        the file's own name without suffix and source-language tag."""
        resolved = source.resolve()
        doc = next((d for d in self.documents if d.path.resolve() == resolved), None)
        return doc.name if doc is not None else document_name(source.name, self.config.source_locale)

    def add_glossary_comments(self, pot: polib.POFile, document: str) -> None:
        """``#. glossary:`` lines on a template made outside the project's steps (the
        single-file ``extract``), as a project ``extract`` writes them."""
        self._refresh_glossary_comments(pot, None, document)

    def _refresh_glossary_comments(self, po: polib.POFile, locale: str | None, document: str) -> None:
        """The ``#. glossary:`` line of every live entry, as the termbase now says."""
        describe = self.describe_terms(document, locale)
        if describe is None:
            return
        for entry in po:
            if entry.obsolete:
                continue
            if not entry.comment:  # most entries: no heading, no glossary line to drop
                entry.comment = describe(entry.msgid, False) or ""
                continue
            lines = [
                ln for ln in entry.comment.split("\n") if ln and not ln.startswith(_GLOSSARY_PREFIX)
            ]
            heading = bool(lines) and lines[0].startswith(_HEADING_PREFIX)
            terms = describe(entry.msgid, heading)
            entry.comment = "\n".join(lines + ([terms] if terms else []))

    def locales_file(self, path: Path) -> Path:
        """A file under the locales folder, refused when a symbolic link leads out of it."""
        locales, where = self._folders["locales"]
        return self._links.inside(locales, path, where=where, refused=_NOT_FOLLOWED)

    @cached_property
    def _folders(self) -> dict[str, tuple[Path, str]]:
        """The locales and output folders, and how messages name them: asked for every
        catalog and output of a run."""
        config = self.config
        return {name: (path, f"{self.shown(path)}/")
                for name, path in (("locales", config.locales_path), ("output", config.output_path))}

    def template_path(self, doc: str) -> Path:
        return self._remembered(("pot", doc), lambda: self.locales_file(self.config.template_path(doc)))

    def catalog_path(self, locale: str, doc: str) -> Path:
        return self._remembered(
            ("po", locale, doc),
            lambda: self.locales_file(self.config.catalog_path(validate_locale(locale), doc)),
        )

    def output_path(self, locale: str, doc: str, suffix: str = ".md") -> Path:
        return self._remembered(("output", locale, doc, suffix), lambda: self._output_file(locale, doc, suffix))

    def _output_file(self, locale: str, doc: str, suffix: str) -> Path:
        locale = validate_locale(locale)
        output, where = self._folders["output"]
        return self._links.inside(
            output,
            self.config.output_file(locale, doc, suffix),
            where=where,
            refused="nothing is written through it",
        )

    def _remembered(self, key: tuple, find) -> Path:
        """A file's path as ``find`` checks it, found once per Project (one command).

        A run asks for each catalog several times, and each check follows the path's
        links folder by folder (a system call each); a refusal is never remembered.
        """
        path = self._paths.get(key)
        if path is None:
            path = self._paths[key] = find()
        return path

    def read_catalog(self, locale: str, doc: str) -> polib.POFile | None:
        path = self.catalog_path(locale, doc)
        return read_po(path) if path.is_file() else None

    def build(
        self,
        locales: tuple[str, ...] | list[str] = (),
        *,
        threshold: float | None = None,
        strict: bool = False,
        run: RunOptions = _IN_PROCESS,
    ) -> list[BuildResult]:
        """Write ``output/<locale>/<doc>.md`` for catalogs complete enough (and clean, if strict).

        Every build is verified: a translation that would change the document's structure
        falls back to the source text (a note says which), or, if strict, the document is
        not written. A document is built again when its source, its catalog, the options
        (or, if strict, the glossary) changed, or its output no longer holds what was
        written.
        """
        threshold = self.config.threshold if threshold is None else threshold
        chosen = self.select_locales(locales)
        cache = self.result_cache(run)
        digest = _digests(cache)
        glossary = digest(self.glossary_file()) if strict else ""
        units = [
            Unit(f"{locale}/{doc.name}",
                 key_of("build", doc.relpath, locale, digest(doc.path),
                        digest(self.catalog_path(locale, doc.name)), threshold, strict, glossary),
                 (doc, locale), doc.name)
            for doc in self.selected(run)
            for locale in chosen
        ]
        results = run_units(
            "build", units, _work_build, self.run_context(threshold=threshold, strict=strict),
            cache, run, restore=self._restore_build, holds=self.probe_holds, what="documents",
        )
        self.save_cache(cache)
        return results

    def _restore_build(self, unit: Unit, payload: dict) -> BuildResult:
        doc, locale = unit.item
        return BuildResult(
            locale, doc.name, self.output_path(locale, doc.name, doc.suffix),
            CatalogStats(*payload["stats"]), skipped=payload["skipped"],
            findings=_findings(payload["findings"]),
            notes=tuple(payload["notes"]), refused=payload["refused"],
        )

    def verifier(self, doc: SourceDocument, document: Document | None = None) -> Verifier:
        """Verified builds of ``doc``, with the project's settings; the last one made is
        reused for the same document (its source fingerprint is taken once)."""
        from tolmach.markdown.verify import Verifier

        document = document or self.load(doc, verifying=True)
        last = self._last_verifier
        if last is not None and last.document is document:
            return last
        loaded = self._last_loaded
        structure = loaded[4] if loaded is not None and loaded[3] is document else None
        self._last_verifier = Verifier(
            document, options=self.segment_options(doc), wrap_width=self.config.wrap_width,
            source_structure=structure,
        )
        return self._last_verifier

    def _build_one(
        self, doc: SourceDocument, verifier: Verifier, locale: str, threshold: float, strict: bool
    ) -> tuple[BuildResult, str | None]:
        """Build one document in one locale; the result, and the digest of the output's
        bytes when it was written (or found holding them)."""
        path = self.output_path(locale, doc.name, doc.suffix)
        po = self.read_catalog(locale, doc.name)
        if po is None:
            return BuildResult(
                locale, doc.name, path, CatalogStats(), skipped="no catalog; run `tolmach update`"
            ), None
        stats = catalog_stats(po)
        if stats.percent < threshold:
            reason = f"{stats.percent:.0f}% translated, below the threshold of {threshold:g}%"
            return BuildResult(locale, doc.name, path, stats, skipped=reason), None
        verified = verifier.build(translations_of(po), same_image=self.same_image(doc, locale))
        notes = self.build_notes(locale, doc, po, verified, refused=strict)
        if strict:
            errors = [
                f
                for f in self.check_catalog(locale, doc.name, po, verified=verified)
                if f.severity == "error" and not f.waived
            ]
            if errors or verified.rejected:
                if errors:
                    reason = f"{len(errors)} check error(s); run `tolmach check -l {locale}`"
                else:
                    reason = f"{len(verified.rejected)} translation(s) change the structure"
                return BuildResult(
                    locale, doc.name, path, stats, skipped=reason, findings=errors,
                    notes=notes, refused=True,
                ), None
        written = write_atomic(path, verified.text, regenerable=True)
        result = BuildResult(locale, doc.name, path, stats, written=written, notes=notes)
        return result, content_digest(verified.text)

    def build_notes(
        self,
        locale: str,
        doc: SourceDocument,
        po: polib.POFile,
        verified: VerifiedBuild,
        refused: bool = False,
    ) -> tuple[str, ...]:
        """One line per translation the build left out or changed, naming the entry
        (``.po`` file and line) and the source line."""
        catalog = self.shown(self.catalog_path(locale, doc.name))
        return verified.notes(catalog, doc.relpath, entry_lines(po), refused=refused)

    def check_catalog(
        self,
        locale: str,
        doc: str,
        po: polib.POFile | None = None,
        *,
        verified: VerifiedBuild | None = None,
    ) -> list:
        """Findings of all configured checks for one catalog, the structure of the built
        document included (``verified``: the build to judge, made here if not given);
        each names the line of its entry in the catalog and of its text in the source."""
        from tolmach.checks import DocumentContext, check_catalog

        count_work("check")

        path = self.catalog_path(locale, doc)
        po = po if po is not None else read_po(path)
        config = self.check_config
        rel = path.relative_to(self.root).as_posix()
        document = None
        source = self.document_of(doc)
        dialect = self.segment_options(source).dialect if source else None
        if source is not None:
            if verified is None:
                verified = self.verifier(source).build(
                    translations_of(po), same_image=self.same_image(source, locale)
                )
            enabled = frozenset(name for name in self._check_names() if config.enabled(name))
            document = DocumentContext(source.relpath, verified, locale, enabled)
        return check_catalog(
            po,
            rel,
            locale,
            config,
            termbase=self.termbase_for(doc),
            source_locale=self.config.source_locale,
            asset_variants=self.asset_variants(locale),
            sources=self.source_lines(doc),
            dialect=dialect,
            document=document,
        )

    @staticmethod
    def _check_names() -> list[str]:
        from tolmach.checks import CHECKS

        return list(CHECKS)

    def same_image(self, doc: SourceDocument, locale: str):
        """``(old, new) -> bool`` for a verified build of ``doc``: may an image of the
        translation point to ``new`` where the source has ``old``? (Its variant.)"""
        accepts = self.asset_variants(locale)
        return lambda old, new: accepts(doc.relpath, old, new)

    def asset_variants(self, locale: str):
        """``(source file, old, new) -> bool``: may a translation point to ``new`` instead
        of the asset ``old``? Only when ``new`` is its existing variant for ``locale``.

        While a unit of work runs, each answer is noted (:meth:`probe_holds` asks again
        before its recorded result is reused): it depends on files outside its inputs.
        """
        from tolmach.markdown.assets import variant_checker

        accepts = variant_checker(self.root, locale, self.config.localized_assets)

        def noted(source: str, old: str, new: str) -> bool:
            answer = accepts(source, old, new)
            if self._probes is not None:
                self._probes.append(["variant", locale, source, old, new, answer])
            return answer

        return noted

    @contextlib.contextmanager
    def noting_probes(self) -> Iterator[list]:
        """While a unit of work runs: the answers of :meth:`asset_variants`, noted as
        conditions of its recorded result."""
        self._probes = noted = []
        try:
            yield noted
        finally:
            self._probes = None

    def probe_holds(self, condition: list) -> bool:
        """Whether a noted answer of :meth:`asset_variants` is still the answer."""
        if condition[0] != "variant":
            return False
        from tolmach.markdown.assets import variant_checker

        _, locale, source, old, new, answer = condition
        return variant_checker(self.root, locale, self.config.localized_assets)(source, old, new) == answer

    def source_lines(self, doc: str, document: Document | None = None) -> dict[str, str]:
        """msgid → ``source.md:LINE`` where the text first occurs, read from the document
        itself (``document``, if already parsed), so findings name the source line
        whatever ``location`` says. Only the last document's are kept: the steps go
        document by document, and a run over a thousand must not hold them all."""
        cached = self._source_lines.get(doc)
        if cached is None:
            self._source_lines.clear()
            cached = {}
            source = self.document_of(doc)
            if source is not None:
                for segment in (document or self.load(source)).segments:
                    cached.setdefault(segment.text, f"{source.relpath}:{segment.line}")
            self._source_lines[doc] = cached
        return cached


    @cached_property
    def check_config(self):
        """``[tool.tolmach.checks]`` read once; mistakes name pyproject.toml and the line."""
        from tolmach.checks import CheckConfig

        source = self.config.source
        text = source.read_text("utf-8") if source else ""
        return CheckConfig.from_mapping(self.config.checks, "pyproject.toml", text)

    def catalog_row(self, result: StepResult):
        """A step's result as reports show it (:mod:`tolmach.catalog.progress`)."""
        from tolmach.catalog.progress import CatalogRow

        return CatalogRow(
            path=self.shown(result.path),
            locale=result.locale or "",
            tag=locale_tag(result.locale or ""),
            document=result.document or "",
            stats=result.stats or CatalogStats(),
            summary=result.summary,
            waivers=result.waivers,
            written=result.written,
            created=result.created,
        )

    def catalogs(
        self, locales: tuple[str, ...] | list[str] = (), run: RunOptions = _IN_PROCESS
    ) -> list[tuple[str, str, Path]]:
        """``(locale, document, path)`` of every catalog the chosen locales should have
        (of the run's shard)."""
        chosen = self.select_locales(locales)
        return [
            (locale, doc.name, self.catalog_path(locale, doc.name))
            for doc in self.selected(run)
            for locale in chosen
        ]

    def check(
        self, locales: tuple[str, ...] | list[str] = (), run: RunOptions = _IN_PROCESS
    ) -> list:
        """Findings of every catalog of the chosen locales, in document × locale order;
        a catalog not made yet is a finding too, not a silent pass. A catalog is checked
        again when it, its source, the glossary or the check settings changed."""
        chosen = self.select_locales(locales)
        cache = self.result_cache(run)
        digest = _digests(cache)
        glossary = digest(self.glossary_file())
        units, missing = [], {}
        for doc in self.selected(run):
            for locale in chosen:
                path = self.catalog_path(locale, doc.name)
                catalog = digest(path) if cache is not None else ("?" if path.is_file() else "")
                if not catalog:
                    missing[len(units)] = self._no_catalog(path, locale)
                    units.append(None)
                    continue
                key = _check_key(doc, locale, digest(doc.path), catalog, glossary)
                kept = str(_findings_file(cache, key)) if cache is not None else None
                units.append(Unit(f"{locale}/{doc.name}", key, (doc, locale, kept), doc.name))
        checked = run_units(
            "check", [u for u in units if u is not None], _work_check, self.run_context(), cache,
            run, restore=lambda _, rows: _findings(rows),
            holds=self.probe_holds, what="catalogs",
        )
        if cache is not None and cache.misses:
            _prune_findings(cache)
        self.save_cache(cache)
        found = iter(checked)
        return [
            finding
            for number, unit in enumerate(units)
            for finding in ([missing[number]] if unit is None else next(found))
        ]

    def findings_file(self, cache: ResultCache | None, doc: SourceDocument, locale: str,
                      glossary: str) -> Path | None:
        """Where ``check`` keeps what it found in the catalog as it is now, for a step that
        judges the catalog again, as ``publish`` does, to take instead of checking the same
        bytes once more (see :func:`recorded_findings`); None without a cache, or with
        ``--force``. ``glossary``: the glossary's digest."""
        if cache is None or not cache.trust:
            return None
        catalog = cache.digest(self.catalog_path(locale, doc.name))
        if not catalog:
            return None
        return _findings_file(cache, _check_key(doc, locale, cache.digest(doc.path), catalog, glossary))

    def _no_catalog(self, path: Path, locale: str):
        from tolmach.checks.registry import Finding

        return Finding(
            self.shown(path),
            0,
            "untranslated",
            self.check_config.severity_of("untranslated"),
            f"no catalog yet; run `tolmach update -l {locale_tag(locale)}`",
        )

    def stats(
        self, locales: tuple[str, ...] | list[str] = (), run: RunOptions = _IN_PROCESS
    ) -> list[StepResult]:
        """Progress of every catalog, and the waivers it declares; one not made yet counts
        its template as untranslated."""
        chosen = self.select_locales(locales)
        cache = self.result_cache(run)
        cold = self._warm_up_if_cold("stats", cache, run, _warm_stats)
        # cold on a pool: the workers hash the catalogs (in process, the same work either way)
        deferred = cold and cache is not None and workers_of(run.executor) > 1
        digest = _digests(cache)
        units = [
            Unit(f"{locale}/{doc.name}", None if deferred else self._stats_key(digest, doc, locale),
                 (doc, locale), doc.name)
            for doc in self.selected(run)
            for locale in chosen
        ]
        results = run_units(
            "stats", units, _work_stats, self.run_context(keys=deferred), cache, run,
            restore=lambda unit, payload: StepResult(
                self.catalog_path(unit.item[1], unit.item[0].name), False, unit.item[1],
                unit.item[0].name, CatalogStats(*payload[0]), waivers=payload[1]),
            what="catalogs", weigh=lambda unit: _size_of(unit.item[0].path),
        )
        self.save_cache(cache)
        return results

    # --- running: the cache, the documents of a run, the workers' side -------------------

    @cached_property
    def cache_version(self) -> str:
        """What every recorded result depends on besides its own inputs: tolmach (code,
        data, dependencies) and the project's settings."""
        from dataclasses import asdict

        settings = {k: v for k, v in asdict(self.config).items() if k not in ("root", "source")}
        return key_of(environment_digest(), json.dumps(settings, sort_keys=True, default=str))

    def result_cache(self, run: RunOptions) -> ResultCache | None:
        """The cache a run reads and adds to (None when the run uses none)."""
        if not run.cache:
            return None
        scope = run.shard.label if run.shard is not None else None
        return ResultCache(self.root, self.cache_version, scope=scope, trust=not run.force)

    def save_cache(self, cache: ResultCache | None) -> None:
        """Keep what a step learned for the next run: its results, glossary matches and
        parsed templates."""
        if cache is not None:
            cache.save(doc.name for doc in self.documents)
        self.remember_glossary_matches()
        if "parsed_templates" in self.__dict__:
            self.parsed_templates.save()

    def _warm_up_if_cold(self, stage: str, cache: ResultCache | None, run: RunOptions,
                         warm: Callable[[tuple], None]) -> bool:
        """When nothing of ``stage`` is recorded (a cold cache, ``--force``), every unit
        will run: start the workers now, so they load what the step needs while this
        process lists and hashes its inputs (:func:`tolmach.jobs.units.warm_up`).
        Whether the stage is cold."""
        cold = cache is None or not cache.recorded(stage)
        if cold:
            warm_up(run, warm, self.run_context())
        return cold

    def _stats_key(self, digest: Callable[[Path], str], doc: SourceDocument, locale: str) -> str:
        """What a catalog's progress depends on: its bytes, or its template's when it has
        none yet."""
        path = self.catalog_path(locale, doc.name)
        return key_of("stats", digest(path) or "template:" + digest(self.template_path(doc.name)))

    def selected(self, run: RunOptions) -> list[SourceDocument]:
        """The documents a run works on: all, or its shard's."""
        if run.shard is None:
            return self.documents
        return [doc for doc in self.documents if run.shard.holds(doc.name)]

    def glossary_file(self) -> Path:
        """Where the glossary is (refused when a link leads it out of the locales folder)."""
        return self.locales_file(self.config.glossary_path)

    def run_context(self, **options) -> tuple:
        """What a worker needs besides its items: this project (by token, or rebuilt
        from its settings in another process) and the step's options."""
        _PROJECTS[self._token] = self
        return (self._token, self.config, options)

    def _query_memory(self):
        """The memory, opened for look-ups only (the run has brought it up to date)."""
        if self._open_memory is None:
            from tolmach.memory.store import CACHE_FILE, TranslationMemory

            self._open_memory = TranslationMemory(self.root / CACHE_FILE, self.config.source_locale)
        return self._open_memory

    def _close_query_memory(self) -> None:
        if self._open_memory is not None:
            self._open_memory.close()
            self._open_memory = None


# --- the workers' side ---------------------------------------------------------------

_PROJECTS: dict[str, Project] = {}  # in a worker: the project of the run, by its token


def _take_glossary_matches() -> dict | None:
    """In a worker: what its projects' glossaries matched since the last batch."""
    taken = {}
    for token, project in _PROJECTS.items():
        if "glossary_matches" in project.__dict__:
            found = project.glossary_matches.take_new()
            if found:
                taken[token] = found
    return taken or None


def _give_glossary_matches(taken: dict) -> None:
    """Here: keep what a worker's glossary matched, to be saved with this run's matches."""
    for token, found in taken.items():
        project = _PROJECTS.get(token)
        if project is not None:
            project.glossary_matches.learn(found)


carry_back("glossary matches", _take_glossary_matches, _give_glossary_matches)


def _worker_project(context: tuple) -> tuple[Project, dict]:
    """The project a batch belongs to, and the step's options (see :func:`worker_project`)."""
    return worker_project(context), context[2]


def worker_project(context: tuple) -> Project:
    """The project a batch belongs to: the very object in this process or a forked
    worker, else made once per process from the settings the batch carries."""
    token, config, _ = context
    project = _PROJECTS.get(token)
    if project is None:
        _PROJECTS.clear()
        project = _PROJECTS[token] = Project(config)
        project._token = token
    return project


def _work_extract(batch: tuple) -> list[Fresh]:
    project, _ = _worker_project(batch[0])
    fresh = []
    for doc in batch[1]:
        document = project.load(doc, hints=True)
        path = project.template_path(doc.name)
        written, digest = project._write_catalog(project.template(doc, document), path, regenerable=True)
        warnings = [f"{doc.relpath}:{hint.line}: {hint.message}" for hint in document.hints]
        result = StepResult(path, written, document=doc.name, warnings=tuple(warnings))
        fresh.append(Fresh(result, warnings, {path: digest}))
    return fresh


def _warm_extract(context: tuple) -> None:
    """What every extract batch needs, loaded ahead (see :func:`tolmach.jobs.units.warm_up`):
    the parser and template modules, the glossary and its morphology dictionary."""
    _load_modules("tolmach.catalog.template", "tolmach.markdown.document")
    worker_project(context).termbase  # noqa: B018 - loads the glossary and pymorphy3


def _warm_stats(context: tuple) -> None:
    """What every stats batch needs, loaded ahead: the catalog reader and the waivers'
    checks."""
    _load_modules("tolmach.catalog.pofile", "tolmach.checks.runner")
    worker_project(context)


def _load_modules(*names: str) -> None:
    from importlib import import_module

    for name in names:
        import_module(name)


class _NotingMemory:
    """The memory as a merge sees it, noting what each look-up depended on: a catalog
    merged without asking does not depend on what the memory holds, one that asked
    only on the answers it got."""

    def __init__(self, memory) -> None:
        self.memory = memory
        self.evidence: list = []
        self.threshold: float | None = None

    def best(self, text: str, locale: str, *, threshold: float, exclude_document: str | None):
        if self.threshold not in (None, threshold):
            raise ValueError("one merge asks the memory with one threshold")
        self.threshold = threshold
        return self.memory.best(text, locale, threshold=threshold,
                                exclude_document=exclude_document, evidence=self.evidence)


def _work_update(batch: tuple) -> list[Fresh]:
    project, options = _worker_project(batch[0])
    states = options["memory"]
    fresh, templates = [], {}
    for doc, locale in batch[1]:
        template = templates.get(doc.name)
        if template is None:
            templates.clear()
            template = project._parsed_templates.pop(doc.name, None)
            if template is None:
                template = project._read_template(doc)
            templates[doc.name] = template
        memory = None
        if project.config.translation_memory:
            memory = _NotingMemory(project._query_memory())
        result, digest = project._update_one(doc, template, locale, memory, options["keep"],
                                              options["fuzzy"])
        conditions = ()
        if memory is not None and memory.evidence:
            from tolmach.memory.store import language_of

            language = language_of(locale)
            conditions = (["memory", language, *states[language], memory.threshold,
                           memory.evidence],)
        payload = {"stats": _stats_row(result.stats)}
        fresh.append(Fresh(result, payload, {result.path: digest}, conditions))
    return fresh


def _work_build(batch: tuple) -> list[Fresh]:
    project, options = _worker_project(batch[0])
    fresh, verifier, current = [], None, None
    for doc, locale in batch[1]:
        if current != doc.name:
            verifier, current = project.verifier(doc), doc.name
        with project.noting_probes() as probes:
            result, digest = project._build_one(
                doc, verifier, locale, options["threshold"], options["strict"])
        conditions = tuple(probes)
        payload = {
            "stats": _stats_row(result.stats), "skipped": result.skipped,
            "findings": _finding_rows(result.findings), "notes": list(result.notes),
            "refused": result.refused,
        }
        outputs = {result.path: digest} if digest is not None else {}
        fresh.append(Fresh(result, payload, outputs, conditions))
    return fresh


def _work_check(batch: tuple) -> list[Fresh]:
    project, _ = _worker_project(batch[0])
    fresh, verifier, current = [], None, None
    # parses, entries, contexts and findings: hundreds of thousands of objects, no cycles
    with no_garbage_collection():
        for doc, locale, kept in batch[1]:
            if current != doc.name:
                project._source_lines.clear()  # one document at a time
                verifier, current = project.verifier(doc), doc.name
                project.source_lines(doc.name, verifier.document)
            with project.noting_probes() as probes:
                po = read_po(project.catalog_path(locale, doc.name))
                same_image = project.same_image(doc, locale)
                built = verifier.build(translations_of(po), same_image=same_image)
                findings = project.check_catalog(locale, doc.name, po, verified=built)
            conditions = tuple(probes)
            rows = _finding_rows(findings)
            if kept is not None:
                _keep_findings(Path(kept), rows, conditions)
            fresh.append(Fresh(findings, rows, None, conditions))
    return fresh


def _work_stats(batch: tuple) -> list[Fresh]:
    from tolmach.checks.runner import count_waivers

    project, options = _worker_project(batch[0])
    fresh = []
    for doc, locale in batch[1]:
        key, digests = None, None
        if options.get("keys"):  # hashed before reading, as the main process would
            files = FileDigests(project.root)
            key, digests = project._stats_key(files.digest, doc, locale), files.known
        path = project.catalog_path(locale, doc.name)
        po = read_po(path) if path.is_file() else None
        stats = catalog_stats(po if po is not None else project._read_template_named(doc.name))
        waivers = count_waivers(po) if po is not None else 0
        result = StepResult(path, False, locale, doc.name, stats, waivers=waivers)
        fresh.append(Fresh(result, [_stats_row(stats), waivers], key=key, digests=digests))
    return fresh


_FINDING_FIELDS = ("path", "line", "check", "severity", "message", "msgid", "waived", "source", "fix")


#: the fields a catalog's findings mostly share (its path, the check, the severity, how
#: to fix it): a record holds each value once, and its rows refer to them by number
_SHARED_FIELDS = tuple(map(_FINDING_FIELDS.index, ("path", "check", "severity", "fix")))


def _finding_rows(findings) -> list:
    """A unit's findings as its record keeps them: ``[shared values, rows]``.

    A no-op ``check`` of a thousand documents reads tens of thousands of findings: with
    the repeated paths and fixes written once, there is a third less JSON to decode."""
    shared: dict[str, int] = {}
    rows = []
    for finding in findings:
        row = [getattr(finding, name) for name in _FINDING_FIELDS]
        for number in _SHARED_FIELDS:
            row[number] = shared.setdefault(row[number], len(shared))
        rows.append(row)
    return [list(shared), rows]


def _check_key(doc: SourceDocument, locale: str, source: str, catalog: str, glossary: str) -> str:
    """The key ``check`` records a catalog's findings under: its source's, its own and
    the glossary's digests (the settings are in the cache's version)."""
    return key_of("check", doc.relpath, locale, source, catalog, glossary)


def _findings_file(cache: ResultCache, key: str) -> Path:
    """A catalog's findings, kept by ``check`` under the key it records them under: one
    file each, so that ``publish`` reads the few it needs rather than every record."""
    return cache.folder / _FINDINGS_FOLDER / f"{key}.json"


def _keep_findings(path: Path, rows: list, conditions: tuple) -> None:
    """Keep a catalog's findings for :func:`recorded_findings` (a cache file: one lost
    or refused is checked again)."""
    write_cache_file(path, orjson.dumps([list(conditions), rows]))  # its folder made as needed


def recorded_findings(path: Path, holds: Callable[[list], bool]) -> tuple[list, list] | None:
    """The findings ``check`` kept at ``path`` (see :meth:`Project.findings_file`) and
    the conditions they depend on, if it kept them and every condition still ``holds``;
    None when the catalog must be checked."""
    try:
        conditions, rows = orjson.loads(path.read_bytes())
        if not all(map(holds, conditions)):
            return None
        return _findings(rows), conditions
    except (OSError, ValueError, TypeError, KeyError, IndexError):  # none kept, or torn
        return None


def _prune_findings(cache: ResultCache) -> None:
    """Drop the kept findings no record of ``check`` (this run's, or a shard's) names any
    more: a catalog's findings are kept once per state of it that is still recorded."""
    live = {f"{record.key}.json" for record in cache.records_of("check")}
    with contextlib.suppress(OSError):
        for entry in os.scandir(cache.folder / _FINDINGS_FOLDER):
            if entry.name not in live:
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)


def _findings(payload: list) -> list:
    """Findings from a record's :func:`_finding_rows`; made with the cycle collector
    paused (findings hold strings and numbers, no cycle)."""
    from tolmach.checks.registry import Finding

    values, rows = payload
    restored = Finding.restored
    with no_garbage_collection():
        return [
            restored({"path": values[path], "line": line, "check": values[check],
                      "severity": values[severity], "message": message, "msgid": msgid,
                      "waived": waived, "source": source, "fix": values[fix]})
            for path, line, check, severity, message, msgid, waived, source, fix in rows
        ]


def _stats_row(stats: CatalogStats) -> list[int]:
    return [getattr(stats, f.name) for f in fields(CatalogStats)]


def _size_of(path: Path) -> int:
    """A file's size in bytes (0 when it cannot be read): how much work it is to read."""
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def _digests(cache: ResultCache | None):
    """File digests for unit keys; without a cache, keys are never compared."""
    return cache.digest if cache is not None else (lambda path: "?")


_GLOSSARY_STUB = """\
# tolmach termbase: terms that must be kept as written or translated one way.
# One [[term]] table per term, for example:
#
#   [[term]]
#   source = "ускоритель"     # as written in the source, in dictionary form
#   kind = "translate"        # "translate": a listed translation is required; "keep": verbatim
#   translations = { en = "accelerator", de = ["Beschleuniger"] }
#
# `tolmach glossary candidates` proposes terms; `tolmach glossary import` reads TBX or CSV.
"""


def init_project(
    folder: Path, source_locale: str, locales: list[str], documents: list[str]
) -> list[Path]:
    """Scaffold a project in ``folder``: settings (``[tool.tolmach]`` in an existing
    pyproject.toml, else a new tolmach.toml), the documents folder, ``locales/`` and an
    empty glossary. Returns the files and folders made; refuses an existing project."""
    existing = config_file(folder)
    if existing is not None:
        raise ConfigError(existing.name, None, "this folder is a tolmach project already")
    source = validate_locale(source_locale)
    targets = [validate_locale(locale) for locale in locales]
    if source in targets:
        raise LocaleError(f"{source_locale!r} is the source locale; it cannot be a target as well")
    settings = new_settings(source_locale, locales, documents)
    made = [_write_settings(folder, settings)]
    for name in dict.fromkeys(pattern_root(pattern) for pattern in documents):
        if name and not (folder / name).is_dir():
            (folder / name).mkdir(parents=True)
            made.append(folder / name)
    config = load_config(folder)
    if not config.locales_path.is_dir():
        config.locales_path.mkdir(parents=True)
        made.append(config.locales_path)
    if not config.glossary_path.exists():
        write_atomic(config.glossary_path, _GLOSSARY_STUB)
        made.append(config.glossary_path)
    return made


def _write_settings(folder: Path, settings: dict) -> Path:
    import tomlkit

    pyproject = folder / "pyproject.toml"
    if pyproject.is_file():
        document = tomlkit.parse(pyproject.read_text("utf-8"))
        tool = document.setdefault("tool", tomlkit.table(is_super_table=True))
        tool["tolmach"] = settings  # type: ignore[index]
        write_atomic(pyproject, tomlkit.dumps(document))
        return pyproject
    path = folder / CONFIG_FILE
    header = "# tolmach settings: see `tolmach --help` and the README's Configuration.\n"
    write_atomic(path, header + tomlkit.dumps(settings))
    return path


def _line_of(text: str, key: str) -> int | None:
    match = re.search(rf"^\s*{re.escape(key)}\s*=", text, re.M)
    return text.count("\n", 0, match.start()) + 1 if match else None


def _suffix(path: Path) -> str:
    """``.md``, ``.markdown`` or ``.mdx``: the Markdown suffix of a source file."""
    name = path.name
    return next((s for s in SOURCE_SUFFIXES if name.endswith(s)), path.suffix or ".md")
