"""Shared test set-up: every test starts in graph mode on the CPU backend, or on the backend
`--backend NAME` names (`pytest tests/samples --backend torch_cuda` runs the samples' checks
on a GPU)."""
import numpy as np
import pytest

import cellgraph
from cellgraph import context
from cellgraph.compiler import compile_context
from cellgraph.runtime import executor, tensor_format

compile_context.VERIFY_EVERY_STAGE = True  # the verifier checks the IR after every stage in tests


def pytest_addoption(parser):
    parser.addoption("--backend", default="numpy",
                     help="the cellgraph backend every test starts on (numpy, torch, torch_cuda, "
                          "cupy, jax); tests that pick their own backend still do")


def _defaults():
    cellgraph.set_context(mode=context.GRAPH_MODE, device_target="CPU", save_graphs=False)
    # print in graphs as in a program that never chose a mode (Python's form)
    tensor_format.PRINT_STYLE["graph"] = False


@pytest.fixture(autouse=True)
def _graph_mode_cpu(request):
    _defaults()
    backend = request.config.getoption("--backend")
    if backend != "numpy":
        cellgraph.set_context(backend=backend)
    yield
    _defaults()


@pytest.fixture
def pynative_mode():
    """The test runs in PyNative mode (_graph_mode_cpu puts graph mode back after it)."""
    cellgraph.set_context(mode=context.PYNATIVE_MODE)
    yield


@pytest.fixture
def rng():
    return np.random.default_rng(0)


@pytest.fixture
def compiles(monkeypatch):
    """Counts calls of the compile pipeline."""
    count = [0]
    real = executor.compile_callable

    def counting(*args, **kwargs):
        count[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(executor, "compile_callable", counting)
    return count
