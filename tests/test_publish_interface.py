"""The site's interface is localized with tolmach's own tools, and kept in step.

The catalog of interface strings is what Babel's Jinja2 extractor finds in the
templates; every locale's catalog is complete, valid for GNU msgfmt and clean under
tolmach's own checks.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from importlib import resources
from pathlib import Path

import pytest

from tolmach.catalog.pofile import read_po
from tolmach.checks import check_catalog
from tolmach.publish.interface import (
    extract_interface_template,
    interface_for,
    interface_locales,
)

FOLDER = Path(str(resources.files("tolmach.publish").joinpath("locales")))


def test_the_interface_is_translated_into_five_locales():
    assert interface_locales() == ("de", "en", "ru", "uk", "zh_CN")


def test_the_template_catalog_is_what_the_templates_hold():
    fresh = {(e.msgid, e.msgid_plural) for e in extract_interface_template()}
    committed = {(e.msgid, e.msgid_plural) for e in read_po(FOLDER / "site.pot")}
    assert fresh == committed, "run `python -m tolmach.publish.interface` and commit"
    assert len(fresh) >= 25


@pytest.mark.parametrize("locale", ["de", "en", "ru", "uk", "zh_CN"])
def test_each_catalog_is_complete_and_passes_the_checks(locale):
    path = FOLDER / locale / "LC_MESSAGES" / "site.po"
    po = read_po(path)
    template = {e.msgid for e in read_po(FOLDER / "site.pot")}
    assert {e.msgid for e in po if not e.obsolete} == template
    assert not po.untranslated_entries() and not po.fuzzy_entries()
    findings = [f for f in check_catalog(po, str(path), locale, source_locale="en")
                if not (locale == "en" and f.check == "identical")]
    assert not findings, "\n".join(map(str, findings))


@pytest.mark.parametrize("locale", ["de", "ru", "uk", "zh_CN"])
def test_each_catalog_passes_msgfmt(locale):
    if not shutil.which("msgfmt"):
        if os.environ.get("CI"):
            pytest.fail("msgfmt (GNU gettext) missing under CI")
        pytest.skip("msgfmt (GNU gettext) not installed")
    path = FOLDER / locale / "LC_MESSAGES" / "site.po"
    done = subprocess.run(["msgfmt", "--check", "-o", os.devnull, str(path)],
                          capture_output=True, text=True)
    assert done.returncode == 0 and not done.stderr, done.stderr


def test_plural_forms_follow_each_language():
    uk = interface_for("uk").translations
    forms = [uk.ngettext("%(num)d changed passage awaits review.",
                         "%(num)d changed passages await review.", n) % {"num": n}
             for n in (1, 3, 5)]
    assert forms == ["1 змінений фрагмент чекає на перевірку.",
                     "3 змінені фрагменти чекають на перевірку.",
                     "5 змінених фрагментів чекають на перевірку."]


def test_a_page_language_without_a_catalog_gets_english_marked_as_such():
    assert interface_for("de_AT").locale == "de" and interface_for("de_AT").matches_page
    arabic = interface_for("ar")
    assert arabic.locale == "en" and not arabic.matches_page
    assert str(arabic.attrs) == ' lang="en" dir="ltr"'
    assert interface_for("ru").language_name("ru") == "русский"


def test_the_languages_share_compiled_templates_and_each_renders_its_own_words(monkeypatch):
    from jinja2 import DictLoader, Environment

    from tolmach.publish.templating import environment

    compiled = []
    compile_source = Environment.compile
    monkeypatch.setattr(Environment, "compile", lambda self, source, name=None, *rest, **kw:
                        compiled.append(name) or compile_source(self, source, name, *rest, **kw))
    loader = DictLoader({"shared.html": "{% trans %}Articles{% endtrans %} · {{ _('Search') }}"})
    rendered = {locale: environment(locale).overlay(loader=loader).get_template("shared.html")
                .render() for locale in ("de", "ru", "zh_CN")}
    words = interface_for("de").translations.gettext
    assert rendered["de"] == f"{words('Articles')} · {words('Search')}"
    assert len(set(rendered.values())) == 3  # each language its own words
    assert compiled == ["shared.html"]  # compiled once, for the three
