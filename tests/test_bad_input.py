"""Every bad input gets one clear line naming the file (and line), exit code 1, and
leaves every file of the project as it was.

One table, input → message; each row is run through the ``tolmach`` command on a
project that already holds translations. Fixture files live in ``tests/data/bad/``;
big and binary inputs are made on the fly.
"""

from __future__ import annotations

import gzip
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import polib
import pytest
from click.testing import CliRunner

from tolmach.cli import cli
from tolmach.config import load_config
from tolmach.fileio import MAX_SOURCE_BYTES
from tolmach.project import Project

BAD = Path(__file__).parent / "data" / "bad"
ARTICLE = "# Заголовок\n\nАбзац.\n\n> Цитата.\n"
CONFIG = '[tool.tolmach]\nsource-locale = "ru"\nlocales = ["en", "de"]\n'
EN_PO = "locales/en/LC_MESSAGES/article.po"
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x10\x08\x06\x00\x00\x00"
LONG_NAME = "a" * 252  # the source name fits in 255 bytes, the template's does not
GZIP = gzip.compress("Статья, сжатая gzip.\n".encode() * 50, mtime=0)  # few NUL bytes


def fixture(name: str, target: str) -> Callable[[Path], None]:
    return write(target, (BAD / name).read_bytes())


def write(target: str, data: bytes | str) -> Callable[[Path], None]:
    def setup(root: Path) -> None:
        (root / target).parent.mkdir(parents=True, exist_ok=True)
        payload = data.encode("utf-8") if isinstance(data, str) else data
        (root / target).write_bytes(payload)

    return setup


def folder(target: str) -> Callable[[Path], None]:
    return lambda root: (root / target).mkdir(parents=True)


def config(extra: str) -> Callable[[Path], None]:
    return write("pyproject.toml", CONFIG + extra)


def huge_markdown(root: Path) -> None:
    """A 50 MB article (real text, not a sparse file), made here, never committed."""
    paragraph = ("Очень длинная статья, абзац за абзацем. " * 20 + "\n\n").encode("utf-8")
    with open(root / "seeds" / "huge.md", "wb") as handle:
        for _ in range(50 * 2**20 // len(paragraph) + 1):
            handle.write(paragraph)


def outside_document(root: Path) -> None:
    outside = root.parent / f"{root.name}-outside"
    outside.mkdir(exist_ok=True)
    (outside / "stolen.md").write_text("Чужой файл.\n", "utf-8")
    config(f'documents = ["../{outside.name}/*.md"]\n')(root)


def output_through_symlink(root: Path) -> None:
    (root.parent / "elsewhere").mkdir()
    (root / "public").symlink_to(root.parent / "elsewhere", target_is_directory=True)
    config('output-dir = "public"\n')(root)


SECRET = "секрет: this line lives outside the project"


def outside(root: Path, name: str, text: str = f"{SECRET}\n") -> Path:
    """A file (or, for a name without suffix, a folder with a file) beside the project."""
    place = root.parent / "outside" / name
    if place.suffix:
        place.parent.mkdir(parents=True, exist_ok=True)
        place.write_text(text, "utf-8")
    else:
        place.mkdir(parents=True, exist_ok=True)
        (place / "secret.md").write_text(text, "utf-8")
    return place


def link(target: str, name: str, extra_config: str = "") -> Callable[[Path], None]:
    """``target`` in the project becomes a symbolic link to ``name`` beside it."""

    def setup(root: Path) -> None:
        place = outside(root, name)
        path = root / target
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.is_file():
            path.unlink()
        path.symlink_to(place, target_is_directory=place.is_dir())
        if extra_config:
            config(extra_config)(root)

    return setup


@dataclass(frozen=True)
class Case:
    name: str
    setup: Callable[[Path], None] | None
    args: tuple[str, ...]
    message: str
    where: str  # the file (and line) the message must name; "" for command-line input
    fresh: bool = False  # on a project where no tolmach command ran yet (no cache folder)


CASES = [
    Case("po-unterminated-string", fixture("unterminated-string.po", EN_PO), ("update",),
         "unterminated string (missing closing quote)", "article.po:6:"),
    Case("po-bad-escape", fixture("bad-escape.po", EN_PO), ("update",),
         r"bad escape sequence \q", "article.po:6:"),
    Case("po-missing-msgstr", fixture("missing-msgstr.po", EN_PO), ("update",),
         "missing msgstr after msgid", "article.po:5:"),
    Case("po-duplicate-msgid", fixture("duplicate-msgid.po", EN_PO), ("update",),
         "duplicate message definition (first defined at line 5)", "article.po:8:"),
    Case("po-duplicate-msgid-on-build", fixture("duplicate-msgid.po", EN_PO),
         ("build", "--threshold", "0"), "duplicate message definition", "article.po:8:"),
    Case("po-charset-koi8-r", fixture("koi8r-charset.po", EN_PO), ("update",),
         "charset KOI8-R is not supported; convert with `msgconv --to-code=UTF-8`",
         "article.po:3:"),
    Case("po-binary", write(EN_PO, PNG), ("stats",),
         "binary data (NUL byte): not a PO file", "article.po:3:"),
    Case("pot-broken-template", fixture("bad-escape.po", "locales/article.pot"), ("update",),
         r"bad escape sequence \q", "article.pot:6:"),
    Case("po-broken-single-file-build", fixture("unterminated-string.po", "de.po"),
         ("build", "{root}/seeds/article.ru.md", "--po", "{root}/de.po", "-o", "{root}/out.md"),
         "unterminated string", "de.po:6:"),
    Case("md-binary", write("seeds/picture.md", PNG), ("extract",),
         "binary file (NUL bytes), not Markdown text", "picture.md:3:"),
    Case("md-binary-few-nul-bytes", write("seeds/archive.md", GZIP), ("extract",),
         "binary file (NUL bytes), not Markdown text", "archive.md:1:"),
    Case("md-not-utf8", fixture("cp1251.md", "seeds/legacy.md"), ("extract",),
         "not valid UTF-8 (byte 0xc7)", "legacy.md:1:"),
    Case("md-50-megabytes", huge_markdown, ("extract",),
         f"the limit is {MAX_SOURCE_BYTES // 2**20} MiB", "huge.md:"),
    Case("md-control-character",
         write("seeds/colour.md", "# Цвет\n\nКрасный \x1b[31mтекст\x1b[0m.\n"), ("extract",),
         "control character U+001B in translatable text; catalogs cannot carry it safely: "
         "remove it from the source", "seeds/colour.md:3:"),
    Case("md-name-with-space", write("seeds/my article.md", ARTICLE), ("extract",),
         "cannot be written in a catalog reference", "seeds/my article.md:"),
    Case("glossary-wrong-type", fixture("glossary-bad-translation.toml", "locales/glossary.toml"),
         ("extract",), "'translations.en' must be a non-empty string", "glossary.toml:4:"),
    Case("glossary-bad-toml", write("locales/glossary.toml", '[[term]\nsource = "x"\n'),
         ("update",), "TOML syntax error", "glossary.toml:1:"),
    Case("config-unknown-key", config("threshhold = 5\n"), ("extract",),
         "unknown setting 'threshhold'", "pyproject.toml:4:"),
    Case("config-wrong-type", config('wrap-width = "wide"\n'), ("build",),
         "wrap-width has the wrong type", "pyproject.toml:4:"),
    Case("config-bad-toml", write("pyproject.toml", CONFIG + "documents = [\n"), ("extract",),
         "invalid TOML", "pyproject.toml:4:"),
    Case("config-not-utf8", write("pyproject.toml", CONFIG.encode() + b"# \xff\n"), ("stats",),
         "not valid UTF-8", "pyproject.toml:4:"),
    Case("config-locale-traversal", write("pyproject.toml", CONFIG.replace('"de"', '"../de"')),
         ("update",), "invalid locale code '../de'", "pyproject.toml:3:"),
    Case("config-documents-outside", outside_document, ("extract",),
         "files outside the project are not read", "pyproject.toml:4:"),
    Case("config-documents-absolute", config('documents = ["/etc/*.md"]\n'), ("extract",),
         "is absolute", "pyproject.toml:4:"),
    Case("config-locales-dir-absolute", config('locales-dir = "/var/tmp/locales"\n'),
         ("update",), "locales-dir '/var/tmp/locales' is absolute", "pyproject.toml:4:"),
    Case("config-output-dir-up", config('output-dir = "../public"\n'), ("build",),
         "output-dir '../public' goes up out of the project", "pyproject.toml:4:"),
    Case("config-output-dir-hidden-up", config('output-dir = "out/../../x"\n'), ("build",),
         "goes up out of the project", "pyproject.toml:4:"),
    Case("config-output-dir-symlink", output_through_symlink, ("build", "--threshold", "0"),
         "output-dir 'public' leads outside the project (through a symbolic link)",
         "pyproject.toml:4:"),
    Case("config-unknown-dialect", config('dialect = "vitpress"\n'), ("extract",),
         "unknown dialect 'vitpress' (did you mean 'vitepress'?)", "pyproject.toml:4:"),
    Case("config-bad-syntax-adjustment", config('dialect = "gfm"\nsyntax = ["deflist"]\n'),
         ("extract",), "syntax 'deflist' must be +NAME or -NAME", "pyproject.toml:5:"),
    Case("config-override-unknown-key",
         config('[[tool.tolmach.overrides]]\ndocuments = "seeds/*.mdx"\ndialekt = "docusaurus"\n'),
         ("extract",), "unknown setting 'dialekt' in [[tool.tolmach.overrides]]", "pyproject.toml:6:"),
    Case("config-override-bad-dialect",
         config('[[tool.tolmach.overrides]]\ndocuments = "seeds/*.mdx"\ndialect = "mdx"\n'),
         ("extract",), "unknown dialect 'mdx'", "pyproject.toml:6:"),
    Case("locale-arg-traversal", None, ("update", "-l", "../../etc"),
         "invalid locale code '../../etc'", ""),
    Case("locale-arg-absolute", None, ("build", "-l", "/tmp/x", "--threshold", "0"),
         "invalid locale code '/tmp/x'", ""),
    Case("locale-arg-odd-characters", None, ("update", "-l", "de\nx"),
         "invalid locale code", ""),
    Case("locale-arg-unknown", None, ("update", "-l", "xx_YY"), "unknown locale 'xx_YY'", ""),
    Case("template-missing", lambda root: (root / "locales" / "article.pot").unlink(),
         ("update",), "template missing; run `tolmach extract` first", "article.pot:"),
    Case("output-is-a-folder", folder("output/en/article.md"), ("build", "--threshold", "0"),
         "cannot write: a folder stands where the file should be (the file is as it was); "
         "move the folder away", "output/en/article.md:"),
    Case("md-name-too-long", write(f"seeds/{LONG_NAME}.md", ARTICLE), ("extract",),
         "cannot write: the file name is too long for the file system (the file is as it "
         "was); give the document a shorter name", f"locales/{LONG_NAME}.pot:"),
    Case("md-symlink-outside", link("seeds/stolen.md", "secret.md"), ("extract",),
         "a symbolic link to a place outside the project; not read "
         "(allow-outside-sources = true in [tool.tolmach] would allow it)", "seeds/stolen.md:"),
    Case("md-folder-symlink-outside",
         link("seeds/more", "articles", 'documents = ["seeds/*.md", "seeds/*/*.md"]\n'),
         ("extract",), "a symbolic link to a place outside the project; not read",
         "seeds/more:"),
    Case("po-symlink-outside", link(EN_PO, "secret.po"), ("update",),
         "a symbolic link to a place outside locales/; nothing is read or written through it",
         f"{EN_PO}:"),
    Case("pot-symlink-outside", link("locales/article.pot", "secret.pot"), ("update",),
         "a symbolic link to a place outside locales/", "locales/article.pot:"),
    Case("glossary-symlink-outside", link("locales/glossary.toml", "secret.toml"), ("extract",),
         "a symbolic link to a place outside locales/", "locales/glossary.toml:"),
    Case("output-symlink-outside", link("output/en", "public"), ("build", "--threshold", "0"),
         "a symbolic link to a place outside output/; nothing is written through it",
         "output/en:"),
    Case("site-symlink-outside", link("output/site", "public"), ("publish",),
         "a symbolic link to a place outside the project; nothing is written through it",
         "output/site:"),
    Case("site-locale-symlink-outside", link("output/site/de", "public"), ("publish",),
         "a symbolic link to a place outside the site folder; nothing is written through it",
         "output/site/de:"),
    Case("fresh-po-broken", fixture("unterminated-string.po", EN_PO), ("update",),
         "unterminated string", "article.po:6:", fresh=True),
    Case("fresh-glossary-bad-toml", write("locales/glossary.toml", '[[term]\nsource = "x"\n'),
         ("update",), "TOML syntax error", "glossary.toml:1:", fresh=True),
    Case("fresh-template-missing", lambda root: (root / "locales" / "article.pot").unlink(),
         ("update",), "template missing", "article.pot:", fresh=True),
    Case("fresh-md-binary", write("seeds/picture.md", PNG), ("extract",),
         "binary file (NUL bytes), not Markdown text", "picture.md:3:", fresh=True),
]


def invoke(root: Path, *args: str):
    return CliRunner().invoke(cli, ["-C", str(root), *args], catch_exceptions=False)


def fresh_project(tmp_path: Path) -> Path:
    """A project whose template was just made: no catalog, no cache folder yet."""
    root = tmp_path / "project"
    (root / "seeds").mkdir(parents=True)
    (root / "pyproject.toml").write_text(CONFIG, "utf-8")
    (root / "seeds" / "article.ru.md").write_text(ARTICLE, "utf-8")
    Project(load_config(root)).extract()
    return root


def translated_project(tmp_path: Path) -> Path:
    """A project with templates, catalogs, the memory and one translation already done."""
    root = fresh_project(tmp_path)
    assert invoke(root, "update").exit_code == 0
    po = polib.pofile(str(root / EN_PO))
    po.find("Заголовок").msgstr = "Heading"
    po.save()
    return root


def snapshot(root: Path) -> dict[str, str]:
    """Every file and folder of the project (and beside it), the cache and the lock
    included, with a digest of each file's bytes."""
    return {
        path.relative_to(root.parent).as_posix(): (
            hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "folder"
        )
        for path in sorted(root.parent.rglob("*"))
    }


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_bad_input_gets_one_clear_line_and_changes_nothing(tmp_path: Path, case: Case):
    project = (fresh_project if case.fresh else translated_project)(tmp_path)
    if case.setup is not None:
        case.setup(project)
    before = snapshot(project)
    result = invoke(project, *(arg.format(root=project) for arg in case.args))
    lines = result.output.strip().splitlines()
    assert result.exit_code != 0, result.output
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    assert case.message in lines[0]
    assert case.where in lines[0]
    assert "Traceback" not in result.output
    assert str(project) not in result.output, "paths are shown relative to the project"
    assert "секрет" not in result.output, "a message showed what a file outside holds"
    assert snapshot(project) == before


def test_the_table_covers_every_kind_of_bad_input():
    kinds = {case.name.removeprefix("fresh-").split("-")[0] for case in CASES}
    assert kinds == {
        "po", "pot", "md", "glossary", "config", "locale", "template", "output", "site"
    }
    print(f"\n{len(CASES)} bad inputs, each refused with one line and no file changed")
