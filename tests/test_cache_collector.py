"""The records a run reads stay out of the cycle collector's sight until the run saves
them (``gc.freeze``: a full collection would walk each of them again and again), and the
command line skips the collection a process makes as it ends."""

from __future__ import annotations

import gc
import sys

import pytest

from tolmach.cli import main
from tolmach.jobs import ResultCache


@pytest.fixture(autouse=True)
def thawed():
    gc.unfreeze()
    yield
    gc.unfreeze()


def seen_by_the_collector(thing: object) -> bool:
    return any(tracked is thing for tracked in gc.get_objects())


def test_records_read_are_frozen_until_the_cache_is_saved(tmp_path):
    cache = ResultCache(tmp_path, "v")
    cache.put("publish-page", "de/a.html", "key", [["facts", 1]], document="a")
    cache.save(["a"])
    assert gc.get_freeze_count() == 0
    again = ResultCache(tmp_path, "v")
    payload = again.get("publish-page", "de/a.html", "key")
    assert payload == [["facts", 1]]
    assert gc.isenabled() and gc.get_freeze_count() > 0
    assert not seen_by_the_collector(payload)
    again.save(["a"])
    assert gc.get_freeze_count() == 0 and seen_by_the_collector(payload)


def test_a_torn_record_file_reads_as_empty_and_leaves_the_collector_on(tmp_path):
    cache = ResultCache(tmp_path, "v")
    cache.put("publish-page", "de/a.html", "key", ["facts"], document="a")
    cache.save(["a"])
    (cache.folder / "publish-page.json").write_text('{"de/a.html": [', "utf-8")
    again = ResultCache(tmp_path, "v")
    assert not again.recorded("publish-page")
    assert gc.isenabled()


def test_the_command_line_freezes_what_it_holds_as_it_ends(monkeypatch):
    monkeypatch.setattr(sys, "argv", ["tolmach", "--version"])
    with pytest.raises(SystemExit) as ended:
        main()
    assert ended.value.code == 0
    assert gc.get_freeze_count() > 0
