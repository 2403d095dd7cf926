"""A source page, its pseudo-translated build and its forced build, as a real site
generator renders them, and how to compare those renderings.

Used by tests/test_dialect_renderers.py (the preset fixtures) and by
bench/bench_dialects.py --renderers (the real corpora).

What may differ between a source and its translation, and is not structure:

* ids a generator derives from heading text (a translated heading gets another slug)
  and the links to them; ids the source sets itself (``{#id}``) must stay;
* ``aria-label`` (VitePress and Docusaurus put the heading text there);
* ``<abbr>``: Python-Markdown wraps every word that matches an abbreviation defined on
  the page, so whether one appears depends on the translated words.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from tolmach.markdown.build import apply_translations
from tolmach.markdown.compare import html_shape
from tolmach.markdown.document import SegmentOptions, parse_document
from tolmach.markdown.pseudo import pseudo_translate

__all__ = ["builds_of", "comparable", "differing_pages", "explicit_ids"]


def builds_of(text: str, options: SegmentOptions) -> dict[str, str]:
    """``{"source", "pseudo", "forced"}`` versions of one page."""
    document = parse_document(text, options)
    dialect = options.dialect
    protect = dialect.atoms if dialect.atom_labels else None
    return {
        "source": text,
        "pseudo": apply_translations(document, lambda s: pseudo_translate(s, protect)),
        "forced": apply_translations(document, lambda s: s, force=True),
    }


def explicit_ids(text: str, options: SegmentOptions) -> set[str]:
    """Heading ids the source sets itself (``{#id}``), which a translation must keep."""
    tokens = options.dialect.parser().parse(text.removeprefix("\ufeff"))
    return {str(t.attrs["id"]) for t in tokens if t.type == "heading_open" and "id" in t.attrs}


def comparable(html: str, keep: set[str], keep_text: bool) -> list[tuple]:
    """``html_shape`` with derived ids numbered in order of appearance and the
    differences listed in the module docstring set aside."""
    numbers: dict[str, str] = {}

    def numbered(value: str) -> str:
        return value if value in keep else numbers.setdefault(value, f"derived-{len(numbers)}")

    out = []
    for item in html_shape(html, keep_text):
        if item[0] in ("open", "void", "close") and item[1] == "abbr":
            continue
        if item[0] in ("open", "void"):
            attrs = []
            for name, value in item[2]:
                if name == "aria-label":
                    continue
                if name == "id" and value:
                    value = numbered(value)
                elif name == "href" and value and value.startswith("#"):
                    value = "#" + numbered(value[1:])
                attrs.append((name, value))
            item = (item[0], item[1], tuple(attrs))
        out.append(item)
    return _merged_text(out)


def _merged_text(shape: list[tuple]) -> list[tuple]:
    """Adjacent text items joined (an unwrapped ``<abbr>`` leaves its text in pieces)."""
    out: list[tuple] = []
    for item in shape:
        if item[0] == "text" and out and out[-1][0] == "text":
            out[-1] = ("text", out[-1][1] + item[1])
        else:
            out.append(item)
    return out


def differing_pages(
    pages: Iterable[tuple[str, str]],
    options_of: Callable[[str], SegmentOptions],
    render: Callable[[dict[str, str]], dict[str, str]],
    suffix: str = ".md",
) -> dict[str, list[str]]:
    """Render every page's three builds in one batch; return, per mode (``pseudo``:
    same structure, ``forced``: same HTML), the pages whose rendering differs."""
    batch: dict[str, str] = {}
    keep: dict[str, set[str]] = {}
    for name, text in pages:
        stem = name.removesuffix(".mdx").removesuffix(".md")
        for mode, version in builds_of(text, options_of(name)).items():
            batch[f"{mode}/{stem}{suffix}"] = version
        keep[stem] = explicit_ids(text, options_of(name))
    rendered = render(batch)
    failures: dict[str, list[str]] = {"pseudo": [], "forced": []}
    for stem, ids in keep.items():
        source = rendered[f"source/{stem}{suffix}"].replace("/source/", "/")
        for mode, keep_text in (("pseudo", False), ("forced", True)):
            built = rendered[f"{mode}/{stem}{suffix}"].replace(f"/{mode}/", "/")  # batch folders
            if comparable(source, ids, keep_text) != comparable(built, ids, keep_text):
                failures[mode].append(stem)
    return failures
