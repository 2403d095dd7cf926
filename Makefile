# Two entry points: `make run` (the whole pipeline on the seed) and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
BENCH_STAMP := $(VENV)/.bench-installed

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $(STAMP)

.PHONY: venv run test bench lint
venv: $(STAMP)

run: $(STAMP)
	$(BIN)/tolmach extract
	$(BIN)/tolmach update
	$(BIN)/tolmach check
	$(BIN)/tolmach build --strict
	$(BIN)/tolmach publish
	$(BIN)/tolmach stats

test: $(STAMP)
	$(BIN)/pytest

# The benchmarks compare with translate-toolkit: the [bench] extra.
$(BENCH_STAMP): $(STAMP)
	$(BIN)/pip install -q -e '.[test,bench]'
	touch $(BENCH_STAMP)

bench: $(BENCH_STAMP)
	$(BIN)/python bench/run.py $(BENCH_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
