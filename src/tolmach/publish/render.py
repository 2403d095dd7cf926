"""Markdown → HTML that is safe to publish even when a translation is hostile.

A localized page is the author's skeleton with translators' text poured into its
slots, so the rendered page cannot tell trusted bytes from untrusted ones. The
renderer therefore trusts neither:

* raw HTML is **disabled** (``html=False``): a ``<script>`` or ``<img onerror=…>`` typed
  into a msgstr comes out as visible, escaped text. We chose this over sanitizing the
  output (e.g. with nh3) because it needs no extra dependency and no allowlist to keep
  up to date, and a translator cannot add markup the author did not write anyway. The
  price: raw HTML in a *source* article is shown as text too;
* a link or image destination must be relative or use an allowed scheme (``http``,
  ``https``, ``mailto``); ``javascript:``, ``vbscript:``, ``data:`` and anything else are
  refused after decoding as a browser would, and the Markdown stays as plain text;
* attribute values (titles, alt text) are escaped by markdown-it itself;
* table alignment becomes a class instead of a ``style`` attribute, so pages can
  forbid inline styles in their Content-Security-Policy;
* a page is parsed in its document's dialect (``::: tip`` is a box, not text), and an
  attribute a dialect plugin took from the text survives only if it is harmless
  (:mod:`tolmach.publish.constructs`).

Untranslated passages can be marked with the source language (``lang``/``dir``) and
the class ``untranslated``, which screen readers and the stylesheet both use.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import unquote

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from tolmach.fileio import count_work
from tolmach.markdown.dialects import COMMONMARK, Dialect
from tolmach.publish.constructs import keep_safe_attributes, site_constructs

if TYPE_CHECKING:
    from tolmach.markdown.document import ParsedText

__all__ = [
    "ALLOWED_SCHEMES",
    "Fallback",
    "Heading",
    "Rendered",
    "content_security_policy",
    "plain_text",
    "publishing_parser",
    "render_article",
    "render_markdown",
    "reusable_tokens",
    "safe_destination",
    "segment_key",
]

ALLOWED_SCHEMES = frozenset({"http", "https", "mailto"})
_SCHEME_RE = re.compile(r"^([a-z][a-z0-9+.\-]*):")
# What a browser ignores in a URL before it reads the scheme: controls, spaces, tabs,
# newlines; we also drop invisible format characters a human would not see.
_IGNORED_RE = re.compile(r"[\x00-\x20\x7f-\x9f\u00ad\u200b-\u200f\u2028\u2029\u2060\ufeff]+")
_WHITESPACE_RE = re.compile(r"\s+")
_ALIGN_RE = re.compile(r"^text-align:(left|right|center)$")
_SLUG_DROP_RE = re.compile(r"[^\w\s-]")


@dataclass(frozen=True)
class Fallback:
    """Passages shown in the source language: their texts (see :func:`segment_key`),
    and the language tag and direction to mark them with."""

    texts: frozenset[str]
    lang: str
    direction: str = "ltr"


def safe_destination(url: str) -> bool:
    """Whether a link or image destination may appear in a published page.

    markdown-it calls this with the destination already entity-decoded and
    percent-encoded; we undo the percent-encoding too, so no spelling of a
    script-running scheme slips through.

    >>> safe_destination("https://example.org/a?b=c")
    True
    >>> safe_destination("../de/guide.html#intro")
    True
    >>> safe_destination("JaVa%09Script:alert(1)")
    False
    >>> safe_destination("data:image/png;base64,AAAA")
    False
    """
    decoded = _IGNORED_RE.sub("", unquote(url)).lower()
    match = _SCHEME_RE.match(decoded)
    if match is None:
        # No scheme: relative, fragment or protocol-relative. A colon before the first
        # slash would make a browser read a scheme after all.
        head = decoded.split("/", 1)[0].split("?", 1)[0].split("#", 1)[0]
        return ":" not in head
    return match.group(1) in ALLOWED_SCHEMES


def publishing_parser(dialect: Dialect = COMMONMARK) -> MarkdownIt:
    """The syntax extraction reads for ``dialect`` (by default CommonMark, tables, front
    matter, footnotes), with raw HTML off, links checked by :func:`safe_destination` and
    the dialect's constructs rendered for readers."""
    md = dialect.new_parser()
    md.options["html"] = False
    md.validateLink = safe_destination  # type: ignore[method-assign]
    md.add_render_rule("table_open", _table_open)
    md.add_render_rule("table_close", _table_close)
    site_constructs(md)
    return md


@dataclass(frozen=True)
class Heading:
    """A section heading of an article, for its table of contents."""

    level: int
    text: str
    anchor: str


@dataclass(frozen=True)
class Rendered:
    """An article's HTML body and its section headings."""

    html: str
    headings: tuple[Heading, ...]


def render_markdown(text: str, fallback: Fallback | None = None,
                    dialect: Dialect = COMMONMARK) -> str:
    """The HTML body of a Markdown document; ``fallback`` marks untranslated passages."""
    return render_article(text, fallback, dialect=dialect).html


def render_article(
    text: str,
    fallback: Fallback | None = None,
    links: Callable[[str, str], str] | None = None,
    *,
    dialect: Dialect = COMMONMARK,
    parsed: ParsedText | None = None,
) -> Rendered:
    """HTML with an ``id`` on every heading, and the headings for a table of contents.

    ``links(kind, url)`` may rewrite each image source (``kind`` "image") and link
    destination ("link"), e.g. to the published copy of an asset. ``parsed``: the
    dialect parser's reading of ``text``, used instead of parsing again where it is the
    reading this renderer would make (see :func:`reusable_tokens`).
    """
    md = _parser(dialect)
    count_work("render")
    tokens = reusable_tokens(parsed, text, dialect) if parsed is not None else None
    if tokens is None:
        count_work("render parse")
        tokens = md.parse(text.removeprefix("\ufeff"), {})  # a BOM is a signature, not text
    _align_by_class(tokens)
    keep_safe_attributes(tokens, safe_destination)
    if fallback is not None:
        _mark_fallbacks(tokens, fallback)
    if links is not None:
        _rewrite_links(tokens, links)
    headings = tuple(_anchor_headings(tokens))
    return Rendered(md.renderer.render(tokens, md.options, {}), headings)


def reusable_tokens(parsed: ParsedText, text: str, dialect: Dialect) -> list[Token] | None:
    """The tokens of ``parsed`` as this renderer's own parse of ``text`` would make
    them, or None when they may differ (the caller parses then).

    The renderer's parser is the dialect's with raw HTML off and links checked by
    :func:`safe_destination`, which refuses all the dialect's parser refuses and more. So
    the two read a text alike when the dialect's reading holds no raw HTML and every
    destination in it (links, images, reference definitions, URL attributes) passes
    :func:`safe_destination`: each rule then succeeds or fails in both. What remains is
    to run the rules only the renderer's parser has.
    """
    if parsed.dialect != dialect or parsed.text != text:
        return None
    md = _parser(dialect)
    tokens = parsed.take()
    if tokens is None or not _read_alike(tokens, parsed.env, md):
        return None
    state = StateCore(text, md, parsed.env)
    state.tokens = tokens
    for rule in _rules_of_renderer_only(dialect):
        rule(state)
    return state.tokens


#: Attributes whose value is a destination (as markdown-it's attribute plugins read them).
_URL_ATTRIBUTES = ("href", "src", "action", "formaction", "xlink:href")


def _read_alike(tokens: list[Token], env: dict, md: MarkdownIt) -> bool:
    """Whether the renderer's parser reads the text of ``tokens`` as they say: no raw
    HTML in them, and every destination one it accepts."""
    for reference in (env.get("references") or {}).values():
        if not safe_destination(str(reference.get("href", ""))):
            return False
    pending = list(tokens)
    while pending:
        token = pending.pop()
        if token.type in ("html_block", "html_inline"):
            return False
        if token.attrs:
            for name in _URL_ATTRIBUTES:
                value = token.attrs.get(name)
                if value is not None and not (
                    safe_destination(str(value)) and safe_destination(md.normalizeLink(str(value)))
                ):
                    return False
        if token.children:
            pending.extend(token.children)
    return True


@functools.lru_cache(maxsize=16)
def _rules_of_renderer_only(dialect: Dialect) -> tuple[Callable, ...]:
    """The core rules the renderer's parser runs and the dialect's parser does not (the
    site's shapes of containers), in order."""
    shared = set(dialect.parser().core.ruler.getRules(""))
    return tuple(rule for rule in _parser(dialect).core.ruler.getRules("") if rule not in shared)


def plain_text(markdown_inline: str) -> str:
    """The words of an inline Markdown fragment, for ``<title>`` and link labels.

    >>> plain_text("ROCm **7**: `hipcc` and [docs](https://example.org)")
    'ROCm 7: hipcc and docs'
    """
    tokens = _parser().parseInline(markdown_inline, {})
    return _WHITESPACE_RE.sub(" ", "".join(_texts(tokens))).strip()


def content_security_policy(live_reload: str | None = None, *, search: bool = False) -> str:
    """Defence in depth for every page: even markup that slipped through the renderer
    could load and run nothing. Only a preview allows its own live-reload script, and
    only the search pages run Pagefind's scripts and WebAssembly, all from the site."""
    if search:
        scripts, connect = "'self' 'wasm-unsafe-eval'", "'self'"
    else:
        scripts = connect = "'self'" if live_reload else "'none'"
    # Pagefind's search box draws its magnifier as an inline SVG image.
    worker = " worker-src 'self';" if search else ""
    images = "'self' data:" if search else "'self' https: http:"
    return (
        f"default-src 'none'; script-src {scripts}; connect-src {connect};{worker} "
        f"style-src 'self'; img-src {images}; base-uri 'none'; form-action 'none'"
    )


def segment_key(text: str) -> str:
    """A segment's text as the rendered inline token holds it, for matching the two:
    whitespace runs collapsed, table-cell pipes unescaped."""
    return _WHITESPACE_RE.sub(" ", text.replace("\\|", "|")).strip()


# --- internals ---------------------------------------------------------------------

@functools.lru_cache(maxsize=16)
def _parser(dialect: Dialect = COMMONMARK) -> MarkdownIt:
    return publishing_parser(dialect)


def _table_open(self, tokens, idx, options, env) -> str:
    """Tables scroll sideways inside a wrapper instead of widening the page."""
    return '<div class="table-wrap">\n' + self.renderToken(tokens, idx, options, env)


def _table_close(self, tokens, idx, options, env) -> str:
    return self.renderToken(tokens, idx, options, env) + "</div>\n"


def _align_by_class(tokens: list[Token]) -> None:
    for token in tokens:
        if token.type in ("th_open", "td_open"):
            match = _ALIGN_RE.match(str(token.attrs.get("style", "")))
            if match:
                del token.attrs["style"]
                token.attrJoin("class", f"align-{match.group(1)}")


def _rewrite_links(tokens: list[Token], links: Callable[[str, str], str]) -> None:
    for token in tokens:
        if token.type == "image":
            token.attrSet("src", links("image", str(token.attrGet("src") or "")))
        elif token.type == "link_open":
            token.attrSet("href", links("link", str(token.attrGet("href") or "")))
        if token.children:
            _rewrite_links(token.children, links)


def _anchor_headings(tokens: list[Token]) -> Iterable[Heading]:
    """Give each heading an id made of its words; repeats get ``-2``, ``-3`` …"""
    seen: Counter[str] = Counter()
    for index, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        words = plain_text_of(tokens[index + 1].children or [])
        written = str(token.attrGet("id") or "")  # {#id}: the author's, in every language
        anchor = written or slug(words) or "section"
        seen[anchor] += 1
        if seen[anchor] > 1:
            anchor = f"{anchor}-{seen[anchor]}"
        token.attrSet("id", anchor)
        yield Heading(int(token.tag[1]), words, anchor)


def slug(text: str) -> str:
    """An anchor of a heading's words, in any script.

    >>> slug("1. Небывалый скачок: ROCm 7!"), slug("推理 与 训练")
    ('1-небывалый-скачок-rocm-7', '推理-与-训练')
    """
    words = _SLUG_DROP_RE.sub("", text.lower())
    return "-".join(words.split())


def plain_text_of(tokens: Iterable[Token]) -> str:
    return _WHITESPACE_RE.sub(" ", "".join(_texts(tokens))).strip()


def _mark_fallbacks(tokens: list[Token], fallback: Fallback) -> None:
    """Put the source language on blocks whose text was not translated.

    A visible block (paragraph, heading, cell) gets the attributes itself; a paragraph
    hidden by a tight list gets a ``<span>`` around its content instead.
    """
    for index, token in enumerate(tokens):
        if token.type != "inline" or segment_key(token.content) not in fallback.texts:
            continue
        opener = tokens[index - 1] if index else None
        if opener is not None and opener.nesting == 1 and not opener.hidden:
            _set_language(opener, fallback)
        else:
            span_open = Token("span_open", "span", 1)
            _set_language(span_open, fallback)
            token.children = [span_open, *(token.children or []), Token("span_close", "span", -1)]


def _set_language(token: Token, fallback: Fallback) -> None:
    token.attrSet("lang", fallback.lang)
    token.attrSet("dir", fallback.direction)
    token.attrJoin("class", "untranslated")


def _texts(tokens: Iterable[Token]) -> Iterable[str]:
    for token in tokens:
        if token.type in ("text", "code_inline"):
            yield token.content
        elif token.type in ("softbreak", "hardbreak"):
            yield " "
        elif token.children:
            yield from _texts(token.children)
