"""A small generated project, the pipeline run over it, and what it left on disk.

Shared by the tests of incremental, parallel and sharded runs (``test_incremental.py``,
``test_parallel.py``, ``test_shards.py``): they run the same commands in different ways
(cached or cold, ``-j 1`` or ``-j 2``, whole or in shards) and compare the files and
the output byte for byte.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from click.testing import CliRunner

from tolmach.cli import cli

__all__ = [
    "CACHE",
    "STEPS",
    "Ran",
    "cold_copy",
    "document_text",
    "fixed_clock",
    "make_project",
    "project_files",
    "run_command",
    "run_pipeline",
    "settings_text",
    "translate_catalog",
]

CACHE = ".tolmach-cache"
#: The project commands a run goes through, in order (``publish`` without the search
#: index, which needs an extra; ``--threshold 0`` builds every document).
STEPS: tuple[tuple[str, ...], ...] = (
    ("extract",),
    ("update",),
    ("check",),
    ("build",),
    ("stats", "--format", "json"),
    ("publish", "--no-search"),
)

_WORDS = (
    "ускоритель", "вычисления", "модель", "память", "ядро", "поток", "данные", "сеть",
    "обучение", "вывод", "платформа", "драйвер", "библиотека", "задача", "узел", "кластер",
    "тест", "скорость", "формат", "архитектура",
)


def document_text(number: int, variant: int = 0) -> str:
    """A Russian article with a heading, paragraphs, a list, a link, code and an image;
    ``variant`` changes the words of its second paragraph (a source edit), from 4 on its
    title too."""
    def phrase(seed: int, length: int) -> str:
        return " ".join(_WORDS[(seed * 7 + i * 3) % len(_WORDS)] for i in range(length))

    title = phrase(number + variant, 3) if variant >= 4 else phrase(number, 3)
    return (
        f"# Статья {number}: {title}\n\n"
        f"Первый абзац: {phrase(number + 1, 8)} и **{phrase(number + 2, 2)}**.\n\n"
        f"Второй абзац {variant}: {phrase(number + variant + 3, 9)}, см. "
        "[первая статья](doc0.md).\n\n"
        f"- пункт {phrase(number + 4, 3)}\n- пункт {phrase(number + 5, 2)} `код`\n\n"
        "```python\nprint('не переводится')\n```\n\n"
        f"![схема {number}](img/scheme.png)\n\n"
        f"## Итог {number}\n\n{phrase(number + 6, 6)}: 42 и 3.14.\n"
    )


GLOSSARY = """\
[[term]]
source = "ускоритель"
kind = "translate"
translations = { en = "accelerator", de = "Beschleuniger" }
"""


def settings_text(**changes: object) -> str:
    """``tolmach.toml`` of the project, with some settings changed (TOML values)."""
    settings: dict[str, object] = {
        "source-locale": '"ru"',
        "locales": '["de", "en"]',
        "documents": '["docs/*.md"]',
        "threshold": "0",
        "search": "false",
    }
    settings.update({key: value for key, value in changes.items()})
    return "".join(f"{key} = {value}\n" for key, value in settings.items())


def make_project(folder: Path, documents: int = 3) -> Path:
    """A project of ``documents`` articles in Russian, German and English targets, a
    one-term glossary and an image."""
    (folder / "docs" / "img").mkdir(parents=True, exist_ok=True)
    (folder / "locales").mkdir(exist_ok=True)
    (folder / "tolmach.toml").write_text(settings_text(), "utf-8")
    (folder / "locales" / "glossary.toml").write_text(GLOSSARY, "utf-8")
    (folder / "docs" / "img" / "scheme.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(16))
    for number in range(documents):
        (folder / "docs" / f"doc{number}.md").write_text(document_text(number), "utf-8")
    return folder


def translate_catalog(path: Path, every: int = 2, mark: str = "", style: str = "plain") -> None:
    """Translate every ``every``-th entry of a catalog (``[de] text``), as a translator
    would in an editor; ``mark`` makes the translations differ from a previous edit.
    ``style``: "plain" keeps the markup; "variant" points the image to its localized
    variant (``img/scheme.de.png``); "broken" drops the markup (the build falls back)."""
    import polib

    po = polib.pofile(str(path), wrapwidth=79)
    language = po.metadata.get("Language", "?")
    for number, entry in enumerate(e for e in po if not e.obsolete):
        if number % every:
            continue
        text = entry.msgid
        if style == "variant":
            text = text.replace("img/scheme.png", f"img/scheme.{language}.png")
        elif style == "broken":
            text = text.replace("**", "").replace("`", "").replace("](doc0.md)", "]")
        entry.msgstr = f"[{language}{mark}] {text}"
        if "fuzzy" in entry.flags:
            entry.flags.remove("fuzzy")
    po.save(str(path))


@dataclass(frozen=True)
class Ran:
    """One command run: what it was, its exit code and what it printed (``output``:
    both streams as they came; ``stdout`` and ``stderr`` apart)."""

    command: tuple[str, ...]
    exit_code: int
    output: str
    stdout: str = ""
    stderr: str = ""


def run_command(folder: Path, *args: str) -> Ran:
    """A tolmach command run in process on the project in ``folder``."""
    result = CliRunner().invoke(cli, ["-C", str(folder), *args], catch_exceptions=False)
    return Ran(tuple(args), result.exit_code, result.output, result.stdout, result.stderr)


def run_pipeline(folder: Path, *options: str, steps=STEPS) -> list[Ran]:
    """Every step of :data:`STEPS`, each with ``options`` (``-j 1``, ``--force`` …)."""
    return [run_command(folder, *step, *options) for step in steps]


def project_files(folder: Path, *, skip: tuple[str, ...] = (CACHE,)) -> dict[str, bytes]:
    """Every file of the project and its bytes, by project-relative path; the cache
    folder left out."""
    found = {}
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder).as_posix()
        if path.is_file() and not any(relative == s or relative.startswith(s + "/") for s in skip):
            found[relative] = path.read_bytes()
    return found


def cold_copy(folder: Path, target: Path) -> Path:
    """A copy of the project without its cache: a run there starts cold."""
    shutil.copytree(folder, target, ignore=shutil.ignore_patterns(CACHE))
    return target


def fixed_clock(monkeypatch) -> None:
    """The merge stamps a new catalog with the minute it was made: runs compared byte for
    byte must not straddle a minute, so the clock stands still. (And files are not
    forced to disk: these tests compare results, tests/test_atomic_writes.py durability.)"""
    import os

    import tolmach.catalog.merge as merge

    monkeypatch.setattr(os, "fsync", lambda descriptor: None)

    class Clock(datetime):
        @classmethod
        def now(cls, tz=None):
            return datetime(2026, 1, 2, 3, 4, tzinfo=UTC).astimezone(tz) if tz else datetime(2026, 1, 2, 3, 4)

    monkeypatch.setattr(merge, "datetime", Clock)
