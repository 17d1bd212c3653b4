# Two commands do everything: `make run` and `make test`. Both bootstrap .venv first.
.DEFAULT_GOAL := help
SHELL := /bin/bash

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Re-install whenever the declared dependencies change.
STAMP := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)
# JupyterLab refuses to start as root unless told it may (CI and this machine run as root).
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root,)

export JUPYTER_PLATFORM_DIRS := 1
# Notebook kernels must pick matplotlib's inline backend: a backend forced from outside
# (MPLBACKEND=Agg) would store no figures, and nbval would fail every plot cell.
unexport MPLBACKEND

.PHONY: help run test docs bench

help: ## List the targets
	@grep -E '^[a-z]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-6s %s\n", $$1, $$2}'

$(STAMP):
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[lab,test,docs]"
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

run: $(STAMP) ## Open the notebooks in JupyterLab
	$(BIN)/jupyter lab $(ALLOW_ROOT) --notebook-dir=. \
		$(if $(wildcard notebooks/00_index.ipynb),notebooks/00_index.ipynb,)

test: $(STAMP) ## Run every test: lint, unit, doctest, property, oracle, notebooks, the book
	$(BIN)/ruff check .
	RAGMETRICS_REQUIRE_ORACLES=1 $(BIN)/python -m pytest

docs: $(STAMP) ## Build the book (the notebooks and the API reference) into build/docs, offline
	$(BIN)/python docs/build.py build/docs

# Peers live in their own venv: they are benchmark dependencies, never runtime ones.
BENCH_VENV := .venv-bench
BENCH_STAMP := $(BENCH_VENV)/.installed-$(shell cat pyproject.toml benchmarks/requirements.txt | cksum | cut -d' ' -f1)

# --warm-caches: ranx compiles its numba code once (1-3 min), here rather than in a timed run.
$(BENCH_STAMP):
	$(PYTHON) -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(BENCH_VENV)/bin/python -m pip install --quiet -e ".[dask]" -r benchmarks/requirements.txt
	$(BENCH_VENV)/bin/python benchmarks/run.py --warm-caches
	rm -f $(BENCH_VENV)/.installed-*
	touch $(BENCH_STAMP)

bench: $(BENCH_STAMP) ## Time ragmetrics against pytrec_eval, ranx and ir_measures (under 10 min)
	$(BENCH_VENV)/bin/python benchmarks/run.py $(BENCH_ARGS)
