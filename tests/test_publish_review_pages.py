"""Reviewer pages made in Python are the pages the plain template made, byte for byte,
and untrusted text on them stays escaped.

The reference is ``review.html`` as it was when it rendered every passage in a Jinja
loop (kept below), rendered through an environment configured like the site's. Pages
come from a real publish of the issue 16 scenario plus a locale whose translations are
hostile, and from a page built here with hostile text in every field a reviewer page
shows (source, kind, translation, check name, finding message).
"""

from __future__ import annotations

from types import SimpleNamespace

import polib
import pytest
from jinja2 import ChoiceLoader, DictLoader, Environment, PackageLoader, StrictUndefined
from markupsafe import Markup
from publish_scenario import TRANSLATIONS, make_scenario

from tolmach.checks.registry import Finding
from tolmach.markdown.segment import Segment
from tolmach.project import Project
from tolmach.publish import PublishOptions, publish_site, site
from tolmach.publish.interface import interface_for
from tolmach.publish.pages import Page, Passage, Progress, language
from tolmach.publish.review import SourceRows, findings_html, jump_html, passages_html, source_rows
from tolmach.publish.templating import environment

#: ``review.html`` as it was before its passages and findings were made in Python.
REFERENCE_TEMPLATE = """\
{% extends "base.html" %}
{% block title %}Review: {{ page.title }} ({{ page.language.english }}){% endblock %}
{% block body_class %}review{% endblock %}
{% block main %}
<h1>Review: <span lang="{{ page.language.tag }}" dir="{{ page.language.direction }}">{{ page.language.name }}</span></h1>
<p class="lead">Source and translation, segment by segment, as the translator typed them. Findings of <code>tolmach check</code> are highlighted; fuzzy and missing translations are not published.</p>
<section class="review-doc" id="{{ page.doc.name }}">
<h2>{% if public_href %}<a href="{{ public_href }}">{{ page.title }}</a>{% else %}{{ page.title }}{% endif %}</h2>
<p class="verdict {{ 'published' if verdict.published else 'withheld' }}">{% if verdict.published %}Published{% if verdict.reason %}: {{ verdict.reason }}{% endif %}.{% else %}Not published: {{ verdict.reason }}.{% endif %}</p>
<p class="review-meta">
<code>{{ page.doc.relpath }}</code> at source revision <code>{{ page.revision }}</code>
&middot; {{ page.progress.percent_label }} translated
&middot; {{ errors }} error{{ "s" if errors != 1 }}, {{ warnings }} warning{{ "s" if warnings != 1 }}
{% if page.catalog_revised %}&middot; catalog revised {{ page.catalog_revised }}{% endif %}
</p>
{% if not page.has_catalog %}
<p class="notice notice-partial">No catalog for this language yet: run <code>tolmach update -l {{ page.language.code }}</code>.</p>
{% endif %}
{% if flagged %}
<p class="jump">Findings at
{% for number, passage in flagged %}
<a href="#s{{ number }}" class="{{ passage.worst or 'waived' }}">line {{ passage.segment.line }}</a>{{ "," if not loop.last }}
{% endfor %}
</p>
{% endif %}
{% if page.catalog_findings %}
<ul class="findings">
{% for finding in page.catalog_findings %}
<li class="finding {{ finding.severity }}{{ ' waived' if finding.waived }}"><span class="badge">{{ finding.severity }}</span> <code>{{ finding.check }}</code> {{ finding.message }}{% if finding.waived %} <em>(waived)</em>{% endif %}</li>
{% endfor %}
</ul>
{% endif %}
<div class="passages">
<div class="passage passage-head" aria-hidden="true">
<div class="where">Line</div>
<div class="src">Source: {{ source.name }}</div>
<div class="tgt">Translation: {{ page.language.name }}</div>
</div>
{% for passage in page.passages %}
<div class="passage status-{{ passage.status }}{{ ' ' ~ passage.worst if passage.worst }}" id="s{{ loop.index }}">
<div class="where"><a href="#s{{ loop.index }}">{{ passage.segment.line }}</a><span class="kind">{{ passage.segment.kind }}</span></div>
<div class="src" lang="{{ source.tag }}" dir="{{ source.direction }}">{{ passage.segment.text }}</div>
<div class="tgt" lang="{{ page.language.tag }}" dir="{{ page.language.direction }}">{% if passage.translation %}{{ passage.translation }}{% endif %}<span class="status" lang="en" dir="ltr">{{ passage.status }}</span></div>
{% if passage.findings %}
<ul class="findings">
{% for finding in passage.findings %}
<li class="finding {{ finding.severity }}{{ ' waived' if finding.waived }}"><span class="badge">{{ finding.severity }}</span> <code>{{ finding.check }}</code> {{ finding.message }}{% if finding.waived %} <em>(waived)</em>{% endif %}</li>
{% endfor %}
</ul>
{% endif %}
</div>
{% endfor %}
</div>
</section>
{% endblock %}
"""

HOSTILE = """<script>alert("x")</script> & 'q' {{ 7*7 }} {% if true %}yes{% endif %} &amp; </div>"""


def reference_environment() -> Environment:
    """An environment made like the site's (:func:`tolmach.publish.templating.environment`)
    that also knows the reference template."""
    env = Environment(
        loader=ChoiceLoader([DictLoader({"reference.html": REFERENCE_TEMPLATE}),
                             PackageLoader("tolmach.publish", "templates")]),
        autoescape=True, undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
        keep_trailing_newline=True, extensions=["jinja2.ext.i18n"])
    env.install_gettext_translations(interface_for("en").translations, newstyle=True)
    env.globals["Markup"] = Markup
    return env


def reference_html(publisher, page: Page) -> str:
    """A reviewer page as the plain template made it, from the publisher's own facts."""
    review = publisher.options.review
    site_path = f"{page.language.code}/{page.doc.name}.html"
    depth = site_path.count("/")
    counted = [f for p in page.passages for f in p.findings if not f.waived]
    counted += [f for f in page.catalog_findings if not f.waived]
    outcome = publisher.outcomes[(page.doc.name, page.language.code)]
    public = None
    if outcome.verdict.published and publisher._review_inside:
        public = "../" * (depth + len(review.relative_to(publisher.out).parts)) + site.url_path(site_path)
    common = publisher._common(interface_for("en"), language("en"), "../" * depth)
    common.update(home_href=f"{'../' * depth}index.html", search_href=None, feed_href=None)
    return reference_environment().get_template("reference.html").render(
        common, page=page, verdict=outcome.verdict, public_href=public,
        flagged=[(n, p) for n, p in enumerate(page.passages, start=1) if p.findings],
        errors=sum(1 for f in counted if f.severity == "error"),
        warnings=sum(1 for f in counted if f.severity == "warning"))


# --- a real publish: every reviewer page against the reference ----------------------------


def hostile_catalogs(project: Project) -> None:
    """Locale ``es``: hostile translations, one fuzzy, one wrong number waived, one with a
    quote in an image title, the news untranslated but one paragraph and missing one."""
    for doc in project.documents:
        path = project.catalog_path("es", doc.name)
        po = polib.pofile(str(path), wrapwidth=0)
        for n, entry in enumerate(po):
            if doc.name.startswith("news") and n != 2:
                continue
            entry.msgstr = f"{entry.msgid} {HOSTILE}"
            if n == 1:
                entry.flags.append("fuzzy")
            if entry.msgid == "Вывод стал быстрее в 3.5 раза.":
                entry.msgstr = f"{HOSTILE} 4,5"
                entry.flags.append("ignore-numbers")
        if doc.name.startswith("news"):
            po.remove(po.find("Подробнее"))  # a passage the catalog misses
        po.save(str(path))


@pytest.fixture(scope="module")
def published_pages(tmp_path_factory) -> list[tuple[str, str, str]]:
    """Every reviewer page a publish made, in both places they can go, with what the
    reference template makes of the same page: ``(name, made, reference)``."""
    made = []
    original = site._Publisher._review_html

    def recording(publisher, page):
        text = original(publisher, page)
        made.append((f"{publisher.options.review.name}/{page.language.code}/{page.doc.name}",
                     text, reference_html(publisher, page)))
        return text

    site._Publisher._review_html = recording
    try:
        for where in ("separate", "in-site"):
            root = tmp_path_factory.mktemp(where)
            project = make_scenario(root, locales=(*TRANSLATIONS, "es"))
            hostile_catalogs(project)
            out = root / "output" / "site"
            review = out / "review" if where == "in-site" else root / "output" / "review"
            publish_site(Project(project.config), out,
                         PublishOptions(review=review, allow_errors=where == "in-site"))
    finally:
        site._Publisher._review_html = original
    return made


def test_every_reviewer_page_is_the_plain_templates_byte_for_byte(published_pages):
    assert len(published_pages) == 2 * 5 * 2  # in two places, 5 locales x 2 documents
    for name, made, reference in published_pages:
        assert made == reference, name


def test_the_publish_shows_findings_fuzzy_and_waived_passages(published_pages):
    """The pages compared above hold what the review loop has branches for."""
    everything = "".join(made for _, made, _ in published_pages)
    for shown in ('class="finding error"', 'class="finding error waived"', "status-fuzzy",
                  "status-missing", "status-translated error", '<p class="jump">',
                  "<em>(waived)</em>"):
        assert shown in everything, shown


def test_hostile_translations_stay_escaped_on_the_published_pages(published_pages):
    pages = [made for name, made, _ in published_pages if "/es/" in name]
    assert pages
    for made in pages:
        assert "<script>" not in made
        assert "{{ 7*7 }}" in made.replace("&#39;", "'")  # shown as typed, never evaluated
    guide = next(made for name, made, _ in published_pages if name.endswith("/es/guide"))
    assert ("&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; &#39;q&#39; {{ 7*7 }} "
            "{% if true %}yes{% endif %} &amp;amp; &lt;/div&gt;") in guide


# --- a page built here: hostile text in every field -----------------------------------------


def segment(text: str, kind: str, line: int) -> Segment:
    return Segment(text=text, kind=kind, line=line, start=0, end=len(text), continuation="")


def finding(check: str, message: str, severity: str = "error", waived: bool = False) -> Finding:
    return Finding(path="x.po", line=1, check=check, severity=severity, message=message,
                   waived=waived)


def hostile_page() -> Page:
    passages = (
        Passage(segment(HOSTILE, "paragraph", 1), "translated", HOSTILE,
                (finding("tags", f"unbalanced {HOSTILE}"),
                 finding(f"x{HOSTILE}", "waived one", "warning", waived=True))),
        Passage(segment("plain", f"kind {HOSTILE}", 3), "fuzzy", "", ()),
        Passage(segment("again", "heading", 5), "missing", None,
                (finding("numbers", "only waived", waived=True),)),
        Passage(segment(HOSTILE, "table cell", 7), "untranslated", None,
                (finding("length", "long", "warning"),)),
        Passage(segment("<b>", "paragraph", 9), "translated", "<i>kept</i>", ()),
    )
    doc = SimpleNamespace(name="d/x", relpath="d/x.md")
    return Page(doc=doc, language=language("de"), title=HOSTILE, description=None, markdown="",
                revision="abc", passages=passages,
                progress=Progress(3, 9, 1, 1, 1, 2), catalog_revised=HOSTILE,
                catalog_findings=(finding("catalog", HOSTILE), finding("c", "w", "warning", True)),
                has_catalog=False)


def frame(page: Page) -> dict:
    """What the templates show around the passages, as a publisher gives it."""
    return {"ui": interface_for("en"), "html_lang": language("en"), "root": "../",
            "source": language("ru"), "source_name": "Russian", "csp": "default-src 'self'",
            "live_reload": None, "revision_length": 12, "home_href": "../index.html",
            "search_href": None, "feed_href": None, "description": None, "canonical": None,
            "alternates": [], "links_fingerprint": None, "page": page,
            "verdict": SimpleNamespace(published=False, reason=HOSTILE),
            "public_href": None, "errors": 2, "warnings": 1}


def made_html(page: Page) -> str:
    """The page as the publisher makes it now: the template's frame, the rest in Python."""
    rows = source_rows([p.segment for p in page.passages], language("ru"))
    return environment("en").get_template("review.html").render(
        frame(page), jump=jump_html(page), catalog_findings=findings_html(page.catalog_findings),
        passages=passages_html(page, rows))


def test_a_hostile_page_is_the_plain_templates_byte_for_byte():
    page = hostile_page()
    flagged = [(n, p) for n, p in enumerate(page.passages, start=1) if p.findings]
    reference = reference_environment().get_template("reference.html").render(
        frame(page), flagged=flagged)
    assert made_html(page) == reference


@pytest.mark.parametrize("passages", [(), hostile_page().passages[1:2]])
def test_pages_without_findings_are_the_plain_templates_too(passages):
    page = Page(**{**hostile_page().__dict__, "passages": passages, "catalog_findings": ()})
    reference = reference_environment().get_template("reference.html").render(
        frame(page), flagged=[])
    assert made_html(page) == reference


def test_hostile_text_in_every_field_stays_escaped():
    html = made_html(hostile_page())
    assert "<script>" not in html and "</script>" not in html
    assert "<i>kept</i>" not in html and "&lt;i&gt;kept&lt;/i&gt;" in html
    assert html.count("</div>") == html.count("<div")  # no field closes an element
    escaped = ("&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; &#39;q&#39; {{ 7*7 }} "
               "{% if true %}yes{% endif %} &amp;amp; &lt;/div&gt;")
    # source, translation, kind, finding message, check name, catalog finding, title
    assert html.count(escaped) >= 8
    assert "49" not in html  # the template never evaluated what a translator typed


def test_source_rows_are_shared_only_by_the_same_segments():
    page = hostile_page()
    rows = SourceRows()
    first = rows.of(page.passages, language("ru"))
    assert rows.of(page.passages, language("ru")) is first
    copied = tuple(Passage(segment(p.segment.text, p.segment.kind, p.segment.line), p.status)
                   for p in page.passages)
    assert rows.of(copied, language("ru")) is not first  # equal, but another document's
    assert rows.of(copied, language("uk")) != first
