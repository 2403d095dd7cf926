"""What the glossary found is remembered per text, across locales and runs, never stale.

A project keeps the matches under ``.tolmach-cache/glossary-matches``, named by what
finding depends on (the terms' spellings, case rules, contexts, and the versions of the
matcher). These tests hold the cache to three promises: a remembered match is the match
the termbase would find now; a changed glossary or scope is never answered from an old
table; and the cache saves work (a second run finds nothing new to match, and does not
check the unchanged glossary for duplicate terms again, which would load the morphology).
"""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest

import tolmach.glossary.termbase as termbase_module
from tolmach.config import load_config
from tolmach.glossary import GlossaryError, matchcache, parse_termbase
from tolmach.glossary.matchcache import CACHE_FILE, UNIQUE_FILE, MatchStore
from tolmach.project import Project

DATA = Path(__file__).parent / "data" / "glossary"
SENSES = tomllib.loads((DATA / "sense_cases.toml").read_text(encoding="utf-8"))
TEXTS = [(case["text"], case.get("heading", False)) for case in SENSES["case"]]
GLOSSARY = (DATA / "senses.toml").read_text(encoding="utf-8")


def found(termbase, text: str, heading: bool) -> list[tuple[str, int, int, str]]:
    return [(m.term.source, m.start, m.end, m.text) for m in termbase.find_in_source(text, heading)]


def test_stored_matches_are_the_matches_found_afresh(tmp_path: Path) -> None:
    path = tmp_path / "matches"
    first = parse_termbase(GLOSSARY)
    store = MatchStore(path)
    first.remember_in(store)
    expected = [found(first, text, heading) for text, heading in TEXTS]
    assert any(expected) and store.save()

    again = parse_termbase(GLOSSARY)
    store = MatchStore(path)
    again.remember_in(store)
    assert [found(again, text, heading) for text, heading in TEXTS] == expected
    assert store.tables[again.match_name].new == 0  # all answered from the file
    assert not store.save()  # nothing new: the file is not rewritten


def test_a_changed_glossary_is_not_answered_from_the_old_table(tmp_path: Path) -> None:
    path = tmp_path / "matches"
    old = parse_termbase(GLOSSARY)
    store = MatchStore(path)
    old.remember_in(store)
    for text, heading in TEXTS:
        found(old, text, heading)
    store.save()
    changed = parse_termbase(GLOSSARY.replace('source = "вывод"', 'source = "выход"', 1))
    assert changed.match_name != old.match_name
    store = MatchStore(path)
    changed.remember_in(store)
    assert [found(changed, t, h) for t, h in TEXTS] == [
        found(parse_termbase(GLOSSARY.replace('source = "вывод"', 'source = "выход"', 1)), t, h)
        for t, h in TEXTS
    ]



def matched_afresh(path: Path, glossary: str, texts) -> int:
    """Match ``texts`` with a store read from ``path``, save it, and say how many of them
    had to be matched (were not remembered)."""
    termbase = parse_termbase(glossary)
    store = MatchStore(path)
    termbase.remember_in(store)
    for text, heading in texts:
        found(termbase, text, heading)
    fresh = store.tables[termbase.match_name].new
    store.save()
    return fresh


def test_a_run_that_looks_at_a_few_texts_keeps_what_the_others_hold(tmp_path: Path) -> None:
    path = tmp_path / "matches"
    assert matched_afresh(path, GLOSSARY, TEXTS) == len(set(TEXTS))
    assert matched_afresh(path, GLOSSARY, [*TEXTS[:1], ("Новый абзац.", False)]) == 1
    assert matched_afresh(path, GLOSSARY, TEXTS) == 0  # the others were kept


def test_a_glossary_table_not_used_in_a_run_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "matches"
    other = GLOSSARY.replace('source = "вывод"', 'source = "выход"', 1)
    matched_afresh(path, GLOSSARY, TEXTS)
    matched_afresh(path, other, TEXTS)  # another table saved: the first one stays
    assert matched_afresh(path, GLOSSARY, TEXTS) == 0


def test_texts_no_run_used_for_a_while_go(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(matchcache, "KEEP_SAVES", 3)
    path = tmp_path / "matches"
    old = ("Старая редакция абзаца.", False)
    matched_afresh(path, GLOSSARY, [old])
    for number in range(2):  # two saving runs without it: still kept
        matched_afresh(path, GLOSSARY, [(f"Правка {number}.", False)])
    assert matched_afresh(path, GLOSSARY, [old, ("Правка 2.", False)]) == 1  # kept: 1 fresh
    for number in range(3, 6):  # three saving runs without it: gone
        matched_afresh(path, GLOSSARY, [(f"Правка {number}.", False)])
    assert matched_afresh(path, GLOSSARY, [old]) == 1

def test_translations_do_not_name_the_table_but_terms_do() -> None:
    base = parse_termbase(GLOSSARY)
    retranslated = parse_termbase(GLOSSARY.replace('en = "inference"', 'en = "deduction"'))
    assert retranslated.match_name == base.match_name
    assert found(retranslated, *TEXTS[0]) == found(base, *TEXTS[0])


def test_a_broken_cache_file_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "matches"
    path.write_bytes(b"\x00 not a cache")
    termbase = parse_termbase(GLOSSARY)
    termbase.remember_in(MatchStore(path))
    assert [found(termbase, t, h) for t, h in TEXTS] == [
        found(parse_termbase(GLOSSARY), t, h) for t, h in TEXTS
    ]


def test_documents_with_the_same_terms_share_what_was_found() -> None:
    termbase = parse_termbase(
        GLOSSARY + '\n[[term]]\nsource = "ядро"\nkind = "translate"\nscope = ["gpu/**"]\n'
        'translations = { en = "kernel" }\n'
    )
    a, b, other = (termbase.for_document(name) for name in ("a", "b", "gpu/x"))
    assert a is b and a is not other and a.match_name != other.match_name


def test_a_project_run_fills_the_cache_and_the_next_run_matches_nothing(tmp_path: Path) -> None:
    shutil.copytree(Path(__file__).parent.parent / "seeds", tmp_path / "seeds")
    shutil.copytree(Path(__file__).parent.parent / "locales", tmp_path / "locales")
    shutil.copyfile(Path(__file__).parent.parent / "pyproject.toml", tmp_path / "pyproject.toml")
    Project(load_config(tmp_path)).extract()
    assert (tmp_path / CACHE_FILE).is_file()
    project = Project(load_config(tmp_path))
    project.check()
    tables = project.glossary_matches.tables
    assert tables and all(table.new == 0 for table in tables.values())


def seed_copy(folder: Path) -> Path:
    for name in ("seeds", "locales"):
        shutil.copytree(Path(__file__).parent.parent / name, folder / name)
    shutil.copyfile(Path(__file__).parent.parent / "pyproject.toml", folder / "pyproject.toml")
    return folder


def lemmatized_terms(monkeypatch) -> list[str]:
    """The spellings the glossary's duplicate check lemmatizes from now on."""
    seen: list[str] = []
    real = termbase_module.lemma_pattern
    monkeypatch.setattr(termbase_module, "lemma_pattern",
                        lambda phrase, case: seen.append(phrase) or real(phrase, case))
    return seen


def test_an_unchanged_glossary_is_not_checked_for_duplicates_again(tmp_path, monkeypatch):
    root = seed_copy(tmp_path)
    lemmatized = lemmatized_terms(monkeypatch)
    assert Project(load_config(root)).termbase.terms
    assert lemmatized and (root / UNIQUE_FILE).is_file()  # the first load checks
    lemmatized.clear()
    assert Project(load_config(root)).termbase.terms
    assert lemmatized == []  # the same text: found unique before


def test_a_glossary_edited_into_a_duplicate_is_refused_though_the_last_one_was_unique(
    tmp_path, monkeypatch
):
    root = seed_copy(tmp_path)
    glossary = root / "locales" / "glossary.toml"
    Project(load_config(root)).termbase  # noqa: B018 - remembered as unique
    source = tomllib.loads(glossary.read_text("utf-8"))["term"][0]["source"]
    with glossary.open("a", encoding="utf-8") as handle:
        handle.write(f'\n[[term]]\nsource = "{source}"\nkind = "keep"\n')
    with pytest.raises(GlossaryError, match="duplicate term"):
        Project(load_config(root)).termbase  # noqa: B018
    with pytest.raises(GlossaryError, match="duplicate term"):  # and on every run after
        Project(load_config(root)).termbase  # noqa: B018


def stored_matches(root: Path) -> dict[str, dict[bytes, matchcache.Found]]:
    """The glossary matches a project keeps, without the runs' ages."""
    import marshal

    data = marshal.loads((root / CACHE_FILE).read_bytes())
    return {name: {key: found for key, (found, _) in table.items()}
            for name, table in data["tables"].items()}


def test_matches_found_by_workers_are_kept_as_one_process_keeps_them(tmp_path: Path) -> None:
    from pipeline_project import make_project, run_command

    alone, pooled = (make_project(tmp_path / name, documents=6) for name in ("alone", "pooled"))
    assert run_command(alone, "extract", "-j", "1").exit_code == 0
    assert run_command(pooled, "extract", "-j", "2").exit_code == 0
    kept = stored_matches(alone)
    assert any(any(found for found in table.values()) for table in kept.values())
    assert stored_matches(pooled) == kept
    project = Project(load_config(pooled))
    project.check()  # in this process: every text's terms come from what the workers found
    assert all(table.new == 0 for table in project.glossary_matches.tables.values())


def test_a_forked_worker_sends_back_only_what_it_matched_itself(monkeypatch) -> None:
    termbase = parse_termbase(GLOSSARY)
    table = termbase.match_table
    monkeypatch.setattr(matchcache.os, "getpid", lambda: 100)  # the process that forks
    (before_fork, _), (in_worker, heading) = TEXTS[0], TEXTS[1]
    found(termbase, before_fork, False)
    monkeypatch.setattr(matchcache.os, "getpid", lambda: 101)  # the worker, with its copy
    assert table.take_new() == {}
    found(termbase, in_worker, heading)
    matched = table.found[in_worker, heading and termbase._heading_rules]
    assert list(table.take_new().values()) == [matched]
    assert table.take_new() == {}  # taken once


def test_a_worker_keeps_what_it_looked_up_by_digest_once_sent(monkeypatch) -> None:
    """After sending its matches back, a worker holds no text of them, and still answers
    every text it looked up without matching it again."""
    termbase = parse_termbase(GLOSSARY)
    table = termbase.match_table
    answers = {(text, heading): found(termbase, text, heading) for text, heading in TEXTS}
    assert table.take_new() and table.found == {}
    monkeypatch.setattr(type(termbase), "_find", lambda *args: pytest.fail("matched again"))
    assert {(text, heading): found(termbase, text, heading) for text, heading in TEXTS} == answers
