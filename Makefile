# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest bench clean fixtures

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[opencv,test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/octotable serve

test: $(STAMP) lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

# pytest exits 5 when no test ran; that must fail the build, and it does.
pytest: $(STAMP)
	$(BIN)/pytest -n 2 --dist loadfile --no-loadscope-reorder -q

bench: $(STAMP)
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache

# Rendered scene fixtures (tests/fixtures/scenes): the same seed writes the same files.
fixtures: $(STAMP)
	$(BIN)/python tools/make_fixtures.py
