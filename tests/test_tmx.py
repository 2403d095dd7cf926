"""tmx: TMX 1.4b written as CAT tools expect it, and read back unchanged."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tolmach.memory.tmx import TmxError, TranslationUnit, read_tmx, write_tmx

DATA = Path(__file__).parent / "data" / "tmx"


def test_omegat_memory_is_read_with_inline_codes_as_text() -> None:
    assert read_tmx(DATA / "omegat.tmx", "ru") == [
        TranslationUnit(
            "Установите драйвер <b>amdgpu</b> & перезагрузите систему.",
            "Installieren Sie den Treiber <b>amdgpu</b> & starten Sie neu.",
            "de_DE",
        ),
        TranslationUnit("Установка", "Installation", "de_DE", context="heading"),
        TranslationUnit("Установка", "安装", "zh_CN", context="heading"),
        TranslationUnit("Нажмите **Запуск**.", "Klicken Sie auf **Start**.", "de_DE"),
    ]


def test_written_file_is_tmx_1_4_with_the_required_header(tmp_path: Path) -> None:
    path = tmp_path / "memory.tmx"
    write_tmx([TranslationUnit("Привет", "Hallo", "de")], path, "ru")
    root = ET.parse(path).getroot()
    assert root.tag == "tmx" and root.get("version") == "1.4"
    header = root.find("header")
    for attribute in (
        "creationtool",
        "creationtoolversion",
        "segtype",
        "o-tmf",
        "adminlang",
        "srclang",
        "datatype",
    ):
        assert header.get(attribute), attribute
    assert header.get("srclang") == "ru"
    langs = [tuv.get("{http://www.w3.org/XML/1998/namespace}lang") for tuv in root.iter("tuv")]
    assert langs == ["ru", "de"]


TEXT = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
    min_size=1,
    max_size=40,
)
UNITS = st.lists(
    st.builds(
        TranslationUnit,
        source=TEXT,
        target=TEXT,
        locale=st.sampled_from(["de", "zh_CN", "en"]),
        context=st.none() | TEXT,
        origin=st.none() | TEXT,
    ),
    max_size=8,
)


@settings(max_examples=80, deadline=None)
@given(units=UNITS)
def test_units_survive_a_round_trip(
    tmp_path_factory: pytest.TempPathFactory, units: list[TranslationUnit]
) -> None:
    """Markup, ampersands, quotes, newlines and carriage returns come back as they were;
    a unit with characters XML cannot hold at all is left out and not counted."""
    path = tmp_path_factory.mktemp("tmx") / "round.tmx"
    written = write_tmx(units, path, "ru")
    back = read_tmx(path, "ru")
    fits = [
        unit
        for unit in units
        if all(
            _xml_char(char)
            for char in unit.source + unit.target + (unit.context or "") + (unit.origin or "")
        )
    ]
    assert written == len(fits)
    assert back == [
        TranslationUnit(unit.source, unit.target, unit.locale, unit.context, unit.origin)
        for unit in fits
    ]


def _xml_char(char: str) -> bool:
    return (
        char in "\t\n\r"
        or ("\x20" <= char <= "\ud7ff")
        or ("\ue000" <= char <= "\ufffd")
        or char >= "\U00010000"
    )


@pytest.mark.parametrize(
    ("name", "line", "words"),
    [
        ("broken.tmx", 7, "not well-formed XML: mismatched tag"),
        ("english-source.tmx", 3, "source language is en-US"),
        ("no-srclang.tmx", 3, "no srclang"),
        ("not-tmx.tmx", 2, "not a TMX file"),
    ],
)
def test_bad_tmx_is_refused_with_file_and_line(name: str, line: int, words: str) -> None:
    with pytest.raises(TmxError) as caught:
        read_tmx(DATA / name, "ru")
    assert caught.value.line == line
    assert words in caught.value.message
    assert str(caught.value).startswith(f"{DATA / name}:{line}: ")


def test_missing_file_is_a_tmx_error(tmp_path: Path) -> None:
    with pytest.raises(TmxError, match="cannot read"):
        read_tmx(tmp_path / "absent.tmx", "ru")
