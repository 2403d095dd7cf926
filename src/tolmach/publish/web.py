"""What search engines and feed readers read: absolute URLs, ``sitemap.xml``, Atom feeds.

Absolute addresses need to know where the site is served: the ``base-url`` setting.
Without it pages link their alternates relatively and no sitemap or feed is written
(both formats require absolute addresses).

The sitemap lists every published page once, each with ``xhtml:link`` alternates for
all its published languages plus ``x-default`` (the original), as search engines
expect for a multilingual site. Each locale gets an Atom 1.0 feed of its articles.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import quote

__all__ = ["FeedEntry", "SitemapEntry", "absolute", "atom_feed", "sitemap", "url_path"]

SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
XHTML_NS = "http://www.w3.org/1999/xhtml"
ATOM_NS = "http://www.w3.org/2005/Atom"
EPOCH = "1970-01-01T00:00:00+00:00"


def url_path(site_path: str) -> str:
    """A site-relative file path as it appears in a URL (percent-encoded, ``/`` kept).

    >>> url_path("zh_CN/指南 1.html")
    'zh_CN/%E6%8C%87%E5%8D%97%201.html'
    """
    return quote(site_path, safe="/._-~")


def absolute(base_url: str, site_path: str) -> str:
    """``base-url`` (ending in ``/``) joined with a site-relative path."""
    return base_url + url_path(site_path)


@dataclass(frozen=True)
class SitemapEntry:
    """One published page: its address, its alternates (hreflang → address), its date."""

    loc: str
    alternates: tuple[tuple[str, str], ...]
    lastmod: str | None = None


def sitemap(entries: Iterable[SitemapEntry]) -> Iterable[str]:
    """``sitemap.xml`` as text pieces, one ``<url>`` at a time (it may be long)."""
    from xml.sax.saxutils import escape, quoteattr  # it loads urllib.request: only here

    yield '<?xml version="1.0" encoding="UTF-8"?>\n'
    yield f'<urlset xmlns="{SITEMAP_NS}" xmlns:xhtml="{XHTML_NS}">\n'
    for entry in entries:
        yield f"<url>\n<loc>{escape(entry.loc)}</loc>\n"
        if entry.lastmod:
            yield f"<lastmod>{entry.lastmod}</lastmod>\n"
        for hreflang, href in entry.alternates:
            yield (f'<xhtml:link rel="alternate" hreflang={quoteattr(hreflang)} '
                   f"href={quoteattr(href)}/>\n")
        yield "</url>\n"
    yield "</urlset>\n"


@dataclass(frozen=True)
class FeedEntry:
    """An article in a locale's feed."""

    title: str
    url: str
    updated: str | None
    summary: str | None = None


def atom_feed(*, title: str, feed_url: str, site_url: str, lang: str,
              entries: list[FeedEntry], generator: str = "tolmach") -> str:
    """An Atom 1.0 feed; the newest entry date is the feed's date (so it is reproducible)."""
    from xml.sax.saxutils import escape, quoteattr

    updated = max((e.updated for e in entries if e.updated), default=EPOCH)
    parts = [
        '<?xml version="1.0" encoding="utf-8"?>\n',
        f'<feed xmlns="{ATOM_NS}" xml:lang={quoteattr(lang)}>\n',
        f"<title>{escape(title)}</title>\n",
        f"<id>{escape(feed_url)}</id>\n",
        f'<link rel="self" type="application/atom+xml" href={quoteattr(feed_url)}/>\n',
        f'<link rel="alternate" type="text/html" href={quoteattr(site_url)}/>\n',
        f"<updated>{updated}</updated>\n",
        f"<author><name>{escape(generator)}</name></author>\n",
        f"<generator>{escape(generator)}</generator>\n",
    ]
    for entry in sorted(entries, key=lambda e: (e.updated or EPOCH, e.url), reverse=True):
        parts += [
            "<entry>\n",
            f"<title>{escape(entry.title)}</title>\n",
            f"<id>{escape(entry.url)}</id>\n",
            f'<link rel="alternate" type="text/html" href={quoteattr(entry.url)}/>\n',
            f"<updated>{entry.updated or EPOCH}</updated>\n",
        ]
        if entry.summary:
            parts.append(f"<summary>{escape(entry.summary)}</summary>\n")
        parts.append("</entry>\n")
    parts.append("</feed>\n")
    return "".join(parts)
