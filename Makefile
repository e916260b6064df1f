# cellgraph developer commands. `make install` then `make test` on a fresh machine.
PYTHON ?= python3
VENV ?= .venv
# extras `make install` adds; CI also installs with EXTRAS=dev,cpu-all
EXTRAS ?= dev,samples
PY := $(VENV)/bin/python

.PHONY: install test test-all slow bench golden lint seeds clean oracle signatures gpu-check nn-fixtures

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

# on a machine with an NVIDIA GPU: the backend conformance suite, the samples' tests and the
# bench on torch_cuda, cupy and jax (logs in gpu-check/)
gpu-check:
	PY=$(PY) tools/gpu_check.sh gpu-check

golden:
	$(PY) -m tests.golden.regenerate

lint:
	$(PY) -m ruff check cellgraph tests bench samples
	$(VENV)/bin/lint-imports

# MindSpore 2.10 CPU beside cellgraph, to compare behaviour with; a development tool only, never a
# runtime or CI dependency (it needs numpy<2, cellgraph numpy>=2, hence its own venv)
ORACLE ?= .ms
oracle:
	$(PYTHON) -m venv $(ORACLE)
	$(ORACLE)/bin/pip install mindspore==2.10.0 "numpy<2" pytest matplotlib Pillow pyyaml scipy sympy tqdm

# re-record MindSpore's outputs of nn layers, losses and optimizer steps (test data)
nn-fixtures:
	$(ORACLE)/bin/python tools/oracle/make_nn_fixtures.py

# re-record MindSpore's signatures (test data) and write tools/oracle/missing_names.md
signatures:
	$(ORACLE)/bin/python tools/oracle/signatures.py
	$(PY) tools/oracle/signatures.py --report

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache
