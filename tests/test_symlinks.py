"""Symbolic links never take tolmach outside the project, unless the project says so.

Every refusal is in tests/test_bad_input.py's table (one line naming the link, nothing
changed, nothing of the file outside shown); here: links that stay inside the project
work, ``allow-outside-sources`` lets a linked source in, and ``preview`` and ``publish``
follow the same rule as ``build``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tolmach.cli import cli
from tolmach.config import load_config
from tolmach.fileio import LinkGuard, OutsideError, ensure_inside
from tolmach.project import Project
from tolmach.publish.preview import Preview
from tolmach.publish.site import site_folder

CONFIG = '[tool.tolmach]\nsource-locale = "ru"\nlocales = ["de"]\n'
SECRET = "Секретный абзац снаружи проекта."


def invoke(root: Path, *args: str):
    return CliRunner().invoke(cli, ["-C", str(root), *args], catch_exceptions=False)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "seeds").mkdir(parents=True)
    (root / "pyproject.toml").write_text(CONFIG, "utf-8")
    (root / "seeds" / "article.ru.md").write_text("# Заголовок\n\nАбзац.\n", "utf-8")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "shared.md").write_text(f"# Общий\n\n{SECRET}\n", "utf-8")
    return root


def test_links_that_stay_inside_the_project_are_followed(root: Path):
    (root / "drafts").mkdir()
    (root / "drafts" / "note.md").write_text("Заметка.\n", "utf-8")
    (root / "seeds" / "note.md").symlink_to(root / "drafts" / "note.md")
    assert invoke(root, "extract").exit_code == 0
    assert "#: seeds/note.md:1" in (root / "locales" / "note.pot").read_text("utf-8")


def test_allow_outside_sources_lets_a_linked_source_in(root: Path):
    (root / "seeds" / "shared.md").symlink_to(root.parent / "outside" / "shared.md")
    assert invoke(root, "extract").exit_code == 1
    with open(root / "pyproject.toml", "a", encoding="utf-8") as handle:
        handle.write("allow-outside-sources = true\n")
    result = invoke(root, "extract")
    assert result.exit_code == 0, result.output
    pot = (root / "locales" / "shared.pot").read_text("utf-8")
    assert "#: seeds/shared.md:3" in pot and SECRET in pot  # named by the link, not the target


def test_allow_outside_sources_is_off_by_default_and_a_boolean(root: Path):
    assert load_config(root).allow_outside_sources is False
    with open(root / "pyproject.toml", "a", encoding="utf-8") as handle:
        handle.write('allow-outside-sources = "yes"\n')
    result = invoke(root, "extract")
    assert result.exit_code == 1
    assert "pyproject.toml:4: allow-outside-sources has the wrong type" in result.output


def test_preview_refuses_a_source_linked_from_outside(root: Path, tmp_path: Path):
    preview = Preview(root, "de", tmp_path / "preview", report=lambda line: None)
    preview.build()
    (root / "seeds" / "shared.md").symlink_to(root.parent / "outside" / "shared.md")
    with pytest.raises(OutsideError, match=r"seeds/shared\.md: a symbolic link to a place "
                                           r"outside the project"):
        preview.build()
    reports: list[str] = []
    preview.report = reports.append
    assert preview.rebuild([root / "seeds" / "shared.md"]) == []
    assert reports == [
        "not rebuilt: seeds/shared.md: a symbolic link to a place outside the project; not "
        "read (allow-outside-sources = true in [tool.tolmach] would allow it)"
    ]
    assert SECRET not in reports[0]
    assert not list((tmp_path / "preview").rglob("shared*"))


def test_publish_to_a_folder_outside_the_project_is_the_users_choice(root: Path, tmp_path):
    project = Project(load_config(root))
    assert site_folder(project, tmp_path / "public") == tmp_path / "public"
    (root / "output").mkdir()
    (root / "output" / "site").symlink_to(tmp_path / "public", target_is_directory=True)
    with pytest.raises(OutsideError, match="output/site: a symbolic link"):
        site_folder(project)


def test_the_refusal_names_the_first_link_that_leads_out(tmp_path: Path):
    base = tmp_path / "base"
    (base / "a").mkdir(parents=True)
    (tmp_path / "elsewhere" / "c").mkdir(parents=True)
    (base / "a" / "b").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    with pytest.raises(OutsideError) as caught:
        ensure_inside(base, base / "a" / "b" / "c" / "d.po", where="base/", refused="no")
    assert caught.value.path == str(base / "a" / "b")
    assert ensure_inside(base, base / "a" / "new.po", where="base/", refused="no")


@pytest.mark.parametrize("check", [ensure_inside, LinkGuard().inside], ids=["plain", "guard"])
def test_a_link_leading_out_is_refused_by_each_way_of_checking(tmp_path: Path, check):
    """LinkGuard remembers folders' real paths; it must refuse what ensure_inside refuses:
    a linked folder on the way, a file that is itself a link, and a ``..`` way out."""
    base = tmp_path / "base"
    (base / "inside").mkdir(parents=True)
    (tmp_path / "elsewhere" / "sub").mkdir(parents=True)
    (tmp_path / "elsewhere" / "x.po").write_text("", "utf-8")
    (base / "out").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    (base / "inside" / "file.po").symlink_to(tmp_path / "elsewhere" / "x.po")
    (base / "inside" / "near.po").symlink_to(base / "inside" / "plain.po")
    for target in (base / "out" / "x.po", base / "out" / "sub" / "y.po", base / "inside" / "file.po",
                   base / "inside" / ".." / ".." / "elsewhere" / "x.po"):
        with pytest.raises(OutsideError):
            check(base, target, where="base/", refused="no")
    for target in (base / "inside" / "plain.po", base / "inside" / "near.po", base / "new.po"):
        assert check(base, target, where="base/", refused="no") == target



def test_link_guard_real_paths_are_what_realpath_gives(tmp_path: Path):
    """LinkGuard.real_path finds each folder's real path once, from its parent's; for every
    path it answers (a plain last part, not a link) the answer is ``os.path.realpath``'s,
    with linked folders, ``..`` after a link, missing files and link loops on the way."""
    import itertools
    import os

    base = tmp_path / "base"
    (base / "a" / "b").mkdir(parents=True)
    (base / "a" / "b" / "f.png").write_text("", "utf-8")
    (base / "a" / "up").symlink_to(base, target_is_directory=True)
    (base / "side").symlink_to(base / "a" / "b", target_is_directory=True)
    (base / "loop").symlink_to(base / "loop")
    (base / "a" / "file-link.png").symlink_to(base / "a" / "b" / "f.png")
    guard = LinkGuard()
    answered = 0
    names = ["a", "b", "up", "side", "..", ".", "loop", "f.png", "file-link.png", "missing"]
    for parts in itertools.chain.from_iterable(
            itertools.product(names, repeat=n) for n in range(1, 4)):
        path = os.path.join(base, *parts)
        real = guard.real_path(path)
        if real is not None:
            answered += 1
            assert real == os.path.realpath(path), path
        else:
            assert {".", ".."} & set(parts) or os.path.islink(path), path
    assert answered > 300
