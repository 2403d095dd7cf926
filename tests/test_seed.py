"""The Markdown seed article must carry exactly the text of the plain-text original.

``seeds/rocm7.ru.txt`` is the original article as plain text; ``seeds/rocm7.ru.md``
is the same article marked up as CommonMark. Rendering the Markdown and stripping
the tags must give back the original text (after whitespace normalization and
after removing the stray spaces the original has before punctuation).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

SEEDS = Path(__file__).parent.parent / "seeds"
MD_PATH = SEEDS / "rocm7.ru.md"
TXT_PATH = SEEDS / "rocm7.ru.txt"

H1_TEXT = "ROCm 7: Поворотный момент для экосистемы AMD и будущего открытых вычислений ИИ"

H2_TEXTS = [
    "Прорыв там, где его не ждали",
    "Сердце революции: что нового в ROCm 7?",
    "Экосистемный прорыв: от суперкомпьютеров до ноутбуков",
    "Битва за разработчиков: инструменты и сообщество",
    "Технологические драйверы успеха",
    "Слабые стороны и вызовы",
    "Будущее: дорожная карта до 2030 года",
    "Заключение: почему это поворотный момент?",
]

H3_TEXTS = [
    "1. Небывалый скачок производительности",
    "2. Поддержка революционных аппаратных архитектур",
    "3. Прорывные технологии для распределенных систем",
    "Суперкомпьютерное господство",
    "Расширение географии поддержки",
    "Образовательная инфраструктура",
    "Инструментальная зрелость",
    "Партнерская экосистема",
    "1. Низкоточные вычисления (FP8/FP6/FP4)",
    "2. Оптимизация распределенного вывода",
    "3. UALink — убийца NVLink",
    "1. Наследие Linux-центричности",
    "2. Отставание в инструментах MLOPs",
    "3. Проблемы совместимости GPU",
    "MI400 и «Helios»",
    "Энергоэффективность как религия",
    "Демократизация суперкомпьютеров",
]

# Every "Label: text" line of the original becomes ``- **Label:** text``.
LABELS = [
    "Ускорение inference до 3.8x:",
    "Прорыв в обучении:",
    "Победа над Blackwell:",
    "Полная совместимость с MI350:",
    "Энергоэффективность нового уровня:",
    "vLLM-d и SGLang:",
    "Ускорение MoE (Mixture of Experts):",
    "Гибридные вычисления CPU-GPU-DPU:",
    "El Capitan (1.742 экзафлопс):",
    "Frontier (1.353 экзафлопс):",
    "LUMI и Setonix:",
    "Windows как first-class citizen:",
    "Ноутбуки и рабочие станции:",
    "Контейнеризация и облака:",
    "Библиотека видеоуроков:",
    "Практические Code Labs:",
    "Примеры на GitHub:",
    "Rocprof и Omniperf:",
    "ROCm-aware MPI:",
    "HIP-RTC:",
    "Мета:",
    "Microsoft Azure:",
    "Cohere:",
]

ENDERLE_QUOTE = (
    "«NVIDIA мощна, но в одиночку это всего одна компания. "
    "Открытая экосистема ROCm — доказательство силы сообщества»."
)

# Elements whose boundaries separate words; a space is emitted at each of them so
# that adjacent blocks never run together in the extracted text.
BLOCK_TAGS = frozenset(
    {"p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "blockquote", "pre", "hr", "br"}
)


class _Node:
    """A minimal element tree node: tag name and children (nodes or strings)."""

    def __init__(self, tag: str, parent: _Node | None = None) -> None:
        self.tag = tag
        self.parent = parent
        self.children: list[_Node | str] = []

    def text(self) -> str:
        parts: list[str] = []
        for child in self.children:
            if isinstance(child, str):
                parts.append(child)
            else:
                if child.tag in BLOCK_TAGS:
                    parts.append(" ")
                parts.append(child.text())
                if child.tag in BLOCK_TAGS:
                    parts.append(" ")
        return "".join(parts)

    def iter(self, tag: str):
        for child in self.children:
            if isinstance(child, _Node):
                if child.tag == tag:
                    yield child
                yield from child.iter(tag)


_VOID_TAGS = frozenset({"br", "hr", "img", "input", "meta", "link"})


class _TreeBuilder(HTMLParser):
    """Builds a _Node tree; character references are unescaped by HTMLParser."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = _Node("#root")
        self._current = self.root

    def handle_starttag(self, tag, attrs):
        node = _Node(tag, self._current)
        self._current.children.append(node)
        if tag not in _VOID_TAGS:
            self._current = node

    def handle_startendtag(self, tag, attrs):
        self._current.children.append(_Node(tag, self._current))

    def handle_endtag(self, tag):
        node = self._current
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self._current = node.parent

    def handle_data(self, data):
        self._current.children.append(data)


def _parse(html: str) -> _Node:
    builder = _TreeBuilder()
    builder.feed(html)
    builder.close()
    return builder.root


def normalize_ws(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def drop_space_before_punct(text: str) -> str:
    # Lookahead: only the whitespace run is consumed, the punctuation mark stays.
    return re.sub(r"\s+(?=[.,:;!?])", "", text)


def first_difference(a: str, b: str, context: int = 60) -> str:
    limit = min(len(a), len(b))
    pos = next((i for i in range(limit) if a[i] != b[i]), limit)
    lo = max(0, pos - context)
    return (
        f"first difference at index {pos} (lengths {len(a)} vs {len(b)}):\n"
        f"  markdown: ...{a[lo : pos + context]!r}...\n"
        f"  original: ...{b[lo : pos + context]!r}..."
    )


@pytest.fixture(scope="module")
def md_source() -> str:
    return MD_PATH.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def html(md_source: str) -> str:
    return MarkdownIt("commonmark").render(md_source)


@pytest.fixture(scope="module")
def tree(html: str) -> _Node:
    return _parse(html)


@pytest.fixture(scope="module")
def md_text(tree: _Node) -> str:
    return normalize_ws(tree.text())


@pytest.fixture(scope="module")
def original_text() -> str:
    return drop_space_before_punct(normalize_ws(TXT_PATH.read_text(encoding="utf-8")))


def test_file_format() -> None:
    raw = MD_PATH.read_bytes()
    assert not raw.startswith(b"\xef\xbb\xbf"), "UTF-8 BOM present"
    assert b"\r" not in raw, "CR line endings present"
    assert raw.endswith(b"\n") and not raw.endswith(b"\n\n"), "must end with exactly one newline"
    raw.decode("utf-8")


def test_plain_text_matches_original(md_text: str, original_text: str) -> None:
    assert md_text == original_text, first_difference(md_text, original_text)


def test_word_sequence_matches_original(md_text: str, original_text: str) -> None:
    md_words = re.findall(r"\w+", md_text)
    orig_words = re.findall(r"\w+", original_text)
    assert md_words == orig_words


def test_exactly_one_h1(tree: _Node) -> None:
    h1s = [normalize_ws(n.text()) for n in tree.iter("h1")]
    assert h1s == [H1_TEXT]


def test_h2_headings(tree: _Node) -> None:
    h2s = [normalize_ws(n.text()) for n in tree.iter("h2")]
    assert h2s == H2_TEXTS


def test_h3_headings(tree: _Node) -> None:
    h3s = [normalize_ws(n.text()) for n in tree.iter("h3")]
    assert h3s == H3_TEXTS


def test_no_deeper_headings_or_ordered_lists(tree: _Node) -> None:
    for tag in ("h4", "h5", "h6", "ol"):
        assert list(tree.iter(tag)) == [], f"unexpected <{tag}>"


def test_enderle_quote_is_blockquote(tree: _Node) -> None:
    quotes = [normalize_ws(n.text()) for n in tree.iter("blockquote")]
    assert quotes == [ENDERLE_QUOTE]


def test_label_items_are_bold(tree: _Node) -> None:
    labelled: list[str] = []
    for li in tree.iter("li"):
        first = next((c for c in li.children if not (isinstance(c, str) and not c.strip())), None)
        if isinstance(first, _Node) and first.tag == "strong":
            labelled.append(normalize_ws(first.text()))
            # The label is followed by a space and the item text.
            idx = li.children.index(first)
            rest = li.children[idx + 1] if idx + 1 < len(li.children) else ""
            assert isinstance(rest, str) and rest.startswith(" ") and rest.strip()
    assert labelled == LABELS


def test_label_items_html(html: str) -> None:
    for label in LABELS:
        assert f"<li><strong>{label}</strong> " in html, label


def test_no_emphasis_outside_labels(tree: _Node) -> None:
    assert list(tree.iter("em")) == []
    assert len(list(tree.iter("strong"))) == len(LABELS)
