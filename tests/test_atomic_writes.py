"""Every file tolmach writes goes through ``tolmach.fileio.write_atomic``.

The README promises that each file is written to a temporary file and renamed over its
target, so that it appears whole or not at all. This test walks the syntax tree of
every module of the package and lists each call that could write a file some other
way: ``Path.write_text``/``write_bytes``/``touch``, ``open`` (and ``Path.open``,
``os.fdopen``, ``gzip.open``...) with a writing mode, ``os.open``/``os.write``/
``os.rename``/``os.replace``/links, ``shutil`` copies and moves, temporary files.
Only the places that must write otherwise are allowed, each with its reason.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "tolmach"

#: (module, function, call) → why it may bypass write_atomic.
ALLOWED = {
    ("fileio.py", "_write_aside", "tempfile.mkstemp"): "the atomic writer's temporary file",
    ("fileio.py", "_write_aside", "os.fdopen"): "the atomic writer fills its temporary file",
    ("fileio.py", "_replace_with", "os.replace"): "the atomic writer's rename",
    ("fileio.py", "move_into_place", "os.replace"): (
        "a file the atomic writer wrote aside is renamed into place (publish keeps reviewer "
        "pages aside until nothing can stop it)"
    ),
    ("fileio.py", "_commit", "os.replace"): "staged files are renamed into place once flushed",
    ("fileio.py", "_flush_one", "os.open"): "opened read-only, to flush a written file to disk",
    ("fileio.py", "_open_lock_file", "os.open"): "the lock file: its bytes never matter",
    ("fileio.py", "project_lock", "os.ftruncate"): "the lock file says which process holds it",
    ("fileio.py", "project_lock", "os.write"): "the lock file says which process holds it",
    ("fileio.py", "place_if_absent", "os.link"): (
        "a file made aside (the translation memory made anew) is linked into place only "
        "if no other process put one there first"
    ),
    ("publish/search.py", "_link_or_copy", "os.link"): (
        "the pages one Pagefind run reads are hard links to the site's pages, in a folder "
        "removed after the run: no bytes of the site are written"
    ),
    ("memory/store.py", "TranslationMemory.__init__", "sqlite3.connect"): (
        "the translation memory is a SQLite database: SQLite commits atomically itself"
    ),
}

_WRITING_METHODS = {"write_text", "write_bytes", "touch", "symlink_to", "hardlink_to"}
_OS_WRITES = {"open", "write", "pwrite", "writev", "ftruncate", "rename", "renames", "replace", "link", "symlink", "truncate",
              "mkfifo", "mknod"}
_SHUTIL = {"copy", "copy2", "copyfile", "copyfileobj", "copytree", "move"}
_TEMPFILE = {"mkstemp", "NamedTemporaryFile", "TemporaryFile", "SpooledTemporaryFile"}
_OPENERS = {"open", "fdopen", "ZipFile", "TarFile"}


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return "…"


_MODULE_OPENERS = {"open", "io.open", "os.fdopen", "codecs.open", "gzip.open", "bz2.open",
                   "lzma.open", "tarfile.open", "zipfile.ZipFile", "ZipFile", "TarFile"}


def _writing_mode(call: ast.Call) -> bool:
    """A literal mode that writes, or a mode that is not a literal (it might)."""
    modes = [kw.value for kw in call.keywords if kw.arg == "mode"]
    position = 1 if _dotted(call.func) in _MODULE_OPENERS else 0  # else Path.open(mode)
    if not modes and len(call.args) > position:
        modes = [call.args[position]]
    return any(
        not (isinstance(mode, ast.Constant) and isinstance(mode.value, str))
        or bool(set(mode.value) & set("wax+"))
        for mode in modes
    )


def _is_write(call: ast.Call) -> bool:
    name = _dotted(call.func)
    last = name.rsplit(".", 1)[-1]
    head = name.rsplit(".", 1)[0] if "." in name else ""
    if last in _WRITING_METHODS:
        return True
    if head == "os" and last in _OS_WRITES:
        return True
    if head == "shutil" and last in _SHUTIL:
        return True
    if head == "tempfile" and last in _TEMPFILE:
        return True
    if name == "sqlite3.connect":
        return True
    return last in _OPENERS and _writing_mode(call)


def file_writes(source: str) -> list[tuple[str, str, int]]:
    """(function, call, line) of every call in ``source`` that could write a file."""
    found = []

    def visit(node: ast.AST, scope: list[str]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                visit(child, [*scope, child.name])
                continue
            if isinstance(child, ast.Call) and _is_write(child):
                found.append((".".join(scope), _dotted(child.func), child.lineno))
            visit(child, scope)

    visit(ast.parse(source), [])
    return found


def all_writes() -> dict[tuple[str, str, str], list[int]]:
    writes: dict[tuple[str, str, str], list[int]] = {}
    for module in sorted(PACKAGE.rglob("*.py")):
        relative = module.relative_to(PACKAGE).as_posix()
        for function, call, line in file_writes(module.read_text("utf-8")):
            writes.setdefault((relative, function, call), []).append(line)
    return writes


def test_no_module_writes_a_file_around_the_atomic_writer():
    writes = all_writes()
    bypasses = [
        f"src/tolmach/{module}:{lines[0]}: {call} in {function or 'module level'}"
        for (module, function, call), lines in writes.items()
        if (module, function, call) not in ALLOWED
    ]
    assert not bypasses, "write through tolmach.fileio.write_atomic instead:\n" + "\n".join(
        bypasses
    )
    print(f"\n{sum(map(len, writes.values()))} file-writing calls in the package, "
          f"all in the {len(ALLOWED)} allowed places")


def test_every_allowed_place_still_exists():
    """An allowance whose code is gone would silently allow the next bypass there."""
    assert set(ALLOWED) <= set(all_writes())


def test_the_finder_sees_each_kind_of_write():
    source = '''
import os, shutil, tempfile, gzip
from pathlib import Path
def f(path, mode):
    path.write_text("x")
    Path("a").write_bytes(b"x")
    open(path, "w")
    open(path, mode=mode)
    path.open("a")
    gzip.open(path, "wb")
    os.fdopen(3, "w")
    os.replace("a", "b")
    os.open("a", os.O_WRONLY)
    shutil.copyfile("a", "b")
    tempfile.NamedTemporaryFile()
    Path("a").touch()
def g(path):
    open(path)
    open(path, "rb")
    path.open()
    path.read_text()
    "a".replace("a", "b")
    tempfile.TemporaryDirectory()
'''
    found = file_writes(source)
    assert {function for function, _, _ in found} == {"f"}
    assert len(found) == 12
