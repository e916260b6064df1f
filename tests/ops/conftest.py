"""Fixtures the operation tests share."""
import pytest

import cellgraph as cg


@pytest.fixture
def graph_mode():
    """GRAPH_MODE for the test, PYNATIVE_MODE after it."""
    cg.set_context(mode=cg.GRAPH_MODE)
    yield
    cg.set_context(mode=cg.PYNATIVE_MODE)


def in_a_cell(fn):
    """A Cell whose construct calls `fn` with its arguments (to run `fn` as a graph)."""
    from cellgraph import nn

    class Net(nn.Cell):
        def construct(self, *args):
            return fn(*args)

    return Net()
