"""Unsafe: markup in a translation that could run script in a reader's browser.

Translations may come from people the publisher does not vouch for. Whatever the
renderer of the day does with them, a translation must not bring raw HTML tags that
load or run code, event-handler attributes, or link destinations whose scheme runs
code or carries inline content (``javascript:``, ``vbscript:``, ``data:``). The raw text
is searched, not only what markdown-it turns into links: another renderer may be
laxer. Destinations are decoded first the way a browser would (entities, backslash
escapes, case, stray whitespace), so ``jav&#x61;script:`` and ``JaVa Script:`` are caught.
Only what the source does not have is reported; the source is the author's.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Iterator

from tolmach.checks.registry import EntryContext, check

__all__ = ["dangerous_url", "unsafe"]

_DANGEROUS_TAGS = frozenset(
    {
        "script",
        "iframe",
        "frame",
        "frameset",
        "object",
        "embed",
        "applet",
        "style",
        "base",
        "meta",
        "link",
        "form",
        "svg",
        "math",
        "template",
    }
)
_TAG_RE = re.compile(r"<\s*([A-Za-z][A-Za-z0-9-]*)((?:[^<>\"']|\"[^\"]*\"|'[^']*')*)>?")
_HANDLER_RE = re.compile(r"(?:^|[\s\"'/])((?:on[a-z]+|srcdoc|formaction)\s*=)", re.IGNORECASE)
_STYLE_RE = re.compile(r"(?:^|[\s\"'/])style\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s>]+)", re.IGNORECASE)
_STYLE_SCRIPT_RE = re.compile(r"javascript:|vbscript:|expression\(|-moz-binding|behavior:")
_CSS_ESCAPE_RE = re.compile(r"\\([0-9a-fA-F]{1,6}\s?|.)")
_DESTINATIONS = (
    re.compile(r"\]\(\s*<([^>\n]*)>"),  # [text](<dest>)
    re.compile(r"\]\(\s*((?:[^\s()]|\([^\s()]*\))+)"),  # [text](dest)
    re.compile(r"<([A-Za-z][A-Za-z0-9.+-]{1,31}:[^\s<>]*)>"),  # <scheme:autolink>
    re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)", re.MULTILINE),  # [label]: dest
    re.compile(
        r"(?:href|src|action|formaction|xlink:href|data|poster|background)\s*=\s*"
        r"(\"[^\"]*\"|'[^']*'|[^\s>]+)",
        re.IGNORECASE,
    ),
)
_SCHEME_RE = re.compile(r"(javascript|vbscript|livescript|data):")
_BACKSLASH_ESCAPE_RE = re.compile(r"\\([!-/:-@\[-`{-~])")
_INVISIBLE_RE = re.compile(r"[\x00-\x20\x7f\u00ad\u200b-\u200f\u2028\u2029\ufeff]+")


@check("unsafe")
def unsafe(ctx: EntryContext) -> Iterator[str]:
    """No script-capable HTML, event handlers, or javascript:/vbscript:/data: links the source lacks."""
    source, target = ctx.source_markup.masked, ctx.target_markup.masked
    if "<" in target:
        for tag, count in (_tags(target) - _tags(source)).items():
            yield f"raw HTML <{tag}> not in the source" + _times(count)
        for attribute, count in (_handlers(target) - _handlers(source)).items():
            yield f"event-handler attribute {attribute} not in the source" + _times(count)
        for style, count in (_script_styles(target) - _script_styles(source)).items():
            yield f"style attribute that runs script: {style!r}" + _times(count)
    if (":" in target and _may_hold_script_url(target)) or "&" in target:
        for url, count in (_dangerous_urls(target) - _dangerous_urls(source)).items():
            scheme = dangerous_url(url)
            yield f"link destination with {scheme} scheme: {url!r}" + _times(count)


def _may_hold_script_url(text: str) -> bool:
    """Whether some part of ``text`` could decode to a dangerous scheme: without ``&`` and
    ``\\`` nothing is decoded, so the scheme must be there once invisible characters go
    (removing characters from the whole leaves each part's result a substring)."""
    if "\\" in text:
        return True
    plain = _INVISIBLE_RE.sub("", text).lower()
    return "script:" in plain or "data:" in plain


def dangerous_url(url: str) -> str | None:
    """The script-running scheme a browser would see in ``url``, if any.

    >>> dangerous_url("jav&#x61;script:alert(1)")
    'javascript:'
    >>> dangerous_url("https://example.org/javascript:")
    """
    decoded = html.unescape(html.unescape(url.strip("\"'")))
    decoded = _BACKSLASH_ESCAPE_RE.sub(r"\1", decoded)
    decoded = _INVISIBLE_RE.sub("", decoded).lower()
    match = _SCHEME_RE.match(decoded)
    return match.group(0) if match else None


def _tags(text: str) -> Counter[str]:
    names = (m.group(1).lower() for m in _TAG_RE.finditer(text))
    return Counter(name for name in names if name in _DANGEROUS_TAGS)


def _handlers(text: str) -> Counter[str]:
    found: Counter[str] = Counter()
    for tag in _TAG_RE.finditer(text):
        for attribute in _HANDLER_RE.finditer(tag.group(2)):
            found[re.sub(r"\s+", "", attribute.group(1)).lower()] += 1
    return found


def _script_styles(text: str) -> Counter[str]:
    """Inline styles that reach script: ``url(javascript:…)``, ``expression(…)``."""
    found: Counter[str] = Counter()
    for tag in _TAG_RE.finditer(text):
        for style in _STYLE_RE.finditer(tag.group(2)):
            css = _CSS_ESCAPE_RE.sub(_css_unescape, html.unescape(style.group(1)))
            if _STYLE_SCRIPT_RE.search(_INVISIBLE_RE.sub("", css).lower()):
                found[style.group(1)] += 1
    return found


def _css_unescape(match: re.Match[str]) -> str:
    escaped = match.group(1).strip()
    if re.fullmatch(r"[0-9a-fA-F]{1,6}", escaped):
        return chr(int(escaped, 16)) if int(escaped, 16) < 0x110000 else ""
    return escaped


def _dangerous_urls(text: str) -> Counter[str]:
    found: Counter[str] = Counter()
    for pattern in _DESTINATIONS:
        for match in pattern.finditer(text):
            if dangerous_url(match.group(1)):
                found[match.group(1)] += 1
    return found


def _times(count: int) -> str:
    return f" ({count} times)" if count > 1 else ""
