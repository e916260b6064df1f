"""Shared test set-up: every test starts in graph mode on the CPU backend."""
import numpy as np
import pytest

import cellgraph
from cellgraph import context
from cellgraph.compiler import pipeline

pipeline.VERIFY_EVERY_STAGE = True  # the verifier checks the IR after every stage in tests


@pytest.fixture(autouse=True)
def _graph_mode_cpu():
    cellgraph.set_context(mode=context.GRAPH_MODE, device_target="CPU", save_graphs=False)
    yield
    cellgraph.set_context(mode=context.GRAPH_MODE, device_target="CPU", save_graphs=False)


@pytest.fixture
def rng():
    return np.random.default_rng(0)
