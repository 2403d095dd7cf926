"""How fast `tolmach check` goes: entries checked per second on a 10,000-entry catalog.

The catalog is generated: Markdown-rich Russian sources (strong, code spans, links,
images, footnotes, numbers with decimal points, percentages and multipliers) with German
translations written the German way, one in twenty of them broken on purpose. It is
written to a temporary .po file and read back, as `tolmach check` would.

    .venv/bin/python bench/bench_checks.py [--entries N] [--per-check]
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

import polib

from tolmach.checks import CHECKS, CheckConfig, EntryContext, check_catalog, read_catalog
from tolmach.checks.inline import inline_markup
from tolmach.checks.registry import parse_kind

TERMS = [
    ("Ускорение inference", "Inferenz-Beschleunigung"),
    ("Прорыв в обучении", "Durchbruch beim Training"),
    ("Энергоэффективность", "Energieeffizienz"),
    ("Поддержка Windows", "Windows-Unterstützung"),
    ("Контейнеризация", "Containerisierung"),
]
CODE = ["rocminfo", "hipcc -O3", "rocprof --stats", "export HIP_VISIBLE_DEVICES=0", "vllm serve"]
HOSTS = ["https://rocm.docs.amd.com", "https://github.com/ROCm", "https://www.amd.com/de"]

# (Russian source, German translation) with fields filled per entry.
TEMPLATES = [
    (
        (
            "**{ru_term} до {x}x:** В тестах с моделью Llama {v} {size}B ROCm {n} показывает "
            "прирост {p}% по сравнению с `{code}`."
        ),
        (
            "**{de_term} bis zu {x_de}x:** In Tests mit Llama {v_de} {size}B zeigt ROCm {n} einen "
            "Zuwachs von {p} % gegenüber `{code}`."
        ),
    ),
    (
        (
            "Смотрите [документацию]({url}/{n}) и раздел «{ru_term}»[^{n}], где описан запуск "
            "`{code}` на {gpus} GPU."
        ),
        (
            "Siehe die [Dokumentation]({url}/{n}) und den Abschnitt „{de_term}“[^{n}], in dem "
            "`{code}` auf {gpus} GPUs beschrieben wird."
        ),
    ),
    (
        (
            "![Схема {n}](img/arch-{n}.png) Архитектура достигает {big} экзафлопс в {year} году, "
            "на *{p}%* больше прежнего."
        ),
        (
            "![Schema {n}](img/arch-{n}.png) Die Architektur erreicht {big_de} Exaflops im Jahr "
            "{year}, *{p} %* mehr als zuvor."
        ),
    ),
    (
        "{ru_term}: сократить стойки с {racks} до {n} и снизить TCO на {p}%",
        "{de_term}: Racks von {racks} auf {n} reduzieren und die TCO um {p} % senken",
    ),
    (
        (
            'Серия MI{n}50 превзошла {n}-летнюю цель AMD, достигнув <abbr title="ускорение">'
            "{size}-кратного</abbr> улучшения."
        ),
        (
            'Die MI{n}50-Serie übertraf das {n}-jährige Ziel von AMD mit einer <abbr title="'
            'Beschleunigung">{size}-fachen</abbr> Verbesserung.'
        ),
    ),
]
KINDS = ["list item", "paragraph", "paragraph", "table cell", "heading 3"]


def make_catalog(entries: int, seed: int = 7) -> polib.POFile:
    """A German catalog of ``entries`` distinct entries, one in twenty broken."""
    rng = random.Random(seed)
    po = polib.POFile(wrapwidth=0)
    po.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": "de"}
    for index in range(entries):
        source, target = rng.choice(TEMPLATES)
        fields = _fields(rng, index)
        translation = target.format(**fields)
        if index % 20 == 0:
            translation = _break(rng, translation)
        kind = "list item" if source.startswith("**") else rng.choice(KINDS[1:3])
        po.append(
            polib.POEntry(
                msgid=source.format(**fields),
                msgstr=translation,
                comment=f'{kind}, under "Раздел {index // 50}"',
                occurrences=[("seeds/bench.ru.md", str(index + 1))],
            )
        )
    return po


def _fields(rng: random.Random, index: int) -> dict[str, object]:
    ru_term, de_term = rng.choice(TERMS)
    x = f"{rng.randint(1, 9)}.{rng.randint(1, 9)}"
    v = f"{rng.randint(2, 4)}.{rng.randint(0, 9)}"
    big = f"{rng.randint(1, 9)}.{rng.randint(100, 999)}"
    return {
        "ru_term": ru_term,
        "de_term": de_term,
        "x": x,
        "x_de": x.replace(".", ","),
        "v": v,
        "v_de": v.replace(".", ","),
        "size": rng.choice([7, 13, 70, 72, 405]),
        "n": index,
        "p": rng.randint(5, 95),
        "code": rng.choice(CODE),
        "url": rng.choice(HOSTS),
        "gpus": rng.choice([8, 64, 512, 1024]),
        "big": big,
        "big_de": big.replace(".", ","),
        "year": rng.randint(2020, 2030),
        "racks": rng.randint(100, 400),
    }


def _break(rng: random.Random, translation: str) -> str:
    damage = rng.choice(
        [
            lambda t: t.replace("`", "", 1),
            lambda t: t.replace("](https://", "](http://", 1),
            lambda t: t.replace("**", "", 1),
            lambda t: t.replace(" %", "", 1),
            lambda t: t + "<script>alert(1)</script>",
        ]
    )
    return damage(translation)


def measure(path: Path, entries: int) -> tuple[float, int]:
    inline_markup.cache_clear()
    started = time.perf_counter()
    po = read_catalog(path)
    findings = check_catalog(po, path.name, "de", CheckConfig())
    return time.perf_counter() - started, len(findings)


def per_check(po: polib.POFile) -> list[tuple[str, float]]:
    """Seconds spent in each entry check, parse included in the first check to need it."""
    inline_markup.cache_clear()
    contexts = [
        EntryContext(e.msgid, e.msgstr, "de", "ru", parse_kind(e.comment), None, e) for e in po
    ]
    spent = []
    for name, check in CHECKS.items():
        if check.per != "entry":
            continue
        started = time.perf_counter()
        for ctx in contexts:
            for _ in check.function(ctx):
                pass
        spent.append((name, time.perf_counter() - started))
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--per-check", action="store_true", help="time each check apart")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.de.po"
        make_catalog(args.entries).save(str(path))
        seconds, found = measure(path, args.entries)
        print(
            f"{args.entries} entries checked in {seconds:.2f} s: "
            f"{args.entries / seconds:,.0f} entries/s "
            f"({len(CHECKS)} checks, {found} findings, read included)"
        )
        if args.per_check:
            for name, spent in per_check(read_catalog(path)):
                print(f"  {name:<14} {spent * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
