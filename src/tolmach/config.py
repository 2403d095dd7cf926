"""``[tool.tolmach]`` in pyproject.toml (or the top level of tolmach.toml) → a frozen
:class:`Config`.

Every key is optional; unknown keys, wrong types, unknown locales and paths that would
reach outside the project are errors that name the file and the line of the offending key.
A project is found as git finds a repository: the nearest folder upwards that holds such
a file (:func:`locate_project`). Locales may be written as gettext names (``de_DE``) or
BCP 47 tags (``de-DE``); inside, a locale is its gettext name, the name of its folder.
"""

from __future__ import annotations

import functools
import re
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from tolmach.fileio import glob_pruned

if TYPE_CHECKING:  # the dialects pull in markdown-it-py: loaded when a setting needs them
    from tolmach.markdown.dialects import Dialect

__all__ = [
    "CONFIG_FILE",
    "LOCATIONS",
    "SETTING_KEYS",
    "Config",
    "ConfigError",
    "DocumentSettings",
    "Override",
    "ProjectNotFound",
    "add_target_locale",
    "canonical_locale",
    "config_file",
    "document_name",
    "find_project_root",
    "load_config",
    "locale_tag",
    "locate_project",
    "new_settings",
    "pattern_root",
    "validate_locale",
]

CONFIG_FILE = "tolmach.toml"  # a project's own settings file, when it has no pyproject.toml
LOCATIONS = ("full", "file", "never")  # how `#:` references are written, as msgmerge's
DEFAULT_ATTRIBUTES = ("title", "alt", "label", "caption", "placeholder")
DEFAULT_FRONT_MATTER_KEYS = ("title", "description")


@dataclass(frozen=True)
class Override:
    """``[[tool.tolmach.overrides]]``: settings for the documents matching some globs.

    An override that names a ``dialect`` starts from that preset and its own ``syntax``;
    one that gives only ``syntax`` adjusts the dialect the document already has.
    """

    documents: tuple[str, ...]
    dialect: str | None = None
    syntax: tuple[str, ...] | None = None
    html_text: bool | None = None
    front_matter_keys: tuple[str, ...] | None = None
    translatable_attributes: tuple[str, ...] | None = None

    def applies_to(self, relpath: str) -> bool:
        return any(_glob_re(pattern).fullmatch(relpath) for pattern in self.documents)


@dataclass(frozen=True)
class DocumentSettings:
    """What segmentation needs to know about one document, overrides applied."""

    dialect: Dialect
    html_text: bool
    front_matter_keys: tuple[str, ...]


_LOCALE_RE = re.compile(r"^[A-Za-z]{2,3}(?:[_-][A-Za-z0-9]{2,8})*$")
_TABLE_RE = re.compile(r"^\s*\[\s*tool\s*\.\s*tolmach\s*[\].]", re.M)
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f]")


class ConfigError(Exception):
    """A configuration problem, with the place it comes from."""

    def __init__(self, path: Path | str, line: int | None, message: str):
        self.path, self.line, self.message = str(path), line, message
        place = f"{self.path}:{line}" if line else self.path
        super().__init__(f"{place}: {message}")


class ProjectNotFound(Exception):
    """No tolmach project in a folder or any folder above it."""

    def __init__(self, start: Path):
        self.start = start
        super().__init__(
            f"no tolmach project in {start} or any folder above it (looked for pyproject.toml "
            f"with [tool.tolmach] and for {CONFIG_FILE}); run `tolmach init` to create one"
        )


@dataclass(frozen=True)
class Config:
    """Project settings; paths are relative to ``root``."""

    root: Path
    source_locale: str = "ru"
    locales: tuple[str, ...] = ()
    documents: tuple[str, ...] = ("seeds/*.md",)
    locales_dir: str = "locales"
    output_dir: str = "output"
    threshold: float = 80.0
    wrap_width: int = 0
    po_width: int = 79
    fuzzy_threshold: float = 0.6
    front_matter_keys: tuple[str, ...] = DEFAULT_FRONT_MATTER_KEYS
    translate_html_blocks: bool = False  # the old name of html-text, still read
    dialect: str = "commonmark"
    syntax: tuple[str, ...] = ()
    html_text: bool = False
    translatable_attributes: tuple[str, ...] = DEFAULT_ATTRIBUTES
    overrides: tuple[Override, ...] = ()
    translation_memory: bool = True
    allow_outside_sources: bool = False  # follow a source's symbolic link out of the project
    source_root: str | None = None  # names count from here; default: each glob's fixed folder
    checks: dict[str, Any] = field(default_factory=dict)
    domains: dict[str, tuple[str, ...]] = field(default_factory=dict)  # domain → names/globs
    base_url: str | None = None  # where the site is served; absolute canonical URLs need it
    localized_assets: str = "{stem}.{locale}{suffix}"  # name of an asset's localized variant
    hashed_assets: bool = False  # published asset names carry a content hash
    search: bool = True  # a Pagefind index and search page per locale
    # Pages per Pagefind run and bundle (0: one per language). On the 1,000-document
    # javascript.info site (chunks of 49 to 115 pages) a run of 100 peaks at 62 MB, against
    # 690 MB for one run over the site; smaller chunks add Pagefind's start-up (0.1 s)
    # to a cold publish more often, and more bundles for the search page to load.
    search_chunk_pages: int = 100
    source: Path | None = None  # the pyproject.toml (or tolmach.toml) this came from
    keep_obsolete: bool = True  # `update` keeps removed strings as #~ entries
    fuzzy_matching: bool = True  # `update` proposes similar translations (off: as msgmerge -N)
    location: str = "full"  # `#:` references: path:line, path only, or none

    @property
    def locale_tags(self) -> dict[str, str]:
        """gettext name → BCP 47 tag of every target locale (``de_DE`` → ``de-DE``)."""
        return {code: locale_tag(code) for code in self.locales}

    @functools.cached_property
    def locales_path(self) -> Path:
        return self.root / self.locales_dir  # made once: every catalog's path starts here

    @functools.cached_property
    def output_path(self) -> Path:
        return self.root / self.output_dir

    @property
    def glossary_path(self) -> Path:
        return self.locales_path / "glossary.toml"

    def document_paths(self) -> list[Path]:
        """Source documents matched by the ``documents`` globs, sorted, without repeats."""
        return [path for path, _ in self.matched_documents()]

    def matched_documents(self) -> list[tuple[Path, str]]:
        """``(path, root)`` of every source document: the file, and the folder (relative to
        the project) its catalog name is counted from.

        The output folder, hidden folders (``.git``, ``.venv``) and ``node_modules`` are
        never sources, whatever a glob says.
        """
        found: dict[Path, str] = {}
        for pattern in self.documents:
            root = self.source_root if self.source_root is not None else pattern_root(pattern)
            for path in self.glob(pattern):
                if path not in found and not self._excluded(path) and path.is_file():
                    found[path] = root
        return list(found.items())

    def glob(self, pattern: str) -> list[Path]:
        """What ``root.glob(pattern)`` finds, sorted, without walking the folders no
        source can be in (see :meth:`_holds_no_sources`)."""
        return sorted(glob_pruned(self.root, pattern, self._holds_no_sources))

    def _holds_no_sources(self, folder: tuple[str, ...]) -> bool:
        """Whether nothing in a folder (its parts from the root) is a source, whatever a
        glob says: the output folder, a hidden folder, ``node_modules``."""
        return folder == self._output_parts or folder[-1].startswith(".") \
            or folder[-1] == "node_modules"

    @functools.cached_property
    def _output_parts(self) -> tuple[str, ...]:
        return Path(self.output_dir).parts

    def _excluded(self, path: Path) -> bool:
        relative = path.relative_to(self.root).parts
        return any(self._holds_no_sources(relative[:end]) for end in range(1, len(relative)))

    def settings_for(self, relpath: str) -> DocumentSettings:
        """The dialect and segment options of the document at ``relpath`` (project-relative)."""
        return _settings(self, relpath)

    def template_path(self, doc: str) -> Path:
        return self.locales_path / f"{doc}.pot"

    def catalog_path(self, locale: str, doc: str) -> Path:
        return self.locales_path.joinpath(locale, "LC_MESSAGES", f"{doc}.po")

    def output_file(self, locale: str, doc: str, suffix: str = ".md") -> Path:
        return self.output_path.joinpath(locale, f"{doc}{suffix}")


_KEYS: dict[str, tuple[str, type]] = {
    "source-locale": ("source_locale", str),
    "locales": ("locales", list),
    "documents": ("documents", list),
    "locales-dir": ("locales_dir", str),
    "output-dir": ("output_dir", str),
    "threshold": ("threshold", (int, float)),
    "wrap-width": ("wrap_width", int),
    "po-width": ("po_width", int),
    "fuzzy-threshold": ("fuzzy_threshold", (int, float)),
    "front-matter-keys": ("front_matter_keys", list),
    "translate-html-blocks": ("translate_html_blocks", bool),
    "dialect": ("dialect", str),
    "syntax": ("syntax", list),
    "html-text": ("html_text", bool),
    "translatable-attributes": ("translatable_attributes", list),
    "overrides": ("overrides", list),
    "translation-memory": ("translation_memory", bool),
    "allow-outside-sources": ("allow_outside_sources", bool),
    "source-root": ("source_root", str),
    "checks": ("checks", dict),
    "domains": ("domains", dict),
    "base-url": ("base_url", str),
    "localized-assets": ("localized_assets", str),
    "hashed-assets": ("hashed_assets", bool),
    "search": ("search", bool),
    "search-chunk-pages": ("search_chunk_pages", int),
    "keep-obsolete": ("keep_obsolete", bool),
    "fuzzy-matching": ("fuzzy_matching", bool),
    "location": ("location", str),
}
SETTING_KEYS = tuple(_KEYS)  # every key of [tool.tolmach], as the README's table lists them


_OVERRIDE_KEYS: dict[str, tuple[str, type]] = {
    "documents": ("documents", (str, list)),
    "dialect": ("dialect", str),
    "syntax": ("syntax", list),
    "html-text": ("html_text", bool),
    "front-matter-keys": ("front_matter_keys", list),
    "translatable-attributes": ("translatable_attributes", list),
}


def _settings(config: Config, relpath: str) -> DocumentSettings:
    name, syntax = config.dialect, list(config.syntax)
    html_text = config.html_text or config.translate_html_blocks
    keys, attributes = config.front_matter_keys, config.translatable_attributes
    for override in config.overrides:
        if not override.applies_to(relpath):
            continue
        if override.dialect is not None:
            name, syntax = override.dialect, list(override.syntax or ())
        elif override.syntax is not None:
            syntax += override.syntax
        html_text = html_text if override.html_text is None else override.html_text
        keys = keys if override.front_matter_keys is None else override.front_matter_keys
        if override.translatable_attributes is not None:
            attributes = override.translatable_attributes
    dialect = _dialect(name, tuple(syntax), tuple(attributes))
    if keys == DEFAULT_FRONT_MATTER_KEYS:
        keys = (*keys, *dialect.front_matter_keys)
    return DocumentSettings(dialect, html_text, keys)


@functools.lru_cache(maxsize=64)
def _dialect(name: str, syntax: tuple[str, ...], attributes: tuple[str, ...]) -> Dialect:
    from tolmach.markdown.dialects import resolve_dialect

    return resolve_dialect(name, syntax, attributes)


@functools.lru_cache(maxsize=64)
def _glob_re(pattern: str) -> re.Pattern[str]:
    """A documents glob as a regular expression: ``**/`` any folders, ``*`` within one."""
    out, pos = [], 0
    while pos < len(pattern):
        if pattern.startswith("**/", pos):
            out.append("(?:.*/)?")
            pos += 3
        elif pattern.startswith("**", pos):
            out.append(".*")
            pos += 2
        elif pattern[pos] == "*":
            out.append("[^/]*")
            pos += 1
        elif pattern[pos] == "?":
            out.append("[^/]")
            pos += 1
        else:
            out.append(re.escape(pattern[pos]))
            pos += 1
    return re.compile("".join(out))


SOURCE_SUFFIXES = (".md", ".markdown", ".mdx")


def pattern_root(pattern: str) -> str:
    """The folder a documents glob starts from: its parts before the first wildcard.

    >>> pattern_root("docs/**/*.md"), pattern_root("seeds/*.md"), pattern_root("*.md")
    ('docs', 'seeds', '')
    """
    fixed = []
    for part in PurePosixPath(pattern).parts[:-1]:
        if any(ch in part for ch in "*?["):
            break
        fixed.append(part)
    return "/".join(fixed)


def document_name(relative: str, source_locale: str = "ru") -> str:
    """A document's catalog name: its path from its root, without the Markdown suffix
    and the source-language tag.

    >>> document_name("rocm7.ru.md"), document_name("guide/intro/index.md")
    ('rocm7', 'guide/intro/index')
    """
    folder, _, name = relative.rpartition("/")
    for suffix in SOURCE_SUFFIXES:
        if name.endswith(suffix):
            name = name[: -len(suffix)]
            break
    stem, _, tag = name.rpartition(".")
    if stem and tag.replace("-", "_").lower() == source_locale.replace("-", "_").lower():
        name = stem
    return f"{folder}/{name}" if folder else name


def config_file(folder: Path) -> Path | None:
    """The file that makes ``folder`` a project: a pyproject.toml with a ``[tool.tolmach]``
    table, else a tolmach.toml; None when it has neither."""
    pyproject = folder / "pyproject.toml"
    try:
        if pyproject.is_file() and _TABLE_RE.search(pyproject.read_text("utf-8", "replace")):
            return pyproject
        own = folder / CONFIG_FILE
        return own if own.is_file() else None
    except OSError:
        return None


def find_project_root(start: Path) -> Path | None:
    """The nearest folder upwards (``start`` included) that is a project, or None."""
    start = start.absolute()
    for folder in (start, *start.parents):
        if config_file(folder) is not None:
            return folder
    return None


def locate_project(start: Path) -> Path:
    """The project ``start`` is in, as git finds a repository; :class:`ProjectNotFound`
    names where it looked when there is none."""
    root = find_project_root(start)
    if root is None:
        raise ProjectNotFound(start.absolute())
    return root


def load_config(root: Path) -> Config:
    """Read the project's settings (see :func:`config_file`); none gives the defaults."""
    path = config_file(root) or root / "pyproject.toml"
    if not path.is_file():
        return Config(root=root)
    try:
        data_bytes = path.read_bytes()
    except OSError as exc:
        raise ConfigError(path, None, f"cannot read: {exc.strerror or exc}") from None
    try:
        text = data_bytes.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data_bytes.count(b"\n", 0, exc.start) + 1
        raise ConfigError(path, line, "not valid UTF-8") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = getattr(exc, "lineno", None) or _line_from_message(str(exc))
        if line is None and "end of document" in str(exc):
            line = text.rstrip("\n").count("\n") + 1
        raise ConfigError(path, line, f"invalid TOML: {exc}") from None
    table = data if path.name == CONFIG_FILE else data.get("tool", {}).get("tolmach", {})
    values: dict[str, Any] = {}
    for key, value in table.items():
        if key not in _KEYS:
            raise ConfigError(
                path, _key_line(text, key), f"unknown setting {key!r} in [tool.tolmach]"
            )
        attr, kind = _KEYS[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ConfigError(path, _key_line(text, key), f"{key} has the wrong type: {value!r}")
        values[attr] = tuple(value) if isinstance(value, list) else value
    for attr in ("locales", "documents", "front_matter_keys", "syntax", "translatable_attributes"):
        if attr in values and not all(isinstance(v, str) for v in values[attr]):
            raise ConfigError(
                path, _key_line(text, attr.replace("_", "-")), f"{attr} must list strings"
            )
    _read_locales(values, path, text)
    if "domains" in values:
        values["domains"] = _domains(values["domains"], path, text)
    if "overrides" in values:
        values["overrides"] = tuple(
            _override(item, number, path, text) for number, item in enumerate(values["overrides"])
        )
    _check_dialect(
        values.get("dialect", "commonmark"),
        values.get("syntax", ()),
        path,
        (_key_line(text, "dialect"), _key_line(text, "syntax")),
    )
    config = Config(root=root, source=path, **values)
    if config.location not in LOCATIONS:
        raise ConfigError(
            path,
            _key_line(text, "location"),
            f"location must be one of {', '.join(map(repr, LOCATIONS))}, not {config.location!r}",
        )
    if not 0 <= config.threshold <= 100:
        raise ConfigError(path, _key_line(text, "threshold"), "threshold must be between 0 and 100")
    if config.search_chunk_pages < 0:
        raise ConfigError(path, _key_line(text, "search-chunk-pages"),
                          "search-chunk-pages must be 0 (one bundle per language) or more")
    _check_paths(config, path, text)
    _check_publishing(config, path, text)
    if config.base_url and not config.base_url.endswith("/"):
        config = replace(config, base_url=config.base_url + "/")
    return config


def _domains(table: dict[str, Any], path: Path, text: str) -> dict[str, tuple[str, ...]]:
    """``[tool.tolmach.domains]``: each domain lists document names or globs of names."""
    domains = {}
    for name, patterns in table.items():
        if isinstance(patterns, str):
            patterns = [patterns]
        if (
            not isinstance(patterns, list)
            or not patterns
            or not all(isinstance(p, str) and p.strip() for p in patterns)
        ):
            raise ConfigError(
                path,
                _domain_line(text, name),
                f"domain {name!r} must list document names or globs, "
                f'e.g. {name} = ["rocm7", "guide/**"]',
            )
        domains[name] = tuple(p.strip() for p in patterns)
    return domains


def _domain_line(text: str, name: str) -> int | None:
    """The line of ``name = ...`` under ``[tool.tolmach.domains]`` (or of the table)."""
    header = re.search(r"^\s*\[tool\.tolmach\.domains\]", text, re.M)
    start = header.start() if header else 0
    key = re.compile(rf"^\s*[\"']?{re.escape(name)}[\"']?\s*=", re.M)
    match = key.search(text, start) or (header if header else None)
    if match is None:
        return _key_line(text, "domains")
    return text.count("\n", 0, match.start()) + 1


def _check_publishing(config: Config, path: Path, text: str) -> None:
    """``base-url`` is an absolute web address; ``localized-assets`` names a variant."""
    if config.base_url is not None:
        parts = urlsplit(config.base_url)
        if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
            raise ConfigError(path, _key_line(text, "base-url"),
                              f"base-url {config.base_url!r} must be an absolute http(s) address "
                              "of the site's root, e.g. \"https://example.org/docs/\"")
    pattern = config.localized_assets
    try:
        sample = pattern.format(stem="a", suffix=".png", name="a.png", locale="de")
    except (KeyError, IndexError, ValueError) as exc:
        raise ConfigError(path, _key_line(text, "localized-assets"),
                          f"localized-assets {pattern!r}: unknown placeholder {exc}; use "
                          "{stem}, {suffix}, {name} and {locale}") from None
    if "{locale}" not in pattern or _path_problem(sample):
        raise ConfigError(path, _key_line(text, "localized-assets"),
                          f"localized-assets {pattern!r} must name a file beside the original "
                          "and contain {locale}, e.g. \"{stem}.{locale}{suffix}\"")


def _read_locales(values: dict[str, Any], path: Path, text: str) -> None:
    """Map BCP 47 tags to gettext names; refuse unknown, miscased, repeated locales and the
    source locale as a target."""
    for key, attr in (("source-locale", "source_locale"), ("locales", "locales")):
        given = values.get(attr)
        if given is None:
            continue
        codes = []
        for locale in given if isinstance(given, tuple) else (given,):
            try:
                code = validate_locale(locale)
                if canonical_locale(code) != code:
                    spelled = canonical_locale(code)
                    spelled = locale_tag(spelled) if "-" in locale else spelled
                    raise ValueError(f"locale {locale!r} is written {spelled!r}")
            except ValueError as exc:
                raise ConfigError(path, _key_line(text, key), str(exc)) from None
            codes.append(code)
        values[attr] = tuple(codes) if isinstance(given, tuple) else codes[0]
    source = values.get("source_locale", Config.source_locale)
    targets = values.get("locales", ())
    if source in targets:
        raise ConfigError(
            path,
            _key_line(text, "locales"),
            f"{locale_tag(source)!r} is the source locale; it cannot be a target as well",
        )
    repeated = sorted({code for code in targets if targets.count(code) > 1})
    if repeated:
        raise ConfigError(path, _key_line(text, "locales"), f"locale {repeated[0]!r} is listed twice")


def _override(item: Any, number: int, path: Path, text: str) -> Override:
    """One ``[[tool.tolmach.overrides]]`` table, checked; errors name its lines."""
    line = _override_line(text, number)
    if not isinstance(item, dict):
        raise ConfigError(path, line, "each overrides entry must be a table ([[tool.tolmach.overrides]])")
    values: dict[str, Any] = {}
    for key, value in item.items():
        where = _key_line(text, key, after=line) or line
        if key not in _OVERRIDE_KEYS:
            raise ConfigError(path, where, f"unknown setting {key!r} in [[tool.tolmach.overrides]]")
        attr, kind = _OVERRIDE_KEYS[key]
        if not isinstance(value, kind) or (isinstance(value, list) and not all(isinstance(v, str) for v in value)):
            raise ConfigError(path, where, f"{key} has the wrong type: {value!r}")
        values[attr] = (value,) if isinstance(value, str) and attr == "documents" else (
            tuple(value) if isinstance(value, list) else value
        )
    if "documents" not in values:
        raise ConfigError(path, line, "an overrides entry needs documents = \"GLOB\"")
    for pattern in values["documents"]:
        problem = _path_problem(pattern)
        if problem:
            raise ConfigError(path, _key_line(text, "documents", after=line), f"documents pattern {pattern!r} {problem}")
    if "dialect" in values or "syntax" in values:
        _check_dialect(
            values.get("dialect", "commonmark"),
            values.get("syntax", ()),
            path,
            (_key_line(text, "dialect", after=line), _key_line(text, "syntax", after=line)),
        )
    return Override(**values)


def _check_dialect(name: str, syntax, path: Path, lines: tuple[int | None, int | None]) -> None:
    """A dialect nobody knows is an error at its line; a bad adjustment at ``syntax``'s.

    The default, unadjusted, needs no check: loading the dialects to check it would cost
    every command that reads no Markdown (``update``, ``stats``) the load of markdown-it.
    """
    if name == "commonmark" and not syntax:
        return
    from tolmach.markdown.dialects import resolve_dialect

    try:
        resolve_dialect(name, syntax)
    except ValueError as exc:
        dialect_line, syntax_line = lines
        line = (syntax_line or dialect_line) if str(exc).startswith("syntax") else dialect_line
        raise ConfigError(path, line or syntax_line, str(exc)) from None


def _override_line(text: str, number: int) -> int | None:
    headers = list(re.finditer(r"^\s*\[\[\s*tool\.tolmach\.overrides\s*\]\]", text, re.M))
    if number < len(headers):
        return text.count("\n", 0, headers[number].start()) + 1
    return _key_line(text, "overrides")


def _check_paths(config: Config, path: Path, text: str) -> None:
    """Folders tolmach writes to, and the documents it reads, stay inside the project."""
    root = config.root.resolve()
    for key, value in (("locales-dir", config.locales_dir), ("output-dir", config.output_dir)):
        problem = _path_problem(value)
        if problem is None:
            target = (config.root / value).resolve()
            if target != root and root not in target.parents:
                problem = "leads outside the project (through a symbolic link)"
        if problem:
            raise ConfigError(path, _key_line(text, key), f"{key} {value!r} {problem}")
    if config.source_root is not None and config.source_root not in ("", "."):
        problem = _path_problem(config.source_root)
        if problem:
            raise ConfigError(path, _key_line(text, "source-root"), f"source-root {config.source_root!r} {problem}")
    for pattern in config.documents:
        problem = _path_problem(pattern)
        if problem:
            raise ConfigError(
                path,
                _key_line(text, "documents"),
                f"documents pattern {pattern!r} {problem}; files outside the project are not read",
            )


def _path_problem(value: str) -> str | None:
    """Why a configured path could reach outside the project, or None."""
    if not value.strip():
        return "is empty"
    if _CONTROL_RE.search(value):
        return "holds a control character"
    if PurePosixPath(value).is_absolute() or PureWindowsPath(value).anchor:
        return "is absolute; give a path relative to the project"
    if ".." in PurePosixPath(value).parts or ".." in PureWindowsPath(value).parts:
        return "goes up out of the project with '..'"
    return None


def validate_locale(code: str) -> str:
    """The gettext name of ``code`` (``de_DE`` for ``de_DE`` and the BCP 47 tag ``de-DE``)
    if Babel knows it and it is safe as a folder name; else ValueError."""
    if not _LOCALE_RE.match(code):
        raise ValueError(f"invalid locale code {code!r} (expected e.g. de, pt_BR, zh_CN)")
    name = code.replace("-", "_")
    return _known_locale(name, code)


@functools.cache
def _known_locale(name: str, code: str) -> str:
    from babel import Locale, UnknownLocaleError  # Babel's data only when a locale is checked

    try:
        Locale.parse(name)
    except (UnknownLocaleError, ValueError):
        raise ValueError(f"unknown locale {code!r}") from None
    return name


def canonical_locale(code: str) -> str:
    """A locale spelled as gettext folders and Babel spell it: language in lower case,
    script in title case, territory in upper case; a BCP 47 tag becomes its gettext name.

    >>> canonical_locale("zh_cn"), canonical_locale("de-DE"), canonical_locale("SR-latn")
    ('zh_CN', 'de_DE', 'sr_Latn')
    """
    language, *rest = re.split(r"[-_]", code)
    parts = [language.lower()]
    for part in rest:
        if len(part) == 4 and part.isalpha():
            parts.append(part.title())
        elif (len(part) == 2 and part.isalpha()) or (len(part) == 3 and part.isdigit()):
            parts.append(part.upper())
        else:
            parts.append(part)
    return "_".join(parts)


def locale_tag(code: str) -> str:
    """The BCP 47 tag of a gettext locale name, as HTML ``lang`` and hreflang want it.

    >>> locale_tag("de_DE"), locale_tag("zh_Hans_CN"), locale_tag("ru")
    ('de-DE', 'zh-Hans-CN', 'ru')
    """
    return code.replace("_", "-")


def _key_line(text: str, key: str, after: int | None = None) -> int | None:
    """The line of ``key = …`` (the first one, or the first after line ``after``)."""
    start = 0
    if after:
        start = sum(len(line) for line in text.splitlines(keepends=True)[:after])
    pattern = re.compile(rf"^\s*{re.escape(key)}\s*=", re.M)
    match = pattern.search(text, start)
    return text.count("\n", 0, match.start()) + 1 if match else None


def _line_from_message(message: str) -> int | None:
    match = re.search(r"line (\d+)", message)
    return int(match.group(1)) if match else None


# --- writing settings ----------------------------------------------------------------


def new_settings(source_locale: str, locales: list[str], documents: list[str]) -> dict[str, Any]:
    """The settings ``tolmach init`` writes: what a new project must decide, no more."""
    return {"source-locale": source_locale, "locales": list(locales), "documents": list(documents)}


def add_target_locale(path: Path, tag: str) -> None:
    """Append ``tag`` to ``locales`` in a settings file, keeping every other byte: its
    comments, order and layout (tomlkit edits the document, it does not rewrite it)."""
    import tomlkit

    from tolmach.fileio import write_atomic

    document = tomlkit.parse(path.read_text("utf-8"))
    table = document if path.name == CONFIG_FILE else document["tool"]["tolmach"]  # type: ignore[index]
    if "locales" in table:
        table["locales"].append(tag)  # type: ignore[union-attr]
    else:
        table["locales"] = [tag]  # type: ignore[index]
    write_atomic(path, tomlkit.dumps(document))
