"""Mutation tests: every dialect mistake a translator can make through the catalog is
caught by ``tolmach check`` and refused by ``tolmach build --strict``.

Cases in ``tests/data/dialects/mutations.toml``. Each runs a real project: extract,
update, the mutated msgstr, then check (exit 1, an error of the named check on that
entry), build --strict (exit 1, nothing written) and a plain build (written, the entry
on its source text).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import polib
import pytest
from click.testing import CliRunner

from tolmach.catalog.pofile import read_po
from tolmach.cli import cli

CASES = tomllib.loads(
    (Path(__file__).parent / "data" / "dialects" / "mutations.toml").read_text("utf-8")
)["case"]


def run(root: Path, *args: str, code: int):
    result = CliRunner().invoke(cli, ["-C", str(root), *args], catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result.output


@pytest.fixture(params=CASES, ids=[c["name"] for c in CASES])
def mutated(request, tmp_path):
    """A project whose one entry holds the mutated translation (all others translated)."""
    case = request.param
    (tmp_path / "pyproject.toml").write_text(
        f'[tool.tolmach]\nlocales = ["de"]\ndialect = "{case["dialect"]}"\n', "utf-8"
    )
    (tmp_path / "seeds").mkdir()
    (tmp_path / "seeds" / "doc.md").write_text(case["document"], "utf-8")
    run(tmp_path, "extract", code=0)
    run(tmp_path, "update", code=0)
    path = tmp_path / "locales" / "de" / "LC_MESSAGES" / "doc.po"
    po = polib.pofile(str(path))
    assert case["msgid"] in {e.msgid for e in po}, [e.msgid for e in po]
    for entry in po:
        entry.msgstr = case["msgstr"] if entry.msgid == case["msgid"] else entry.msgid
    po.save()
    line = next(e.linenum for e in read_po(path) if e.msgid == case["msgid"])
    return tmp_path, case, line


def test_check_reports_the_mutation_on_its_entry(mutated):
    root, case, line = mutated
    output = run(root, "check", code=1)
    found = re.search(
        rf"^locales/de/LC_MESSAGES/doc\.po:{line} \(seeds/doc\.md:\d+\): "
        rf"error: \[{re.escape(case['check'])}\]",
        output,
        re.M,
    )
    assert found, output


def test_strict_build_refuses_the_document(mutated):
    root, _, _ = mutated
    run(root, "build", "--strict", code=1)
    assert not (root / "output" / "de" / "doc.md").exists()


def test_plain_build_keeps_the_document_sound(mutated):
    """Without --strict, a structure change falls back to the source text; an atom error
    (which keeps the structure) is the markup check's to report."""
    root, case, _ = mutated
    run(root, "build", code=0)
    built = (root / "output" / "de" / "doc.md").read_text("utf-8")
    if case["check"] == "structure":
        assert case["msgstr"] not in built
        assert built == case["document"]
