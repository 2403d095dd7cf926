"""``[tool.tolmach]`` in pyproject.toml → a frozen :class:`Config`.

Every key is optional; unknown keys, wrong types, unknown locales and paths that would
reach outside the project are errors that name the file and the line of the offending key.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any

from babel import Locale, UnknownLocaleError

__all__ = ["Config", "ConfigError", "find_project_root", "load_config", "validate_locale"]

_LOCALE_RE = re.compile(r"^[A-Za-z]{2,3}(?:_[A-Za-z0-9]{2,8})*$")
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f]")


class ConfigError(Exception):
    """A configuration problem, with the place it comes from."""

    def __init__(self, path: Path | str, line: int | None, message: str):
        self.path, self.line, self.message = str(path), line, message
        place = f"{self.path}:{line}" if line else self.path
        super().__init__(f"{place}: {message}")


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
    front_matter_keys: tuple[str, ...] = ("title", "description")
    translate_html_blocks: bool = False
    translation_memory: bool = True
    checks: dict[str, Any] = field(default_factory=dict)
    domains: dict[str, tuple[str, ...]] = field(default_factory=dict)  # domain → names/globs
    source: Path | None = None  # the pyproject.toml this came from

    @property
    def locales_path(self) -> Path:
        return self.root / self.locales_dir

    @property
    def output_path(self) -> Path:
        return self.root / self.output_dir

    @property
    def glossary_path(self) -> Path:
        return self.locales_path / "glossary.toml"

    def document_paths(self) -> list[Path]:
        """Source documents matched by the ``documents`` globs, sorted, without repeats."""
        found: dict[Path, None] = {}
        for pattern in self.documents:
            for path in sorted(self.root.glob(pattern)):
                if path.is_file():
                    found[path] = None
        return list(found)

    def template_path(self, doc: str) -> Path:
        return self.locales_path / f"{doc}.pot"

    def catalog_path(self, locale: str, doc: str) -> Path:
        return self.locales_path / locale / "LC_MESSAGES" / f"{doc}.po"

    def output_file(self, locale: str, doc: str) -> Path:
        return self.output_path / locale / f"{doc}.md"


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
    "translation-memory": ("translation_memory", bool),
    "checks": ("checks", dict),
    "domains": ("domains", dict),
}


def document_name(path: Path) -> str:
    """``seeds/rocm7.ru.md`` → ``rocm7``: the catalog name, without source locale tag."""
    name = path.name
    for suffix in (".md", ".markdown"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    stem, _, tag = name.rpartition(".")
    return stem if stem and _LOCALE_RE.match(tag) else name


def find_project_root(start: Path) -> Path | None:
    """The nearest folder upwards whose pyproject.toml has a ``[tool.tolmach]`` table."""
    for folder in (start, *start.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file() and "[tool.tolmach" in candidate.read_text("utf-8", "replace"):
            return folder
    return None


def load_config(root: Path) -> Config:
    """Read ``root/pyproject.toml``; a missing table gives the defaults."""
    path = root / "pyproject.toml"
    if not path.is_file():
        return Config(root=root)
    data_bytes = path.read_bytes()
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
    table = data.get("tool", {}).get("tolmach", {})
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
    for attr in ("locales", "documents", "front_matter_keys"):
        if attr in values and not all(isinstance(v, str) for v in values[attr]):
            raise ConfigError(
                path, _key_line(text, attr.replace("_", "-")), f"{attr} must list strings"
            )
    if "domains" in values:
        values["domains"] = _domains(values["domains"], path, text)
    config = Config(root=root, source=path, **values)
    for locale in (config.source_locale, *config.locales):
        try:
            validate_locale(locale)
        except ValueError as exc:
            raise ConfigError(path, _key_line(text, "locales"), str(exc)) from None
    if not 0 <= config.threshold <= 100:
        raise ConfigError(path, _key_line(text, "threshold"), "threshold must be between 0 and 100")
    _check_paths(config, path, text)
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
    """Return ``code`` if Babel knows it and it is safe as a folder name; else ValueError."""
    if not _LOCALE_RE.match(code):
        raise ValueError(f"invalid locale code {code!r} (expected e.g. de, pt_BR, zh_CN)")
    try:
        Locale.parse(code)
    except (UnknownLocaleError, ValueError):
        raise ValueError(f"unknown locale {code!r}") from None
    return code


def _key_line(text: str, key: str) -> int | None:
    match = re.search(rf"^\s*{re.escape(key)}\s*=", text, re.M)
    return text.count("\n", 0, match.start()) + 1 if match else None


def _line_from_message(message: str) -> int | None:
    match = re.search(r"line (\d+)", message)
    return int(match.group(1)) if match else None
