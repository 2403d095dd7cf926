"""Markup: a translation keeps every piece of Markdown the source has, and adds none.

Inline code, link and image destinations, autolinks, raw HTML tags, entity references,
footnote references and reference labels are compared as multisets, so a reordered
sentence passes and a changed or lost piece is named. Emphasis must close (a ``**``
left as text is a broken article), and a line of the translation must not start a block
the source did not start: in the built document a leading ``#``, ``>`` or ``2025.``
turns a paragraph into a heading, a quote or a list.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache

from tolmach.checks.inline import mask_code
from tolmach.checks.registry import EntryContext, check
from tolmach.markdown.dialects.heading_attrs import trailing_attributes

__all__ = ["compare_multisets", "markup"]


@check("markup")
def markup(ctx: EntryContext) -> Iterator[str]:
    """Inline code, links, images, HTML, entities, footnotes and emphasis kept; no new block syntax."""
    src, tgt = ctx.source_markup, ctx.target_markup
    # Each comparison only where the two sides differ: equal in order, they say nothing.
    if src.code != tgt.code:
        yield from compare_multisets("inline code", src.code, tgt.code, _code)
    if src.links != tgt.links:
        yield from compare_multisets("link destination", src.links, tgt.links, _quoted)
    if src.images or tgt.images:
        yield from compare_multisets("image source", src.images, _images_as_source(ctx), _quoted)
    if src.autolinks != tgt.autolinks:
        yield from compare_multisets("autolink", src.autolinks, tgt.autolinks, _angled)
    if src.html != tgt.html:
        yield from compare_multisets("HTML tag", src.html, tgt.html, str)
    if src.entities != tgt.entities:
        yield from compare_multisets("entity reference", src.entities, tgt.entities, str)
    if src.footnotes != tgt.footnotes:
        yield from compare_multisets("footnote reference", src.footnotes, tgt.footnotes, _footnote)
    if src.labels or tgt.labels:
        yield from _reference_labels(ctx)
    if ctx.dialect is not None and ctx.dialect.atom_labels:
        yield from _dialect_atoms(ctx)
    if ctx.is_heading:
        yield from _heading_attributes(ctx)
    if tgt.stray_delimiters or src.strong != tgt.strong or src.emphasis != tgt.emphasis:
        yield from _emphasis(ctx)
    if src.hardbreaks != tgt.hardbreaks:
        yield f"hard line breaks: {src.hardbreaks} in the source, {tgt.hardbreaks} in the translation"
    yield from _block_syntax(ctx)


def _images_as_source(ctx: EntryContext) -> list[str]:
    """The translation's image sources, each existing localized variant of a source image
    (``images/a.uk.png`` for ``images/a.png``) counted as that image: a translator may
    point to the localized picture, and to nothing else."""
    images = list(ctx.target_markup.images)
    if not images:
        return images
    unmatched = list((Counter(ctx.source_markup.images) - Counter(images)).elements())
    for index, new in enumerate(images):
        old = next((o for o in unmatched if ctx.is_asset_variant(o, new)), None)
        if old is not None and new not in ctx.source_markup.images:
            images[index] = old
            unmatched.remove(old)
    return images


def compare_multisets(
    what: str, source: Sequence[str], target: Sequence[str], show: Callable[[str], str]
) -> Iterator[str]:
    """Name each piece the translation lost, added or changed, in source order.

    >>> list(compare_multisets("link", ["a", "b"], ["b", "c"], str))
    ['link changed: a → c']
    """
    if (not source and not target) or sorted(source) == sorted(target):
        return
    missing = list((Counter(source) - Counter(target)).elements())
    added = list((Counter(target) - Counter(source)).elements())
    missing.sort(key=source.index)
    added.sort(key=target.index)
    for old, new in zip(missing, added, strict=False):
        yield f"{what} changed: {show(old)} → {show(new)}"
    for old in missing[len(added) :]:
        yield f"{what} missing: {show(old)}"
    for new in added[len(missing) :]:
        yield f"{what} added: {show(new)}"


def _dialect_atoms(ctx: EntryContext) -> Iterator[str]:
    """Spans the dialect protects (expressions, shortcodes, math, URLs, JSX) kept exactly."""
    if ctx.dialect is None or not ctx.dialect.atom_labels:
        return
    labels = sorted({a.label for a in ctx.source_atoms} | {a.label for a in ctx.target_atoms})
    for label in labels:
        source = [a.text for a in ctx.source_atoms if a.label == label]
        target = [a.text for a in ctx.target_atoms if a.label == label]
        yield from compare_multisets(label, source, target, _quoted_atom)


def _heading_attributes(ctx: EntryContext) -> Iterator[str]:
    """A heading's ``{#id}`` stays in the source line, out of the msgid: one written into
    the translation would become heading text, or take the anchor over."""
    if not ctx.is_heading or ctx.dialect is None or not ctx.dialect.enabled("heading-attrs"):
        return
    added = trailing_attributes(ctx.target)
    if added and added != trailing_attributes(ctx.source):
        yield (
            f"heading attributes {added} in the translation: the anchor comes from the source "
            "line and is not translated; remove them"
        )


def _quoted_atom(text: str) -> str:
    return f"«{text}»"


def _code(content: str) -> str:
    fence = "``" if "`" in content else "`"
    return f"{fence}{content}{fence}"


def _quoted(url: str) -> str:
    return f'"{url}"'


def _angled(url: str) -> str:
    return f"<{url}>"


def _footnote(label: str) -> str:
    return f"[^{label}]"


def _label(label: str) -> str:
    return f"[{label}]"


def _reference_labels(ctx: EntryContext) -> Iterator[str]:
    """``[text][label]`` labels kept; a shortcut ``[label]`` may stand for one either way."""
    src, tgt = ctx.source_markup, ctx.target_markup
    if not (src.labels or tgt.labels):
        return
    missing = Counter(src.labels) - Counter(tgt.labels + tgt.shortcuts)
    added = Counter(tgt.labels) - Counter(src.labels + src.shortcuts)
    yield from compare_multisets(
        "reference label", list(missing.elements()), list(added.elements()), _label
    )


def _emphasis(ctx: EntryContext) -> Iterator[str]:
    src, tgt = ctx.source_markup, ctx.target_markup
    stray = (
        Counter(tgt.stray_delimiters) - Counter(src.stray_delimiters)
        if tgt.stray_delimiters
        else ()
    )
    for run in stray:
        yield (
            f"emphasis marker {run} left as text: it does not open or close "
            "(check the spaces and punctuation around it)"
        )
    if stray:
        return
    if src.strong != tgt.strong:
        yield f"strong emphasis: {src.strong} in the source, {tgt.strong} in the translation"
    if src.emphasis != tgt.emphasis:
        yield f"emphasis: {src.emphasis} in the source, {tgt.emphasis} in the translation"


# --- block syntax -------------------------------------------------------------------

_BLOCK_STARTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("heading marker #", re.compile(r"^ {0,3}#{1,6}(?:[ \t]|$)")),
    ("blockquote marker >", re.compile(r"^ {0,3}>")),
    ("list marker", re.compile(r"^ {0,3}[-+*](?:[ \t]|$)")),
    ("thematic break or setext underline", re.compile(r"^ {0,3}(?:(?:[-*_][ \t]*){3,}|=+[ \t]*)$")),
    ("code fence", re.compile(r"^ {0,3}(?:`{3,}|~{3,})")),
    ("indented code", re.compile(r"^(?: {4}|\t)")),
)
_ORDERED_FIRST = re.compile(r"^ {0,3}\d{1,9}[.)](?:[ \t]|$)")
_ORDERED_LATER = re.compile(r"^ {0,3}1[.)](?:[ \t]|$)")
# Every pattern above starts so: a line that does not cannot open a block.
_MAY_OPEN_BLOCK = re.compile(r" {0,3}[#>\-+*_=`~0-9]|(?: {4}|\t)")
_HEADING_CLOSE = re.compile(r"[ \t]#+[ \t]*$")
_UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")


def _block_syntax(ctx: EntryContext) -> Iterator[str]:
    if ctx.is_heading or ctx.is_table_cell:
        yield from _single_line_rules(ctx)
        return
    if "\n" not in ctx.target and not _MAY_OPEN_BLOCK.match(ctx.target):
        return  # one line that cannot open a block (masking code spans cannot make it)
    target_starts = _line_starts(ctx.target)
    if not target_starts:
        return
    for start, count in (target_starts - _line_starts(ctx.source)).items():
        yield f"{start} at the start of a line: the source has none there" + _times(count)


@lru_cache(maxsize=4096)
def _line_starts(text: str) -> Counter[str]:
    """The block syntax that each line of ``text`` would open in the built document."""
    return Counter(_each_line_start(text))


def _each_line_start(text: str) -> Iterator[str]:
    lines = mask_code(text).split("\n")
    for number, line in enumerate(lines):
        if not _MAY_OPEN_BLOCK.match(line):
            continue
        for name, pattern in _BLOCK_STARTS:
            if pattern.match(line) and not (name == "indented code" and number > 0):
                yield name
        ordered = _ORDERED_FIRST if number == 0 else _ORDERED_LATER
        if ordered.match(line):
            yield "ordered list number"


def _single_line_rules(ctx: EntryContext) -> Iterator[str]:
    """Headings and table cells are one line; a cell also ends at an unescaped ``|``."""
    where = "a heading" if ctx.is_heading else "a table cell"
    if "\n" in ctx.target.strip() and "\n" not in ctx.source.strip():
        yield f"line break in {where}: the rest would fall out of it"
    if (
        ctx.is_heading
        and _HEADING_CLOSE.search(ctx.target)
        and not _HEADING_CLOSE.search(ctx.source)
    ):
        yield "heading ends with # after a space: Markdown drops it as a closing sequence"
    if ctx.is_table_cell:
        extra = _pipes(ctx.target) - _pipes(ctx.source)
        if extra > 0:
            yield "unescaped | in a table cell: it splits the cell (write \\|)" + _times(extra)


def _pipes(text: str) -> int:
    """Unescaped pipes, code spans included: in a GFM table even those split cells."""
    return len(_UNESCAPED_PIPE.findall(text))


def _times(count: int) -> str:
    return f" ({count} times)" if count > 1 else ""
