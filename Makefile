# cellgraph developer commands. `make install` then `make test` on a fresh machine.
PYTHON ?= python3
VENV ?= .venv
# extras `make install` adds; CI also installs with EXTRAS=dev,cpu-all
EXTRAS ?= dev,samples
PY := $(VENV)/bin/python

.PHONY: install test test-all slow bench golden lint seeds clean

install:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[$(EXTRAS)]'

test:
	$(PY) -m pytest -q

# pytest exits 5 when no test is marked slow; that is not a failure
slow:
	$(PY) -m pytest -q -m slow || [ $$? -eq 5 ]

test-all: test slow

seeds:
	$(PY) ../shared/tools/check_seed_examples.py --python $(abspath $(PY))

bench:
	$(PY) -m bench

golden:
	$(PY) -m tests.golden.regenerate

lint:
	$(PY) -m ruff check cellgraph tests bench samples
	$(VENV)/bin/lint-imports

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache
