"""`check` then `publish`, as a pipeline runs them: publish takes the findings check kept
for each catalog as it still is, instead of checking it again, and publishes byte for
byte what a cold publish does. A catalog changed since, an image variant that appeared
since, or `--force` has the catalog checked again. (Counted with tolmach.fileio.WORK.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from pipeline_project import (
    CACHE,
    cold_copy,
    fixed_clock,
    make_project,
    project_files,
    run_command,
    translate_catalog,
)

from tolmach.fileio import WORK

LOCALES = ("de", "en")
DOCUMENTS = 4
PUBLISH = ("publish", "--no-search", "-j", "1")


@pytest.fixture(autouse=True)
def clock(monkeypatch):
    fixed_clock(monkeypatch)


@pytest.fixture
def checked(tmp_path) -> Path:
    """Four documents × two locales, translated (one catalog with broken markup, so
    there are errors to find), then checked."""
    folder = make_project(tmp_path / "project", documents=DOCUMENTS)
    for step in (("extract",), ("update",)):
        assert run_command(folder, *step, "-j", "1").exit_code == 0
    for locale in LOCALES:
        for number in range(DOCUMENTS):
            style = "broken" if (locale, number) == ("de", 1) else "plain"
            translate_catalog(catalog(folder, locale, number), every=1, style=style)
    assert run_command(folder, "check", "-j", "1", "--quiet").exit_code in (0, 1)
    return folder


def catalog(folder: Path, locale: str, number: int) -> Path:
    return folder / "locales" / locale / "LC_MESSAGES" / f"doc{number}.po"


def publish_counting_checks(folder: Path, *options: str):
    before = WORK["check"]
    ran = run_command(folder, *PUBLISH, *options)
    return ran, WORK["check"] - before


def published(folder: Path) -> dict[str, bytes]:
    return {path: data for path, data in project_files(folder).items() if path.startswith("output/")}


def checks_of_a_publish_as_cold(folder: Path, target: Path, documents: int = DOCUMENTS) -> int:
    """Publish the project, and a copy of it without its cache (which checks every
    catalog): both print and write the same. How many catalogs the first checked."""
    cold = cold_copy(folder, target)  # before the project publishes: the copy has no site
    ran, checks = publish_counting_checks(folder)
    cold_ran, cold_checks = publish_counting_checks(cold)
    assert cold_checks == documents * len(LOCALES)
    assert (ran.exit_code, ran.stdout) == (cold_ran.exit_code, cold_ran.stdout)
    assert published(folder) == published(cold)
    return checks


def test_publish_after_check_checks_nothing_again_and_publishes_what_a_cold_one_does(
    checked, tmp_path
):
    assert checks_of_a_publish_as_cold(checked, tmp_path / "cold") == 0
    assert "error" in (checked / "output/review/de/doc1.html").read_text("utf-8").lower()


def test_a_catalog_edited_since_the_check_is_checked_again(checked, tmp_path):
    translate_catalog(catalog(checked, "en", 2), every=1, mark="*")
    assert checks_of_a_publish_as_cold(checked, tmp_path / "cold") == 1


def test_findings_that_depend_on_an_image_variant_are_not_taken_once_it_appears(tmp_path):
    folder = make_project(tmp_path / "project", documents=2)
    for step in (("extract",), ("update",)):
        assert run_command(folder, *step, "-j", "1").exit_code == 0
    translate_catalog(catalog(folder, "de", 0), every=1, style="variant")  # img/scheme.de.png
    translate_catalog(catalog(folder, "en", 0), every=1)
    run_command(folder, "check", "-j", "1", "--quiet")
    (folder / "docs/img/scheme.de.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"de")
    # the German catalog's findings said the variant was missing: it is checked again
    assert checks_of_a_publish_as_cold(folder, tmp_path / "cold", documents=2) == 1


def test_force_checks_every_catalog_again(checked):
    _, checks = publish_counting_checks(checked, "--force")
    assert checks == DOCUMENTS * len(LOCALES)


def test_check_keeps_findings_only_for_the_catalogs_as_they_are(checked):
    kept = list((checked / CACHE / "results").glob("v*/findings/*.json"))
    assert len(kept) == DOCUMENTS * len(LOCALES)
    translate_catalog(catalog(checked, "de", 3), every=1, mark="*")
    run_command(checked, "check", "-j", "1", "--quiet")
    again = list((checked / CACHE / "results").glob("v*/findings/*.json"))
    assert len(again) == DOCUMENTS * len(LOCALES)  # the old state's findings dropped
    assert len(set(again) - set(kept)) == 1


@pytest.mark.parametrize("garbage", [b"", b"[1, 2", b"[[], \"x\"]", b"[[[\"variant\"]], [[], [[9]]]]"])
def test_a_damaged_findings_file_is_checked_again_not_trusted(checked, tmp_path, garbage):
    for kept in (checked / CACHE / "results").glob("v*/findings/*.json"):
        kept.write_bytes(garbage)
    assert checks_of_a_publish_as_cold(checked, tmp_path / "cold") == DOCUMENTS * len(LOCALES)
