# Every target does its own set-up: a fresh clone needs only `make run` or `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.PHONY: run test lint unit bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m bot run

lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy --strict rules/

unit: $(STAMP)
	$(PY) -m pytest -n 2

test: lint unit

bench: $(STAMP)
	$(PY) -m pip install --quiet -e '.[bench]' || echo "optional peers not installed; benchmarks run without them"
	mkdir -p benchmarks/results
	$(PY) benchmarks/engines.py all --json benchmarks/results/engines.json

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
