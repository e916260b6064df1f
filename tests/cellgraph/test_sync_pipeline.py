"""sync_pipeline_shared_parameters: MindSpore's TypeError for a non-Cell; a one-stage network (all
of them here) has nothing to synchronise."""
import pytest

import cellgraph as cg
from cellgraph import nn


def test_one_stage_has_nothing_to_synchronise():
    net = nn.Dense(2, 2)
    before = net.weight.asnumpy().copy()
    assert cg.sync_pipeline_shared_parameters(net) is None
    assert (net.weight.asnumpy() == before).all()
    assert cg.parallel.sync_pipeline_shared_parameters is cg.sync_pipeline_shared_parameters


def test_a_non_cell_is_refused():
    with pytest.raises(TypeError, match="the argument 'net' should be a Cell"):
        cg.sync_pipeline_shared_parameters(lambda x: x)
