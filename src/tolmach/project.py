"""The project: configured documents and locales, and the file-level pipeline steps.

This is where paths are resolved, files read and written; the stages it calls
(:mod:`document`, :mod:`catalog`, :mod:`build`) work on plain objects.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import polib

from tolmach.catalog.merge import update_catalog
from tolmach.catalog.pofile import CatalogError, read_po, write_po
from tolmach.catalog.status import CatalogStats, catalog_stats, entry_lines, translations_of
from tolmach.catalog.template import extract_template
from tolmach.config import SOURCE_SUFFIXES, Config, document_name, validate_locale
from tolmach.fileio import SourceError, ensure_inside, read_source, write_atomic
from tolmach.markdown.document import Document, SegmentOptions, parse_document
from tolmach.markdown.verify import VerifiedBuild, Verifier

__all__ = ["BuildResult", "Project", "SourceDocument", "StepResult"]

_GLOSSARY_PREFIX = "glossary:"
_SOURCE_REFUSED = "not read (allow-outside-sources = true in [tool.tolmach] would allow it)"
_NOT_FOLLOWED = "nothing is read or written through it"
_UNREFERABLE_RE = re.compile(r"[\s\x00-\x1f\x7f]")  # a ``#:`` reference cannot hold these


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

    @property
    def root(self) -> Path:
        return self.config.root

    # --- sources --------------------------------------------------------------

    @cached_property
    def documents(self) -> list[SourceDocument]:
        """Every source document, named by its path from its root (see ``source-root``)."""
        docs = []
        seen: dict[str, str] = {}
        for path, root in self.config.matched_documents():
            if not self.config.allow_outside_sources:
                ensure_inside(self.root, path, where="the project", refused=_SOURCE_REFUSED)
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
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:
            return str(path)

    def segment_options(self) -> SegmentOptions:
        return SegmentOptions(
            front_matter_keys=self.config.front_matter_keys,
            translate_html_blocks=self.config.translate_html_blocks,
        )

    def load(self, doc: SourceDocument) -> Document:
        return parse_document(read_source(doc.path), self.segment_options())

    def select_locales(self, locales: tuple[str, ...] | list[str] = ()) -> list[str]:
        chosen = list(locales) or list(self.config.locales)
        for locale in chosen:
            validate_locale(locale)
        return chosen

    @cached_property
    def termbase(self):
        """The project's glossary, or None when the project has none."""
        path = self.locales_file(self.config.glossary_path)
        if not path.is_file():
            return None
        from tolmach.glossary import load_termbase

        return load_termbase(path)

    def describe_terms(self, locale: str | None = None):
        termbase = self.termbase
        if termbase is None:
            return None
        from tolmach.glossary import describe_terms

        return lambda text: describe_terms(termbase, text, locale)

    # --- steps ------------------------------------------------------------------

    def extract(self) -> list[StepResult]:
        """Write ``locales/<doc>.pot`` for every document."""
        results = []
        for doc in self.documents:
            pot = self.template(doc)
            path = self.template_path(doc.name)
            written = write_po(pot, path, width=self.config.po_width)
            results.append(StepResult(path, written, document=doc.name))
        return results

    def template(self, doc: SourceDocument) -> polib.POFile:
        return extract_template(
            self.load(doc), doc.relpath, project=doc.name, describe_terms=self.describe_terms()
        )

    def update(self, locales: tuple[str, ...] | list[str] = ()) -> list[StepResult]:
        """Create or update ``locales/<locale>/LC_MESSAGES/<doc>.po`` from the templates.

        New entries are filled from the translation memory (every catalog of the project
        and the imported compendia) as fuzzy proposals, when ``translation-memory`` is on.
        """
        chosen = self.select_locales(locales)
        templates = {doc.name: self._read_template(doc) for doc in self.documents}
        _ = self.termbase  # a broken glossary is refused before the memory learns anything
        with contextlib.ExitStack() as stack:
            memory = stack.enter_context(self._memory()) if self.config.translation_memory else None
            return [
                self._update_one(doc, templates[doc.name], locale, memory)
                for doc in self.documents
                for locale in chosen
            ]

    def _read_template(self, doc: SourceDocument) -> polib.POFile:
        path = self.template_path(doc.name)
        if not path.is_file():
            raise CatalogError(self.shown(path), None, "template missing; run `tolmach extract` first")
        return read_po(path)

    def _memory(self):
        from tolmach.memory.store import project_memory

        return project_memory(self.root, self.config.source_locale, self.config.locales_dir)

    def _update_one(self, doc: SourceDocument, template: polib.POFile, locale: str, memory) -> StepResult:
        path = self.catalog_path(locale, doc.name)
        old = read_po(path) if path.is_file() else None
        merged = update_catalog(
            template,
            old,
            locale,
            fuzzy_threshold=self.config.fuzzy_threshold,
            memory=memory,
            document=doc.name,
        )
        self._refresh_glossary_comments(merged, locale)
        written = write_po(merged, path, width=self.config.po_width)
        return StepResult(path, written, locale, doc.name, catalog_stats(merged))

    def _refresh_glossary_comments(self, po: polib.POFile, locale: str) -> None:
        describe = self.describe_terms(locale)
        if describe is None:
            return
        for entry in po:
            if entry.obsolete:
                continue
            lines = [
                ln for ln in entry.comment.split("\n") if ln and not ln.startswith(_GLOSSARY_PREFIX)
            ]
            terms = describe(entry.msgid)
            entry.comment = "\n".join(lines + ([terms] if terms else []))

    def locales_file(self, path: Path) -> Path:
        """A file under the locales folder, refused when a symbolic link leads out of it."""
        locales = self.config.locales_path
        where = f"{self.shown(locales)}/"
        return ensure_inside(locales, path, where=where, refused=_NOT_FOLLOWED)

    def template_path(self, doc: str) -> Path:
        return self.locales_file(self.config.template_path(doc))

    def catalog_path(self, locale: str, doc: str) -> Path:
        validate_locale(locale)
        return self.locales_file(self.config.catalog_path(locale, doc))

    def output_path(self, locale: str, doc: str, suffix: str = ".md") -> Path:
        validate_locale(locale)
        output = self.config.output_path
        return ensure_inside(
            output,
            self.config.output_file(locale, doc, suffix),
            where=f"{self.shown(output)}/",
            refused="nothing is written through it",
        )

    def read_catalog(self, locale: str, doc: str) -> polib.POFile | None:
        path = self.catalog_path(locale, doc)
        return read_po(path) if path.is_file() else None

    def build(
        self,
        locales: tuple[str, ...] | list[str] = (),
        *,
        threshold: float | None = None,
        strict: bool = False,
    ) -> list[BuildResult]:
        """Write ``output/<locale>/<doc>.md`` for catalogs complete enough (and clean, if strict).

        Every build is verified: a translation that would change the document's structure
        falls back to the source text (a note says which), or, if strict, the document is
        not written.
        """
        threshold = self.config.threshold if threshold is None else threshold
        chosen = self.select_locales(locales)
        results = []
        for doc in self.documents:
            verifier = self.verifier(doc)
            for locale in chosen:
                results.append(self._build_one(doc, verifier, locale, threshold, strict))
        return results

    def verifier(self, doc: SourceDocument, document: Document | None = None) -> Verifier:
        """Verified builds of ``doc``, with the project's settings."""
        return Verifier(
            document or self.load(doc),
            options=self.segment_options(),
            wrap_width=self.config.wrap_width,
        )

    def _build_one(
        self, doc: SourceDocument, verifier: Verifier, locale: str, threshold: float, strict: bool
    ) -> BuildResult:
        path = self.output_path(locale, doc.name, doc.suffix)
        po = self.read_catalog(locale, doc.name)
        if po is None:
            return BuildResult(
                locale, doc.name, path, CatalogStats(), skipped="no catalog; run `tolmach update`"
            )
        stats = catalog_stats(po)
        if stats.percent < threshold:
            reason = f"{stats.percent:.0f}% translated, below the threshold of {threshold:g}%"
            return BuildResult(locale, doc.name, path, stats, skipped=reason)
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
                )
        written = write_atomic(path, verified.text)
        return BuildResult(locale, doc.name, path, stats, written=written, notes=notes)

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
        document included (``verified``: the build to judge, made here if not given)."""
        from tolmach.checks import DocumentContext, check_catalog

        path = self.catalog_path(locale, doc)
        po = po if po is not None else read_po(path)
        config = self.check_config
        rel = path.relative_to(self.root).as_posix()
        document = None
        source = next((d for d in self.documents if d.name == doc), None)
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
            termbase=self.termbase,
            source_locale=self.config.source_locale,
            asset_variants=self.asset_variants(locale),
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
        of the asset ``old``? Only when ``new`` is its existing variant for ``locale``."""
        from tolmach.markdown.assets import variant_checker

        return variant_checker(self.root, locale, self.config.localized_assets)

    @cached_property
    def check_config(self):
        """``[tool.tolmach.checks]`` read once; mistakes name pyproject.toml and the line."""
        from tolmach.checks import CheckConfig

        source = self.config.source
        text = source.read_text("utf-8") if source else ""
        return CheckConfig.from_mapping(self.config.checks, "pyproject.toml", text)

    def check(self, locales: tuple[str, ...] | list[str] = ()) -> list:
        """Findings of every catalog of the chosen locales, in document × locale order."""
        findings = []
        for doc in self.documents:
            for locale in self.select_locales(locales):
                path = self.catalog_path(locale, doc.name)
                if path.is_file():
                    findings.extend(self.check_catalog(locale, doc.name))
        return findings

    def stats(self, locales: tuple[str, ...] | list[str] = ()) -> list[StepResult]:
        results = []
        for doc in self.documents:
            for locale in self.select_locales(locales):
                path = self.catalog_path(locale, doc.name)
                po = read_po(path) if path.is_file() else None
                stats = catalog_stats(po) if po is not None else CatalogStats()
                results.append(StepResult(path, False, locale, doc.name, stats))
        return results


def _suffix(path: Path) -> str:
    """``.md``, ``.markdown`` or ``.mdx``: the Markdown suffix of a source file."""
    name = path.name
    return next((s for s in SOURCE_SUFFIXES if name.endswith(s)), path.suffix or ".md")
