"""Every catalog tolmach writes is one GNU gettext accepts.

``msgfmt --check-format --check-header -o /dev/null`` must exit 0 on the committed
catalogs under ``locales/``, on catalogs made from each CommonMark spec example
(extracted, pseudo-translated, written by :func:`write_po`), and on catalogs that went
through extract and update with fuzzy and obsolete entries. A ``.po`` must not even
draw a warning; a ``.pot`` may only be warned about its placeholder header fields,
which are a template's by definition.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import polib
import pytest

from tolmach.catalog.merge import update_catalog
from tolmach.catalog.pofile import read_po, write_po
from tolmach.catalog.template import extract_template
from tolmach.config import load_config
from tolmach.markdown.document import parse_document
from tolmach.markdown.pseudo import pseudo_catalog
from tolmach.project import Project

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).parent / "data"
COMMITTED = sorted((ROOT / "locales").glob("*.pot")) + sorted(
    (ROOT / "locales").glob("*/LC_MESSAGES/*.po")
)
_TEMPLATE_WARNING = "still has the initial default value"


@pytest.fixture(scope="module")
def msgfmt() -> str:
    found = shutil.which("msgfmt")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("GNU msgfmt not found: install gettext (.ci/run does)")
        pytest.skip("GNU msgfmt not installed; catalogs are validated against it")
    return found


def problems(msgfmt: str, path: Path) -> list[str]:
    """What msgfmt says about ``path``: nothing for a good catalog."""
    result = subprocess.run(
        [msgfmt, "--check-format", "--check-header", "-o", os.devnull, str(path)],
        capture_output=True,
        text=True,
    )
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    if path.suffix == ".pot":
        lines = [line for line in lines if _TEMPLATE_WARNING not in line]
    if result.returncode != 0 and not lines:
        lines = [f"exit code {result.returncode}"]
    return lines


def assert_all_pass(msgfmt: str, paths: list[Path]) -> None:
    with ThreadPoolExecutor(max_workers=4) as pool:
        reports = dict(zip(paths, pool.map(lambda p: problems(msgfmt, p), paths), strict=True))
    failed = {p.name: lines for p, lines in reports.items() if lines}
    assert not failed, failed


def test_the_committed_catalogs_pass_msgfmt(msgfmt):
    assert COMMITTED, "locales/ should hold the seed catalogs"
    assert_all_pass(msgfmt, COMMITTED)


def test_catalogs_of_every_commonmark_example_pass_msgfmt(msgfmt, tmp_path):
    examples = json.loads((DATA / "commonmark-spec.json").read_text("utf-8"))
    written = []
    for example in examples:
        number = example["example"]
        pot = extract_template(
            parse_document(example["markdown"]), f"spec/{number}.md", project=f"example-{number}"
        )
        pot_path = tmp_path / f"{number}.pot"
        write_po(pot, pot_path)
        po = update_catalog(read_po(pot_path), None, "de", document=str(number))
        pseudo_catalog(po)
        po_path = tmp_path / f"{number}.po"
        write_po(po, po_path)
        written += [pot_path, po_path]
    assert len(written) == 2 * len(examples) == 1304
    assert_all_pass(msgfmt, written)


def test_catalogs_after_edits_with_fuzzy_and_obsolete_entries_pass_msgfmt(msgfmt, tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.tolmach]\nlocales = ["en", "de", "zh_CN"]\npo-width = 40\n', "utf-8"
    )
    source = tmp_path / "seeds" / "a.ru.md"
    source.parent.mkdir()
    source.write_text(
        "# Заголовок\n\nПервый абзац, довольно длинный, чтобы перенестись.\n\n"
        '> Цитата с "кавычками" и \\обратной чертой.\n\n- пункт\n', "utf-8"
    )
    project = Project(load_config(tmp_path))
    project.extract()
    project.update()
    for path in tmp_path.glob("locales/*/LC_MESSAGES/a.po"):
        po = read_po(path)
        pseudo_catalog(po)
        po[0].tcomment = "проверено\nвторая строка"
        po[1].flags.append("ignore-length")
        write_po(po, path)
    source.write_text(
        "# Заголовок!\n\nПервый абзац, довольно длинный, чтобы перенестись снова.\n\n- пункт\n",
        "utf-8",
    )
    Project(load_config(tmp_path)).extract()
    Project(load_config(tmp_path)).update()
    catalogs = sorted(tmp_path.glob("locales/**/*.po*"))
    assert len(catalogs) == 4
    de = polib.pofile(str(tmp_path / "locales" / "de" / "LC_MESSAGES" / "a.po"))
    assert de.fuzzy_entries() and de.obsolete_entries()
    assert_all_pass(msgfmt, catalogs)
