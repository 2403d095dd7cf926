"""How the project commands scale: 500 and 1,000 documents × 3 locales, through the CLI.

    .venv/bin/python bench/bench_scale.py [--runs N] [--quick]

Builds a project in a temporary folder from the 500 Russian Markdown files of
javascript.info in ../shared/data (and the same files twice, under two folders, for
1,000 documents), with locales en, de and zh_CN whose catalogs are 90% translated
(deterministic pseudo-translations). Then times each of extract, update, check, stats,
build and publish, run as `tolmach -C PROJECT COMMAND -j 2` in a child process (and
again with `-j 1` for the speed-up of two processes over one):

* cold: .tolmach-cache and the command's outputs (output/<locale>, output/site)
  deleted first; templates and catalogs are there, as in a fresh clone;
* no-op: the same command again, nothing changed;
* one edit: one paragraph of one source and one msgstr of one catalog changed, then
  the commands in pipeline order (each sees one edit since its last run).

Medians of N runs of wall time, CPU (user + system) and peak memory (max RSS) of the
child. Beside them: markdown-it-py parsing the same files (the floor) and
translate-toolkit's md2po and po2md on the same files; the start-up of `tolmach
--version` and of a single-file extract; on the 500-document project, cold check and
publish with untranslated catalogs too (`--no-untranslated` skips it). The targets of
issues 17 and 18 are printed as PASS or MISS; the exit code does not depend on them. `--no-serial` skips the -j 1 runs;
`--baseline OUTPUT` measures the doubled project alone and takes the single one's
figures for the growth table from OUTPUT, an earlier output of this script.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from benchlib import (
    Measurement,
    Summary,
    compile_tolmach,
    machine_note,
    measure,
    ratio,
    seed_glossary,
    shared_data,
    stop_cleanly_on_sigterm,
    tolmach_executable,
)

CORPUS = "peers-corpus-ru-javascript-info.tar.xz"
COMMANDS = ("extract", "update", "check", "stats", "build", "publish")
STATES = ("cold", "no-op", "one edit")
LOCALES = ("en", "de", "zh_CN")
UNTRANSLATED_EVERY = 10  # every 10th entry of a catalog stays untranslated: 90% done
CHECK_CODES = (0, 1)  # `check` exits 1 when it finds errors: that is a result, not a failure
TARGET_NOOP = 1.0
TARGET_EDIT = 1.5
TARGET_GROWTH = 2.2
TARGET_PUBLISH_MIB = 100.0
TARGET_VERSION = 0.15
TARGET_SINGLE_FILE = 0.25
TARGET_SPEEDUP = 1.7  # -j 2 over -j 1 on the cold runs
TARGET_TRANSLATED = 8.0  # cold check and publish of the translated 500-document project
TARGET_TRANSLATED_RATIO = 2.0  # … within 2× of the same on untranslated catalogs
PARALLEL, SERIAL = "-j 2", "-j 1"  # every figure is of -j 2; -j 1 beside it for the speed-up


# ---------------------------------------------------------------- the project


def read_corpus(path: Path) -> list[tuple[str, bytes]]:
    """The Markdown files of the archive, sorted by path."""
    with tarfile.open(path) as archive:
        return [
            (member.name, archive.extractfile(member).read())
            for member in sorted(archive.getmembers(), key=lambda m: m.name)
            if member.isfile() and member.name.endswith(".md")
        ]


def spread(files: list, count: int) -> list:
    """``count`` files taken evenly across the sorted corpus (all its sections)."""
    if count >= len(files):
        return files
    step = len(files) / count
    return [files[int(i * step)] for i in range(count)]


PYPROJECT = """\
[project]
name = "bench-scale"
version = "0"

[tool.tolmach]
source-locale = "ru"
locales = {locales}
documents = ["corpus/**/*.md"]
"""


@dataclass
class Project:
    """The benchmark project on disk and how the CLI is called on it."""

    root: Path
    documents: int
    tolmach: str
    edits: int = 0
    jobs: dict[str, bool] = field(default_factory=dict)

    def run(self, command: str, *extra: str) -> Measurement:
        ok = CHECK_CODES if command == "check" else (0,)
        return measure([self.tolmach, "-C", str(self.root), command, *extra], ok=ok)

    def catalogs(self, locale: str) -> list[Path]:
        """Every catalog of a locale, however the project names and nests them."""
        return sorted((self.root / "locales" / locale).rglob("*.po"))

    def sources(self) -> list[Path]:
        return sorted((self.root / "corpus").rglob("*.md"))


def create_project(root: Path, files: list[tuple[str, bytes]], copies: int) -> Project:
    """pyproject, the corpus (``copies`` times under a/, b/ …) and the seed glossary."""
    settings = PYPROJECT.format(locales=json.dumps(list(LOCALES))) + seed_glossary(root)
    (root / "pyproject.toml").write_text(settings, "utf-8")
    for copy in range(copies):
        prefix = Path("corpus") / (chr(ord("a") + copy) if copies > 1 else "")
        for name, data in files:
            target = root / prefix / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
    return Project(root, len(files) * copies, tolmach_executable())


def extract(project: Project) -> None:
    """Run extract on the corpus as it is: a docs tree, 318 `article.md` among its files."""
    command = [project.tolmach, "-C", str(project.root), "extract"]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"tolmach extract failed:\n{done.stderr[-3000:]}")


def translate_catalogs(project: Project) -> int:
    """Fill 90% of every catalog with pseudo-translations; returns the entries filled."""
    from tolmach import pseudo_translate
    from tolmach.catalog import read_po, write_po

    filled = 0
    for locale in LOCALES:
        for path in project.catalogs(locale):
            po = read_po(path)
            live = [entry for entry in po if not entry.obsolete and entry.msgid]
            for number, entry in enumerate(live):
                if number % UNTRANSLATED_EVERY == UNTRANSLATED_EVERY - 1:
                    continue
                if entry.msgid_plural:
                    entry.msgstr_plural = {
                        key: pseudo_translate(entry.msgid_plural if key else entry.msgid)
                        for key in entry.msgstr_plural or {0: "", 1: ""}
                    }
                else:
                    entry.msgstr = pseudo_translate(entry.msgid)
                filled += 1
            write_po(po, path)
    return filled


def prepare(project: Project) -> int:
    """extract, update, translate, then every command once so that all is settled."""
    extract(project)
    subprocess.run(
        [project.tolmach, "-C", str(project.root), "update"], check=True, capture_output=True
    )
    filled = translate_catalogs(project)
    add_missing_files(project)
    settle(project)
    project.jobs = {command: supports_jobs(project.tolmach, command) for command in COMMANDS}
    return filled


MISSING_FILE = re.compile(r"^([^:\n]+\.md):\d+: (?:image|link target) '([^']+)' not found", re.M)


def add_missing_files(project: Project) -> None:
    """The corpus holds the Markdown files only: give each image or file a page links to
    a small stand-in, so that `publish` (which refuses a missing file) runs."""
    command = [project.tolmach, "-C", str(project.root), "publish", "--no-search"]
    for _ in range(3):
        done = subprocess.run(command, capture_output=True, text=True)
        missing = set(MISSING_FILE.findall(done.stderr))
        if done.returncode == 0 or not missing:
            return
        for source, name in sorted(missing):
            stand_in = project.root / Path(source).parent / name
            stand_in.parent.mkdir(parents=True, exist_ok=True)
            stand_in.write_bytes(b"stand-in for a file the corpus does not hold\n")
    raise SystemExit(f"tolmach publish failed:\n{done.stderr[-3000:]}")


def settle(project: Project) -> None:
    """Every command once, untimed: caches and outputs as after a normal run."""
    for command in COMMANDS:
        project.run(command)


def supports_jobs(tolmach: str, command: str) -> bool:
    """Whether the command has a parallel option (-j/--jobs) yet."""
    shown = subprocess.run([tolmach, command, "--help"], capture_output=True, text=True).stdout
    return bool(re.search(r"(^|\s)(-j\b|--jobs\b)", shown))


def wipe(project: Project, command: str) -> None:
    """Delete caches and what ``command`` writes, so its next run starts cold."""
    shutil.rmtree(project.root / ".tolmach-cache", ignore_errors=True)
    output = project.root / "output"
    if command == "build":
        for locale in LOCALES:
            shutil.rmtree(output / locale, ignore_errors=True)
    elif command == "publish":
        shutil.rmtree(output / "site", ignore_errors=True)


PROSE = re.compile(r"^[А-ЯЁа-яё]")


def edit_once(project: Project) -> None:
    """Change one paragraph of one source and one msgstr of one catalog.

    Each edit differs from the last, so every run has one real change to take in.
    """
    project.edits += 1
    mark = project.edits
    sources = project.sources()
    for source in sources[len(sources) // 3 :] + sources:
        lines = source.read_text("utf-8").split("\n")
        at = _first_prose_line(lines)
        if at is not None:
            base = re.sub(r" Правка \d+\.$", "", lines[at])
            lines[at] = f"{base} Правка {mark}."
            source.write_text("\n".join(lines), "utf-8")
            break
    else:
        raise SystemExit("no prose line to edit in any source")
    catalogs = project.catalogs("de")
    for catalog in catalogs[2 * len(catalogs) // 3 :] + catalogs:
        text = catalog.read_text("utf-8")
        found = re.search(r'^msgstr "((?:[^"\\]|\\.)+?)( ·\d+)?"$', text, re.M)
        if found is not None:
            edited = f'msgstr "{found.group(1)} ·{mark}"'
            catalog.write_text(text[: found.start()] + edited + text[found.end() :], "utf-8")
            return
    raise SystemExit("no one-line msgstr to edit in any catalog")


def _first_prose_line(lines: list[str]) -> int | None:
    """The first line of ordinary Russian prose outside code fences."""
    fenced = False
    for number, line in enumerate(lines):
        if line.startswith(("```", "~~~")):
            fenced = not fenced
        elif not fenced and PROSE.match(line) and len(line) > 40:
            return number
    return None


# ---------------------------------------------------------------- measuring


def written_files(run: Measurement) -> int:
    """Files a run wrote, from what the CLI prints (``wrote …``, ``N changed``)."""
    count = sum(line.startswith("wrote ") for line in run.stderr.splitlines())
    count += sum(int(n) for n in re.findall(r"(\d+) changed", run.stdout))
    return count


@dataclass
class Row:
    summary: Summary
    written: int
    serial: Summary | None = None  # the same with -j 1, when the command has -j


def measure_commands(project: Project, runs: int, serial: bool = True) -> dict[tuple[str, str], Row]:
    """Medians per (command, state) with -j 2; -j 1 beside it when a command has -j
    (and ``serial``)."""
    samples: dict[tuple[str, str, str], list[Measurement]] = defaultdict(list)
    variants = [(PARALLEL, ("-j", "2"))]
    if serial and any(project.jobs.values()):
        variants.append((SERIAL, ("-j", "1")))
    for number in range(runs):
        for variant, extra in variants:
            print(f"… {project.documents} documents: run {number + 1}/{runs} {variant}",
                  file=sys.stderr, flush=True)
            for command in COMMANDS:
                if variant == SERIAL and not project.jobs[command]:
                    continue
                args = extra if project.jobs[command] else ()
                wipe(project, command)
                samples[command, "cold", variant].append(project.run(command, *args))
                samples[command, "no-op", variant].append(project.run(command, *args))
            settle(project)
            edit_once(project)
            for command in COMMANDS:
                args = extra if project.jobs[command] else ()
                samples[command, "one edit", variant].append(project.run(command, *args))
    rows = {}
    for command in COMMANDS:
        for state in STATES:
            done = samples[command, state, PARALLEL]
            serial = samples.get((command, state, SERIAL))
            rows[command, state] = Row(
                Summary.of(done),
                max(written_files(run) for run in done),
                Summary.of(serial) if serial else None,
            )
    return rows


def measure_untranslated(project: Project, runs: int) -> dict[str, Summary]:
    """Cold ``check`` and ``publish`` (-j 2) with catalogs as ``update`` makes them, nothing
    translated: what the translated project's figures are compared with. The translated
    catalogs are put back afterwards."""
    locales = project.root / "locales"
    kept = project.root.parent / f"{project.root.name}-translated-locales"
    shutil.rmtree(kept, ignore_errors=True)
    shutil.copytree(locales, kept, symlinks=True)
    try:
        for locale in LOCALES:
            shutil.rmtree(locales / locale, ignore_errors=True)
        shutil.rmtree(project.root / ".tolmach-cache", ignore_errors=True)
        project.run("update")
        samples: dict[str, list[Measurement]] = defaultdict(list)
        for number in range(runs):
            print(f"… {project.documents} documents, untranslated: run {number + 1}/{runs}",
                  file=sys.stderr, flush=True)
            for command in ("check", "publish"):
                wipe(project, command)
                samples[command].append(project.run(command, "-j", "2"))
    finally:
        shutil.rmtree(locales)
        shutil.copytree(kept, locales, symlinks=True)
        shutil.rmtree(kept)
        shutil.rmtree(project.root / ".tolmach-cache", ignore_errors=True)
        settle(project)
    return {command: Summary.of(found) for command, found in samples.items()}


def print_untranslated(title: str, rows: dict, untranslated: dict[str, Summary]) -> None:
    heading(f"{title}: cold `check` and `publish` (-j 2) on the 90% translated catalogs and "
            f"on untranslated ones (targets: translated < {TARGET_TRANSLATED:g} s, and within "
            f"{TARGET_TRANSLATED_RATIO:g}× of untranslated); {machine_note()}")
    print("| command | untranslated wall (CPU) | translated wall (CPU) | ratio (wall) "
          f"| < {TARGET_TRANSLATED:g} s | ≤ {TARGET_TRANSLATED_RATIO:g}× |")
    print("|---|---:|---:|---:|---|---|")
    for command in ("check", "publish"):
        bare, full = untranslated[command], rows[command, "cold"].summary
        factor = full.wall / bare.wall if bare.wall else float("inf")
        print(f"| {command} | {bare.wall:.2f} s ({bare.cpu:.2f} s) | {full.wall:.2f} s "
              f"({full.cpu:.2f} s) | {factor:.2f}× | {verdict(full.wall < TARGET_TRANSLATED)} "
              f"| {verdict(factor <= TARGET_TRANSLATED_RATIO)} |")


def parse_floor(corpus: Path) -> dict:
    """In this process: markdown-it-py parsing every file (already read), timed."""
    try:  # the parser tolmach configures (its plugins); plain CommonMark otherwise
        from tolmach.markdown.document import markdown_parser

        parser, kind = markdown_parser(), "tolmach's markdown-it-py set-up"
    except ImportError:
        from markdown_it import MarkdownIt

        parser, kind = MarkdownIt("commonmark"), "markdown-it-py commonmark"
    texts = [path.read_text("utf-8") for path in sorted(corpus.rglob("*.md"))]
    started = time.perf_counter()
    tokens = sum(len(parser.parse(text)) for text in texts)
    return {"seconds": time.perf_counter() - started, "tokens": tokens, "parser": kind}


@dataclass
class Reference:
    """What the commands are compared with, on the same files."""

    floor_inside: float  # parsing alone, inside a process (median seconds)
    floor_process: Summary  # a process that reads and parses every file
    parser: str
    md2po: Summary | None
    po2md: Summary | None


def measure_references(project: Project, runs: int) -> Reference:
    corpus = project.root / "corpus"
    floors = [
        measure([sys.executable, __file__, "--floor", str(corpus)]) for _ in range(runs)
    ]
    inside = sorted(json.loads(run.stdout)["seconds"] for run in floors)[len(floors) // 2]
    parser = json.loads(floors[0].stdout)["parser"]
    md2po, po2md = translate_toolkit(project, runs)
    return Reference(inside, Summary.of(floors), parser, md2po, po2md)


def toolkit_script(name: str) -> str | None:
    beside = Path(sys.executable).parent / name
    return str(beside) if beside.is_file() else shutil.which(name)


def translate_toolkit(project: Project, runs: int) -> tuple[Summary | None, Summary | None]:
    """md2po (templates) and po2md (Markdown from md2po's own catalogs) on the same files."""
    md2po, po2md = toolkit_script("md2po"), toolkit_script("po2md")
    if md2po is None or po2md is None:
        return None, None
    scratch = project.root / "tt"
    corpus = project.root / "corpus"
    extracts, builds = [], []
    quiet = ("--progress=none", "--errorlevel=none")
    for _ in range(runs):
        shutil.rmtree(scratch, ignore_errors=True)
        scratch.mkdir()
        extracts.append(measure([md2po, *quiet, "-P", "-i", str(corpus), "-o", str(scratch / "pot")]))
    subprocess.run([md2po, *quiet, "-i", str(corpus), "-o", str(scratch / "po")],
                   check=True, capture_output=True)
    for _ in range(runs):
        shutil.rmtree(scratch / "md", ignore_errors=True)
        builds.append(measure(
            [po2md, *quiet, "-t", str(corpus), "-i", str(scratch / "po"), "-o", str(scratch / "md")]
        ))
    shutil.rmtree(scratch)
    return Summary.of(extracts), Summary.of(builds)


@dataclass
class StartUp:
    """Start-up costs, which per-file scripting pays on every call."""

    version: Summary  # `tolmach --version`
    single_file: Summary  # `tolmach extract SMALL.md -o SMALL.pot`, outside any project
    small_bytes: int


SMALL_DOCUMENT = 2_000  # bytes: the corpus file closest to this size is "a small document"


def measure_start_up(files: list[tuple[str, bytes]], runs: int) -> StartUp:
    """Each measured ``runs`` times (at least 5: they are short and noisy), in an empty
    folder so that no project is found around it."""
    tolmach = tolmach_executable()
    data = min((data for _, data in files), key=lambda data: abs(len(data) - SMALL_DOCUMENT))
    count = max(runs, 5)
    with tempfile.TemporaryDirectory(prefix="tolmach-start-") as scratch:
        folder = Path(scratch)
        (folder / "small.md").write_bytes(data)
        version = [measure([tolmach, "--version"], cwd=folder) for _ in range(count)]
        single = [
            measure([tolmach, "extract", "small.md", "-o", "small.pot"], cwd=folder)
            for _ in range(count)
        ]
    return StartUp(Summary.of(version), Summary.of(single), len(data))


def print_start_up(start: StartUp) -> None:
    heading(f"start-up, median of {start.version.runs} runs; {machine_note()}")
    print("| command | wall | CPU | peak MiB |")
    print("|---|---:|---:|---:|")
    for label, s in (("tolmach --version", start.version),
                     (f"tolmach extract small.md -o small.pot ({start.small_bytes:,} bytes, "
                      "no project)", start.single_file)):
        print(f"| `{label}` | {s.wall:.3f} s | {s.cpu:.3f} s | {s.peak_mib:.0f} |")


# ---------------------------------------------------------------- the report

TOOLKIT_PEER = {"extract": "md2po", "update": "md2po", "build": "po2md"}


def toolkit_ratio(command: str, summary: Summary, reference: Reference) -> str:
    peer = TOOLKIT_PEER.get(command)
    theirs = getattr(reference, peer) if peer else None
    if theirs is None:
        return "–"
    return f"{ratio(summary.wall, theirs.wall)} {peer}"


def print_size(title: str, rows: dict, reference: Reference, project: Project, runs: int) -> None:
    heading(f"{title}, median of {runs} run(s); {machine_note()}")
    print("| command | state | wall | CPU | peak MiB | files written | speed-up -j 2 over -j 1 "
          "| × parse floor | × translate-toolkit |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    floor = reference.floor_process.wall
    for command in COMMANDS:
        for state in STATES:
            row = rows[command, state]
            s = row.summary
            if row.serial is not None:
                speedup = ratio(row.serial.wall, s.wall)
            else:
                speedup = "not measured" if project.jobs[command] else "n/a (no -j)"
            print(
                f"| {command} | {state} | {s.wall:.2f} s | {s.cpu:.2f} s | {s.peak_mib:.0f} "
                f"| {row.written} | {speedup} | {ratio(s.wall, floor)} "
                f"| {toolkit_ratio(command, s, reference)} |"
            )
    print()
    f = reference.floor_process
    print(f"parse floor ({reference.parser}): {reference.floor_inside:.2f} s parsing in "
          f"process; as a process (start, read, parse): {f.wall:.2f} s wall, "
          f"{f.cpu:.2f} s CPU, {f.peak_mib:.0f} MiB")
    for name in ("md2po", "po2md"):
        tool = getattr(reference, name)
        if tool is None:
            print(f"translate-toolkit {name}: not installed (pip install -e '.[bench]')")
        else:
            print(f"translate-toolkit {name} on the same files: {tool.wall:.2f} s wall, "
                  f"{tool.cpu:.2f} s CPU, {tool.peak_mib:.0f} MiB")


def heading(title: str) -> None:
    """Every table says which command printed it, so that it can be quoted as it is."""
    command = " ".join(["bench/bench_scale.py", *sys.argv[1:]])
    print(f"\n`{command}` — {title}\n")


def verdict(passed: bool) -> str:
    return "PASS" if passed else "MISS"


TABLE_ROW = re.compile(
    r"^\| (\w+) \| (cold|no-op|one edit) \| ([\d.]+) s \| ([\d.]+) s \| (\d+) \|", re.M
)


def read_baseline(path: Path, documents: int) -> tuple[str, dict[tuple[str, str], Row]]:
    """The table of the ``documents``-document project from an earlier output of this
    script (``--baseline``): its medians, for the growth table of a run of the doubled
    project alone."""
    text = path.read_text("utf-8")
    title = f"{documents:,} documents"
    start = text.find(f"— {title} × ")
    if start < 0:
        raise SystemExit(f"{path}: no table of {title}")
    end = text.find("\nparse floor", start)
    rows = {
        (command, state): Row(Summary(float(wall), float(cpu), float(peak), 0), 0)
        for command, state, wall, cpu, peak in TABLE_ROW.findall(text[start:end])
    }
    if len(rows) != len(COMMANDS) * len(STATES):
        raise SystemExit(f"{path}: the table of {title} is incomplete")
    return f"{title} (from {path.name})", rows


def print_targets(results: list[tuple[str, dict, Reference]], start: StartUp) -> None:
    (small_title, small, _), (large_title, large, _) = results
    heading(f"growth from {small_title} to {large_title} (ratio of medians; target ≤ "
            f"{TARGET_GROWTH}, judged on wall time as asked and on CPU, which a busy "
            "machine disturbs less)")
    print(f"| command | state | wall, {small_title} | wall, {large_title} | wall ratio "
          f"| CPU, {small_title} | CPU, {large_title} | CPU ratio | wall | CPU |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---|---|")
    growth_misses = []
    for command in COMMANDS:
        for state in STATES:
            a, b = small[command, state].summary, large[command, state].summary
            wall = b.wall / a.wall if a.wall else float("inf")
            cpu = b.cpu / a.cpu if a.cpu else float("inf")
            if wall > TARGET_GROWTH:
                growth_misses.append(f"{command} {state} {wall:.2f}×")
            print(f"| {command} | {state} | {a.wall:.2f} s | {b.wall:.2f} s | {wall:.2f}× "
                  f"| {a.cpu:.2f} s | {b.cpu:.2f} s | {cpu:.2f}× "
                  f"| {verdict(wall <= TARGET_GROWTH)} | {verdict(cpu <= TARGET_GROWTH)} |")
    heading(f"targets (no-op and one edit on {large_title}; reported, not enforced)")
    print("| target | measured wall (CPU) | result |")
    print("|---|---:|---|")
    for command in COMMANDS:
        s = large[command, "no-op"].summary
        print(f"| no-op `{command}` < {TARGET_NOOP:g} s | {s.wall:.2f} s ({s.cpu:.2f} s) "
              f"| {verdict(s.wall < TARGET_NOOP)} |")
    for command in ("update", "build", "publish"):
        s = large[command, "one edit"].summary
        print(f"| one-edit `{command}` < {TARGET_EDIT:g} s | {s.wall:.2f} s ({s.cpu:.2f} s) "
              f"| {verdict(s.wall < TARGET_EDIT)} |")
    for title, rows, reference in results:
        if reference is None:  # read from a baseline: its verdict was printed there
            continue
        ours = rows["update", "cold"].summary
        if reference.md2po is None:
            print(f"| cold `update` ≤ md2po ({title}) | {ours.wall:.2f} s vs – | not measured |")
            continue
        theirs = reference.md2po
        print(f"| cold `update` ≤ md2po ({title}) | {ours.wall:.2f} s ({ours.cpu:.2f} s) vs "
              f"{theirs.wall:.2f} s ({theirs.cpu:.2f} s) | {verdict(ours.wall <= theirs.wall)} |")
    shown = "; ".join(growth_misses)
    print(f"| growth ≤ {TARGET_GROWTH}× for every command and state (wall) | "
          f"{'misses: ' + shown if growth_misses else 'all within'} "
          f"| {verdict(not growth_misses)} |")
    for title, rows, reference in results:
        if reference is None:
            continue
        serial = [(command, rows[command, "cold"]) for command in COMMANDS
                  if rows[command, "cold"].serial is not None]
        if not serial:
            print(f"| -j 2 ≥ {TARGET_SPEEDUP:g}× -j 1, cold ({title}) | not measured (--no-serial) "
                  "| – |")
        for command, row in serial:
            gain = row.serial.wall / row.summary.wall if row.summary.wall else float("inf")
            print(f"| -j 2 ≥ {TARGET_SPEEDUP:g}× -j 1, cold `{command}` ({title}) | {gain:.2f}× "
                  f"({row.serial.wall:.2f} s / {row.summary.wall:.2f} s) "
                  f"| {verdict(gain >= TARGET_SPEEDUP)} |")
    for title, rows, reference in results:
        if reference is None:
            continue
        peak = max(rows["publish", state].summary.peak_mib for state in STATES)
        print(f"| `publish` peak memory < {TARGET_PUBLISH_MIB:g} MiB ({title}, worst state) "
              f"| {peak:.0f} MiB | {verdict(peak < TARGET_PUBLISH_MIB)} |")
    for label, s, target in (("`tolmach --version`", start.version, TARGET_VERSION),
                             ("single-file `extract` of a small document", start.single_file,
                              TARGET_SINGLE_FILE)):
        print(f"| {label} < {target:g} s | {s.wall:.3f} s ({s.cpu:.3f} s) "
              f"| {verdict(s.wall < target)} |")


def floor_main(corpus: Path) -> None:
    print(json.dumps(parse_floor(corpus)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per figure (median; default 3)")
    parser.add_argument("--quick", action="store_true", help="60 and 120 documents, 1 run")
    parser.add_argument("--documents", type=int, help="documents of the smaller project "
                        "(default: the whole corpus, 500; the larger one has twice as many)")
    parser.add_argument("--data", type=Path, help="the shared data folder (default: ../shared/data)")
    parser.add_argument("--no-serial", action="store_true",
                        help="skip the -j 1 runs (no speed-up figures; half the time)")
    parser.add_argument("--baseline", type=Path, metavar="OUTPUT",
                        help="measure the doubled project only; the single one's figures "
                        "for the growth table are read from OUTPUT, an earlier output of "
                        "this script")
    parser.add_argument("--no-untranslated", action="store_true",
                        help="skip the cold check and publish on untranslated catalogs")
    parser.add_argument("--keep", type=Path, help="build the projects in this folder and keep them")
    parser.add_argument("--floor", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    stop_cleanly_on_sigterm()
    if args.floor:
        floor_main(args.floor)
        return 0
    data = args.data or shared_data()
    if data is None or not (data / CORPUS).is_file():
        print(f"bench_scale: {CORPUS} not found (expected in ../shared/data); skipped")
        return 0
    files = read_corpus(data / CORPUS)
    runs = 1 if args.quick else args.runs
    compile_tolmach(str(Path(tolmach_executable()).with_name("python")))
    print("… start-up", file=sys.stderr, flush=True)
    start = measure_start_up(files, runs)
    print_start_up(start)
    if args.quick or args.documents:
        files = spread(files, args.documents or 60)
    results = []
    if args.baseline:
        title, rows = read_baseline(args.baseline, len(files))
        results.append((title, rows, None))
    with tempfile.TemporaryDirectory(prefix="tolmach-scale-") as scratch:
        base = args.keep or Path(scratch)
        for copies in (2,) if args.baseline else (1, 2):
            title = f"{len(files) * copies:,} documents"
            root = base / f"docs{len(files) * copies}"
            shutil.rmtree(root, ignore_errors=True)
            root.mkdir(parents=True)
            project = create_project(root, files, copies)
            print(f"… {title}: preparing the project", file=sys.stderr, flush=True)
            filled = prepare(project)
            rows = measure_commands(project, runs, serial=not args.no_serial)
            print(f"… {title}: parse floor and translate-toolkit", file=sys.stderr, flush=True)
            reference = measure_references(project, runs)
            catalogs = sum(len(project.catalogs(locale)) for locale in LOCALES)
            print_size(
                f"{title} × {len(LOCALES)} locales ({catalogs:,} catalogs, {filled:,} entries "
                "translated, 90%)",
                rows, reference, project, runs,
            )
            results.append((title, rows, reference))
            if copies == 1 and not args.no_untranslated:
                untranslated = measure_untranslated(project, runs)
                print_untranslated(title, rows, untranslated)
    print_targets(results, start)
    return 0


if __name__ == "__main__":
    sys.exit(main())
