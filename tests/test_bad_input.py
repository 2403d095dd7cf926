"""Every bad input gets one clear line naming the file (and line), exit code 1, and
leaves every file of the project as it was.

One table, input → message; each row is run through the ``tolmach`` command on a
project that already holds translations. Fixture files live in ``tests/data/bad/``;
big and binary inputs are made on the fly.
"""

from __future__ import annotations

import gzip
import hashlib
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import polib
import pytest
from click.testing import CliRunner

from tolmach.cli import cli
from tolmach.fileio import MAX_SOURCE_BYTES

BAD = Path(__file__).parent / "data" / "bad"
ARTICLE = "# Заголовок\n\nАбзац.\n\n> Цитата.\n"
CONFIG = '[tool.tolmach]\nsource-locale = "ru"\nlocales = ["en", "de"]\n'
EN_PO = "locales/en/LC_MESSAGES/article.po"
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x10\x08\x06\x00\x00\x00"
GZIP = gzip.compress("Статья, сжатая gzip.\n".encode() * 50, mtime=0)  # few NUL bytes


def fixture(name: str, target: str) -> Callable[[Path], None]:
    return lambda root: shutil.copyfile(BAD / name, root / target)


def write(target: str, data: bytes | str) -> Callable[[Path], None]:
    def setup(root: Path) -> None:
        (root / target).parent.mkdir(parents=True, exist_ok=True)
        payload = data.encode("utf-8") if isinstance(data, str) else data
        (root / target).write_bytes(payload)

    return setup


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


@dataclass(frozen=True)
class Case:
    name: str
    setup: Callable[[Path], None] | None
    args: tuple[str, ...]
    message: str
    where: str  # the file (and line) the message must name; "" for command-line input


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
]


def invoke(root: Path, *args: str):
    return CliRunner().invoke(cli, ["-C", str(root), *args], catch_exceptions=False)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project with templates, catalogs and one translation already done."""
    root = tmp_path / "project"
    (root / "seeds").mkdir(parents=True)
    (root / "pyproject.toml").write_text(CONFIG, "utf-8")
    (root / "seeds" / "article.ru.md").write_text(ARTICLE, "utf-8")
    for args in (["extract"], ["update"]):
        assert invoke(root, *args).exit_code == 0
    po = polib.pofile(str(root / EN_PO))
    po.find("Заголовок").msgstr = "Heading"
    po.save()
    return root


def snapshot(root: Path) -> dict[str, str]:
    """Every file of the project (and beside it) with a digest of its bytes."""
    return {
        path.relative_to(root.parent).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.parent.rglob("*"))
        if path.is_file() and ".tolmach-cache" not in path.parts
    }


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_bad_input_gets_one_clear_line_and_changes_nothing(project: Path, case: Case):
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
    assert snapshot(project) == before


def test_the_table_covers_every_kind_of_bad_input():
    kinds = {case.name.split("-")[0] for case in CASES}
    assert kinds == {"po", "pot", "md", "glossary", "config", "locale", "template"}
    print(f"\n{len(CASES)} bad inputs, each refused with one line and no file changed")
