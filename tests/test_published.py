"""The committed content is what the pipeline makes of the committed sources.

Rebuilding the project in a copy must change no byte of the template, the catalogs,
the localized articles or the site, and every locale must pass the checks.
"""

import shutil
from pathlib import Path

import pytest

from tolmach.config import load_config
from tolmach.project import Project

REPO = Path(__file__).resolve().parent.parent
GENERATED = ("locales", "output")
SEARCH_BUNDLE = "pagefind"  # not committed (see .gitignore); its manifest is tested elsewhere


@pytest.fixture(scope="module")
def rebuilt(tmp_path_factory) -> Path:
    copy = tmp_path_factory.mktemp("repo")
    shutil.copy(REPO / "pyproject.toml", copy / "pyproject.toml")
    for folder in ("seeds", *GENERATED):
        shutil.copytree(REPO / folder, copy / folder)
    project = Project(load_config(copy))
    project.extract()
    project.update()
    results = project.build(strict=True)
    assert not [r for r in results if r.skipped], [r.skipped for r in results]
    from tolmach.publish import PublishOptions, publish_site

    report = publish_site(project, copy / "output" / "site",
                          PublishOptions(review=copy / "output" / "review"))
    assert not report.withheld, [o.verdict.reason for o in report.withheld]
    return copy


def _files(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for folder in GENERATED
        for p in sorted((root / folder).rglob("*"))
        if p.is_file() and SEARCH_BUNDLE not in p.relative_to(root).parts
    }


def test_rebuilding_changes_no_committed_byte(rebuilt):
    committed, again = _files(REPO), _files(rebuilt)
    assert sorted(again) == sorted(committed)
    changed = [name for name in committed if committed[name] != again[name]]
    assert not changed, f"out of date: {changed}; run `make run` and commit"


@pytest.mark.parametrize("locale", load_config(REPO).locales)
def test_every_locale_is_complete_and_passes_the_checks(locale):
    project = Project(load_config(REPO))
    for result in project.stats([locale]):
        assert result.stats.untranslated == 0 and result.stats.fuzzy == 0
    errors_or_warnings = [f for f in project.check([locale]) if not f.waived]
    assert not errors_or_warnings, "\n".join(map(str, errors_or_warnings))
