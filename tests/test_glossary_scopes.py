"""Where a term holds: scopes and domains (which documents) and senses (which contexts).

The sense cases are data: ``data/glossary/senses.toml`` is a termbase whose words have
two meanings, ``data/glossary/sense_cases.toml`` says which entry each text finds.
"""

from __future__ import annotations

import json
import re
import shutil
import tomllib
from pathlib import Path

import polib
import pytest

from tolmach.checks import CheckConfig, check_catalog
from tolmach.config import ConfigError, load_config
from tolmach.glossary import (
    GlossaryError,
    Termbase,
    check_translation,
    load_termbase,
    parse_termbase,
)
from tolmach.glossary.senses import document_matches
from tolmach.project import Project

DATA = Path(__file__).parent / "data" / "glossary"
REPO = Path(__file__).parent.parent
SENSES = tomllib.loads((DATA / "sense_cases.toml").read_text(encoding="utf-8"))
SENSE_TERMBASE = load_termbase(DATA / "senses.toml")


@pytest.mark.parametrize("case", SENSES["case"], ids=[c["name"] for c in SENSES["case"]])
def test_senses_decide_which_entry_a_word_finds(case):
    found = SENSE_TERMBASE.find_in_source(case["text"], heading=case.get("heading", False))
    assert [[m.term.source, m.term.translations[0][1][0]] for m in found] == case["found"]


# --- scopes and domains -----------------------------------------------------------------

SCOPED = parse_termbase(
    """
[[term]]
source = "вывод"
kind = "translate"
domain = "gpu"
translations = { en = "inference" }

[[term]]
source = "ядро"
kind = "translate"
scope = ["rocm7", "guide/**"]
translations = { en = "kernel" }

[[term]]
source = "ускоритель"
kind = "translate"
translations = { en = "accelerator" }
"""
)


@pytest.mark.parametrize(
    ("document", "domains", "expected"),
    [
        ("rocm7", {"gpu"}, ["вывод", "ядро", "ускоритель"]),
        ("rocm7", set(), ["ядро", "ускоритель"]),
        ("report", set(), ["ускоритель"]),
        ("report", {"gpu"}, ["вывод", "ускоритель"]),
        ("guide/intro/index", set(), ["ядро", "ускоритель"]),
        ("guides/intro", set(), ["ускоритель"]),
    ],
)
def test_a_term_holds_in_its_scope_and_domains_only(document, domains, expected):
    termbase = SCOPED.for_document(document, frozenset(domains))
    found = termbase.find_in_source("Вывод, ядро и ускоритель")
    assert [m.term.source for m in found] == expected


def test_a_termbase_without_scopes_is_its_own_document_view():
    termbase = load_termbase(DATA / "termbase.toml")
    assert termbase.for_document("anything") is termbase


@pytest.mark.parametrize(
    ("patterns", "name", "expected"),
    [
        (["rocm7"], "rocm7", True),
        (["rocm"], "rocm7", False),
        (["rocm*"], "rocm7", True),
        (["guide/*"], "guide/intro", True),
        (["guide/*"], "guide/intro/index", False),
        (["guide/**"], "guide/intro/index", True),
        (["**/index"], "guide/intro/index", True),
        (["g?ide/intro"], "guide/intro", True),
        (["guide/intro[1]"], "guide/intro[1]", True),
    ],
)
def test_document_names_match_exactly_or_by_glob(patterns, name, expected):
    assert document_matches(patterns, name) is expected


# --- the file format ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "line", "message"),
    [
        ('scope = "rocm7"', 5, "'scope' must be a list of strings"),
        ("domain = [1]", 5, "'domain' must be a string or a list of strings"),
        ('context = { after = ["x"] }', 5, "unknown context condition 'after'"),
        ('context = { headings = "sometimes" }', 5, "context 'headings' must be one of"),
        ('context = "x"', 5, "'context' must be a table"),
        ('variants = [""]', 5, "'variants' must be a string or a list of strings"),
    ],
)
def test_bad_scope_domain_context_or_variants_name_their_line(body, line, message):
    text = (
        f'[[term]]\nsource = "вывод"\nkind = "translate"\ntranslations = {{ en = "x" }}\n{body}\n'
    )
    with pytest.raises(GlossaryError) as raised:
        parse_termbase(text, "g.toml")
    assert str(raised.value).startswith(f"g.toml:{line}: term «вывод»: {message}")


def test_two_entries_for_one_word_need_different_contexts():
    text = (
        '[[term]]\nsource = "вывод"\nkind = "translate"\ntranslations = { en = "inference" }\n'
        '[[term]]\nsource = "выводы"\nkind = "translate"\ntranslations = { en = "conclusion" }\n'
    )
    with pytest.raises(GlossaryError, match="need a different scope, domain or context"):
        parse_termbase(text)
    parse_termbase(text + 'context = { headings = "only" }\n')


def test_a_variant_may_not_repeat_another_term():
    text = (
        '[[term]]\nsource = "кэш"\nkind = "translate"\ntranslations = { en = "cache" }\n'
        '[[term]]\nsource = "кеш"\nkind = "translate"\nvariants = ["кэш"]\n'
        'translations = { en = "cache" }\n'
    )
    with pytest.raises(GlossaryError, match="duplicate term «кеш»"):
        parse_termbase(text)


# --- the project: domains in the configuration ----------------------------------------


def _project(tmp_path: Path, domains: str, glossary: str) -> Project:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.tolmach]\nlocales = ["en"]\n\n[tool.tolmach.domains]\n' + domains, "utf-8"
    )
    (tmp_path / "locales").mkdir()
    (tmp_path / "locales" / "glossary.toml").write_text(glossary, "utf-8")
    (tmp_path / "seeds").mkdir()
    for name in ("gpu", "report"):
        (tmp_path / "seeds" / f"{name}.ru.md").write_text("# Выводы\n\nВывод модели.\n", "utf-8")
    return Project(load_config(tmp_path))


GPU_TERM = (
    '[[term]]\nsource = "вывод"\nkind = "translate"\ndomain = "gpu-computing"\n'
    'translations = { en = "inference" }\nforbidden = { en = ["conclusion"] }\n'
)


def test_documents_get_the_domains_the_configuration_gives_them(tmp_path):
    project = _project(tmp_path, '"gpu-computing" = ["gpu"]\n', GPU_TERM)
    assert project.domains_of("gpu") == {"gpu-computing"}
    assert project.domains_of("report") == frozenset()
    assert [t.source for t in project.termbase_for("gpu").terms] == ["вывод"]
    assert project.termbase_for("report").terms == ()


def test_pot_comments_follow_the_scope(tmp_path):
    project = _project(tmp_path, '"gpu-computing" = ["gpu"]\n', GPU_TERM)
    project.extract()
    gpu = polib.pofile(str(tmp_path / "locales" / "gpu.pot"))
    report = polib.pofile(str(tmp_path / "locales" / "report.pot"))
    assert "glossary: вывод → inference" in gpu[1].comment
    assert "glossary" not in report[1].comment


def test_a_domain_the_configuration_does_not_define_is_an_error(tmp_path):
    project = _project(tmp_path, '"gpu" = ["gpu"]\n', GPU_TERM)
    with pytest.raises(GlossaryError) as raised:
        _ = project.termbase
    assert str(raised.value).startswith(
        "locales/glossary.toml:2: term «вывод»: domain 'gpu-computing' is not defined"
    )


@pytest.mark.parametrize(
    ("domains", "line"),
    [('"gpu" = 3\n', 5), ('"gpu" = []\n', 5), ('other = ["x"]\ngpu = [""]\n', 6)],
)
def test_a_bad_domain_names_its_line(tmp_path, domains, line):
    with pytest.raises(ConfigError) as raised:
        _project(tmp_path, domains, GPU_TERM)
    assert re.match(rf".*pyproject\.toml:{line}: domain '(gpu|other)' must list", str(raised.value))


# --- findings --------------------------------------------------------------------------


def _catalog(msgid: str, msgstr: str, comment: str = "paragraph") -> polib.POFile:
    po = polib.POFile(wrapwidth=0)
    po.metadata = {"Content-Type": "text/plain; charset=UTF-8"}
    po.append(polib.POEntry(msgid=msgid, msgstr=msgstr, comment=comment))
    return polib.pofile(str(po), wrapwidth=0)


def test_a_finding_for_an_ordinary_word_says_how_to_waive_it():
    termbase = parse_termbase(GPU_TERM.replace('domain = "gpu-computing"\n', ""))
    po = _catalog("Выводы", "Conclusions", "heading 2")
    required, forbidden = check_catalog(po, "c.po", "en", CheckConfig(), termbase=termbase)
    assert required.message.startswith('«вывод» must be translated as "inference" in en; if')
    assert forbidden.message.startswith('forbidden translation "conclusion" for «вывод» (found')
    assert "'glossary-waive: вывод — <reason>'" in forbidden.message


def test_a_name_needs_no_waiver_hint():
    termbase = load_termbase(DATA / "termbase.toml")
    po = _catalog("Вышел ROCm", "Rocm is out")
    (finding,) = check_catalog(po, "c.po", "en", CheckConfig(), termbase=termbase)
    assert "glossary-waive" not in finding.message


# --- the seed: scoping changed nothing for the article it was written for -------------


@pytest.fixture(scope="module")
def seed_project(tmp_path_factory) -> Project:
    copy = tmp_path_factory.mktemp("seed")
    shutil.copy(REPO / "pyproject.toml", copy / "pyproject.toml")
    shutil.copytree(REPO / "seeds", copy / "seeds")
    shutil.copytree(REPO / "locales", copy / "locales")
    return Project(load_config(copy))


def test_the_seed_article_finds_every_term_it_found_before_scopes(seed_project):
    """Scopes and senses must not hide a term from the article the termbase was made for."""
    full, scoped = seed_project.termbase, seed_project.termbase_for("rocm7")
    template = polib.pofile(str(seed_project.config.template_path("rocm7")))
    for entry in template:
        heading = entry.comment.startswith("heading")
        unscoped = [(m.start, m.term.source) for m in full.find_in_source(entry.msgid)]
        assert [
            (m.start, m.term.source) for m in scoped.find_in_source(entry.msgid, heading)
        ] == unscoped, entry.msgid


@pytest.mark.parametrize("locale", ["en", "de", "zh_CN"])
def test_the_seed_still_gets_every_forbidden_translation(seed_project, locale):
    """Put each forbidden translation into an entry whose source has the term: caught."""
    termbase = seed_project.termbase_for("rocm7")
    po = polib.pofile(str(seed_project.catalog_path(locale, "rocm7")), wrapwidth=0)
    tried = 0
    for entry in po:
        heading = entry.comment.startswith("heading")
        for match in termbase.find_in_source(entry.msgid, heading):
            for wrong in match.term.forbidden_for(locale):
                mutated = _catalog(entry.msgid, f"{entry.msgstr} {wrong}", entry.comment)
                findings = check_catalog(mutated, "m.po", locale, CheckConfig(), termbase=termbase)
                assert any(
                    f.check == "glossary" and f'forbidden translation "{wrong}"' in f.message
                    for f in findings
                ), (entry.msgid, wrong)
                tried += 1
    assert tried >= 10


# --- waivers are counted ----------------------------------------------------------------


def test_check_and_stats_count_glossary_waivers(tmp_path):
    from click.testing import CliRunner

    from tolmach.cli import cli

    project = _project(tmp_path, '"gpu-computing" = ["report"]\n', GPU_TERM)
    runner = CliRunner()
    assert runner.invoke(cli, ["-C", str(tmp_path), "extract"]).exit_code == 0
    assert runner.invoke(cli, ["-C", str(tmp_path), "update"]).exit_code == 0
    path = project.catalog_path("en", "report")
    po = polib.pofile(str(path))
    for entry in po:
        entry.msgstr = {"Выводы": "Conclusions", "Вывод модели.": "The model’s output."}[
            entry.msgid
        ]
    po[0].tcomment = "glossary-waive: вывод — a heading: the report's conclusions"
    po[1].flags.append("ignore-glossary")
    po.save()
    checked = runner.invoke(cli, ["-C", str(tmp_path), "check", "--format", "json"])
    assert checked.exit_code == 0, checked.output
    counts = json.loads(checked.output)["summary"]["files"]["locales/en/LC_MESSAGES/report.po"]
    counted = {key: counts[key] for key in ("errors", "warnings", "waived")}
    assert counted == {"errors": 0, "warnings": 0, "waived": 3}  # 2 under the comment, 1 flag
    human = runner.invoke(cli, ["-C", str(tmp_path), "check"])
    assert 'waived: [glossary] forbidden translation "conclusion"' in human.output
    stats = runner.invoke(cli, ["-C", str(tmp_path), "stats"])
    row = next(line for line in stats.output.splitlines() if "report" in line and "en" in line)
    assert row.split()[-1] == "2"  # the waived column


# --- variants -------------------------------------------------------------------------------

SEED = load_termbase(REPO / "locales" / "glossary.toml")


@pytest.mark.parametrize(
    ("source", "target", "locale"),
    [
        ("Модель DeepSeek R1", "The DeepSeek-R1 model", "en"),
        ("Модель DeepSeek-R1", "The DeepSeek R1 model", "de"),
        ("APU с HBM3e памяти", "APU with HBM3E memory", "en"),
        ("Открытый стандарт межсоединений", "开放互联标准", "zh_CN"),
        ("Открытый стандарт межсоединений", "开放互连标准", "zh_CN"),
    ],
)
def test_vendor_spellings_and_cjk_variants_are_accepted(source, target, locale):
    assert check_translation(SEED, source, target, locale) == []


def test_a_source_variant_is_found_as_its_term():
    (match,) = [m for m in SEED.find_in_source("Модель DeepSeek-R1") if m.term.kind == "keep"]
    assert (match.term.source, match.text) == ("DeepSeek R1", "DeepSeek-R1")


def test_a_wrong_spelling_is_still_reported():
    (violation,) = check_translation(SEED, "Модель DeepSeek R1", "The Deepseek R1 model", "en")
    assert violation.message == '"DeepSeek R1" must stay as written (found "Deepseek R1")'


# --- the second article -----------------------------------------------------------------


def _unscoped(termbase) -> Termbase:
    """The termbase as if every term held everywhere (no scopes, domains or contexts)."""
    from dataclasses import replace

    from tolmach.glossary.senses import Context

    first_sense = {}
    for term in termbase.terms:
        first_sense.setdefault(term.source, replace(term, scope=(), domains=(), context=Context()))
    return Termbase(tuple(first_sense.values()), termbase.ignored)


@pytest.mark.parametrize("locale", ["en", "de", "zh_CN"])
def test_the_course_report_passes_without_a_waiver_thanks_to_scopes(seed_project, locale):
    from tolmach.checks.runner import count_waivers

    po = polib.pofile(str(seed_project.catalog_path(locale, "parallel-course")), wrapwidth=0)
    assert count_waivers(po) == 0
    scoped = seed_project.check_catalog(locale, "parallel-course", po)
    assert [f for f in scoped if f.severity == "error" and not f.waived] == []
    unscoped = check_catalog(
        po, "c.po", locale, CheckConfig(), termbase=_unscoped(seed_project.termbase)
    )
    wrong = {f.msgid for f in unscoped if f.check == "glossary"}
    assert {"Выводы", "Ниже — как было устроено обучение, какие ошибки мы совершили и что "
            "поменяем к следующему набору."} <= wrong  # fmt: skip
