"""The package's shape: one folder per pipeline stage, data flowing one way.

Read from the source with ``ast``, so a lazy import inside a function counts as much as
one at the top: a cycle hidden in a function body is still a cycle in the design.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "tolmach"
STAGES = ("markdown", "catalog", "memory", "glossary", "checks", "publish", "cli", "jobs")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imports_of(name: str) -> list[tuple[str, list[str], int]]:
    """(imported tolmach module, names taken from it, line) for each import statement."""
    path = MODULES[name]
    tree = ast.parse(path.read_text("utf-8"), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, [], node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                if submodule in MODULES:
                    found.append((submodule, [], node.lineno))
                else:
                    found.append((base, [alias.name], node.lineno))
    return [item for item in found if item[0] == "tolmach" or item[0].startswith("tolmach.")]


GRAPH = {name: sorted({target for target, _, _ in imports_of(name)} - {name}) for name in MODULES}


def find_cycle() -> list[str] | None:
    """One import cycle among the package's modules, or None (depth-first search)."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in GRAPH.get(node, []):
            if target == "tolmach":
                continue  # the public API re-exports; nothing inside imports it (tested below)
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state and (cycle := visit(target)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for node in MODULES:
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_the_package_has_no_import_cycles():
    assert find_cycle() is None, " → ".join(find_cycle() or [])


def test_no_module_imports_a_private_name_of_another():
    crossings = [
        f"{name}:{line} takes {taken} from {target}"
        for name in MODULES
        for target, names, line in imports_of(name)
        for taken in names
        if taken.startswith("_") and not taken.startswith("__") and target != name
    ]
    assert crossings == []


def test_the_library_never_imports_the_cli():
    offenders = [
        name
        for name in MODULES
        if not name.startswith("tolmach.cli") and name != "tolmach.__main__"
        for target in GRAPH[name]
        if target.startswith("tolmach.cli")
    ]
    assert offenders == []


def test_nothing_inside_the_package_imports_the_public_api_module():
    assert [name for name in MODULES if "tolmach" in GRAPH[name]] == []


@pytest.mark.parametrize("stage", STAGES)
def test_each_stage_is_a_folder_that_says_what_it_takes_and_gives(stage):
    init = PACKAGE / stage / "__init__.py"
    docstring = ast.get_docstring(ast.parse(init.read_text("utf-8")))
    assert docstring and len(docstring.split()) >= 25, f"{stage}/__init__.py needs a paragraph"


def test_only_the_named_modules_stay_at_the_top():
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert top == ["__init__.py", "__main__.py", "config.py", "fileio.py", "project.py"]


def test_the_graph_reader_sees_cycles():
    """The cycle finder itself: a two-module loop is reported."""
    saved = dict(GRAPH)
    try:
        GRAPH["tolmach.markdown.segment"] = ["tolmach.markdown.document"]
        assert find_cycle() is not None
    finally:
        GRAPH.clear()
        GRAPH.update(saved)
