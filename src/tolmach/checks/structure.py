"""Structure: the built document has the source's structure, and no msgstr brings a
line break its msgid does not have.

``structure`` reads the verified build of the whole catalog (:mod:`tolmach.markdown.verify`):
every translation that would add, remove or change a heading, list, table, code block,
HTML block, reference definition or footnote is named with the source line, whatever
the trick (a carriage return, a blank line in a list item, a ``|`` in a header cell, a
backslash ending a link title). ``build`` puts the source text in its place, and says so.
When the only change is an inline atom the ``markup`` check already names for the
entry (a lost code span, a changed link), it is not reported twice.

``line-breaks`` finds carriage returns and the other characters some reader takes for a
line end (U+2028, U+2029, U+0085, 0x1C–0x1E, vertical tab, form feed).
"""

from __future__ import annotations

from collections.abc import Iterator

from tolmach.checks.inline import inline_markup
from tolmach.checks.registry import DocumentContext, EntryContext, check
from tolmach.markdown.build import line_breaks_added
from tolmach.markdown.verify import Rejection

__all__ = ["line_breaks", "structure"]

_ATOM_FIELDS = ("code", "links", "images", "autolinks", "html", "footnotes")
_COUNTED = ("strong", "emphasis", "hardbreaks")


@check("structure", per="document")
def structure(ctx: DocumentContext) -> Iterator[tuple[str, str]]:
    """The built document keeps the source's structure: blocks, lists, tables, code, definitions."""
    for rejection in ctx.verified.rejected:
        if "markup" in ctx.enabled and _markup_names_it(rejection):
            continue
        yield rejection.segment.text, (
            f"{ctx.source_path}:{rejection.segment.line}: the translation changes the "
            f"document's structure ({rejection.reason}); build uses the source text here"
        )


def _markup_names_it(rejection: Rejection) -> bool:
    """True when every difference is an inline atom the entry's own markup check sees."""
    if not all(d.construct == "inline markup" for d in rejection.differences):
        return False
    source, target = inline_markup(rejection.segment.text), inline_markup(rejection.translation)
    return any(
        sorted(getattr(source, name)) != sorted(getattr(target, name)) for name in _ATOM_FIELDS
    ) or any(getattr(source, name) != getattr(target, name) for name in _COUNTED)


@check("line-breaks")
def line_breaks(ctx: EntryContext) -> Iterator[str]:
    """No carriage return, U+2028, U+2029, U+0085 or other line end the source does not have."""
    names = line_breaks_added(ctx.target, ctx.source)
    if names:
        yield (
            f"{', '.join(names)} in the translation: a line break the source does not have "
            "(build writes a space, or a line feed for a carriage return)"
        )
