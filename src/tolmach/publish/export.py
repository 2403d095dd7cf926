"""Verified translations as Markdown in a site generator's own i18n layout.

``tolmach publish --to GENERATOR DIR`` writes the original and every published
translation (the same gate as the HTML site: threshold and no check errors) where the
generator looks for them, copies the local files they use (each locale gets its
localized variant under the original name, so no link changes), and writes the piece
of configuration that declares the languages:

============  =====================================================  =========================
generator     pages                                                  configuration
============  =====================================================  =========================
mkdocs        ``docs/<lang>/<doc>.md`` (mkdocs-static-i18n, folder)  ``tolmach.mkdocs.yml``
hugo          ``content/<lang>/<doc>/index.md`` (a page bundle)      ``tolmach.hugo.toml``
vitepress     ``docs/<doc>.md``, ``docs/<lang>/<doc>.md``            ``tolmach.vitepress.mjs``
docusaurus    ``docs/<doc>.md``, ``i18n/<lang>/docusaurus-plugin-    ``tolmach.docusaurus.js``
              content-docs/current/<doc>.md``
============  =====================================================  =========================

``<lang>`` is the locale's BCP 47 tag (``zh-CN``; Hugo: ``zh-cn``). The source language
is the default language (VitePress ``root``, Docusaurus ``defaultLocale``). A page keeps
its source suffix (``.mdx`` stays ``.mdx``).
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from tolmach.catalog.status import translations_of
from tolmach.fileio import write_atomic
from tolmach.markdown.assets import is_local_reference, local_path, variant_candidates
from tolmach.markdown.dialects import Dialect
from tolmach.project import SourceDocument
from tolmach.publish.gate import Verdict
from tolmach.publish.links import copy_if_changed
from tolmach.publish.pages import Language, Page, language, source_page, translated_page
from tolmach.publish.render import render_article
from tolmach.publish.site import PublishError, verified_pages

__all__ = ["GENERATORS", "ExportResult", "export_site"]


@dataclass(frozen=True)
class Layout:
    """Where one generator wants the pages of a language, and its configuration file."""

    name: str
    config_file: str
    config_target: str

    def folder(self, lang: Language, source: Language) -> str:
        tag = lang.tag
        if self.name == "mkdocs":
            return f"docs/{tag}"
        if self.name == "hugo":
            return f"content/{tag.lower()}"
        if self.name == "vitepress":
            return "docs" if lang == source else f"docs/{tag}"
        return "docs" if lang == source else (
            f"i18n/{tag}/docusaurus-plugin-content-docs/current")

    def page_path(self, lang: Language, source: Language, name: str, suffix: str) -> str:
        if self.name == "hugo":
            return f"{self.folder(lang, source)}/{name}/index{suffix}"
        return f"{self.folder(lang, source)}/{name}{suffix}"


GENERATORS = {
    "mkdocs": Layout("mkdocs", "tolmach.mkdocs.yml", "mkdocs.yml (plugins:)"),
    "hugo": Layout("hugo", "tolmach.hugo.toml", "hugo.toml"),
    "vitepress": Layout("vitepress", "tolmach.vitepress.mjs", "docs/.vitepress/config.mjs"),
    "docusaurus": Layout("docusaurus", "tolmach.docusaurus.js", "docusaurus.config.js (i18n)"),
}


@dataclass
class ExportOutcome:
    """A document in a language that was not exported, and why."""

    doc: object
    language: Language
    verdict: Verdict


@dataclass
class ExportResult:
    """What an export wrote."""

    folder: Path
    config_file: Path
    config_target: str
    pages: list[Path] = field(default_factory=list)
    assets: list[Path] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)
    withheld: list[ExportOutcome] = field(default_factory=list)


def export_site(project, generator: str, folder: Path, *, locales: Iterable[str] = (),
                threshold: float | None = None, allow_errors: bool = False) -> ExportResult:
    """Write the verified pages of ``locales`` (default all) for ``generator`` into ``folder``.

    Two passes: the first judges every page (the checks), the second writes the
    exported ones, so links between documents can point to pages that exist.
    """
    if generator not in GENERATORS:
        raise PublishError(f"unknown generator {generator!r}; choose one of {', '.join(GENERATORS)}")
    layout = GENERATORS[generator]
    chosen = set(project.select_locales(tuple(locales)))
    result = ExportResult(folder, folder / layout.config_file, layout.config_target)
    exported: set[tuple[str, str]] = set()
    languages: dict[str, Language] = {}
    for page, verdict in verified_pages(project, threshold=threshold, allow_errors=allow_errors):
        if page.progress is not None and page.language.code not in chosen:
            continue
        if verdict.published:
            exported.add((page.doc.name, page.language.code))
            languages.setdefault(page.language.code, page.language)
        else:
            result.withheld.append(ExportOutcome(page.doc, page.language, verdict))
    source = language(project.config.source_locale)
    writer = _Writer(layout, source, folder, result, exported, project.documents,
                     lambda doc: project.segment_options(doc).dialect)
    for doc in project.documents:
        document = project.load(doc, verifying=True)
        for lang in languages.values():
            if (doc.name, lang.code) not in exported:
                continue
            if lang.code == source.code:
                page = source_page(doc, document, lang)
            else:
                po = project.read_catalog(lang.code, doc.name)
                verified = project.verifier(doc, document).build(
                    translations_of(po) if po is not None else {},
                    same_image=project.same_image(doc, lang.code),
                )
                page = translated_page(doc, document, lang, po, [], verified)
            writer.write(page)
    text = _config(layout, source, list(languages.values()))
    if write_atomic(result.config_file, text, regenerable=True):
        result.written.append(result.config_file)
    return result


_DESTINATION_RE = re.compile(r"(\]\(\s*<?|^\s{0,3}\[[^\]]+\]:\s*<?)([^\s)>]+)", re.M)


class _Writer:
    """Writes exported pages, their assets, and links between them that resolve."""

    def __init__(self, layout: Layout, source: Language, folder: Path, result: ExportResult,
                 exported: set[tuple[str, str]], documents: list,
                 dialect_of: Callable[[SourceDocument], Dialect]) -> None:
        self.layout, self.source, self.folder, self.result = layout, source, folder, result
        self.dialect_of = dialect_of
        self.exported = exported
        self.by_path = {doc.path.resolve(): doc for doc in documents}

    def write(self, page: Page) -> None:
        relative = self.layout.page_path(page.language, self.source, page.doc.name, page.doc.suffix)
        target = self.folder / relative
        self.result.pages.append(target)
        text = _DESTINATION_RE.sub(lambda m: m.group(1) + self._link(page, m.group(2)),
                                   page.markdown)
        if write_atomic(target, text, regenerable=True):
            self.result.written.append(target)
        for url in _local_references(page.markdown, self.dialect_of(page.doc)):
            self._copy_asset(page, url, target)

    def _link(self, page: Page, url: str) -> str:
        """A link to another source document, as this generator resolves it."""
        if not is_local_reference(url):
            return url
        other = self.by_path.get((page.doc.path.parent / local_path(url)).resolve())
        if other is None:
            return url
        fragment = url[url.index("#"):] if "#" in url else ""
        lang = page.language
        # MkDocs (static-i18n) and Docusaurus fall back to the original themselves.
        if self.layout.name in ("vitepress", "hugo") and (other.name, lang.code) not in self.exported:
            lang = self.source
        if self.layout.name == "hugo":
            here = f"/{page.language.tag.lower()}/{page.doc.name}/"
            there = f"/{lang.tag.lower()}/{other.name}/"
            return posixpath.relpath(there, here) + "/" + fragment
        here = self.layout.page_path(page.language, self.source, page.doc.name, page.doc.suffix)
        there = self.layout.page_path(lang, self.source, other.name, other.suffix)
        return posixpath.relpath(there, posixpath.dirname(here)) + fragment

    def _copy_asset(self, page: Page, url: str, target: Path) -> None:
        original = (page.doc.path.parent / local_path(url)).resolve()
        if original in self.by_path:
            return
        chosen = original
        if page.progress is not None:
            for candidate in variant_candidates(original.name, page.language.code):
                if (original.parent / candidate).is_file():
                    chosen = original.parent / candidate
                    break
        if not chosen.is_file():
            return
        copy = target.parent / posixpath.normpath(local_path(url))
        if self.folder.resolve() not in copy.resolve().parents:
            return  # a file above the export folder: leave it to the user
        self.result.assets.append(copy)
        if copy_if_changed(chosen, copy):
            self.result.written.append(copy)


def _local_references(markdown: str, dialect: Dialect) -> list[str]:
    found: list[str] = []
    render_article(markdown, None, lambda kind, url: found.append(url) or url, dialect=dialect)
    return list(dict.fromkeys(u for u in found if is_local_reference(u)))


def _config(layout: Layout, source: Language, languages: list[Language]) -> str:
    ordered = [source, *(lang for lang in languages if lang != source)]
    return {"mkdocs": _mkdocs, "hugo": _hugo, "vitepress": _vitepress,
            "docusaurus": _docusaurus}[layout.name](source, ordered)


def _mkdocs(source: Language, languages: list[Language]) -> str:
    lines = ["# Written by `tolmach publish --to mkdocs`: the languages for mkdocs-static-i18n.",
             "# Merge into mkdocs.yml (docs_dir: docs).", "plugins:", "  - i18n:",
             "      docs_structure: folder", "      languages:"]
    for lang in languages:
        lines += [f"        - locale: {lang.tag}", f"          name: {json.dumps(lang.name, ensure_ascii=False)}",
                  "          build: true"]
        if lang == source:
            lines.append("          default: true")
        if "-" in lang.tag:  # themes (Material) name their translations by language
            lines += ["          theme:", f"            language: {lang.tag.split('-')[0]}"]
    return "\n".join(lines) + "\n"


def _hugo(source: Language, languages: list[Language]) -> str:
    lines = ["# Written by `tolmach publish --to hugo`: the languages of the site.",
             "# Merge into hugo.toml.",
             f'defaultContentLanguage = "{source.tag.lower()}"',
             "defaultContentLanguageInSubdir = true", ""]
    for weight, lang in enumerate(languages, start=1):
        key = lang.tag.lower()
        lines += [f'[languages.{json.dumps(key)}]', f'contentDir = "content/{key}"',
                  f'languageCode = "{lang.tag}"',
                  f"languageName = {json.dumps(lang.name, ensure_ascii=False)}",
                  f'languageDirection = "{lang.direction}"', f"weight = {weight}", ""]
    return "\n".join(lines)


def _vitepress(source: Language, languages: list[Language]) -> str:
    locales = {}
    for lang in languages:
        key = "root" if lang == source else lang.tag
        entry = {"label": lang.name, "lang": lang.tag, "dir": lang.direction}
        if lang != source:
            entry["link"] = f"/{lang.tag}/"
        locales[key] = entry
    body = json.dumps(locales, ensure_ascii=False, indent=2)
    return ("// Written by `tolmach publish --to vitepress`: the locales of the site.\n"
            "// In docs/.vitepress/config.mjs: import { locales } from '../../tolmach.vitepress.mjs'\n"
            f"export const locales = {body}\n")


def _docusaurus(source: Language, languages: list[Language]) -> str:
    i18n = {
        "defaultLocale": source.tag,
        "locales": [lang.tag for lang in languages],
        "localeConfigs": {lang.tag: {"label": lang.name, "htmlLang": lang.tag,
                                     "direction": lang.direction} for lang in languages},
    }
    body = json.dumps(i18n, ensure_ascii=False, indent=2)
    return ("// Written by `tolmach publish --to docusaurus`: the i18n section.\n"
            "// In docusaurus.config.js: i18n: require('./tolmach.docusaurus.js'),\n"
            f"module.exports = {body};\n")
