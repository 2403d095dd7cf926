"""pofile: reading refuses broken catalogs at their line; writing wraps like GNU msgcat."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import polib
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tolmach.catalog.pofile import CatalogError, format_po, read_po, write_po

DATA = Path(__file__).parent / "data" / "pofile"
VALID = sorted(DATA.glob("*.po"))


@pytest.fixture(scope="session")
def msgcat() -> str:
    """GNU msgcat, the reference for wrapping; required on CI, optional elsewhere."""
    found = shutil.which("msgcat")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("GNU msgcat not found: install gettext, the wrapping tests need it")
        pytest.skip("GNU msgcat not installed; wrapping is compared against it")
    return found


def run_msgcat(msgcat: str, path: Path, width: int) -> str:
    option = "--no-wrap" if width == 0 else f"--width={width}"
    result = subprocess.run([msgcat, option, str(path)], capture_output=True, check=True)
    return result.stdout.decode("utf-8")


# ------------------------------------------------------------- errors


def test_catalog_error_names_file_and_line() -> None:
    assert str(CatalogError(Path("de/a.po"), 12, "bad escape")) == "de/a.po:12: bad escape"
    assert str(CatalogError(Path("de/a.po"), None, "cannot read")) == "de/a.po: cannot read"


@pytest.mark.parametrize(
    ("name", "line", "words"),
    [
        ("unterminated-string.po", 5, "unterminated string"),
        ("bad-escape.po", 6, r"bad escape sequence \q"),
        ("missing-msgstr.po", 6, "missing msgstr"),
        ("duplicate-msgid.po", 12, "first defined at line 5"),
        ("latin1-charset.po", 4, "msgconv --to-code=UTF-8"),
        ("not-a-catalog.po", 1, "unexpected text"),
        ("plural-without-msgid.po", 6, "msgid_plural without msgid"),
        ("plural-after-msgstr.po", 7, "msgid_plural after msgstr"),
        ("text-after-string.po", 6, "after the closing quote"),
    ],
)
def test_broken_catalog_is_refused_at_its_line(name: str, line: int, words: str) -> None:
    path = DATA / "invalid" / name
    with pytest.raises(CatalogError) as caught:
        read_po(path)
    assert caught.value.path == path
    assert caught.value.line == line
    assert words in caught.value.message


def test_charset_error_names_the_charset() -> None:
    with pytest.raises(CatalogError, match="charset ISO-8859-1"):
        read_po(DATA / "invalid" / "latin1-charset.po")


@pytest.mark.parametrize(
    ("content", "line"),
    [
        (b'msgid ""\nmsgstr ""\n\nmsgid "a\0b"\nmsgstr ""\n', 4),
        (b'msgid ""\nmsgstr ""\n\n\n\nmsgid "\xff\xfe"\nmsgstr ""\n', 6),
    ],
)
def test_binary_file_is_refused_with_its_line(tmp_path: Path, content: bytes, line: int) -> None:
    path = tmp_path / "binary.po"
    path.write_bytes(content)
    with pytest.raises(CatalogError) as caught:
        read_po(path)
    assert caught.value.line == line


def test_missing_file_is_a_catalog_error(tmp_path: Path) -> None:
    with pytest.raises(CatalogError, match="cannot read"):
        read_po(tmp_path / "absent.po")


def test_same_msgid_in_other_context_is_not_a_duplicate(tmp_path: Path) -> None:
    path = tmp_path / "ok.po"
    path.write_text(
        'msgid "a"\nmsgstr ""\n\nmsgctxt "x"\nmsgid "a"\nmsgstr ""\n'
        '\n#~ msgid "a"\n#~ msgstr "old"\n',
        encoding="utf-8",
    )
    assert [entry.msgid for entry in read_po(path)] == ["a", "a", "a"]


def test_obsolete_entry_keeps_its_previous_msgid() -> None:
    po = read_po(DATA / "comments-obsolete.po")
    obsolete = po.obsolete_entries()[0]
    assert obsolete.previous_msgid.startswith("Ещё более старая формулировка")


# ------------------------------------------------------------- formatting


@pytest.mark.parametrize("path", VALID, ids=[path.name for path in VALID])
@pytest.mark.parametrize("width", [79, 0, 50])
def test_format_matches_msgcat_byte_for_byte(msgcat: str, path: Path, width: int) -> None:
    assert format_po(read_po(path), width) == run_msgcat(msgcat, path, width)


@pytest.mark.parametrize("path", VALID, ids=[path.name for path in VALID])
def test_formatting_twice_changes_nothing(tmp_path: Path, path: Path) -> None:
    once = format_po(read_po(path))
    copy = tmp_path / path.name
    copy.write_text(once, encoding="utf-8")
    assert format_po(read_po(copy)) == once


def test_short_string_stays_on_the_keyword_line() -> None:
    po = polib.POFile()
    po.append(polib.POEntry(msgid="Привет", msgstr="Hallo"))
    assert format_po(po) == 'msgid "Привет"\nmsgstr "Hallo"\n'


def test_string_with_newlines_opens_with_an_empty_string() -> None:
    po = polib.POFile()
    po.append(polib.POEntry(msgid="a\nb", msgstr=""))
    assert format_po(po, width=0) == 'msgid ""\n"a\\n"\n"b"\nmsgstr ""\n'


WORDS = st.sampled_from(
    [
        "статья",
        "перевод",
        "Markdown",
        "**жирный**",
        "`код`",
        "[ссылка](https://example.com/a/b)",
        "«цитата»",
        '"quoted"',
        "(скобки)",
        "100%",
        "a-b",
        "x—y",
        "中文文本",
        "日本語の「文」。",
        "한국어",
        "，",
        "tab\there",
        "line\n",
        "back\\slash",
        "e\u0301",
        "😀",
        "ｶﾀｶﾅ",
        "C++",
        "/usr/bin",
        "x" * 60,
        "!",
        "?",
        ":",
        "…",
    ]
)
TEXTS = st.lists(st.tuples(WORDS, st.sampled_from([" ", " ", "", "  ", "\n"])), max_size=30).map(
    lambda parts: "".join(word + space for word, space in parts)
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(texts=st.lists(TEXTS, min_size=1, max_size=20, unique=True))
def test_any_text_wraps_as_msgcat_wraps(msgcat: str, tmp_path: Path, texts: list[str]) -> None:
    po = polib.POFile()
    po.metadata = {"Content-Type": "text/plain; charset=UTF-8"}
    for index, text in enumerate(texts):
        po.append(polib.POEntry(msgid=text or f"empty {index}", msgstr=text[::-1]))
    path = tmp_path / "random.po"
    path.write_text(format_po(po, width=0), encoding="utf-8")
    assert format_po(read_po(path)) == run_msgcat(msgcat, path, 79)


# ------------------------------------------------------------- writing


@pytest.fixture
def catalog() -> polib.POFile:
    return read_po(DATA / "cyrillic-long.po")


def test_write_creates_folders_and_returns_true(tmp_path: Path, catalog: polib.POFile) -> None:
    target = tmp_path / "locales" / "de" / "LC_MESSAGES" / "rocm7.po"
    assert write_po(catalog, target) is True
    assert target.read_text(encoding="utf-8") == format_po(catalog)


def test_unchanged_catalog_is_not_rewritten(tmp_path: Path, catalog: polib.POFile) -> None:
    target = tmp_path / "rocm7.po"
    write_po(catalog, target)
    os.utime(target, (1_000_000, 1_000_000))
    assert write_po(catalog, target) is False
    assert target.stat().st_mtime == 1_000_000


def test_changed_catalog_is_replaced_without_leftovers(
    tmp_path: Path, catalog: polib.POFile
) -> None:
    target = tmp_path / "rocm7.po"
    write_po(catalog, target)
    catalog[0].msgstr = "Neu"
    assert write_po(catalog, target) is True
    assert read_po(target)[0].msgstr == "Neu"
    assert [path.name for path in tmp_path.iterdir()] == ["rocm7.po"]


def test_width_zero_writes_no_wrapped_lines(tmp_path: Path, catalog: polib.POFile) -> None:
    target = tmp_path / "rocm7.po"
    write_po(catalog, target, width=0)
    assert max(len(line) for line in target.read_text(encoding="utf-8").splitlines()) > 79


def test_new_file_gets_ordinary_permissions(tmp_path: Path, catalog: polib.POFile) -> None:
    target = tmp_path / "rocm7.po"
    write_po(catalog, target)
    umask = os.umask(0)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~umask


def test_replaced_file_keeps_its_permissions(tmp_path: Path, catalog: polib.POFile) -> None:
    target = tmp_path / "rocm7.po"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o640)
    write_po(catalog, target)
    assert target.stat().st_mode & 0o777 == 0o640


@settings(max_examples=40, deadline=None)
@given(texts=st.lists(TEXTS, min_size=1, max_size=8, unique=True),
       widths=st.lists(st.sampled_from([79, 0, 30, 12]), min_size=2, max_size=4))
def test_remembered_source_lines_are_those_formatting_makes(
    texts: list[str], widths: list[int]
) -> None:
    """The lines of msgids are remembered across catalogs (one template, many locales):
    a catalog formatted after others, at any width, live or obsolete, gets the bytes a
    first formatting gives."""
    from tolmach.catalog import pofile

    def catalog(obsolete: bool) -> polib.POFile:
        po = polib.POFile()
        po.metadata = {"Content-Type": "text/plain; charset=UTF-8"}
        for index, text in enumerate(texts):
            entry = polib.POEntry(msgid=text or f"empty {index}", msgstr=text[::-1] or "x",
                                  msgctxt=text[:7] or None, obsolete=obsolete)
            entry.previous_msgid = text[1:] or None
            po.append(entry)
        return po

    kinds = [(width, obsolete) for width in widths for obsolete in (False, True)]
    warm = [format_po(catalog(obsolete), width) for width, obsolete in kinds]
    cold = []
    for width, obsolete in kinds:
        pofile._source_string_lines.cache_clear()
        cold.append(format_po(catalog(obsolete), width))
    assert warm == cold
