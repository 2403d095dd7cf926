"""Build and verify: a translation that changes the document's structure is not used.

Every build goes through :func:`verified_build`. The document is assembled with all its
translations, parsed with the same parser as the source, and the two structural
fingerprints (:mod:`tolmach.markdown.structure`) are compared. When they agree — the
usual case — that was one parse of the built text (the source's fingerprint is taken
once per document). When they do not, the offending segments are found without
re-parsing once per entry:

1. **Map lines.** The assembler knows where every translated slot landed, and the
   skeleton between slots is copied byte for byte, so each line of the built text maps
   back to a source line. A line whose line break came from inside a slot (a msgstr
   spread over lines) maps to the slot's first line and is *injected*: no construct may
   start on it.
2. **Blame.** The fingerprints are compared line by line. For each source line whose
   constructs differ, a construct starting on an injected line blames its slot
   *for certain*; otherwise the translated slots that cover the line, in the source or in
   the build, are *suspects*. A difference no slot covers (a reference definition
   injected elsewhere changing a link here) suspects the nearest translated slot above
   it. Certain and suspect slots all fall back to their source text; the document is
   assembled and compared again until it verifies. Each round drops at least one
   translation, and the source itself always verifies, so this ends.
3. **Acquit.** Suspects may be innocent (a ``|`` in one header cell destroys the whole
   table; every cell of it is a suspect). They are restored by bisection: a group of
   suspects is put back at once; if the document still verifies, all are acquitted,
   otherwise the group is split in two and each half tried. A suspect that fails alone
   (every other accepted translation in place) is an offender, and the differences of
   that build are its own. ``k`` offenders among ``s`` suspects cost ``O(k log s)``
   builds; past :data:`MAX_TRIALS` the rest stay on their source text, still named.

The result is the text with every offender on its source text, and what each offender
changed, so that ``build`` can say which entry fell back and ``check`` can report it.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from markdown_it import MarkdownIt

from tolmach.fileio import count_work
from tolmach.markdown.build import Assembly, assemble, line_breaks_added
from tolmach.markdown.document import Document, ParsedText, SegmentOptions, read_document
from tolmach.markdown.segment import Segment
from tolmach.markdown.structure import (
    Difference,
    Fingerprint,
    fingerprint,
    fingerprint_of_tokens,
    parser_input,
    structure_differences,
)

__all__ = [
    "MAX_TRIALS", "Rejection", "VerifiedBuild", "Verifier", "read_parsed", "read_with_structure",
    "verified_build",
]

Lookup = Mapping[str, str] | Callable[[str], str | None]

#: Builds spent on acquitting suspects before the rest stay on their source text.
MAX_TRIALS = 64

_LINE_BREAK_RE = re.compile(r"\r\n?|\n")


@dataclass(frozen=True)
class Rejection:
    """A translation left out of the build: its segment and what it would have changed."""

    index: int
    segment: Segment
    translation: str
    differences: tuple[Difference, ...]

    @property
    def reason(self) -> str:
        """One line: the first difference, and how many more there are."""
        first = self.differences[0] if self.differences else None
        if first is None:
            return "the structure changes around it"
        more = len(self.differences) - 1
        text = f"{first.construct}: expected {first.expected}, found {first.found}"
        return text + (f" (and {more} more)" if more else "")


@dataclass(frozen=True)
class VerifiedBuild:
    """A built text whose structure is the source's, and the translations left out;
    ``parsed``: the parse that verified it, for whoever renders it next."""

    text: str
    rejected: tuple[Rejection, ...] = ()
    normalized: tuple[tuple[Segment, tuple[str, ...]], ...] = field(default=())
    builds: int = 1
    parsed: ParsedText | None = field(default=None, compare=False, repr=False)

    def notes(
        self, catalog: str, source: str, entry_lines: Mapping[str, int], *, refused: bool = False
    ) -> tuple[str, ...]:
        """One line per translation left out or changed, naming the entry (``catalog``
        and the line of its msgid in ``entry_lines``) and the ``source`` line."""
        outcome = "the document is not written" if refused else "the source text is used"
        notes = [
            f"{catalog}:{entry_lines.get(r.segment.text, 0)}: {source}:{r.segment.line}: "
            f"the translation changes the structure ({r.reason}); {outcome}"
            for r in self.rejected
        ]
        notes += [
            f"{catalog}:{entry_lines.get(seg.text, 0)}: {source}:{seg.line}: "
            f"{', '.join(names)} in the translation replaced (a line break the source "
            "does not have)"
            for seg, names in self.normalized
        ]
        return tuple(notes)


class Verifier:
    """Verified builds of one document: its fingerprint is taken once, for all locales."""

    def __init__(
        self,
        document: Document,
        parser: MarkdownIt | None = None,
        *,
        options: SegmentOptions | None = None,
        wrap_width: int = 0,
        source_structure: Fingerprint | None = None,
    ) -> None:
        """``source_structure``: the source's fingerprint if it is known already (see
        :func:`read_with_structure`), taken with the same options."""
        self.document = document
        self.parser = parser or document.dialect.parser()  # the parser it was segmented with
        options = options or SegmentOptions(dialect=document.dialect)
        self.options = _structure_options(options)
        self.wrap_width = wrap_width
        self._source = source_structure

    @property
    def source(self) -> Fingerprint:
        """The source's structure, taken once."""
        if self._source is None:
            self._source = fingerprint(self.document.text, self.parser, **self.options)
        return self._source

    @functools.cached_property
    def source_line_starts(self) -> list[int]:
        return _line_starts(self.document.text)

    def build(
        self,
        translations: Lookup,
        *,
        force: bool = False,
        same_image: Callable[[str, str], bool] | None = None,
    ) -> VerifiedBuild:
        """The document with ``translations``, every offending one on its source text.

        ``same_image(old, new)``: may an image point to ``new`` where the source has
        ``old`` (a localized variant of the picture)?
        """
        return _Attribution(self, translations, force, same_image).run()

    def differences(
        self, assembly: Assembly, same_image: Callable[[str, str], bool] | None = None
    ) -> tuple[list[Difference], dict[int, int]]:
        """How the structure of an assembled text differs from the source's, and its
        injected lines (see :meth:`origins`)."""
        found, injected, _ = self.compare(assembly, same_image)
        return found, injected

    def compare(
        self, assembly: Assembly, same_image: Callable[[str, str], bool] | None = None
    ) -> tuple[list[Difference], dict[int, int], ParsedText]:
        """:meth:`differences`, and the parse of the assembled text they come from."""
        origin, injected = self.origins(assembly)
        env: dict = {}
        count_work("parse")
        tokens = self.parser.parse(parser_input(assembly.text), env)
        built = fingerprint_of_tokens(tokens, env, assembly.text, **self.options)
        found = structure_differences(
            self.source, built, self.parser, origin=origin, same_image=same_image, **self.options
        )
        dialect = self.document.dialect if self.parser is self.document.dialect.parser() else None
        return found, injected, ParsedText(assembly.text, tokens, env, dialect)

    def origins(self, assembly: Assembly) -> tuple[list[int], dict[int, int]]:
        """Source line of each built line, and the injected built lines with the index
        of the segment whose slot holds their line break."""
        segments = self.document.segments
        sources = self.source_line_starts
        origin: list[int] = []
        injected: dict[int, int] = {}
        shift = 0  # built offset minus source offset, after the slots passed so far
        slots = assembly.slots
        k = 0
        for built_line, start in enumerate(_line_starts(assembly.text)):
            while k < len(slots) and slots[k][2] <= start - 1:
                index, out_start, out_end = slots[k]
                seg = segments[index]
                shift += (out_end - out_start) - (seg.end - seg.start)
                k += 1
            if k < len(slots) and slots[k][1] <= start - 1 < slots[k][2]:
                index = slots[k][0]
                injected[built_line] = index
                origin.append(_line_of(sources, segments[index].start))
            else:
                origin.append(_line_of(sources, start - shift))
        return origin, injected


def verified_build(
    document: Document,
    translations: Lookup,
    parser: MarkdownIt | None = None,
    *,
    options: SegmentOptions | None = None,
    wrap_width: int = 0,
    force: bool = False,
) -> VerifiedBuild:
    """Build ``document`` with ``translations`` and verify it (see the module docstring)."""
    verifier = Verifier(document, parser, options=options, wrap_width=wrap_width)
    return verifier.build(translations, force=force)


def read_with_structure(
    text: str, options: SegmentOptions | None = None, *, hints: bool = False
) -> tuple[Document, Fingerprint]:
    """The source's segments (:func:`parse_document`) and its structure (what
    :attr:`Verifier.source` takes) from one parse: a step that verifies builds needs both."""
    document, structure, _ = read_parsed(text, options, hints=hints)
    return document, structure


def read_parsed(
    text: str, options: SegmentOptions | None = None, *, hints: bool = False
) -> tuple[Document, Fingerprint, ParsedText]:
    """:func:`read_with_structure`, and the parse itself, for a step that renders the
    source too (the reading parser's tokens are the dialect parser's, breaks noted)."""
    options = options or SegmentOptions()
    document, tokens, env = read_document(text, options, hints=hints)
    structure = fingerprint_of_tokens(tokens, env, text, **_structure_options(options))
    return document, structure, ParsedText(text, tokens, env, options.dialect)


def _structure_options(options: SegmentOptions) -> dict:
    return {
        "front_matter_keys": tuple(options.front_matter_keys),
        "translatable_html": options.html_text,
    }


def _line_starts(text: str) -> list[int]:
    """Offsets where lines start, as markdown-it counts lines (CR LF, CR and LF end one)."""
    if "\r" in text:
        return [0, *(m.end() for m in _LINE_BREAK_RE.finditer(text))]
    starts, find = [0], text.find
    end = find("\n")
    while end >= 0:
        starts.append(end + 1)
        end = find("\n", end + 1)
    return starts


class _Attribution:
    """One verified build: the rounds of blame, then the acquittal of suspects."""

    def __init__(
        self,
        verifier: Verifier,
        translations: Lookup,
        force: bool,
        same_image: Callable[[str, str], bool] | None,
    ) -> None:
        self.verifier = verifier
        self.same_image = same_image
        self.lookup = translations.get if isinstance(translations, Mapping) else translations
        self.force = force
        self.keep: set[int] = set()
        self.blamed: dict[int, list[Difference]] = {}
        self.suspects: list[int] = []
        self.rejected: dict[int, tuple[Difference, ...]] = {}
        self.builds = 0

    def assemble(self, keep: set[int]) -> Assembly:
        self.builds += 1
        return assemble(
            self.verifier.document,
            self.lookup,
            wrap_width=self.verifier.wrap_width,
            force=self.force,
            keep_source=keep,
        )

    def run(self) -> VerifiedBuild:
        assembly = self.assemble(self.keep)
        differences, injected, parsed = self.verifier.compare(assembly, self.same_image)
        while differences:
            self.blame(assembly, differences, injected)
            assembly = self.assemble(self.keep)
            differences, injected, parsed = self.verifier.compare(assembly, self.same_image)
        assembly, parsed = self.acquit(assembly, parsed)
        for index, diffs in self.blamed.items():
            self.rejected.setdefault(index, tuple(diffs))
        segments = self.verifier.document.segments
        rejected = tuple(
            Rejection(i, segments[i], self.lookup(segments[i].text) or "", self.rejected[i])
            for i in sorted(self.rejected)
        )
        return VerifiedBuild(
            assembly.text, rejected, self.normalized(assembly), self.builds, parsed=parsed
        )

    def blame(
        self, assembly: Assembly, differences: list[Difference], injected: dict[int, int]
    ) -> None:
        """Drop the translations that may cause ``differences`` (step 2)."""
        covering = _SlotLines(self.verifier, assembly)
        certain: dict[int, list[Difference]] = {}
        suspect: dict[int, list[Difference]] = {}
        for difference in differences:
            sure = {injected[line] for line in difference.built_lines if line in injected}
            for index in sure:
                certain.setdefault(index, []).append(difference)
            if sure:
                continue
            near = covering.around(difference) or covering.above(difference.line - 1)
            for index in near:
                suspect.setdefault(index, []).append(difference)
        if not certain and not suspect:  # cannot happen while a translation is active
            suspect = {index: list(differences) for index, _, _ in assembly.slots}
        for index, diffs in certain.items():
            self.blamed[index] = diffs
            self.keep.add(index)
        for index, diffs in suspect.items():
            if index not in certain:
                self.blamed.setdefault(index, diffs)
                self.suspects.append(index)
                self.keep.add(index)

    def acquit(self, clean: Assembly, parsed: ParsedText) -> tuple[Assembly, ParsedText]:
        """Put suspects back by bisection (step 3); return the last clean assembly, and
        its parse."""
        groups = [sorted(set(self.suspects))] if self.suspects else []
        trials = 0
        while groups:
            group = groups.pop()
            if trials >= MAX_TRIALS:
                continue  # out of budget: these stay on their source text, as blamed
            trials += 1
            trial = self.keep - set(group)
            assembly = self.assemble(trial)
            differences, _, trial_parse = self.verifier.compare(assembly, self.same_image)
            if not differences:
                self.keep = trial
                clean, parsed = assembly, trial_parse
                for index in group:
                    self.blamed.pop(index, None)
            elif len(group) == 1:
                self.rejected[group[0]] = tuple(differences)
            else:
                half = len(group) // 2
                groups += [group[half:], group[:half]]
        return clean, parsed

    def normalized(self, assembly: Assembly) -> tuple[tuple[Segment, tuple[str, ...]], ...]:
        """Translations in the build whose line-end characters were replaced."""
        segments = self.verifier.document.segments
        found = []
        for index, _, _ in assembly.slots:
            seg = segments[index]
            names = line_breaks_added(self.lookup(seg.text) or "", seg.text)
            if names:
                found.append((seg, tuple(names)))
        return tuple(found)


class _SlotLines:
    """Which translated slots cover a line, in the source or in the build.

    Slots are in document order, so their first and last lines, on either side, are
    sorted: the slots covering a line are a run found by bisection.
    """

    def __init__(self, verifier: Verifier, assembly: Assembly) -> None:
        segments = verifier.document.segments
        sources = verifier.source_line_starts
        built = _line_starts(assembly.text)
        self.indices = [index for index, _, _ in assembly.slots]
        spans = [(segments[i].start, segments[i].end) for i in self.indices]
        self.first = [_line_of(sources, a) for a, _ in spans]
        self.last = [_line_of(sources, max(b - 1, a)) for a, b in spans]
        self.built_first = [_line_of(built, a) for _, a, _ in assembly.slots]
        self.built_last = [_line_of(built, max(b - 1, a)) for _, a, b in assembly.slots]

    def around(self, difference: Difference) -> list[int]:
        """Slots whose source lines hold the difference's line, or whose built lines
        hold one of its built lines."""
        found = set(self._covering(self.first, self.last, difference.line - 1))
        for line in difference.built_lines:
            found.update(self._covering(self.built_first, self.built_last, line))
        return sorted(found)

    def above(self, line: int) -> list[int]:
        """The nearest translated slot that starts at or above ``line`` (or the first)."""
        if not self.indices:
            return []
        k = bisect.bisect_right(self.first, line) - 1
        return [self.indices[max(k, 0)]]

    def _covering(self, first: list[int], last: list[int], line: int) -> list[int]:
        return self.indices[bisect.bisect_left(last, line) : bisect.bisect_right(first, line)]


def _line_of(starts: list[int], offset: int) -> int:
    return bisect.bisect_right(starts, offset) - 1
