"""``update`` never drops a translation, whatever sequence of edits comes before it.

A hypothesis state machine plays author and translator on a project: the author adds,
removes, changes and restores paragraphs; the translator translates new entries (with
translator comments and flags such as ``ignore-length``), reviews fuzzy ones and
revises old ones; between them ``extract`` and ``update`` run through
:class:`tolmach.project.Project`. After every update:

* every translation the translator wrote last for a msgid is in the catalog, with its
  translator comment and flags: live if the msgid is in the source, obsolete (``#~``)
  if not, and back to life, not fuzzy, when the source returns; when the source text
  changed, as the fuzzy proposal for the new text (msgmerge keeps no obsolete copy of
  that), its flag waivers turned into comments pinned to the old text, and offered
  again, fuzzy, if the old text returns;
* a fuzzy translation nobody reviewed stays in the catalog, fuzzy, with a previous
  msgid (``#|``);
* the catalog reads back strictly (``read_po``) and by polib alike.
"""

from __future__ import annotations

import shutil
import tempfile
from collections import Counter
from pathlib import Path

import polib
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    precondition,
    rule,
    run_state_machine_as_test,
)
from strategies import ROBUST

from tolmach.catalog.pofile import read_po, write_po
from tolmach.config import load_config
from tolmach.project import Project

LOCALE = "de"
WORDS = (
    "модель", "ускоритель", "память", "ядро", "поток",
    "драйвер", "сборка", "версия", "тест", "данные",
)
TALLY: Counter[str] = Counter()
SEQUENCES = settings(ROBUST, max_examples=ROBUST.max_examples * 2 // 3, stateful_step_count=40)

sentences = st.lists(st.sampled_from(WORDS), min_size=2, max_size=8).map(
    lambda words: " ".join(words).capitalize() + "."
)


class AuthorAndTranslator(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.root = Path(tempfile.mkdtemp(prefix="tolmach-safety-"))
        (self.root / "seeds").mkdir()
        (self.root / "pyproject.toml").write_text(
            f'[tool.tolmach]\nlocales = ["{LOCALE}"]\n', "utf-8"
        )
        self.catalog = self.root / "locales" / LOCALE / "LC_MESSAGES" / "article.po"
        self.paragraphs: list[str] = []
        self.removed: list[str] = []
        self.serial = 0
        self.written: dict[str, tuple[str, str, list[str]]] = {}  # msgid → msgstr, comment, flags
        self.unreviewed: dict[str, tuple[str, str | None]] = {}  # fuzzy msgid → msgstr, #| msgid
        TALLY["sequences"] += 1

    def teardown(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)

    def unique(self, text: str) -> str:
        self.serial += 1
        return f"{text[:-1]} №{self.serial}."

    # --- the author ---------------------------------------------------------------

    @initialize(first=st.lists(sentences, min_size=1, max_size=6))
    def start(self, first: list[str]) -> None:
        self.paragraphs = [self.unique(text) for text in first]
        self.sync()

    @rule(text=sentences, where=st.integers(0, 50))
    def add(self, text: str, where: int) -> None:
        self.paragraphs.insert(where % (len(self.paragraphs) + 1), self.unique(text))

    @precondition(lambda self: len(self.paragraphs) > 1)
    @rule(which=st.integers(0, 50))
    def remove(self, which: int) -> None:
        self.removed.append(self.paragraphs.pop(which % len(self.paragraphs)))

    @precondition(lambda self: self.paragraphs)
    @rule(which=st.integers(0, 50), word=st.sampled_from(WORDS), replace=st.booleans())
    def change(self, which: int, word: str, replace: bool) -> None:
        index = which % len(self.paragraphs)
        old = self.paragraphs[index]
        words = old.split()
        if replace and len(words) > 2:
            words[0] = word.capitalize()
            changed = " ".join(words)
        else:
            changed = f"{old[:-1]} и {word}."
        if changed not in self.paragraphs:
            self.paragraphs[index] = changed
            self.removed.append(old)

    @precondition(lambda self: self.removed)
    @rule(which=st.integers(0, 50), where=st.integers(0, 50))
    def restore(self, which: int, where: int) -> None:
        text = self.removed.pop(which % len(self.removed))
        if text not in self.paragraphs:
            self.paragraphs.insert(where % (len(self.paragraphs) + 1), text)

    @rule()
    def sync(self) -> None:
        """``tolmach extract`` and ``tolmach update``, then everything is checked."""
        (self.root / "seeds" / "article.ru.md").write_text("\n\n".join(self.paragraphs) + "\n")
        project = Project(load_config(self.root))
        project.extract()
        project.update()
        TALLY["updates"] += 1
        self.check()

    # --- the translator -------------------------------------------------------------

    @precondition(lambda self: self.catalog.is_file())
    @rule(choices=st.lists(st.booleans(), min_size=1, max_size=12), comment=st.booleans(),
          flag=st.booleans())
    def translate(self, choices: list[bool], comment: bool, flag: bool) -> None:
        """Translate or review some entries: new, fuzzy, or already translated ones."""
        po = read_po(self.catalog)
        live = [entry for entry in po if not entry.obsolete]
        for entry, chosen in zip(live, choices, strict=False):
            if not chosen:
                continue
            self.serial += 1
            replaced = entry.msgstr  # a translation the translator overwrites is not lost
            for msgid in [k for k, v in self.written.items() if replaced and v[0] == replaced]:
                del self.written[msgid]
            entry.msgstr = f"Übersetzung {self.serial}: {entry.msgid}"
            if comment:
                entry.tcomment = f"geprüft {self.serial}\nzweite Zeile"
            if flag and "ignore-length" not in entry.flags:
                entry.flags.append("ignore-length")
            if "fuzzy" in entry.flags:  # reviewed, as Poedit does it: flag and #| go
                entry.flags.remove("fuzzy")
                entry.previous_msgid = None
            self.written[entry.msgid] = (entry.msgstr, entry.tcomment, list(entry.flags))
            self.unreviewed.pop(entry.msgid, None)
            TALLY["translations written"] += 1
        write_po(po, self.catalog)

    # --- what must hold -----------------------------------------------------------------

    def check(self) -> None:
        po = read_po(self.catalog)
        loose = polib.pofile(str(self.catalog))
        assert [(e.msgid, e.msgstr, e.obsolete) for e in po] == [
            (e.msgid, e.msgstr, e.obsolete) for e in loose
        ]
        live = {entry.msgid: entry for entry in po if not entry.obsolete}
        gone = {entry.msgid: entry for entry in po if entry.obsolete}
        proposals = {e.msgstr: e for e in po if "fuzzy" in e.flags}
        assert set(live) == set(self.paragraphs)
        for msgid, (msgstr, tcomment, flags) in self.written.items():
            own = live.get(msgid) if msgid in self.paragraphs else gone.get(msgid)
            exact = own is not None and own.msgstr == msgstr and "fuzzy" not in own.flags
            # else its entry became the fuzzy proposal for a changed text
            entry = own if exact else proposals.get(msgstr)
            assert entry is not None, f"translation of {msgid!r} lost"
            assert entry.msgstr == msgstr, f"translation of {msgid!r} changed"
            if exact:
                assert entry.tcomment == tcomment, f"translator comment of {msgid!r} lost"
                assert set(flags) <= set(entry.flags), f"flags of {msgid!r} lost"
            else:
                assert entry.tcomment.startswith(tcomment), f"translator comment of {msgid!r} lost"
                for flag in flags:
                    waiver = f"tolmach: ignore {flag.removeprefix('ignore-')}"
                    assert flag in entry.flags or waiver in entry.tcomment, f"{flag} lost"
            TALLY["translations checked"] += 1
        for msgid, (msgstr, _previous) in self.unreviewed.items():
            entry = proposals.get(msgstr)
            assert entry is not None, f"fuzzy {msgid!r} lost"
            assert entry.previous_msgid is not None, f"fuzzy {msgid!r} lost its #| msgid"
        for entry in live.values():
            if "fuzzy" in entry.flags and entry.msgid not in self.unreviewed:
                assert entry.previous_msgid is not None, "a fuzzy proposal says where it came from"
                self.unreviewed[entry.msgid] = (entry.msgstr, entry.previous_msgid)
                TALLY["fuzzy proposals"] += 1


def test_no_sequence_of_edits_and_updates_loses_a_translation():
    run_state_machine_as_test(AuthorAndTranslator, settings=SEQUENCES)
    print(
        f"\n{TALLY['sequences']} edit sequences, {TALLY['updates']} updates, "
        f"{TALLY['translations written']} translations written, "
        f"{TALLY['translations checked']} checks that one survived, "
        f"{TALLY['fuzzy proposals']} fuzzy proposals kept with their #| msgid: none lost"
    )
