"""How a catalog's findings are recorded for the next run: every field comes back as it
was, and what its findings share (path, check, severity, fix) is written once."""

from __future__ import annotations

import gc
import json

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tolmach.checks.registry import Finding
from tolmach.project import _finding_rows, _findings

texts = st.text(max_size=30)
findings = st.builds(
    Finding,
    path=st.sampled_from(["locales/de/LC_MESSAGES/a.po", "locales/de/LC_MESSAGES/b/c.po"]),
    line=st.integers(0, 10_000),
    check=st.sampled_from(["untranslated", "glossary", "markup"]),
    severity=st.sampled_from(["error", "warning"]),
    message=texts,
    msgid=texts,
    waived=st.booleans(),
    source=texts,
    fix=st.sampled_from(["", "translate them in a PO editor", "keep the term"]),
)


@given(st.lists(findings, max_size=20))
def test_recorded_findings_come_back_as_they_were(found):
    recorded = orjson.loads(orjson.dumps(_finding_rows(found)))  # as the cache file keeps them
    restored = _findings(recorded)
    assert restored == found
    assert [hash(f) for f in restored] == [hash(f) for f in found]
    assert [str(f) for f in restored] == [str(f) for f in found]


def test_a_restored_finding_is_as_frozen_as_a_new_one():
    (restored,) = _findings(_finding_rows([Finding("a.po", 1, "markup", "error", "m")]))
    with pytest.raises(AttributeError):
        restored.line = 2


def test_what_the_findings_of_a_catalog_share_is_written_once():
    path, fix = "locales/de/LC_MESSAGES/guide/intro.po", "translate them in a PO editor"
    found = [Finding(path, line, "untranslated", "warning", f"entry {line}", fix=fix)
             for line in range(1, 50)]
    text = json.dumps(_finding_rows(found))
    assert text.count(path) == 1 and text.count(fix) == 1
    assert text.count("untranslated") == 1 and text.count("warning") == 1


def test_restoring_findings_leaves_the_collector_as_it_was():
    rows = _finding_rows([Finding("a.po", 1, "markup", "error", "m")])
    assert gc.isenabled()
    _findings(rows)
    assert gc.isenabled()
