"""parallel.nn.GradAccumulation and MicroBatchInterleaved: the network on equal slices of the
batch, outputs added, so gradients are the sums of the slices' gradients."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn
from cellgraph.parallel.nn import GradAccumulation, MicroBatchInterleaved

rng = np.random.default_rng(3)


def _loss_net():
    ms.set_seed(1)
    return nn.WithLossCell(nn.Dense(3, 2), nn.MSELoss())


def _grads(cell, *inputs):
    weights = cell.trainable_params()
    return ms.value_and_grad(cell, None, weights)(*inputs)


@pytest.mark.parametrize("wrapper,parts", [(GradAccumulation, 4), (MicroBatchInterleaved, 2)])
def test_outputs_and_gradients_are_sums_over_micro_batches(wrapper, parts):
    x = rng.standard_normal((8, 3)).astype(np.float32)
    y = rng.standard_normal((8, 2)).astype(np.float32)
    inner = _loss_net()
    wrapped = wrapper(inner, parts)
    loss, grads = _grads(wrapped, Tensor(x), Tensor(y))
    size = 8 // parts
    expected_loss, expected = 0.0, None
    for i in range(parts):
        part = slice(i * size, (i + 1) * size)
        l_i, g_i = _grads(inner, Tensor(x[part]), Tensor(y[part]))
        expected_loss += float(l_i.asnumpy())
        g_i = [g.asnumpy() for g in g_i]
        expected = g_i if expected is None else [a + b for a, b in zip(expected, g_i)]
    np.testing.assert_allclose(loss.asnumpy(), expected_loss, rtol=1e-5)
    for got, want in zip(grads, expected):
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5, atol=1e-6)
    # the same parameters, under the same names
    assert [p.name for p in wrapped.trainable_params()] == \
        [p.name for p in inner.trainable_params()]


def test_training_step_applies_the_accumulated_gradient():
    x = rng.standard_normal((6, 3)).astype(np.float32)
    y = rng.standard_normal((6, 2)).astype(np.float32)
    net = _loss_net()
    before = [p.asnumpy().copy() for p in net.trainable_params()]
    _, grads = _grads(GradAccumulation(net, 3), Tensor(x), Tensor(y))
    step = nn.TrainOneStepCell(GradAccumulation(net, 3), nn.SGD(net.trainable_params(), 0.1))
    step(Tensor(x), Tensor(y))
    for p, b, g in zip(net.trainable_params(), before, grads):
        np.testing.assert_allclose(p.asnumpy(), b - 0.1 * g.asnumpy(), rtol=1e-5, atol=1e-6)


def test_argument_checks():
    with pytest.raises(TypeError, match="network"):
        GradAccumulation(lambda x: x, 2)
    with pytest.raises(TypeError, match="micro_size"):
        GradAccumulation(_loss_net(), 2.0)
    with pytest.raises(ValueError, match="micro_size"):
        GradAccumulation(_loss_net(), 0)
    with pytest.raises(ValueError, match="must be divided by micro size"):
        MicroBatchInterleaved(_loss_net(), 4)(Tensor(np.zeros((6, 3), np.float32)),
                                              Tensor(np.zeros((6, 2), np.float32)))


def test_pipeline_cell_sums_micro_batches_and_annotates_stages():
    from cellgraph.parallel.nn import Pipeline

    x = rng.standard_normal((4, 3)).astype(np.float32)
    y = rng.standard_normal((4, 2)).astype(np.float32)
    inner = _loss_net()
    expected = sum(float(inner(Tensor(x[i:i + 1]), Tensor(y[i:i + 1])).asnumpy())
                   for i in range(4))
    for wrapper in (nn.PipelineCell, Pipeline, nn.GradAccumulationCell,
                    nn.MicroBatchInterleaved):
        np.testing.assert_allclose(wrapper(inner, 4)(Tensor(x), Tensor(y)).asnumpy(), expected,
                                   rtol=1e-5)
    annotated = nn.PipelineCell(inner, 2, stage_config={"_backbone": 0})
    assert inner._backbone.pipeline_stage == 0 and annotated.micro_size == 2
    with pytest.raises(KeyError, match="stage_config"):
        nn.PipelineCell(inner, 2, stage_config={"missing": 1})


def test_pipeline_grad_reducer_reads_and_clears_the_accumulation_buffers():
    """MindSpore 2.10's values: the gradients are accu_grads / scale_sense (the buffers then
    zeroed); with opt_shard the given gradients / scale_sense. Both import paths name it."""
    from cellgraph.parallel.nn.parallel_grad_reducer import PipelineGradReducer

    assert PipelineGradReducer is nn.PipelineGradReducer
    net = nn.Dense(3, 2)
    params = nn.SGD(net.trainable_params(), 1e-2).parameters
    reducer = PipelineGradReducer(params)
    assert reducer.opt_shard is False
    assert [p.name for p in reducer.get_parameters()] == ["accu_grads.weight",
                                                          "accu_grads.bias", "scale_sense"]
    grads = (Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones(2, np.float32)))
    reducer.accu_grads[0].set_data(Tensor(np.full((2, 3), 4, np.float32)))
    out = reducer(grads)
    np.testing.assert_array_equal(out[0].asnumpy(), np.full((2, 3), 4, np.float32))
    np.testing.assert_array_equal(out[1].asnumpy(), np.zeros(2, np.float32))
    np.testing.assert_array_equal(reducer.accu_grads[0].asnumpy(), np.zeros((2, 3)))
    sharded = PipelineGradReducer(params, scale_sense=2.0, opt_shard=True)
    out = sharded(grads)
    np.testing.assert_array_equal(out[0].asnumpy(), np.full((2, 3), 0.5, np.float32))
    np.testing.assert_array_equal(out[1].asnumpy(), np.full(2, 0.5, np.float32))
