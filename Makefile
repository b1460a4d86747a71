# Every target does its own set-up: a fresh clone needs only `make run` or `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.PHONY: run sandbox test lint unit soak flaky bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m bot run

sandbox: $(STAMP)
	$(PY) -m bot sandbox

lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy --strict rules/ bot/ cogs/ soak/

unit: $(STAMP)
	$(PY) -m pytest -n 2

test: lint unit soak

# The chaos soak (python -m benchmarks.soak; its harness is the soak/ package): the bot process
# killed, Discord failing and the store locked while members play every game; any lost move,
# double apply, leak, refused reply or logged error fails it. On PostgreSQL too when
# TEST_DATABASE_URL is set.
SOAK_MINUTES ?= 1
SOAK_SEED ?= 15
# One table of each game unless SOAK_CHANNELS says how many.
SOAK_TABLES := $(if $(SOAK_CHANNELS),--channels $(SOAK_CHANNELS))
soak: $(STAMP)
	$(PY) -m benchmarks.soak --minutes $(SOAK_MINUTES) $(SOAK_TABLES) --seed $(SOAK_SEED) --json soak-results/sqlite.json
	@if [ -n "$$TEST_DATABASE_URL" ]; then \
	  $(PY) -m benchmarks.soak --minutes $(SOAK_MINUTES) $(SOAK_TABLES) --seed $(SOAK_SEED) --database-url "$$TEST_DATABASE_URL" --json soak-results/postgresql.json; \
	fi

# The whole suite RUNS times in a row, as CI runs it: a test that fails once in N runs is a
# bug to find (a race, a port, an order, an unseeded deal), never one to retry. Each failed
# run's log stays in flaky-logs/.
# A run that hangs is a failure too: each run has RUN_TIMEOUT seconds.
RUNS ?= 20
RUN_TIMEOUT ?= 900
flaky: $(STAMP)
	@mkdir -p flaky-logs; failed=0; \
	for run in $$(seq 1 $(RUNS)); do \
	  if timeout $(RUN_TIMEOUT) $(PY) -m pytest -n 2 -q -p no:cacheprovider > flaky-logs/run-$$run.log 2>&1; then \
	    echo "run $$run: $$(tail -1 flaky-logs/run-$$run.log)"; rm flaky-logs/run-$$run.log; \
	  else \
	    failed=$$((failed + 1)); echo "run $$run: FAILED, flaky-logs/run-$$run.log:"; \
	    grep -E '^(FAILED|ERROR) ' flaky-logs/run-$$run.log | sed 's/^/    /'; \
	  fi; \
	done; \
	echo "$$failed of $(RUNS) runs failed"; test $$failed -eq 0

bench: $(STAMP)
	$(PY) -m pip install --quiet -e '.[bench]' || echo "optional peers not installed; benchmarks run without them"
	mkdir -p benchmarks/results
	$(PY) -m benchmarks.engines all --json benchmarks/results/engines.json
	$(PY) -m benchmarks.rummikub_bot --json benchmarks/results/rummikub_bot.json

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
