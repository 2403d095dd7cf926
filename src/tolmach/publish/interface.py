"""The site's own words ("All articles", notices, the footer) in the reader's language.

tolmach localizes its interface with the tools it offers: the templates mark their
strings for gettext (Jinja2's i18n extension), Babel's Jinja2 extractor collects them
into ``publish/locales/site.pot``, ``tolmach``'s own merge brings them into one ``.po``
per locale, and the checks run on those catalogs like on any other. Pages use the
catalog of their language, or of the language alone (``de`` for ``de_AT``); without
one the interface is English and says so with ``lang="en"``.

Refresh the catalogs after changing a template: ``python -m tolmach.publish.interface``.
"""

from __future__ import annotations

import gettext
import io
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path

import polib
from babel import Locale
from markupsafe import Markup

__all__ = [
    "INTERFACE_DOMAIN",
    "Interface",
    "extract_interface_template",
    "interface_for",
    "interface_locales",
    "update_interface_catalogs",
]

INTERFACE_DOMAIN = "site"
INTERFACE_LANGUAGE = "en"  # the language the templates are written in
# Reviewer pages are a tool for translators, not part of the public site's interface.
_EXTRACTED = ("base.html", "switcher.html", "page.html", "index.html", "locale_index.html",
              "search.html")


@dataclass(frozen=True)
class Interface:
    """The interface language of one page: its gettext catalog and how to mark it."""

    locale: str
    translations: gettext.NullTranslations
    matches_page: bool

    @property
    def attrs(self) -> Markup:
        """``lang``/``dir`` for interface elements that are not in the page's language."""
        return Markup("") if self.matches_page else Markup(' lang="en" dir="ltr"')

    def language_name(self, code: str) -> str:
        """A language's name in the interface language: ``ru`` in German is "Russisch"."""
        lang = code.split("_")[0]
        name = Locale.parse(self.locale).languages.get(lang, lang)
        return name


def _locales_folder() -> Path:
    return Path(str(resources.files("tolmach.publish").joinpath("locales")))


@lru_cache(maxsize=1)
def interface_locales() -> tuple[str, ...]:
    """Locales the interface is translated into (those with a catalog in the package)."""
    folder = _locales_folder()
    return tuple(sorted(p.parent.parent.name for p in folder.glob(f"*/LC_MESSAGES/{INTERFACE_DOMAIN}.po")))


def interface_for(code: str) -> Interface:
    """The interface for a page in ``code``: its own catalog, its language's, or English."""
    available = interface_locales()
    language = code.split("_")[0]
    if code in available:
        chosen = code
    elif language in available:
        chosen = language
    else:
        chosen = INTERFACE_LANGUAGE
    matches = chosen in (code, language)
    return Interface(chosen, _translations(chosen), matches)


@cache
def _translations(locale: str) -> gettext.NullTranslations:
    path = _locales_folder() / locale / "LC_MESSAGES" / f"{INTERFACE_DOMAIN}.po"
    if not path.is_file():
        return gettext.NullTranslations()
    return gettext.GNUTranslations(io.BytesIO(polib.pofile(str(path)).to_binary()))


# --- maintaining the catalogs --------------------------------------------------------


def extract_interface_template() -> polib.POFile:
    """The interface's strings as Babel's Jinja2 extractor finds them in the templates."""
    from babel.messages.extract import extract
    from jinja2.ext import babel_extract

    templates = resources.files("tolmach.publish").joinpath("templates")
    pot = polib.POFile(wrapwidth=79)
    pot.metadata = {
        "Project-Id-Version": "tolmach site interface",
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
    }
    entries: dict[tuple[str, str | None], polib.POEntry] = {}
    for name in _EXTRACTED:
        with templates.joinpath(name).open("rb") as handle:
            found = extract(babel_extract, handle, comment_tags=("Translators:",),
                            options={"extensions": "jinja2.ext.i18n", "trimmed": "true"})
            for line, message, comments, context in found:
                singular, plural = (message, None) if isinstance(message, str) else message[:2]
                key = (singular, plural)
                entry = entries.get(key)
                if entry is None:
                    entry = polib.POEntry(msgid=singular, msgid_plural=plural or "",
                                          msgctxt=context, comment="\n".join(comments))
                    if plural:
                        entry.msgstr_plural = {0: "", 1: ""}
                    entries[key] = entry
                    pot.append(entry)
                entry.occurrences.append((f"templates/{name}", str(line)))
                if "%(" in singular:
                    entry.flags = ["python-format"]
    return pot


def update_interface_catalogs() -> list[Path]:
    """Write ``site.pot`` and merge it into every locale's ``site.po`` with tolmach's merge;
    return the files that changed."""
    from tolmach.catalog.merge import update_catalog
    from tolmach.catalog.pofile import read_po, write_po

    folder = _locales_folder()
    template = extract_interface_template()
    changed = []
    pot_path = folder / f"{INTERFACE_DOMAIN}.pot"
    if write_po(template, pot_path):
        changed.append(pot_path)
    for locale in interface_locales():
        path = folder / locale / "LC_MESSAGES" / f"{INTERFACE_DOMAIN}.po"
        merged = update_catalog(template, read_po(path), locale, fuzzy_threshold=0.6)
        if write_po(merged, path):
            changed.append(path)
    return changed


if __name__ == "__main__":  # pragma: no cover - a maintainer's command
    for changed_path in update_interface_catalogs():
        print(changed_path)
