"""How `tolmach update` compares with GNU msgmerge on large catalogs.

Generates Russian-source catalogs with German translations (Markdown-flavoured
sentences, numbers, code spans, links), changes 10% of the source strings a
little and adds 5% new ones, then merges the same files with GNU msgmerge (with
and without fuzzy matching) and with tolmach, each in its own subprocess (peak
memory from GNU time), and prints wall time, peak memory, how often both pick
the same fuzzy candidate, and translation-memory look-ups per second.

    .venv/bin/python bench/bench_merge.py [--quick]
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import polib
from rapidfuzz import fuzz

from tolmach.catalog.merge import merge_catalog
from tolmach.catalog.pofile import read_po, write_po
from tolmach.memory.store import TranslationMemory
from tolmach.memory.tmx import TranslationUnit


def _words(text: str) -> list[str]:
    return text.split()


# Russian-like vocabulary: stems with their endings, drawn with Zipf's law so that a
# few words are everywhere and most are rare, as in real articles.
NOUNS = _words("""
систем модел библиотек платформ документаци настройк сборк верси поддержк функци
ускорител драйвер ядр поток задач очеред буфер производительност задержк памят
вычислени процессор компилятор обновлени матриц тензор точност обучени кластер узл
сет контейнер образ пакет установк команд параметр файл каталог пут репозитори ветк
выпуск тест ошибк исправлени изменени улучшени оптимизаци профилировани отладк анализ
метрик разработчик инженер сообществ проект код формат интерфейс приложени сервис
запрос ответ результат значени размер объём скорост врем частот карт видеокарт
серверов датацентр нагрузк ресурс планировщик ядер драйвер интеграци миграци
архитектур инструкци регистр кэш шин протокол стандарт спецификаци лицензи выпуск
""")
NOUN_ENDINGS = ["", "а", "у", "ом", "е", "ы", "ов", "ам", "ами", "ах", "и", "ей", "ю"]
ADJECTIVES = _words("""
нов быстр открыт крупн основн важн доступн последн перв втор вычислительн графическ
тензорн матричн смешанн исходн двоичн параллельн распределённ локальн сетев облачн
стабильн экспериментальн официальн полн частичн поддерживаем совместим устаревш
""")
ADJECTIVE_ENDINGS = ["ый", "ая", "ое", "ые", "ого", "ой", "ому", "ым", "ых", "ую", "ыми"]
VERBS = _words("""
позволя включа обеспечива использу улучша ускоря запуска показыва добавля поддержива
содерж требу измеря сравнива собира устанавлива обновля провер настраива распределя
""")
VERB_ENDINGS = ["ет", "ют", "ть", "л", "ла", "ли", "ем", "ете", "ется", "ются"]
GLUE = _words("и в на с для по не что это как из к от при а но также если когда чтобы")
GERMAN = _words("""
das System die Übersetzung der Artikel die Daten das Modell das Update die Bibliothek
der Compiler der Prozessor der Speicher die Berechnung die Plattform die Dokumentation
der Benutzer die Einstellung der Build die Version die Unterstützung die Funktion neu
schnell offen groß wichtig verfügbar letzte erste zweite jeder einige jetzt auch jedoch
außerdem deshalb wenn damit welcher kann muss erlaubt enthält bietet nutzt verbessert
beschleunigt startet zeigt fügt unterstützt benötigt grafisch gemischt Genauigkeit
Training Inferenz Cluster Knoten Netzwerk Container Image Paket Installation Befehl
""")
NAMES = ["ROCm 7", "MI300X", "HIP", "PyTorch", "Radeon", "Linux", "Windows", "LLVM", "Triton"]


SYLLABLES = _words(
    "ба ве ги до ку ла ме ни по ру са те фи хо цу ча ше щи бра вле гро дру кла "
    "мно пре про спо стра тво фре хра чре ско зна"
)


def _invented_stems(count: int) -> list[str]:
    """Russian-sounding stems for the long tail of rare words every corpus has."""
    rng = random.Random(2)
    stems = {
        "".join(rng.choices(SYLLABLES, k=rng.randint(2, 3))) + rng.choice("нвлркстдм")
        for _ in range(count * 2)
    }
    return sorted(stems)[:count]


def _vocabulary() -> tuple[list[str], list[float]]:
    """Every word form, with Zipf weights: real stems first, invented ones in the tail."""
    forms = [stem + ending for stem in NOUNS for ending in NOUN_ENDINGS]
    forms += [stem + ending for stem in ADJECTIVES for ending in ADJECTIVE_ENDINGS]
    forms += [stem + ending for stem in VERBS for ending in VERB_ENDINGS]
    rng = random.Random(1)
    rng.shuffle(forms)
    tail = [
        stem + rng.choice(NOUN_ENDINGS + ADJECTIVE_ENDINGS)
        for stem in _invented_stems(6000)
        for _ in range(2)
    ]
    rng.shuffle(tail)
    forms = GLUE + forms + tail
    weights = [1 / (rank + 1) ** 1.05 for rank in range(len(forms))]
    return forms, list(itertools.accumulate(weights))


WORDS, CUMULATIVE = _vocabulary()


@dataclass
class Scenario:
    """One benchmark setting: how many entries, how long, how many change."""

    name: str
    entries: int
    words: tuple[int, int]
    changed: float = 0.10
    new: float = 0.05


def sentence(rng: random.Random, words: tuple[int, int]) -> str:
    """A Russian sentence as Markdown articles have them, with some inline markup."""
    out = []
    for word in rng.choices(WORDS, cum_weights=CUMULATIVE, k=rng.randint(*words)):
        roll = rng.random()
        if roll < 0.03:
            word = f"`{rng.choice(NAMES).lower().replace(' ', '-')}`"
        elif roll < 0.06:
            word = f"**{word}**"
        elif roll < 0.08:
            word = rng.choice(NAMES)
        elif roll < 0.09:
            word = f"[{word}](https://rocm.docs.amd.com/{rng.randint(1, 999)})"
        elif roll < 0.11:
            word = f"{rng.randint(2, 512)}%"
        out.append(word)
    text = " ".join(out)
    text = text[0].upper() + text[1:]
    cut = rng.randint(2, max(2, len(out) - 2))
    if rng.random() < 0.4:
        pieces = text.split(" ")
        text = " ".join(pieces[:cut]) + ", " + " ".join(pieces[cut:])
    return text + rng.choice([".", ".", ".", ":", "!", "?"])


def translation(rng: random.Random, source: str) -> str:
    """A stand-in German translation of about the same length."""
    count = max(1, len(source.split()))
    return " ".join(rng.choice(GERMAN) for _ in range(count)).capitalize() + "."


def edit_slightly(rng: random.Random, text: str) -> str:
    """What an author does to a translated sentence: a word swapped, added or dropped."""
    words = text.split(" ")
    for _ in range(rng.randint(1, 2)):
        where = rng.randrange(len(words))
        action = rng.random()
        if action < 0.5:
            words[where] = rng.choices(WORDS, cum_weights=CUMULATIVE)[0]
        elif action < 0.8 or len(words) < 4:
            words.insert(where, rng.choices(WORDS, cum_weights=CUMULATIVE)[0])
        else:
            del words[where]
    return " ".join(words)


def generate(scenario: Scenario, folder: Path, seed: int = 7) -> dict[str, str]:
    """Write old.po (translated) and new.pot; return new msgid → the old one it came from."""
    rng = random.Random(seed)
    sources: list[str] = []
    seen: set[str] = set()
    while len(sources) < scenario.entries:
        text = sentence(rng, scenario.words)
        if text not in seen:
            seen.add(text)
            sources.append(text)
    old = _catalog(language="de")
    for index, source in enumerate(sources):
        old.append(
            polib.POEntry(
                msgid=source,
                msgstr=translation(rng, source),
                occurrences=[(f"seeds/doc{index % 40}.ru.md", str(index))],
            )
        )
    template = _catalog(language="")
    origins: dict[str, str] = {}
    for index, source in enumerate(sources):
        text = source
        if rng.random() < scenario.changed:
            text = edit_slightly(rng, source)
            if text in seen:
                text = source
            else:
                seen.add(text)
                origins[text] = source
        template.append(
            polib.POEntry(msgid=text, occurrences=[(f"seeds/doc{index % 40}.ru.md", str(index))])
        )
        if rng.random() < scenario.new:
            fresh = sentence(rng, scenario.words)
            if fresh not in seen:
                seen.add(fresh)
                template.append(polib.POEntry(msgid=fresh))
    write_po(old, folder / "old.po")
    write_po(template, folder / "new.pot")
    return origins


def _catalog(language: str) -> polib.POFile:
    po = polib.POFile()
    po.metadata = {
        "Project-Id-Version": "bench",
        "Language": language,
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
    }
    return po


# ---------------------------------------------------------------- measuring


@dataclass
class Run:
    """One merge, measured from outside: wall time and peak resident memory."""

    tool: str
    seconds: float | None  # None: it did not finish in time
    peak_mb: float
    output: Path


def measure(tool: str, command: list[str], output: Path, timeout: float) -> Run:
    """Run a command as a child process, timed; GNU time reports its peak memory.

    The child's own rusage would not do: a forked child starts with the RSS of
    this (large) process, so its peak would be at least that.
    """
    timer = "/usr/bin/time"  # GNU time, not the shell keyword
    report = output.with_suffix(".rss")
    started = time.perf_counter()
    child = subprocess.Popen(
        [timer, "-f", "%M", "-o", str(report), *command],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,  # so that a timeout stops the tool itself, not only time
    )
    try:
        _, errors = child.communicate(timeout=timeout)
    except BaseException as stopped:  # a timeout, or Ctrl-C: stop the whole group
        os.killpg(child.pid, signal.SIGKILL)
        child.wait()
        if isinstance(stopped, subprocess.TimeoutExpired):
            return Run(tool, None, 0.0, output)
        raise
    if child.returncode != 0:
        raise SystemExit(f"{tool} failed: {errors.decode(errors='replace')}")
    seconds = time.perf_counter() - started
    kilobytes = int(report.read_text().split()[-1])
    return Run(tool, seconds, kilobytes / 1024, output)


def tolmach_command(old: Path, template: Path, output: Path) -> list[str]:
    return [
        sys.executable,
        str(Path(__file__).resolve()),
        "--merge",
        str(old),
        str(template),
        str(output),
    ]


def run_tolmach_merge(old: Path, template: Path, output: Path) -> None:
    """What `tolmach update` does for one catalog: read, merge, write (wrapped at 79)."""
    write_po(merge_catalog(read_po(old), read_po(template)), output)


# ---------------------------------------------------------------- comparing


def fuzzy_picks(path: Path) -> dict[str, str]:
    """New msgid → the previous msgid its fuzzy translation came from."""
    return {
        entry.msgid: entry.previous_msgid
        for entry in read_po(path)
        if not entry.obsolete and entry.fuzzy and entry.previous_msgid is not None
    }


def similarity(first: str | None, second: str) -> float:
    return fuzz.ratio(first, second) / 100 if first is not None else 0.0


def agreement(origins: dict[str, str], ours: dict[str, str], theirs: dict[str, str]) -> dict:
    """How often both tools pick the same fuzzy candidate for a changed string, and
    for the others, whose pick is closer to the new source."""
    same = closer_ours = closer_theirs = tied = 0
    for new in origins:
        mine, other = ours.get(new), theirs.get(new)
        if mine == other:
            same += 1
            continue
        difference = similarity(mine, new) - similarity(other, new)
        if abs(difference) < 1e-9:
            tied += 1
        elif difference > 0:
            closer_ours += 1
        else:
            closer_theirs += 1
    return {
        "changed": len(origins),
        "same": same,
        "ours_closer": closer_ours,
        "theirs_closer": closer_theirs,
        "equally_close": tied,
    }


def pick_quality(picks: dict[str, str]) -> dict:
    """Similarity of each fuzzy pick to the new text it was picked for."""
    scores = sorted(similarity(old, new) for new, old in picks.items())
    if not scores:
        return {"count": 0, "min": 0.0, "mean": 0.0, "below_half": 0}
    return {
        "count": len(scores),
        "min": scores[0],
        "mean": sum(scores) / len(scores),
        "below_half": sum(score < 0.5 for score in scores),
    }


# ---------------------------------------------------------------- the memory


def memory_lookups(segments: int, queries: int, folder: Path) -> dict:
    """Build a memory of `segments` units, then time look-ups of edited and new strings."""
    rng = random.Random(11)
    units = [
        TranslationUnit(sentence(rng, (5, 20)), f"Übersetzung {n}", "de") for n in range(segments)
    ]
    with TranslationMemory(folder / "memory.sqlite3", "ru") as memory:
        started = time.perf_counter()
        memory.import_units("bench.tmx", units)
        built = time.perf_counter() - started
        asked = [edit_slightly(rng, rng.choice(units).source) for _ in range(queries // 2)]
        asked += [sentence(rng, (5, 20)) for _ in range(queries - len(asked))]
        started = time.perf_counter()
        found = sum(memory.best(text, "de") is not None for text in asked)
        elapsed = time.perf_counter() - started
    size = (folder / "memory.sqlite3").stat().st_size / 1e6
    return {
        "segments": segments,
        "build_s": built,
        "per_second": queries / elapsed,
        "found": found,
        "queries": queries,
        "size_mb": size,
    }


# ---------------------------------------------------------------- the report


def run_scenario(scenario: Scenario, folder: Path, timeout: float) -> dict:
    origins = generate(scenario, folder)
    old, template = folder / "old.po", folder / "new.pot"
    runs = [
        measure(
            "tolmach update",
            tolmach_command(old, template, folder / "tolmach.po"),
            folder / "tolmach.po",
            timeout,
        ),
        measure(
            "msgmerge -N (no fuzzy)",
            [
                "msgmerge",
                "--quiet",
                "-N",
                "-o",
                str(folder / "nofuzzy.po"),
                str(old),
                str(template),
            ],
            folder / "nofuzzy.po",
            timeout,
        ),
        measure(
            "msgmerge (fuzzy)",
            [
                "msgmerge",
                "--quiet",
                "--previous",
                "-o",
                str(folder / "msgmerge.po"),
                str(old),
                str(template),
            ],
            folder / "msgmerge.po",
            timeout,
        ),
    ]
    ours = fuzzy_picks(runs[0].output)
    theirs = fuzzy_picks(runs[2].output) if runs[2].seconds is not None else {}
    return {
        "scenario": scenario,
        "runs": runs,
        "agreement": agreement(origins, ours, theirs),
        "ours": pick_quality(ours),
        "theirs": pick_quality(theirs),
        "msgmerge_done": runs[2].seconds is not None,
    }


def print_report(results: list[dict], memory: dict, timeout: float) -> None:
    print("| Catalog | Tool | Wall time | Peak memory | vs msgmerge (fuzzy) |")
    print("|---|---|---:|---:|---:|")
    for result in results:
        fuzzy = result["runs"][2].seconds
        for run in result["runs"]:
            wall = f"{run.seconds:.2f} s" if run.seconds is not None else f"> {timeout:.0f} s"
            ratio = (
                f"{fuzzy / run.seconds:.1f}× faster"
                if fuzzy and run.seconds and run.tool.startswith("tolmach")
                else ""
            )
            if not fuzzy and run.tool.startswith("tolmach") and run.seconds:
                ratio = f"> {timeout / run.seconds:.0f}× faster"
            peak = f"{run.peak_mb:.0f} MB" if run.seconds is not None else "–"
            print(f"| {result['scenario'].name} | {run.tool} | {wall} | {peak} | {ratio} |")
    print()
    print(
        "| Catalog | Changed strings | Same fuzzy pick | Differ: tolmach closer "
        "| Differ: msgmerge closer | Differ: equally close |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for result in results:
        agree = result["agreement"]
        if not result["msgmerge_done"]:
            print(
                f"| {result['scenario'].name} | {agree['changed']} | (msgmerge unfinished) | | | |"
            )
            continue
        share = agree["same"] / max(agree["changed"], 1)
        print(
            f"| {result['scenario'].name} | {agree['changed']} | {agree['same']} "
            f"({share:.1%}) | {agree['ours_closer']} | {agree['theirs_closer']} "
            f"| {agree['equally_close']} |"
        )
    print()
    print(
        "| Catalog | Tool | Fuzzy entries | Least similar pick | Mean similarity "
        "| Picks under 50% |"
    )
    print("|---|---|---:|---:|---:|---:|")
    for result in results:
        for tool, quality in (("tolmach", result["ours"]), ("msgmerge", result["theirs"])):
            if tool == "msgmerge" and not result["msgmerge_done"]:
                continue
            print(
                f"| {result['scenario'].name} | {tool} | {quality['count']} "
                f"| {quality['min']:.0%} | {quality['mean']:.0%} | {quality['below_half']} |"
            )
    print()
    print("| Translation memory | Build | Size | Look-ups per second | Found (≥ 60%) |")
    print("|---|---:|---:|---:|---:|")
    print(
        f"| {memory['segments']:,} segments | {memory['build_s']:.1f} s "
        f"| {memory['size_mb']:.0f} MB | {memory['per_second']:.0f} "
        f"| {memory['found']} of {memory['queries']} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small catalogs, for a smoke test")
    parser.add_argument(
        "--timeout",
        type=float,
        default=900.0,
        help="seconds after which a msgmerge run is stopped (default 900)",
    )
    parser.add_argument("--merge", nargs=3, metavar=("OLD", "POT", "OUT"), help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.merge:
        run_tolmach_merge(*map(Path, options.merge))
        return
    if shutil.which("msgmerge") is None or not Path("/usr/bin/time").exists():
        raise SystemExit("GNU msgmerge and GNU time are needed: install gettext and time")
    scale = 10 if options.quick else 1
    scenarios = [
        Scenario(f"{50000 // scale:,} sentences", 50000 // scale, (5, 20)),
        Scenario(f"{5000 // scale:,} paragraphs", 5000 // scale, (26, 32)),
    ]
    results = []
    with tempfile.TemporaryDirectory(prefix="tolmach-bench-") as scratch:
        for number, scenario in enumerate(scenarios):
            folder = Path(scratch) / f"scenario{number}"
            folder.mkdir()
            print(f"… {scenario.name}", file=sys.stderr)
            results.append(run_scenario(scenario, folder, options.timeout))
        print("… translation memory", file=sys.stderr)
        memory = memory_lookups(200000 // scale, 1000 // (scale // 5 or 1), Path(scratch))
    print_report(results, memory, options.timeout)


if __name__ == "__main__":
    main()
