"""``--shard K/N``: a deterministic, complete partition, and a site assembled from shards.

Every document falls in exactly one shard, the same one on every machine and whatever
documents are added; bad values are usage errors. Running extract, update, check and
build per shard in separate copies (as a CI matrix does), then laying the files each
shard wrote over one checkout and running ``publish`` there, gives the files and the
site of an unsharded run, byte for byte. The sample CI workflows (docs/ci/) parse and
call only real commands and options.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from pipeline_project import (
    STEPS,
    cold_copy,
    document_text,
    fixed_clock,
    make_project,
    project_files,
    run_command,
    run_pipeline,
    translate_catalog,
)

from tolmach.cli import cli
from tolmach.fileio import WORK
from tolmach.jobs.shard import Shard, parse_shard, shard_of

ROOT = Path(__file__).resolve().parents[1]
NAMES = [f"guide/part{n // 10}/page{n}" for n in range(300)] + ["index", "ÜBER/straße", "a b"]


@pytest.fixture(autouse=True)
def clock(monkeypatch):
    fixed_clock(monkeypatch)


@pytest.mark.parametrize("count", [1, 2, 3, 4, 7])
def test_every_document_is_in_exactly_one_shard(count):
    shards = [Shard(index, count) for index in range(1, count + 1)]
    for name in NAMES:
        assert [shard.index for shard in shards if shard.holds(name)] == [shard_of(name, count)]
    sizes = [sum(shard.holds(name) for name in NAMES) for shard in shards]
    assert sum(sizes) == len(NAMES) and min(sizes) > len(NAMES) / count / 2  # none starves


def test_a_document_keeps_its_shard_when_others_come_and_go():
    before = {name: shard_of(name, 4) for name in NAMES}
    more = NAMES + [f"new/{n}" for n in range(100)]
    assert {name: shard_of(name, 4) for name in more if name in before} == before
    assert {name: shard_of(name, 4) for name in reversed(NAMES[:50])} == {
        name: before[name] for name in NAMES[:50]}


def test_shard_values_are_parsed():
    assert parse_shard("2/4") == Shard(2, 4) and parse_shard(" 1 / 1 ") == Shard(1, 1)
    assert str(Shard(2, 4)) == "2/4" and Shard(2, 4).label == "shard-2-of-4"


@pytest.mark.parametrize("value, says", [
    ("0/3", "K must be between 1 and N"),
    ("4/3", "K must be between 1 and N"),
    ("1/0", "K must be between 1 and N"),
    ("x", "must be K/N, e.g. 2/4"),
    ("2", "must be K/N, e.g. 2/4"),
    ("-1/3", "must be K/N, e.g. 2/4"),
    ("", "must be K/N, e.g. 2/4"),
])
@pytest.mark.parametrize("command", ["extract", "update", "check", "build", "stats"])
def test_a_bad_shard_is_a_usage_error_that_says_why(value, says, command, tmp_path):
    with pytest.raises(ValueError, match=re.escape(says)):
        parse_shard(value)
    make_project(tmp_path, documents=1)
    result = CliRunner().invoke(cli, ["-C", str(tmp_path), command, "--shard", value])
    assert result.exit_code == 2
    assert "Invalid value for '--shard'" in result.output and says in result.output
    assert not (tmp_path / "locales" / "doc0.pot").exists()  # nothing was done


# --- a CI matrix, played here ------------------------------------------------------------

SHARD_STEPS = (("extract",), ("update",), ("check", "--format", "json"), ("build",))
SHARDS = 3


@pytest.fixture(scope="module")
def checkout(tmp_path_factory) -> Path:
    """A project as a repository holds it: templates and catalogs of an earlier run, some
    translated, then sources edited and a document added since."""
    folder = make_project(tmp_path_factory.mktemp("checkout"), documents=9)
    run_pipeline(folder, "-j", "1", "--quiet", steps=STEPS[:2])
    for number, catalog in enumerate(sorted(folder.glob("locales/*/LC_MESSAGES/*.po"))):
        translate_catalog(catalog, every=1 + number % 3, style=("plain", "variant", "broken")[number % 3])
    (folder / "docs/doc4.md").write_text(document_text(4, variant=2), "utf-8")
    (folder / "docs/doc9.md").write_text(document_text(9), "utf-8")
    shutil.rmtree(folder / ".tolmach-cache")  # a fresh checkout has none
    return folder


def test_shards_assemble_into_the_unsharded_site(checkout, tmp_path):
    whole = cold_copy(checkout, tmp_path / "whole")
    whole_runs = [run_command(whole, *step, "-j", "1", "--quiet") for step in SHARD_STEPS]
    whole_publish = run_command(whole, "publish", "--no-search", "-j", "1", "--quiet")

    start = project_files(checkout)
    assembled = cold_copy(checkout, tmp_path / "assembled")
    written_by: dict[str, int] = {}
    findings = []
    for index in range(1, SHARDS + 1):
        runner = cold_copy(checkout, tmp_path / f"runner{index}")
        shard = ("--shard", f"{index}/{SHARDS}")
        runs = [run_command(runner, *step, *shard, "-j", "1", "--quiet") for step in SHARD_STEPS]
        assert [r.exit_code for r in runs][:2] == [0, 0]
        findings += json.loads(runs[2].stdout)["findings"]
        for name, data in project_files(runner).items():  # what the runner uploads
            if start.get(name) != data:
                assert name not in written_by, f"{name}: written by shards {written_by[name]} and {index}"
                written_by[name] = index
                (assembled / name).parent.mkdir(parents=True, exist_ok=True)
                (assembled / name).write_bytes(data)
        for record in (runner / ".tolmach-cache/results").glob("v*/*.json"):  # CI caches, merged
            target = assembled / record.relative_to(runner)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(record, target)
    assert {written_by[f"locales/doc{n}.pot"] for n in (4, 9)} <= set(range(1, SHARDS + 1))
    assert len(set(written_by.values())) == SHARDS  # every shard had work

    before = WORK.copy()
    for step in (("extract",), ("check",), ("build",), ("stats",)):  # served by the shards' records
        run_command(assembled, *step, "-j", "1", "--quiet")
    done = WORK.copy()
    done.subtract(before)
    assert done["parse"] == 0 and done["write"] == 0, +done

    publish = run_command(assembled, "publish", "--no-search", "-j", "1", "--quiet")
    assert (publish.exit_code, publish.stdout) == (whole_publish.exit_code, whole_publish.stdout)
    assert project_files(assembled) == project_files(whole)
    whole_findings = json.loads(whole_runs[2].stdout)["findings"]
    assert sorted(map(json.dumps, findings)) == sorted(map(json.dumps, whole_findings))
    assert whole_findings  # the broken translations were found, in some shard


def test_a_shard_works_on_its_documents_only(checkout, tmp_path):
    runner = cold_copy(checkout, tmp_path / "runner")
    names = [f"doc{n}" for n in range(10)]
    mine = [name for name in names if Shard(2, SHARDS).holds(name)]
    result = run_command(runner, "extract", "--shard", f"2/{SHARDS}", "-j", "1", "--quiet")
    assert sorted(re.findall(r"locales/(doc\d)\.pot", result.output)) == sorted(mine)
    stats = run_command(runner, "stats", "--format", "json", "--shard", f"2/{SHARDS}", "-j", "1")
    assert sorted({row["document"] for row in json.loads(stats.stdout)["catalogs"]}) == sorted(mine)


# --- the sample workflows ------------------------------------------------------------------

WORKFLOWS = {
    "github": ROOT / "docs" / "ci" / "github-actions.yml",
    "gitlab": ROOT / "docs" / "ci" / "gitlab-ci.yml",
}


def commands_of(workflow: dict) -> list[str]:
    """Every shell line of a workflow's steps (GitHub ``run``, GitLab ``script``)."""
    lines: list[str] = []
    for job in workflow.get("jobs", workflow).values():
        if not isinstance(job, dict):
            continue
        for step in job.get("steps", []):
            lines += str(step.get("run", "")).splitlines()
        for part in ("before_script", "script"):
            lines += [str(line) for line in job.get(part, [])]
    return [line.strip() for line in lines if line.strip()]


def tolmach_calls(workflow: dict) -> list[list[str]]:
    calls = []
    for line in commands_of(workflow):
        line = re.sub(r"\$\{\{\s*matrix\.shard\s*\}\}", "K", line)
        line = line.replace("$CI_NODE_INDEX", "K").replace("$CI_NODE_TOTAL", "N")
        for command in re.split(r"\s*(?:&&|\|\||;)\s*", line):
            words = shlex.split(command, comments=True)
            if words and words[0] == "tolmach":
                calls.append(words[1:])
    return calls


@pytest.mark.parametrize("name", sorted(WORKFLOWS))
def test_the_sample_workflow_calls_real_commands_and_options(name):
    workflow = yaml.safe_load(WORKFLOWS[name].read_text("utf-8"))
    calls = tolmach_calls(workflow)
    used = {words[0] for words in calls}
    assert {"extract", "update", "check", "build", "publish"} <= used
    for words in calls:
        command = cli.commands[words[0]]
        help_text = CliRunner().invoke(cli, [words[0], "--help"], terminal_width=200).output
        for word in words[1:]:
            if word.startswith("-"):
                option = word.split("=", 1)[0]
                assert re.search(rf"(^|[ ,]){re.escape(option)}\b", help_text, re.M), (words, option)
        assert isinstance(command.params, list)
        if words[0] != "publish":
            assert "--shard" in words, words  # the matrix splits every step but publish


def test_the_github_matrix_covers_every_shard_once():
    workflow = yaml.safe_load(WORKFLOWS["github"].read_text("utf-8"))
    job = next(job for job in workflow["jobs"].values() if "strategy" in job)
    matrix = job["strategy"]["matrix"]["shard"]
    counts = {int(m.group(1)) for line in commands_of(workflow)
              for m in re.finditer(r"--shard \$\{\{\s*matrix\.shard\s*\}\}/(\d+)", line)}
    assert len(counts) == 1, counts
    (count,) = counts
    assert sorted(matrix) == list(range(1, count + 1))
    assert all(parse_shard(f"{k}/{count}") for k in matrix)
    publish = [j for j in workflow["jobs"].values() if any(
        "tolmach publish" in str(s.get("run", "")) for s in j.get("steps", []))]
    assert len(publish) == 1 and publish[0]["needs"] in ("shard", ["shard"])


def test_the_gitlab_jobs_run_in_parallel_and_publish_after():
    workflow = yaml.safe_load(WORKFLOWS["gitlab"].read_text("utf-8"))
    parallel = [job for job in workflow.values() if isinstance(job, dict) and "parallel" in job]
    assert len(parallel) == 1 and parallel[0]["parallel"] >= 2
    assert any("--shard K/N" in " ".join(["tolmach", *call]) for call in tolmach_calls(workflow))
    assert workflow["pages"]["stage"] == workflow["stages"][-1]
