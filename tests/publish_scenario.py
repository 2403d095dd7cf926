"""The publisher's scenario of issue 16, as a project the publishing tests build.

Two Russian articles with front matter, section headings, two images, a download and a
link between them; locales ``en`` (complete), ``de`` (the guide complete, the news with
a wrong number: a check error), ``uk`` (the guide complete, with a Ukrainian variant of
each image: one picked automatically, one named by the translator; the news not
translated) and ``fr`` (a catalog with nothing translated: 0%). Catalogs are made by the
real pipeline (``extract`` + ``update``) and then filled, so they carry ``#:`` references.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable
from pathlib import Path

import polib

from tolmach.config import load_config
from tolmach.project import Project

BASE_URL = "https://example.org/docs/"
LOCALES = ("en", "de", "uk", "fr")

GUIDE = """\
---
title: Руководство по ROCm
description: Как перенести код CUDA на HIP
date: 2025-06-01
---
# Руководство по ROCm

Короткое введение в перенос кода.

## Схема работы

![Схема HIP](images/hip-flow.png)

Подробности в [новостях](news.ru.md) и в [спецификации](files/spec.pdf).

## Результаты

![График](images/chart.png "Ускорение")

### Замеры

Ускорение составило 3.8x на MI300X.
"""

NEWS = """\
---
title: Новости ROCm
description: Что нового в ROCm 7
date: 2025-07-15
---
# Новости ROCm

Вывод стал быстрее в 3.5 раза.

## Подробнее

Смотрите [руководство](guide.ru.md#схема-работы).
"""

TRANSLATIONS = {
    "en": {
        "Руководство по ROCm": "A ROCm guide",
        "Как перенести код CUDA на HIP": "How to port CUDA code to HIP",
        "Короткое введение в перенос кода.": "A short introduction to porting code.",
        "Схема работы": "How it works",
        "![Схема HIP](images/hip-flow.png)": "![HIP diagram](images/hip-flow.png)",
        "Подробности в [новостях](news.ru.md) и в [спецификации](files/spec.pdf).":
            "Details in the [news](news.ru.md) and the [specification](files/spec.pdf).",
        "Результаты": "Results",
        '![График](images/chart.png "Ускорение")': '![Chart](images/chart.png "Speed-up")',
        "Замеры": "Measurements",
        "Ускорение составило 3.8x на MI300X.": "The speed-up was 3.8x on MI300X.",
        "Новости ROCm": "ROCm news",
        "Что нового в ROCm 7": "What is new in ROCm 7",
        "Вывод стал быстрее в 3.5 раза.": "Inference became 3.5 times faster.",
        "Подробнее": "More",
        "Смотрите [руководство](guide.ru.md#схема-работы).":
            "See the [guide](guide.ru.md#схема-работы).",
    },
    "de": {
        "Руководство по ROCm": "Ein ROCm-Leitfaden",
        "Как перенести код CUDA на HIP": "Wie man CUDA-Code nach HIP portiert",
        "Короткое введение в перенос кода.": "Eine kurze Einführung in das Portieren.",
        "Схема работы": "So funktioniert es",
        "![Схема HIP](images/hip-flow.png)": "![HIP-Schema](images/hip-flow.png)",
        "Подробности в [новостях](news.ru.md) и в [спецификации](files/spec.pdf).":
            "Mehr in den [Neuigkeiten](news.ru.md) und der [Spezifikation](files/spec.pdf).",
        "Результаты": "Ergebnisse",
        '![График](images/chart.png "Ускорение")': '![Diagramm](images/chart.png "Beschleunigung")',
        "Замеры": "Messungen",
        "Ускорение составило 3.8x на MI300X.": "Die Beschleunigung betrug 3,8x auf MI300X.",
        "Новости ROCm": "ROCm-Neuigkeiten",
        "Что нового в ROCm 7": "Was ist neu in ROCm 7",
        "Вывод стал быстрее в 3.5 раза.": "Die Inferenz wurde 4,5-mal schneller.",  # wrong number
        "Подробнее": "Mehr",
        "Смотрите [руководство](guide.ru.md#схема-работы).":
            "Siehe den [Leitfaden](guide.ru.md#схема-работы).",
    },
    "uk": {
        "Руководство по ROCm": "Посібник з ROCm",
        "Как перенести код CUDA на HIP": "Як перенести код CUDA на HIP",
        "Короткое введение в перенос кода.": "Короткий вступ до перенесення коду.",
        "Схема работы": "Схема роботи",
        "![Схема HIP](images/hip-flow.png)": "![Схема HIP](images/hip-flow.png)",
        "Подробности в [новостях](news.ru.md) и в [спецификации](files/spec.pdf).":
            "Подробиці в [новинах](news.ru.md) і в [специфікації](files/spec.pdf).",
        "Результаты": "Результати",
        '![График](images/chart.png "Ускорение")': '![Графік](images/chart.uk.png "Прискорення")',
        "Замеры": "Заміри",
        "Ускорение составило 3.8x на MI300X.": "Прискорення склало 3,8x на MI300X.",
    },
    "fr": {},
}
FIXED_DE_NEWS = {"Вывод стал быстрее в 3.5 раза.": "Die Inferenz wurde 3,5-mal schneller."}


def png(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A small solid-colour PNG, made here so the tests need no image files."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    row = b"\x00" + bytes(rgb) * width
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(row * height)) + chunk(b"IEND", b""))


IMAGES = {
    "images/hip-flow.png": png(40, 20, (200, 30, 30)),
    "images/hip-flow.uk.png": png(40, 20, (0, 90, 180)),
    "images/chart.png": png(30, 30, (30, 160, 30)),
    "images/chart.uk.png": png(30, 30, (250, 200, 0)),
    "files/spec.pdf": b"%PDF-1.4\n% a stand-in\n",
}


def make_scenario(root: Path, *, extra_config: str = "", locales=LOCALES,
                  translations=None) -> Project:
    """Write the scenario project into ``root`` and return it."""
    root.mkdir(parents=True, exist_ok=True)
    quoted = ", ".join(f'"{code}"' for code in locales)
    (root / "pyproject.toml").write_text(
        "[tool.tolmach]\n"
        'source-locale = "ru"\n'
        f"locales = [{quoted}]\n"
        'documents = ["seeds/*.md"]\n'
        "translation-memory = false\n"
        f'base-url = "{BASE_URL}"\n' + extra_config, "utf-8")
    seeds = root / "seeds"
    seeds.mkdir(exist_ok=True)
    (seeds / "guide.ru.md").write_text(GUIDE, "utf-8")
    (seeds / "news.ru.md").write_text(NEWS, "utf-8")
    for name, data in IMAGES.items():
        (seeds / name).parent.mkdir(parents=True, exist_ok=True)
        (seeds / name).write_bytes(data)
    project = Project(load_config(root))
    project.extract()
    project.update()
    for code in locales:
        fill(project, code, (translations or TRANSLATIONS).get(code, {}))
    return project


def fill(project: Project, locale: str, translations: dict[str, str]) -> None:
    """Put ``translations`` into both catalogs of ``locale``."""
    for doc in project.documents:
        path = project.catalog_path(locale, doc.name)
        po = polib.pofile(str(path), wrapwidth=0)
        for entry in po:
            if entry.msgid in translations:
                entry.msgstr = translations[entry.msgid]
                if "fuzzy" in entry.flags:
                    entry.flags.remove("fuzzy")
        po.metadata["PO-Revision-Date"] = "2025-08-01 10:00+0000"
        po.save(str(path))


def extracted_and_filled(root: Path, fill: Callable[[polib.POEntry], None]) -> Project:
    """The project at ``root`` after the real ``extract`` and ``update``, every catalog
    entry then passed to ``fill`` (which sets what it translates) and saved."""
    project = Project(load_config(root))
    project.extract()
    project.update()
    for path in sorted((root / "locales").rglob("*.po")):
        po = polib.pofile(str(path), wrapwidth=0)
        for entry in po:
            fill(entry)
        po.save()
    return Project(load_config(root))
