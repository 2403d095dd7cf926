"""A tolmach run killed at any moment loses nothing; two runs at once do not collide.

A project of several articles × three locales is fully translated. Then, again and
again, the sources switch between two versions and ``tolmach extract``, ``update`` or
``build`` starts as a separate process and is killed with SIGKILL (no cleanup handler
can run) at a point a seeded schedule picks: half-way through writing the Nth temporary
file, before or right after its rename, or inside the translation memory's transaction
before its commit. The points are events, not moments, so every run of the test kills
at the same places and prints the same counts. After every kill each catalog is read
strictly and by polib, holds every translation ever written (live, fuzzy or obsolete),
and the next run is not blocked by a stale lock. Outputs are whole documents or absent.
"""

from __future__ import annotations

import functools
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import polib
import pytest

from tolmach.catalog.pofile import read_po, write_po
from tolmach.config import load_config
from tolmach.fileio import project_lock
from tolmach.markdown.document import parse_document
from tolmach.project import Project

LOCALES = ("en", "de", "zh_CN")
DOCUMENTS = 3
PARAGRAPHS = 250
KILLS = 30
WORDS = (
    "модель", "ускоритель", "память", "ядро", "поток", "драйвер",
    "сборка", "версия", "тест", "данные", "вычисление",
)

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX signals")


def article(number: int, variant: str) -> str:
    """Version ``a`` or ``b`` of an article: ``b`` changes, drops and adds paragraphs."""
    rng = random.Random(number)
    blocks = [f"# Статья {number}"]
    for index in range(PARAGRAPHS):
        words = [rng.choice(WORDS) for _ in range(12)]
        text = f"Абзац {index}: " + " ".join(words) + "."
        if variant == "b" and index % 7 == 0:
            text = text.replace("Абзац", "Изменённый абзац")
        if variant == "b" and index % 11 == 0:
            continue
        blocks.append(f"> {text}" if index % 5 == 0 else text)
        if variant == "b" and index % 13 == 0:
            blocks.append(f"Новый абзац {index} только во второй версии.")
    return "\n\n".join(blocks) + "\n"


def use_sources(root: Path, variant: str) -> None:
    for number in range(DOCUMENTS):
        (root / "seeds" / f"doc{number}.ru.md").write_text(article(number, variant), "utf-8")


def catalogs(root: Path) -> list[Path]:
    return sorted((root / "locales").glob("*/LC_MESSAGES/*.po"))


def translate_everything(root: Path, written: dict[tuple[str, str], set[str]]) -> None:
    """Give each untranslated entry a translation, a translator comment and a flag."""
    for path in catalogs(root):
        locale, doc = path.parts[-3], path.stem
        po = read_po(path)
        for entry in po:
            if not entry.obsolete and not entry.msgstr:
                entry.msgstr = f"[{locale}] {entry.msgid}"
                entry.tcomment = f"переведено для {locale}"
                entry.flags.append("ignore-length")
            if entry.msgstr:
                written.setdefault((locale, doc), set()).add(entry.msgstr)
        write_po(po, path)


def assert_nothing_lost(root: Path, written: dict[tuple[str, str], set[str]]) -> None:
    found = catalogs(root)
    assert len(found) == DOCUMENTS * len(LOCALES)
    for path in found:
        strict = read_po(path)  # raises on any malformed line
        loose = polib.pofile(str(path))
        assert len(strict) == len(loose)
        present = {entry.msgstr for entry in strict if entry.msgstr}
        missing = written[(path.parts[-3], path.stem)] - present
        assert not missing, f"{path.name}: {len(missing)} translations lost"
    for pot in (root / "locales").glob("*.pot"):
        read_po(pot)
    stray = [p for p in (root / "locales").rglob("*") if p.is_file() and ".tmp" in p.name]
    assert all(p.name.startswith(".") for p in stray), "a temporary file looks like a catalog"


@functools.cache
def segment_counts(number: int) -> tuple[int, int]:
    return tuple(len(parse_document(article(number, v)).segments) for v in "ab")


def assert_outputs_whole(root: Path) -> None:
    for path in (root / "output").glob("*/*.md"):
        number = int(path.stem.removeprefix("doc"))
        segments = len(parse_document(path.read_text("utf-8")).segments)
        assert segments in segment_counts(number), f"{path} is cut short"


def tolmach(root: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "tolmach", "-C", str(root), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.fixture
def project(tmp_path: Path) -> tuple[Path, dict[tuple[str, str], set[str]]]:
    """Both source versions extracted, updated and translated in full."""
    root = tmp_path
    (root / "seeds").mkdir()
    (root / "pyproject.toml").write_text(
        f"[tool.tolmach]\nlocales = {list(LOCALES)!r}\n".replace("'", '"'), "utf-8"
    )
    written: dict[tuple[str, str], set[str]] = {}
    for variant in ("a", "b", "a"):
        use_sources(root, variant)
        project = Project(load_config(root))
        project.extract()
        project.update()
        translate_everything(root, written)
    return root, written


#: Runs ``tolmach`` and kills it with SIGKILL at the Nth event of one kind: deterministic
#: points, so every run of the test kills at the same places and reports the same counts.
_KILLED_AT = """
import os, signal, sqlite3, sys

kind, chosen, args = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
seen = {}


def happens(event):
    seen[event] = seen.get(event, 0) + 1
    return event == kind and seen[event] == chosen


def die():
    os.kill(os.getpid(), signal.SIGKILL)


real_fdopen, real_replace, real_connect = os.fdopen, os.replace, sqlite3.connect


class HalfWritten:
    def __init__(self, handle):
        self.handle = handle

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def write(self, data):
        self.handle.write(data[: len(data) // 2])
        self.handle.flush()
        die()


def fdopen(fd, mode="r", *rest, **options):
    handle = real_fdopen(fd, mode, *rest, **options)
    return HalfWritten(handle) if "w" in mode and happens("write") else handle


def replace(source, target):
    if happens("rename"):
        die()
    real_replace(source, target)
    if happens("renamed"):
        die()


class Connection(sqlite3.Connection):
    def execute(self, sql, *rest):
        if sql == "COMMIT" and happens("commit"):
            die()
        return super().execute(sql, *rest)


os.fdopen, os.replace = fdopen, replace
sqlite3.connect = lambda *rest, **options: real_connect(*rest, factory=Connection, **options)
from tolmach.cli import main

sys.argv = ["tolmach", *args]
main()
"""

#: Where a run is killed: (event, what the files look like at that moment).
KILL_POINTS = {
    "write": "half-way through writing a temporary file",
    "rename": "with a whole temporary file, before its rename",
    "renamed": "right after a rename, the other files not yet written",
    "commit": "inside a translation memory transaction, before its commit",
}


def killed_at(root: Path, kind: str, number: int, *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", _KILLED_AT, kind, str(number), "-C", str(root), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_a_run_killed_at_any_moment_loses_no_translation(project):
    root, written = project
    rng = random.Random(20240601)
    files = {"extract": DOCUMENTS, "update": DOCUMENTS * len(LOCALES),
             "build --threshold 0": DOCUMENTS * len(LOCALES)}
    commands = ("extract", "update", "build --threshold 0")  # each cycle on changed sources
    outcomes = {f"killed {where}": 0 for where in KILL_POINTS.values()}
    outcomes |= {"finished (fewer events than the kill point)": 0, "temporary files left": 0}
    variant = "a"
    for run in range(KILLS):
        if run % len(commands) == 0:
            variant = "b" if variant == "a" else "a"
            use_sources(root, variant)
        command = commands[run % len(commands)]
        kinds = [k for k in KILL_POINTS if k != "commit" or command == "update"]
        kind = rng.choice(kinds)
        number = 1 if kind == "commit" else rng.randint(1, files[command])
        process = killed_at(root, kind, number, *command.split(), "-j", "1")  # kills this process
        code = process.wait(timeout=120)
        if code == -signal.SIGKILL:
            outcomes[f"killed {KILL_POINTS[kind]}"] += 1
        elif code == 0:
            outcomes["finished (fewer events than the kill point)"] += 1
        else:
            pytest.fail(f"run {run} ({command}) failed: {process.stderr.read()}")
        assert_nothing_lost(root, written)
        assert_outputs_whole(root)
    outcomes["temporary files left"] = len(list(root.rglob(".*.tmp")))
    for command in (["extract"], ["update"], ["build", "--threshold", "0"]):
        finishing = tolmach(root, *command)
        assert finishing.wait(timeout=120) == 0, finishing.stderr.read()  # no stale lock
    assert_nothing_lost(root, written)
    assert_outputs_whole(root)
    killed = sum(count for name, count in outcomes.items() if name.startswith("killed"))
    print(f"\n{KILLS} runs of {DOCUMENTS * len(LOCALES)} catalogs, SIGKILL at chosen points: "
          f"{killed} killed, {outcomes}")
    assert all(outcomes[f"killed {where}"] for where in KILL_POINTS.values()), outcomes
    assert killed >= KILLS // 2, "runs should be killed mid-way, not only after the end"


def test_a_second_process_is_refused_while_the_first_holds_the_lock(project):
    root, _ = project
    with project_lock(root):
        second = tolmach(root, "update")
        assert second.wait(timeout=60) == 1
        message = second.stderr.read().strip()
    assert message == (
        f"Error: another tolmach process (pid {os.getpid()}) is working on this project; "
        "wait for it to finish and run the command again"
    )
    assert tolmach(root, "update").wait(timeout=120) == 0  # released when the holder ends


_CONTEND = """
import os, sys, time
from pathlib import Path
from tolmach.fileio import ProjectLocked, project_lock

root, seconds = Path(sys.argv[1]), float(sys.argv[2])
held = refused = 0
deadline = time.monotonic() + seconds
while time.monotonic() < deadline:
    try:
        with project_lock(root):
            # O_EXCL: fails if another process is inside too
            os.close(os.open(root / "inside", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            held += 1
            os.unlink(root / "inside")
    except ProjectLocked:
        refused += 1
print(held, refused)
"""


def test_processes_taking_and_releasing_the_lock_never_hold_it_together(tmp_path):
    """The lock file is removed on release: a process that opened it just before must not
    lock the removed file while a third one locks the new file."""
    contenders = [
        subprocess.Popen([sys.executable, "-c", _CONTEND, str(tmp_path), "3"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(4)
    ]
    counts = []
    for process in contenders:
        out, err = process.communicate(timeout=60)
        assert process.returncode == 0, err  # FileExistsError: two holders at once
        counts.append(tuple(map(int, out.split())))
    held, refused = sum(c[0] for c in counts), sum(c[1] for c in counts)
    assert held > 100 and refused > 0, counts
    assert list(tmp_path.iterdir()) == [], "the lock left a file or folder behind"
    print(f"\n4 processes for 3 s: the lock taken {held} times, refused {refused} times, "
          "never held twice")


def test_two_processes_started_together_do_not_corrupt_the_catalogs(project):
    root, written = project
    use_sources(root, "b")
    assert tolmach(root, "extract").wait(timeout=120) == 0
    first, second = tolmach(root, "update"), tolmach(root, "update")
    codes = sorted([first.wait(timeout=120), second.wait(timeout=120)])
    assert codes in ([0, 0], [0, 1])  # the later one is refused, or starts after the first
    for process in (first, second):
        if process.returncode == 1:
            assert "another tolmach process" in process.stderr.read()
    assert_nothing_lost(root, written)


_BIG_WRITE = """
import sys
from pathlib import Path

import polib

from tolmach.fileio import write_atomic
from tolmach.catalog.pofile import write_po

target, writer = Path(sys.argv[1]), sys.argv[2]
text = "новый текст " * 2**20
if writer == "write_atomic":
    write_atomic(target, text)
else:
    po = polib.POFile()
    po.metadata = {"Content-Type": "text/plain; charset=UTF-8"}
    po.append(polib.POEntry(msgid="a", msgstr=text))
    write_po(po, target, width=0)
"""


@pytest.mark.parametrize("writer", ["write_atomic", "write_po"])
def test_a_file_killed_while_being_written_keeps_its_old_bytes(tmp_path, writer):
    """Killed between creating the temporary file and renaming it: the target is untouched."""
    target = tmp_path / "article.po"
    old = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "a"\nmsgstr "alt"\n'
    caught = 0
    for _ in range(5):
        target.write_text(old, "utf-8")
        process = subprocess.Popen([sys.executable, "-c", _BIG_WRITE, str(target), writer])
        while process.poll() is None and not list(tmp_path.glob(".*.tmp")):
            pass
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=60)
        data = target.read_bytes()
        if data == old.encode("utf-8"):
            caught += 1
        else:  # the rename won the race: then the new file is there whole
            assert data.endswith('новый текст "\n'.encode()) if writer == "write_po" else (
                len(data) == len("новый текст ".encode()) * 2**20
            )
        read_po(target)
        for leftover in tmp_path.glob(".*.tmp"):
            leftover.unlink()
        if caught:
            break
    assert caught, "no kill landed while the file was being written"
