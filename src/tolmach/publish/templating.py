"""Templates of the site: the Jinja2 environment of each interface language, the static
files, and small views of the page model the templates show."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from tolmach.project import SourceDocument
from tolmach.publish.interface import interface_for

if TYPE_CHECKING:
    from jinja2 import Environment

__all__ = ["Listed", "contents", "environment", "static_text"]


@dataclass(frozen=True)
class Listed:
    """An outcome as a list shows it."""

    outcome: Any  # a tolmach.publish.site.Outcome
    url: str = ""

    @property
    def title(self) -> str:
        return self.outcome.title

    @property
    def description(self) -> str | None:
        return self.outcome.description

    @property
    def doc(self) -> SourceDocument:
        return self.outcome.doc

    @property
    def progress(self):
        label = self.outcome.percent_label
        return None if label is None else Percent(label, label == "100%")


@dataclass(frozen=True)
class Percent:
    percent_label: str
    complete: bool


def contents(headings) -> list[dict]:
    """Sections (level 2) with their subsections (level 3) for the table of contents."""
    sections: list[dict] = []
    for heading in headings:
        if heading.level == 2 or (heading.level == 3 and not sections):
            sections.append({"heading": heading, "children": []})
        elif heading.level == 3:
            sections[-1]["children"].append(heading)
    return sections


@cache
def static_text(name: str) -> str:
    return resources.files("tolmach.publish").joinpath("static", name).read_text("utf-8")


@cache
def environment(ui_locale: str) -> Environment:
    from jinja2 import Environment, PackageLoader, StrictUndefined  # only when a page is made

    env = Environment(loader=PackageLoader("tolmach.publish", "templates"), autoescape=True,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                      keep_trailing_newline=True, extensions=["jinja2.ext.i18n"],
                      bytecode_cache=_compiled_templates())
    env.install_gettext_translations(interface_for(ui_locale).translations, newstyle=True)
    env.globals["Markup"] = Markup
    return env


@cache
def _compiled_templates():
    """One store of compiled templates for the environments of every interface language:
    they differ only in their translations, which a template looks up when it renders, so
    the code compiled for one serves all (compiling took a quarter of a second per run)."""
    from jinja2 import BytecodeCache

    class SharedCode(BytecodeCache):
        def __init__(self) -> None:
            self.code: dict[str, tuple[str, Any]] = {}

        def load_bytecode(self, bucket) -> None:
            checksum, code = self.code.get(bucket.key, (None, None))
            if checksum == bucket.checksum:
                bucket.code = code

        def dump_bytecode(self, bucket) -> None:
            self.code[bucket.key] = (bucket.checksum, bucket.code)

    return SharedCode()
