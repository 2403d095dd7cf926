"""`tolmach update` against GNU msgmerge on real Russian text, paired, CPU and wall.

    .venv/bin/python bench/bench_merge.py [--runs N] [--quick] [--timeout S]

Catalog strings are real: sentences and paragraphs of the Russian Markdown corpora
in ../shared/data (javascript.info, then the dialects corpus), deduplicated. The old
catalog has every string translated (deterministic pseudo-translations); the new
template changes 10% of them a little (a word replaced, inserted or deleted, words
taken from the corpus), adds 5% new strings and drops 2%. A second template, left
unchanged, measures the exact-match path alone.

tolmach runs as a real `tolmach -C PROJECT update` (template in locales/, catalog in
locales/de/LC_MESSAGES/, the seed glossary, translation memory on) twice: with a
current memory and with the memory rebuilt from the catalog (.tolmach-cache deleted).
"Current" is made untimed: the old catalog restored, `tolmach tm rebuild`, restored again
(the memory knew the catalog the last run wrote; its other caches stay as that run left
them, as in a project where a translator edited the catalog).
On the unchanged template a third tolmach run is a no-op: the catalog is the one
`update` itself wrote the run before (untimed), as in a project where nothing changed.
GNU msgmerge merges the same two files, with `--previous` (fuzzy matching, OpenMP
threads as it pleases and with OMP_NUM_THREADS=1; `--no-previous` skips it) and with
`-N` (no fuzzy matching); on the edited template `tolmach update -N` (no fuzzy matching
either, memory current) is the like-for-like run.
Both keep the translated entries whose source is gone as `#~` (msgmerge unless
`--no-obsolete`, tolmach unless `keep-obsolete = false`); the contents table counts
them for each tool.
The tools alternate within each repetition (the order reverses every other one);
the tables give medians of wall time, CPU (user + system) and peak memory. A tool
whose first run takes longer than --single-after seconds runs once; one that takes
longer than --timeout is stopped and reported as at least that much.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import sys
import tarfile
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import polib
from benchlib import (
    Measurement,
    Summary,
    machine_note,
    measure,
    seed_glossary,
    shared_data,
    stop_cleanly_on_sigterm,
    tolmach_executable,
)
from markdown_it import MarkdownIt
from rapidfuzz import fuzz

CORPORA = ("peers-corpus-ru-javascript-info.tar.xz", "dialects-corpus-ru.tar.xz")
CHANGED, NEW, REMOVED = 0.10, 0.05, 0.02
LOCALE = "de"
FIXED_MTIME = 1_700_000_000  # restored catalogs keep one stamp: the memory stays current
PROSE_FENCES = {"", "smart", "warn", "online", "quote", "summary", "compare"}  # javascript.info
SENTENCE_END = re.compile(r"(?<=[.!?…])\s+(?=[«\"(\[*`_А-ЯЁA-Z0-9])")
CYRILLIC_WORD = re.compile(r"[а-яёА-ЯЁ]{3}")
WORD = re.compile(r"[а-яё]{4,}")
CODE_COMMENT = re.compile(r"//\s*(.*[а-яё].*)")


# ---------------------------------------------------------------- real text


def inline_texts(markdown: str, parser: MarkdownIt, depth: int = 0) -> list[str]:
    """Paragraph, heading, list and table text; prose inside javascript.info's note
    fences; the Russian comments of code blocks. Soft line breaks become spaces."""
    texts = []
    for token in parser.parse(markdown):
        if token.type == "inline":
            texts.append(" ".join(token.content.split()))
        elif token.type == "fence":
            info = token.info.split()[0] if token.info.strip() else ""
            if info in PROSE_FENCES and depth < 2:
                texts += inline_texts(token.content, parser, depth + 1)
            else:
                texts += [m.group(1).strip() for m in CODE_COMMENT.finditer(token.content)]
    return [text for text in texts if CYRILLIC_WORD.search(text)]


def corpus_texts(data: Path) -> list[list[str]]:
    """Every text block of the corpora, split into sentences, in corpus order."""
    parser = MarkdownIt("commonmark").enable("table")
    blocks = []
    for name in CORPORA:
        path = data / name
        if not path.is_file():
            continue
        with tarfile.open(path) as archive:
            for member in sorted(archive.getmembers(), key=lambda m: m.name):
                if member.isfile() and member.name.endswith(".md"):
                    text = archive.extractfile(member).read().decode("utf-8")
                    blocks += [SENTENCE_END.split(b) for b in inline_texts(text, parser)]
    return blocks


def is_sentence(text: str) -> bool:
    return len(text.split()) >= 3 and bool(CYRILLIC_WORD.search(text))


@dataclass
class Pool:
    """Unique real strings of one kind, and how they were made."""

    strings: list[str]
    makeup: str


def sentence_pool(blocks: list[list[str]], wanted: int) -> Pool:
    """Unique sentences; if the corpora hold fewer than wanted, runs of 2, then 3
    consecutive sentences of the same paragraph (still real text) fill up."""
    seen: dict[str, None] = {}
    for sentences in blocks:
        for sentence in sentences:
            if is_sentence(sentence):
                seen.setdefault(sentence)
    single = len(seen)
    for run in (2, 3, 4):
        if len(seen) >= wanted:
            break
        for sentences in blocks:
            for start in range(len(sentences) - run + 1):
                seen.setdefault(" ".join(sentences[start : start + run]))
    makeup = f"{single:,} single sentences"
    if len(seen) > single:
        makeup += f" + {len(seen) - single:,} runs of 2–4 sentences"
    return Pool(list(seen), makeup)


def paragraph_pool(blocks: list[list[str]], shortest: int = 120) -> Pool:
    seen: dict[str, None] = {}
    for sentences in blocks:
        text = " ".join(sentences)
        if len(text) >= shortest and is_sentence(text):
            seen.setdefault(text)
    return Pool(list(seen), f"paragraphs of ≥ {shortest} characters")


# ---------------------------------------------------------------- the catalogs


@dataclass
class Scenario:
    name: str
    old: list[str]  # the sources of the translated catalog
    new: list[str]  # the template's sources
    origins: dict[str, str]  # changed string → the old string it was edited from
    added: int
    removed: int
    makeup: str


def make_scenario(name: str, pool: Pool, size: int, seed: int) -> Scenario:
    """Old sources (``size`` of the pool) and a template with edits, additions, removals."""
    rng = random.Random(seed)
    strings = list(pool.strings)
    rng.shuffle(strings)
    if len(strings) < size:
        print(f"note: only {len(strings):,} strings for {name}", file=sys.stderr)
        size = int(len(strings) / (1 + NEW))
    old, spare = strings[:size], strings[size:]
    vocabulary = sorted({w for text in old for w in WORD.findall(text)})
    taken = set(old)
    new, origins, removed = [], {}, 0
    for source in old:
        roll = rng.random()
        if roll < REMOVED:
            removed += 1
            continue
        text = source
        if roll < REMOVED + CHANGED:
            edited = edit_slightly(rng, source, vocabulary)
            if edited not in taken:
                taken.add(edited)
                origins[edited] = source
                text = edited
        new.append(text)
        if spare and rng.random() < NEW:
            fresh = spare.pop()
            taken.add(fresh)
            new.append(fresh)
    added = len(new) - (len(old) - removed)
    return Scenario(name, old, new, origins, added, removed, pool.makeup)


def edit_slightly(rng: random.Random, text: str, vocabulary: list[str]) -> str:
    """An author's small edit: one or two words replaced, inserted or deleted."""
    words = text.split(" ")
    for _ in range(rng.choice((1, 1, 2))):
        where = rng.randrange(len(words))
        action = rng.random()
        if action < 0.45:
            words[where] = rng.choice(vocabulary)
        elif action < 0.8 or len(words) < 4:
            words.insert(where, rng.choice(vocabulary))
        else:
            del words[where]
    return " ".join(words)


def header(language: str) -> dict[str, str]:
    return {
        "Project-Id-Version": "bench",
        "Language": language,
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "Plural-Forms": "nplurals=2; plural=(n != 1);" if language else "",
    }


def write_catalog(path: Path, sources: list[str], translated: bool) -> None:
    """A .pot (``translated`` false) or a fully translated .po, as msgcat writes them."""
    from tolmach import pseudo_translate
    from tolmach.catalog import write_po

    po = polib.POFile()
    po.metadata = header(LOCALE if translated else "")
    if not translated:
        del po.metadata["Plural-Forms"]
    for number, source in enumerate(sources, start=1):
        po.append(
            polib.POEntry(
                msgid=source,
                msgstr=pseudo_translate(source) if translated else "",
                occurrences=[("bench.md", str(number))],
            )
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    write_po(po, path)


# ---------------------------------------------------------------- the tools


@dataclass
class Setting:
    """One scenario on disk: the tolmach project, and msgmerge's copies of the inputs."""

    folder: Path
    scenario: Scenario
    old_bytes: bytes = b""

    @property
    def project(self) -> Path:
        return self.folder / "project"

    @property
    def catalog(self) -> Path:
        return self.project / "locales" / LOCALE / "LC_MESSAGES" / "bench.po"

    @property
    def template(self) -> Path:
        return self.project / "locales" / "bench.pot"

    def restore(self) -> None:
        """The old catalog again, byte for byte and with the same stamp."""
        self.catalog.write_bytes(self.old_bytes)
        os.utime(self.catalog, (FIXED_MTIME, FIXED_MTIME))


PYPROJECT = """\
[project]
name = "bench-merge"
version = "0"

[tool.tolmach]
source-locale = "ru"
locales = ["de"]
documents = ["bench.md"]
"""


def lay_out(folder: Path, scenario: Scenario, template: list[str]) -> Setting:
    """The project (pyproject, a stand-in document, glossary, template, catalog)."""
    setting = Setting(folder, scenario)
    project = setting.project
    project.mkdir(parents=True)
    (project / "pyproject.toml").write_text(PYPROJECT + seed_glossary(project), "utf-8")
    (project / "bench.md").write_text("Документ, из которого извлечён шаблон.\n", "utf-8")
    write_catalog(setting.template, template, translated=False)
    write_catalog(setting.catalog, scenario.old, translated=True)
    setting.old_bytes = setting.catalog.read_bytes()
    setting.restore()
    shutil.copyfile(setting.template, folder / "new.pot")
    shutil.copyfile(setting.catalog, folder / "old.po")
    tolmach = tolmach_executable()
    measure([tolmach, "-C", str(project), "tm", "rebuild"])  # as after the last update
    setting.restore()
    return setting


@dataclass
class Tool:
    """A way of merging: how to prepare a run, the command, where the result lands."""

    name: str
    command: list[str]
    output: Path
    env: dict[str, str] | None = None
    before: object = None  # callable run (untimed) before each measurement


def tools_for(
    setting: Setting, fuzzy: bool, one_thread: bool = True, previous: bool = True
) -> list[Tool]:
    tolmach = tolmach_executable()
    project = setting.project

    def current_memory() -> None:
        setting.restore()  # the memory learned another version of it: bring it up to date
        measure([tolmach, "-C", str(project), "tm", "rebuild"])
        setting.restore()

    def rebuilt_memory() -> None:
        setting.restore()
        shutil.rmtree(project / ".tolmach-cache", ignore_errors=True)

    def as_update_left_it() -> None:
        setting.restore()
        measure(update)  # untimed: the catalog and the result cache as after an update

    update = [tolmach, "-C", str(project), "update"]
    folder = setting.folder
    msgmerge = ["msgmerge", "--quiet", "--previous"]
    inputs = [str(folder / "old.po"), str(folder / "new.pot")]
    single_thread = {**os.environ, "OMP_NUM_THREADS": "1"}
    tools = [
        Tool("tolmach update (current memory)", update, setting.catalog, before=current_memory),
        Tool("tolmach update (memory rebuilt)", update, setting.catalog, before=rebuilt_memory),
        Tool("msgmerge -N", [*msgmerge, "-N", "-o", str(folder / "n.po"), *inputs],
             folder / "n.po"),
    ]
    if fuzzy:  # like for like with msgmerge -N: exact matches only, memory current
        tools.insert(2, Tool("tolmach update -N", [*update, "-N"], setting.catalog,
                             before=current_memory))
    if fuzzy and previous:
        tools.append(
            Tool("msgmerge --previous", [*msgmerge, "-o", str(folder / "p.po"), *inputs],
                 folder / "p.po")
        )
    if fuzzy and previous and one_thread:
        tools.append(
            Tool("msgmerge --previous, OMP_NUM_THREADS=1",
                 [*msgmerge, "-o", str(folder / "p1.po"), *inputs], folder / "p1.po",
                 env=single_thread)
        )
    if not fuzzy:
        tools.pop(1)  # nothing to find in the memory when nothing changed
        tools.insert(1, Tool("tolmach update, no-op (catalog as update left it)", update,
                             setting.catalog, before=as_update_left_it))
    return tools


@dataclass
class Outcome:
    tool: Tool
    runs: list[Measurement] = field(default_factory=list)
    kept: Path | None = None  # the first run's output, for the comparisons

    @property
    def summary(self) -> Summary:
        return Summary.of(self.runs)


def compare_paired(
    setting: Setting, tools: list[Tool], runs: int, timeout: float, single_after: float
) -> list[Outcome]:
    """Each repetition runs every tool once; the order reverses every other repetition."""
    outcomes = [Outcome(tool) for tool in tools]
    for repetition in range(runs):
        order = outcomes if repetition % 2 == 0 else outcomes[::-1]
        for outcome in order:
            first = outcome.runs[0] if outcome.runs else None
            if first is not None and (first.timed_out or first.wall > single_after):
                continue
            if outcome.tool.before:
                outcome.tool.before()
            print(f"… {setting.scenario.name}: {outcome.tool.name}, run {repetition + 1}",
                  file=sys.stderr, flush=True)
            run = measure(outcome.tool.command, env=outcome.tool.env, timeout=timeout)
            outcome.runs.append(run)
            if outcome.kept is None and not run.timed_out:
                outcome.kept = setting.folder / f"result-{outcomes.index(outcome)}.po"
                shutil.copyfile(outcome.tool.output, outcome.kept)
    setting.restore()
    return outcomes


# ---------------------------------------------------------------- what came out


@dataclass
class Contents:
    """What a merged catalog holds."""

    translated: int
    fuzzy: int
    untranslated: int
    obsolete: list[str]
    picks: dict[str, str]  # fuzzy msgid → the previous msgid (#|) it was matched with


def contents(path: Path) -> Contents:
    po = polib.pofile(str(path), wrapwidth=0)
    live = [entry for entry in po if not entry.obsolete]
    return Contents(
        translated=sum(bool(e.msgstr) and not e.fuzzy for e in live),
        fuzzy=sum(e.fuzzy for e in live),
        untranslated=sum(not e.msgstr and not e.fuzzy for e in live),
        obsolete=[e.msgid for e in po if e.obsolete],
        picks={e.msgid: e.previous_msgid for e in live if e.fuzzy and e.previous_msgid},
    )


def similarity(first: str | None, second: str) -> float:
    """2 × longest common subsequence ÷ both lengths (msgmerge's fstrcmp measure)."""
    return fuzz.ratio(first, second) / 100 if first is not None else 0.0


@dataclass
class Agreement:
    changed: int = 0
    same: int = 0
    ours_closer: int = 0
    theirs_closer: int = 0
    equally_close: int = 0
    only_ours: int = 0
    only_theirs: int = 0
    ours_right: int = 0  # picked the very string the edit was made from
    theirs_right: int = 0


def agreement(origins: dict[str, str], ours: dict[str, str], theirs: dict[str, str]) -> Agreement:
    """For each changed string, which old entry each tool took its fuzzy translation from."""
    result = Agreement(changed=len(origins))
    for new, origin in origins.items():
        mine, other = ours.get(new), theirs.get(new)
        result.ours_right += mine == origin
        result.theirs_right += other == origin
        if mine == other:
            result.same += 1
        elif other is None:
            result.only_ours += 1
        elif mine is None:
            result.only_theirs += 1
        else:
            difference = similarity(mine, new) - similarity(other, new)
            if abs(difference) < 1e-9:
                result.equally_close += 1
            elif difference > 0:
                result.ours_closer += 1
            else:
                result.theirs_closer += 1
    return result


def pick_quality(picks: dict[str, str]) -> tuple[int, float, float, int, float]:
    """Count, least and mean similarity, picks under 50%, and the least similarity
    counted in UTF-8 bytes (the unit of msgmerge's fstrcmp) over all fuzzy picks."""
    scores = sorted(similarity(old, new) for new, old in picks.items())
    if not scores:
        return 0, 0.0, 0.0, 0, 0.0
    in_bytes = min(fuzz.ratio(old.encode(), new.encode()) / 100 for new, old in picks.items())
    low = sum(s < 0.5 for s in scores)
    return len(scores), scores[0], sum(scores) / len(scores), low, in_bytes


# ---------------------------------------------------------------- the report


@dataclass
class Result:
    scenario: Scenario
    edited: list[Outcome]
    unchanged: list[Outcome]


def by_name(outcomes: list[Outcome], prefix: str) -> Outcome | None:
    return next((o for o in outcomes if o.tool.name.startswith(prefix)), None)


def cell(value: float, timed_out: bool, unit: str = " s") -> str:
    return f"> {value:.2f}{unit}" if timed_out else f"{value:.2f}{unit}"


def heading(title: str) -> None:
    """Every table says which command printed it, so that it can be quoted as it is."""
    command = " ".join(["bench/bench_merge.py", *sys.argv[1:]])
    print(f"\n`{command}` — {title}\n")


def print_timings(results: list[Result], timeout: float) -> None:
    heading("wall, CPU (user + system) and peak memory of each merge, median of the paired "
            f"runs; {machine_note()}")
    print("| catalog | template | tool | runs | wall | CPU | peak MiB | CPU ÷ tolmach |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for result in results:
        for label, outcomes in (("edited", result.edited), ("unchanged", result.unchanged)):
            ours = by_name(outcomes, "tolmach update (current").summary
            for outcome in outcomes:
                s = outcome.summary
                stopped = s.timed_out
                share = f"{s.cpu / ours.cpu:.1f}×" if ours.cpu else "–"
                if stopped:
                    share = f"> {share}"
                peak = "–" if stopped else f"{s.peak_mib:.0f}"
                print(f"| {result.scenario.name} | {label} | {outcome.tool.name} | {s.runs} "
                      f"| {cell(s.wall, stopped)} | {cell(s.cpu, stopped)} | {peak} | {share} |")
    print(f"\n(> : stopped after the --timeout of {timeout:.0f} s; CPU used until then)")


def print_targets(results: list[Result]) -> None:
    heading("targets (reported, not enforced)")
    print("| target | catalog | tolmach | msgmerge | result |")
    print("|---|---|---:|---:|---|")
    cases = (
        ("unchanged template, catalog restored", "unchanged", "tolmach update (current"),
        ("unchanged template, no-op", "unchanged", "tolmach update, no-op"),
        ("edited template (most entries exact), current memory", "edited",
         "tolmach update (current"),
        ("edited template, both without fuzzy matching (`update -N`)", "edited",
         "tolmach update -N"),
    )
    for result in results:
        for case, which, name in cases:
            outcomes = getattr(result, which)
            ours = by_name(outcomes, name).summary
            theirs = by_name(outcomes, "msgmerge -N").summary
            for what, a, b in (("wall", ours.wall, theirs.wall), ("CPU", ours.cpu, theirs.cpu)):
                print(f"| `update` ≤ `msgmerge -N`, {case} ({what}) "
                      f"| {result.scenario.name} | {a:.2f} s | {b:.2f} s "
                      f"| {'PASS' if a <= b else 'MISS'} |")
    for result in results:
        fuzzy = by_name(result.edited, "msgmerge --previous")
        if fuzzy is None:
            continue
        theirs = fuzzy.summary
        for name in ("tolmach update (current", "tolmach update (memory"):
            ours = by_name(result.edited, name).summary
            factor = theirs.cpu / ours.cpu if ours.cpu else float("inf")
            shown = f"{'> ' if theirs.timed_out else ''}{factor:.1f}×"
            verdict = "PASS" if factor >= 5 else ("MISS" if not theirs.timed_out else "unknown")
            print(f"| {name.removeprefix('tolmach ')}) ≥ 5× faster in CPU than "
                  f"`msgmerge --previous` ({shown}) | {result.scenario.name} "
                  f"| {ours.cpu:.2f} s | {cell(theirs.cpu, theirs.timed_out)} | {verdict} |")


def print_contents(results: list[Result], read: dict[Path, Contents]) -> None:
    heading("what each merge produced (edited template)")
    print("| catalog | tool | translated | fuzzy | untranslated | obsolete `#~` "
          "| of which removed sources | of which previous versions of changed strings |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    notes = []
    for result in results:
        scenario = result.scenario
        previous = set(scenario.origins.values())
        gone = set(scenario.old) - set(scenario.new) - previous
        for outcome in result.edited:
            if outcome.kept is None or "current" in outcome.tool.name:
                continue  # one line per distinct output: the two tolmach runs write the same
            c = read[outcome.kept]
            obsolete = set(c.obsolete)
            name = outcome.tool.name.replace(" (memory rebuilt)", "")
            print(f"| {scenario.name} | {name} | {c.translated:,} | {c.fuzzy:,} "
                  f"| {c.untranslated:,} | {len(c.obsolete):,} | {len(obsolete & gone):,} "
                  f"| {len(obsolete & previous):,} |")
            notes.append(f"{scenario.name}, {name}: keeps {len(obsolete & gone):,} of the "
                         f"{len(gone):,} removed sources and {len(obsolete & previous):,} of the "
                         f"{len(previous):,} edited strings' old versions as `#~`")
    print("\nHow each tool treats obsolete entries (counted in its output):")
    print("\n".join(f"- {note}" for note in notes))


def print_agreement(results: list[Result], read: dict[Path, Contents]) -> None:
    heading("fuzzy picks for the changed strings: tolmach against `msgmerge --previous`")
    print("| catalog | changed | same pick | differ: tolmach closer | differ: msgmerge closer "
          "| differ: equally close | only tolmach | only msgmerge | tolmach picked the origin "
          "| msgmerge picked the origin |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    quality_rows = []
    for result in results:
        ours = by_name(result.edited, "tolmach update (memory")
        theirs = by_name(result.edited, "msgmerge --previous")
        our_picks = read[ours.kept].picks
        quality_rows.append((result.scenario.name, "tolmach update", pick_quality(our_picks)))
        if theirs is None or theirs.kept is None:
            print(f"| {result.scenario.name} | {len(result.scenario.origins):,} "
                  f"| (msgmerge {'not run' if theirs is None else 'stopped'}) | | | | | | | |")
            continue
        their_picks = read[theirs.kept].picks
        quality_rows.append((result.scenario.name, "msgmerge --previous",
                             pick_quality(their_picks)))
        a = agreement(result.scenario.origins, our_picks, their_picks)
        share = a.same / a.changed if a.changed else 0
        print(f"| {result.scenario.name} | {a.changed:,} | {a.same:,} ({share:.1%}) "
              f"| {a.ours_closer} | {a.theirs_closer} | {a.equally_close} | {a.only_ours} "
              f"| {a.only_theirs} | {a.ours_right:,} | {a.theirs_right:,} |")
    heading("similarity of every fuzzy pick to its new string (2 × LCS ÷ total length, "
            "in characters)")
    print("| catalog | tool | fuzzy picks | least similar | mean | under 50% "
          "| least similar in UTF-8 bytes |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for name, tool, (count, least, mean, low, in_bytes) in quality_rows:
        print(f"| {name} | {tool} | {count:,} | {least:.0%} | {mean:.0%} | {low} "
              f"| {in_bytes:.0%} |")


def print_threads(results: list[Result], read: dict[Path, Contents]) -> None:
    """GNU msgmerge 0.21 spreads its fuzzy search over OpenMP threads."""
    for result in results:
        two = by_name(result.edited, "msgmerge --previous")
        one = by_name(result.edited, "msgmerge --previous, OMP")
        if two is None or two is one or one is None or not (two.kept and one.kept):
            continue
        same = two.kept.read_bytes() == one.kept.read_bytes()
        print(f"{result.scenario.name}: msgmerge with OMP_NUM_THREADS=1 wrote "
              f"{'the same bytes' if same else 'a DIFFERENT catalog'} as with its default threads")


def print_sets(results: list[Result]) -> None:
    heading("the catalogs (real strings from ../shared/data, deduplicated)")
    print("| catalog | made of | old entries | template entries | changed | new | removed |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for result in results:
        s = result.scenario
        print(f"| {s.name} | {s.makeup} | {len(s.old):,} | {len(s.new):,} "
              f"| {len(s.origins):,} | {s.added:,} | {s.removed:,} |")


# ---------------------------------------------------------------- running


def run_scenario(
    scenario: Scenario, scratch: Path, options: argparse.Namespace
) -> Result:
    folder = scratch / re.sub(r"\W+", "-", scenario.name)
    edited = lay_out(folder / "edited", scenario, scenario.new)
    unchanged = lay_out(folder / "unchanged", scenario, scenario.old)
    runs, timeout, single = options.runs, options.timeout, options.single_after
    return Result(
        scenario,
        compare_paired(
            edited,
            tools_for(edited, fuzzy=True, one_thread=options.one_thread, previous=options.previous),
            runs, timeout, single,
        ),
        compare_paired(unchanged, tools_for(unchanged, fuzzy=False), runs, timeout, single),
    )


SIZES = (("paragraphs", 5000), ("sentences", 15000), ("sentences", 50000))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="paired repetitions (default 3)")
    parser.add_argument("--quick", action="store_true", help="small catalogs, one run")
    parser.add_argument("--timeout", type=float, default=1800.0,
                        help="seconds after which one tool run is stopped (default 1800)")
    parser.add_argument("--single-after", type=float, default=120.0,
                        help="a tool whose first run took longer runs only once (default 120)")
    parser.add_argument("--no-one-thread", dest="one_thread", action="store_false",
                        help="skip the msgmerge --previous run with OMP_NUM_THREADS=1")
    parser.add_argument("--no-previous", dest="previous", action="store_false",
                        help="skip msgmerge --previous (minutes on the large catalogs)")
    parser.add_argument("--only", action="append", default=[],
                        help="run only the catalogs whose name contains this (repeatable)")
    parser.add_argument("--data", type=Path, help="the shared data folder (default: ../shared/data)")
    options = parser.parse_args()
    stop_cleanly_on_sigterm()
    if shutil.which("msgmerge") is None:
        raise SystemExit("GNU msgmerge is needed: install gettext")
    data = options.data or shared_data()
    if data is None or not (data / CORPORA[0]).is_file():
        print(f"bench_merge: {CORPORA[0]} not found (expected in ../shared/data); skipped")
        return 0
    if options.quick:
        options.runs = 1
    scale = 10 if options.quick else 1
    print("… reading the corpora", file=sys.stderr, flush=True)
    blocks = corpus_texts(data)
    scenarios = []
    for seed, (kind, size) in enumerate(SIZES, start=1):
        size //= scale
        name = f"{size:,} {kind}"
        if options.only and not any(part in name for part in options.only):
            continue
        pool = paragraph_pool(blocks) if kind == "paragraphs" else sentence_pool(
            blocks, int(size * (1 + NEW + 0.01))
        )
        scenarios.append(make_scenario(name, pool, size, seed))
    with tempfile.TemporaryDirectory(prefix="tolmach-merge-") as scratch:
        results = [run_scenario(s, Path(scratch), options) for s in scenarios]
        read = {
            outcome.kept: contents(outcome.kept)
            for result in results
            for outcome in result.edited
            if outcome.kept is not None
        }
        print_sets(results)
        print_timings(results, options.timeout)
        print_targets(results)
        print_contents(results, read)
        print_agreement(results, read)
        print()
        print_threads(results, read)
    return 0


if __name__ == "__main__":
    sys.exit(main())
