"""The structural fingerprint of a Markdown text, and how two fingerprints differ.

A translation may change text, never structure. The fingerprint is what must not
change, read from the token stream of the parser the document was segmented with
(passed in, never assumed, so a dialect's parser brings its own constructs):

* every block token in order — type, tag, nesting, markup (``#`` or ``=``, list
  markers, fences), info (list item numbers, fence info strings), attributes (table
  alignments, list starts), whether a paragraph is hidden (tight lists), and the
  content of tokens that are not text: indented and fenced code byte for byte, HTML
  blocks (their tags only, when HTML blocks are translatable), front matter with the
  values of translatable keys masked. Table shapes (cells per row) follow from the
  sequence. Any plugin token is covered the same way, with no special code; a plugin
  whose ``info`` or content holds translatable text registers its own shape with
  :func:`register_shape`;
* per inline token, the multiset of its atoms (code spans, link and image
  destinations, autolinks, raw HTML tags, footnote references: :mod:`.atoms`) with its
  emphasis and hard breaks; the order is free, as a translation may reorder a sentence;
* link reference definitions: label and destination (the title is text);
* per translatable front-matter value: its key, scalar or block, and whether YAML
  reads a block whole.

Each construct carries the line where it starts. Two fingerprints are compared line by
line: the constructs of each source line against the constructs the built text has at
the lines that come from it (``origin``: built line → source line, which the assembler
knows because the skeleton is copied byte for byte). Every line whose constructs differ
is one :class:`Difference`, naming the source line, the built lines involved and what
was expected there. :mod:`tolmach.markdown.verify` turns differences into the entries
that caused them.

>>> from tolmach.markdown.document import markdown_parser
>>> md = markdown_parser()
>>> [str(d) for d in structure_differences("# Title\\n", "# Titel\\n# Injected\\n", md)]
['line 2: heading 1: expected nothing, found heading 1']
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from markdown_it import MarkdownIt
from markdown_it.token import Token

from tolmach.fileio import count_work
from tolmach.markdown.atoms import inline_atoms, normalize_tag
from tolmach.markdown.frontmatter import locate_front_matter_values
from tolmach.markdown.segment import split_lines

__all__ = [
    "Construct",
    "Difference",
    "Fingerprint",
    "fingerprint",
    "fingerprint_of_tokens",
    "parser_input",
    "register_shape",
    "structure_differences",
]

Shape = tuple[Hashable, ...]
ShapeFunction = Callable[[Token], Shape]

_SHAPES: dict[str, ShapeFunction] = {}
_LINE_SPLIT_RE = re.compile(r"\r\n?|\n")

# Numbers in ``meta`` are numbering derived from reading order (footnote ids follow the
# order of the references, which a translation may change); they are not structure.
_NUMBERING_META = frozenset({"id", "subId"})


def register_shape(token_type: str, shape: ShapeFunction | None) -> None:
    """Use ``shape(token)`` as the fingerprint of every token of ``token_type``.

    For plugin tokens that hold translatable text in ``info`` or ``content`` (a
    container's title): the shape keeps what must not change and leaves the text out.
    A shape is a tuple whose first item is the token type. ``None`` removes it.
    """
    if shape is None:
        _SHAPES.pop(token_type, None)
    else:
        _SHAPES[token_type] = shape


class Construct(NamedTuple):
    """One element of the structure: its shape (compared) and the line it starts on."""

    shape: Shape
    line: int  # 0-based line of the text the fingerprint was taken from

    @property
    def name(self) -> str:
        """How a message names it: ``heading 2``, ``table cell``, ``fenced code``."""
        return construct_name(self.shape)


# A Construct made without the named tuple's Python-level ``__new__`` (a document has
# tens of thousands of them): ``_construct((shape, line))``.
_construct = functools.partial(tuple.__new__, Construct)


@dataclass(frozen=True)
class Fingerprint:
    """The structure of one text, in document order."""

    constructs: tuple[Construct, ...]

    def by_line(self, origin: Sequence[int] | None = None) -> dict[int, list[Construct]]:
        """Constructs grouped by the line they start on, mapped through ``origin``."""
        groups: dict[int, list[Construct]] = {}
        for construct in self.constructs:
            line = construct.line if origin is None else _origin_of(origin, construct.line)
            groups.setdefault(line, []).append(construct)
        return groups


@dataclass(frozen=True)
class Difference:
    """Where the built structure departs from the source's.

    ``line`` is the 1-based source line; ``built_lines`` the 0-based lines of the built
    text whose constructs differ (empty when something is missing there).
    """

    line: int
    construct: str
    expected: str
    found: str
    built_lines: tuple[int, ...] = ()

    def __str__(self) -> str:
        return f"line {self.line}: {self.construct}: expected {self.expected}, found {self.found}"


def fingerprint(
    text: str,
    parser: MarkdownIt,
    *,
    front_matter_keys: Sequence[str] = (),
    translatable_html: bool = False,
) -> Fingerprint:
    """The structure of ``text`` as ``parser`` reads it.

    ``front_matter_keys`` are masked in front matter (their values are translated);
    with ``translatable_html`` an HTML block is compared by its tags, not its bytes.
    """
    env: dict = {}
    count_work("parse")
    tokens = parser.parse(parser_input(text), env)
    return fingerprint_of_tokens(
        tokens, env, text, front_matter_keys=front_matter_keys, translatable_html=translatable_html
    )


def fingerprint_of_tokens(
    tokens: list[Token],
    env: dict,
    text: str,
    *,
    front_matter_keys: Sequence[str] = (),
    translatable_html: bool = False,
) -> Fingerprint:
    """:func:`fingerprint` from a parse already made (``tokens`` and ``env`` of the
    parser on ``text``)."""
    constructs = _token_constructs(tokens, text, front_matter_keys, translatable_html)
    constructs.extend(_reference_constructs(env))
    return Fingerprint(tuple(constructs))


def structure_differences(
    source: str | Fingerprint,
    built: str | Fingerprint,
    parser: MarkdownIt,
    *,
    origin: Sequence[int] | None = None,
    front_matter_keys: Sequence[str] = (),
    translatable_html: bool = False,
    same_image: Callable[[str, str], bool] | None = None,
) -> list[Difference]:
    """How ``built`` differs from ``source`` in structure; empty when it does not.

    ``origin[i]`` is the source line that built line ``i`` comes from; without it the
    texts are compared line for line. ``same_image(old, new)`` tells whether the image
    ``new`` may stand for the source's ``old`` (a localized variant of it).
    """
    options = {"front_matter_keys": front_matter_keys, "translatable_html": translatable_html}
    src = source if isinstance(source, Fingerprint) else fingerprint(source, parser, **options)
    out = built if isinstance(built, Fingerprint) else fingerprint(built, parser, **options)
    if _same(src, out, origin):
        return []
    expected, found = src.by_line(), out.by_line(origin)
    differences = []
    for line in sorted(expected.keys() | found.keys()):
        there, here = expected.get(line, []), found.get(line, [])
        if [c.shape for c in there] != [c.shape for c in here]:
            if same_image is not None:
                here = _with_image_variants(there, here, same_image)
                if [c.shape for c in there] == [c.shape for c in here]:
                    continue
            differences.append(_difference(line, there, here))
    return differences


def _with_image_variants(
    expected: list[Construct], found: list[Construct], same_image: Callable[[str, str], bool]
) -> list[Construct]:
    """``found`` with each image that stands for a lost source image (``same_image``)
    counted as that image, block by block."""
    if len(expected) != len(found):
        return found
    result = []
    for a, b in zip(expected, found, strict=True):
        if a.shape != b.shape and a.shape[0] == b.shape[0] == "inline":
            b = b._replace(shape=("inline", _images_as(a.shape[1], b.shape[1], same_image)))
        result.append(b)
    return result


def _images_as(expected: tuple, found: tuple, same_image: Callable[[str, str], bool]) -> tuple:
    lost = list((Counter(expected) - Counter(found)).elements())
    atoms = list(found)
    for index, (kind, value) in enumerate(atoms):
        if kind != "image" or (kind, value) in expected:
            continue
        old = next((o for o in lost if o[0] == "image" and same_image(o[1], value)), None)
        if old is not None:
            atoms[index] = old
            lost.remove(old)
    return tuple(sorted(atoms))


def _same(src: Fingerprint, out: Fingerprint, origin: Sequence[int] | None) -> bool:
    """The fast path: same constructs at the same lines, in the same order."""
    if len(src.constructs) != len(out.constructs):
        return False
    for a, b in zip(src.constructs, out.constructs, strict=True):
        line = b.line if origin is None else _origin_of(origin, b.line)
        if a.shape != b.shape or a.line != line:
            return False
    return True


def _origin_of(origin: Sequence[int], line: int) -> int:
    return origin[line] if 0 <= line < len(origin) else (origin[-1] if origin else line)


# --- reading the token stream --------------------------------------------------------


def parser_input(text: str) -> str:
    """What the parser sees, exactly as the segmenter feeds it: no BOM, NUL as U+FFFD."""
    return text.removeprefix("\ufeff").replace("\0", "\ufffd")


def _token_constructs(
    tokens: list[Token], text: str, keys: Sequence[str], translatable_html: bool
) -> list[Construct]:
    """One construct per token. A token without a line map takes the line of its opener
    (a closing token), of the next mapped token (an opening one) or of the one before."""
    following = _next_mapped_lines(tokens)
    openers: list[int] = []
    constructs: list[Construct] = []
    shapes: dict[Shape, Shape] = {}  # one tuple per distinct shape: a table has few
    last = 0
    for index, token in enumerate(tokens):
        if token.map:
            line = token.map[0]
        elif token.nesting < 0 and openers:
            line = openers[-1]
        elif token.nesting > 0 and following[index] is not None:
            line = following[index]
        else:
            line = last
        if token.nesting > 0:
            openers.append(line)
        elif token.nesting < 0 and openers:
            openers.pop()  # the footnote plugin may close what it never opened
        last = line
        shape = _shape(token, text, keys, translatable_html)
        constructs.append(_construct((shapes.setdefault(shape, shape), line)))
        if token.type == "front_matter" and keys:
            constructs.extend(_front_matter_values(token, text, keys))
    return constructs


def _next_mapped_lines(tokens: list[Token]) -> list[int | None]:
    following: list[int | None] = [None] * len(tokens)
    line: int | None = None
    for index in range(len(tokens) - 1, -1, -1):
        if tokens[index].map:
            line = tokens[index].map[0]
        following[index] = line
    return following


def _shape(token: Token, text: str, keys: Sequence[str], translatable_html: bool) -> Shape:
    registered = _SHAPES.get(token.type)
    if registered is not None:
        return registered(token)
    if token.type == "inline":
        return ("inline", inline_atoms(token.children or ()))
    if token.type == "front_matter":
        return ("front_matter", _masked_front_matter(token, text, keys))
    if token.type == "html_block" and translatable_html:
        return ("html_block", _html_tags(token.content))
    attrs = tuple(sorted((str(k), str(v)) for k, v in token.attrs.items())) if token.attrs else ()
    meta = _meta(token.meta) if token.meta else ()
    return (
        token.type,
        token.tag,
        token.nesting,
        token.markup,
        token.info,
        attrs,
        token.hidden,
        meta,
        token.content,
    )


def _meta(meta: dict) -> tuple:
    return tuple(sorted((k, v) for k, v in meta.items() if k not in _NUMBERING_META and _plain(v)))


def _plain(value: object) -> bool:
    return isinstance(value, str | int | bool | float) or value is None


def _masked_front_matter(token: Token, text: str, keys: Sequence[str]) -> str:
    """The front matter with every translatable value replaced by one placeholder: the
    keys, their order and all other values must stay, the values may change (and their
    quoting with them: a plain scalar may need quotes once translated)."""
    if not token.map:
        return token.content
    lines = split_lines(text)
    first, stop = token.map[0], min(token.map[1], len(lines))
    start = lines[first].start
    end = lines[stop - 1].start + len(lines[stop - 1].body)
    pieces, cursor = [], start
    for seg in locate_front_matter_values(token, lines, keys):
        begin = seg.start
        if seg.quoting in ("literal", "folded"):  # its indentation is the value's too
            begin = max(text.rfind("\n", 0, begin), text.rfind("\r", 0, begin)) + 1
        pieces += [text[cursor:begin], "\x00"]
        cursor = seg.end
    pieces.append(text[cursor:end])
    return "".join(pieces).replace("\r\n", "\n").replace("\r", "\n")


def _front_matter_values(token: Token, text: str, keys: Sequence[str]) -> list[Construct]:
    """One construct per translatable value, at its line: its key, whether it is a
    scalar or a block, and for a block whether YAML reads all its lines as the value
    (a first line indented deeper than the next would end the block early)."""
    if not token.map:
        return []
    constructs = []
    for seg in locate_front_matter_values(token, split_lines(text), keys):
        block = seg.quoting in ("literal", "folded")
        form = ("block", _block_holds(text, seg.start, seg.end)) if block else ("scalar", True)
        constructs.append(Construct(("front matter value", seg.kind, *form), seg.line - 1))
    return constructs


def _block_holds(text: str, start: int, end: int) -> bool:
    """True if no line of a block scalar is indented less than its first non-blank
    line, which sets the block's indentation (blank lines before it included)."""
    line_start = max(text.rfind("\n", 0, start), text.rfind("\r", 0, start)) + 1
    base = start - line_start
    seen_text = False
    for line in _LINE_SPLIT_RE.split(text[line_start:end]):
        indent = len(line) - len(line.lstrip(" "))
        if not line.strip():
            if not seen_text and len(line) > base:
                return False
            continue
        if indent < base or (not seen_text and indent != base):
            return False
        seen_text = True
    return True


def _html_tags(content: str) -> tuple[str, ...]:
    """The tags of an HTML block, normalized: its text may be translated, tags not."""
    tags = []
    pos = content.find("<")
    while pos != -1:
        end = _tag_end(content, pos)
        if end is None:
            pos = content.find("<", pos + 1)
            continue
        tags.append(normalize_tag(content[pos:end]))
        pos = content.find("<", end)
    return tuple(tags)


def _tag_end(content: str, pos: int) -> int | None:
    """End of the tag or comment starting at ``pos`` (quotes respected), or None."""
    if content.startswith("<!--", pos):
        close = content.find("-->", pos + 4)
        return None if close == -1 else close + 3
    if pos + 1 >= len(content) or not (content[pos + 1].isalpha() or content[pos + 1] in "/!?"):
        return None
    quote = None
    for index in range(pos + 1, len(content)):
        ch = content[index]
        if quote:
            quote = None if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == ">":
            return index + 1
        elif ch == "<":
            return None
    return None


def _reference_constructs(env: dict) -> list[Construct]:
    """Link reference definitions: no token, but a label, a destination and a line."""
    constructs = []
    for label, reference in env.get("references", {}).items():
        line = reference["map"][0] if reference.get("map") else 0
        constructs.append(Construct(("reference", label, reference.get("href", "")), line))
    return constructs


# --- naming constructs -----------------------------------------------------------------

_NAMES = {
    "paragraph_open": "paragraph",
    "bullet_list_open": "bullet list",
    "ordered_list_open": "ordered list",
    "list_item_open": "list item",
    "blockquote_open": "blockquote",
    "table_open": "table",
    "thead_open": "table head",
    "tbody_open": "table body",
    "tr_open": "table row",
    "th_open": "table header cell",
    "td_open": "table cell",
    "code_block": "indented code",
    "fence": "fenced code",
    "html_block": "HTML block",
    "hr": "thematic break",
    "front_matter": "front matter",
    "footnote_block_open": "footnote list",
    "footnote_open": "footnote",
    "footnote_anchor": "footnote back-link",
    "inline": "inline markup",
    "container_colon_open": "::: container",
    "admonition_open": "!!! admonition",
    "blocks_open": "/// block",
    "tab_open": "=== tab",
    "callout_open": "callout",
    "shortcode_open": "shortcode",
    "shortcode_raw": "shortcode",
    "liquid_line": "Liquid tag line",
    "liquid_raw": "Liquid block",
    "directive_line": "directive line",
    "jsx_flow": "JSX element",
    "mdx_esm": "MDX import/export",
    "dl_open": "definition list",
    "dt_open": "definition term",
    "dd_open": "definition",
    "alert_open": "alert",
    "abbr_definition": "abbreviation",
    "math_block": "math block",
}


def construct_name(shape: Shape) -> str:
    """``heading 2``, ``bullet list (-)``, ``link reference definition [x]`` ..."""
    kind = str(shape[0])
    if kind == "reference":
        return f"link reference definition [{shape[1]}]"
    if kind == "front matter value":
        return f"{shape[1]} ({shape[2]})"
    if kind == "heading_open":
        return f"heading {str(shape[1])[1:]}"
    if kind in ("bullet_list_open", "ordered_list_open") and len(shape) > 3 and shape[3]:
        return f"{_NAMES[kind]} ({shape[3]})"
    if kind.endswith("_close"):
        opener = kind[: -len("_close")] + "_open"
        return "end of " + _NAMES.get(opener, opener[: -len("_open")].replace("_", " "))
    return _NAMES.get(kind, kind.removesuffix("_open").replace("_", " "))


def _difference(line: int, expected: list[Construct], found: list[Construct]) -> Difference:
    """Name what differs at one line: a construct added or lost, else the first one
    whose markup, attributes or inline atoms changed."""
    built_lines = tuple(sorted({c.line for c in found}))
    had, has = [c.name for c in expected], [c.name for c in found]
    if had != has:
        added = Counter(_openers(found)) - Counter(_openers(expected))
        lost = Counter(_openers(expected)) - Counter(_openers(found))
        construct = next(iter(lost or added), (had or has)[0])
        return Difference(line + 1, construct, _summary(lost), _summary(added), built_lines)
    a, b = next((a, b) for a, b in zip(expected, found, strict=True) if a.shape != b.shape)
    if a.shape[0] == "inline":
        missing, extra = _atom_changes(a.shape, b.shape)
        return Difference(line + 1, "inline markup", missing, extra, built_lines)
    was, now = _details(a.shape, b.shape)
    return Difference(line + 1, a.name, was, now, built_lines)


def _openers(constructs: list[Construct]) -> list[str]:
    return [c.name for c in constructs if not c.name.startswith("end of") and c.shape[0] != "inline"]


def _atom_changes(expected: Shape, found: Shape) -> tuple[str, str]:
    had, has = Counter(expected[1]), Counter(found[1])  # type: ignore[arg-type]
    missing = [_atom(kind, value) for kind, value in (had - has).elements()]
    added = [_atom(kind, value) for kind, value in (has - had).elements()]
    return ", ".join(missing) or "nothing more", ", ".join(added) or "nothing more"


def _atom(kind: object, value: object) -> str:
    return f"{kind} {value!r}" if value else str(kind)


_FIELDS = ("type", "tag", "nesting", "markup", "info", "attributes", "hidden", "meta", "content")


def _details(expected: Shape, found: Shape) -> tuple[str, str]:
    """The fields two constructs of one name differ in: markup, info, attributes ..."""
    if expected[0] == "reference":
        return f"destination {expected[2]!r}", f"destination {found[2]!r}"
    if expected[0] == "front matter value":
        return _value_form(expected), _value_form(found)
    if len(expected) != len(_FIELDS) or len(found) != len(_FIELDS):
        return _short(expected[1:]), _short(found[1:])
    pairs = [
        (f"{field} {_short(a)}", f"{field} {_short(b)}")
        for field, a, b in zip(_FIELDS, expected, found, strict=True)
        if a != b
    ]
    return "; ".join(p[0] for p in pairs), "; ".join(p[1] for p in pairs)


def _value_form(shape: Shape) -> str:
    if shape[3]:
        return f"a {shape[2]} YAML reads whole"
    return "a first line indented deeper than the next, which ends the block early"


def _short(value: object, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _summary(names: Counter[str]) -> str:
    """Constructs with their counts: ``heading 1``, ``table row, table cell ×3``."""
    if not names:
        return "nothing"
    return ", ".join(name if n == 1 else f"{name} ×{n}" for name, n in names.items())
