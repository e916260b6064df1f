"""RNN, LSTM, GRU and their cells against NumPy references written from the gate equations,
MindSpore's parameter names, and gradients (inputs and weights) at orders 1 and 2."""
import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, nn
from cellgraph.testing import check_grads

from .nn_checks import check_weight_grads, t64, to_float64


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def np_lstm_step(x, h, c, w_ih, w_hh, b_ih, b_hh):
    i, f, g, o = np.split(x @ w_ih.T + b_ih + h @ w_hh.T + b_hh, 4, axis=-1)
    c = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
    return sigmoid(o) * np.tanh(c), c


def np_gru_step(x, h, w_ih, w_hh, b_ih, b_hh):
    i_r, i_z, i_n = np.split(x @ w_ih.T + b_ih, 3, axis=-1)
    h_r, h_z, h_n = np.split(h @ w_hh.T + b_hh, 3, axis=-1)
    r, z = sigmoid(i_r + h_r), sigmoid(i_z + h_z)
    n = np.tanh(i_n + r * h_n)
    return n + z * (h - n)


def weights(cell, kind, suffix):
    return [getattr(cell, f"{name}_{kind}{suffix}").asnumpy().astype(np.float64)
            for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")]


def np_lstm(net, x, lengths=None):
    """Reference for a bidirectional 1-layer LSTM over (T, B, I)."""
    steps, batch = x.shape[:2]
    outs, finals = [], []
    for suffix, order in (("", range(steps)), ("_reverse", range(steps - 1, -1, -1))):
        w = weights(net, "l0", suffix)
        h = c = np.zeros((batch, net.hidden_size))
        out = np.zeros((steps, batch, net.hidden_size))
        for t in order:
            h_new, c_new = np_lstm_step(x[t], h, c, *w)
            live = np.ones((batch, 1)) if lengths is None else (t < lengths)[:, None]
            h, c = np.where(live, h_new, h), np.where(live, c_new, c)
            out[t] = h_new * live
        outs.append(out)
        finals.append((h, c))
    return np.concatenate(outs, 2), finals


def test_parameter_names_follow_mindspore():
    net = nn.LSTM(3, 4, num_layers=2, bidirectional=True)
    names = [n for n, _ in net.parameters_and_names()]
    assert names[:4] == ["weight_ih_l0", "weight_ih_l0_reverse", "weight_ih_l1",
                         "weight_ih_l1_reverse"]
    assert names[-1] == "bias_hh_l1_reverse" and len(names) == 16
    assert net.weight_ih_l1.shape == (16, 8)  # 4 gates, input = both directions
    assert [p.name for p in net.w_hh_list][:2] == ["weight_hh_l0", "weight_hh_l0_reverse"]

    class Model(nn.Cell):
        def __init__(self):
            super().__init__()
            self.encoder = nn.GRU(3, 2, has_bias=False)

    assert [p.name for p in Model().trainable_params()] == ["encoder.weight_ih_l0",
                                                            "encoder.weight_hh_l0"]
    cell_names = [n for n, _ in nn.LSTMCell(3, 4).parameters_and_names()]
    assert cell_names == ["weight_ih", "weight_hh", "bias_ih", "bias_hh"]


def test_bidirectional_lstm_matches_numpy_with_seq_length(rng):
    net = nn.LSTM(3, 4, bidirectional=True)
    x = rng.standard_normal((5, 2, 3)).astype(np.float32)
    lengths = np.array([3, 5])
    out, (h, c) = net(Tensor(x), None, Tensor(lengths.astype(np.int32)))
    ref_out, finals = np_lstm(net, x.astype(np.float64), lengths)
    np.testing.assert_allclose(out.asnumpy(), ref_out, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(h.asnumpy(), np.stack([f[0] for f in finals]), rtol=1e-5,
                               atol=1e-5)
    np.testing.assert_allclose(c.asnumpy(), np.stack([f[1] for f in finals]), rtol=1e-5,
                               atol=1e-5)
    full, _ = net(Tensor(x))
    np.testing.assert_allclose(full.asnumpy(), np_lstm(net, x.astype(np.float64))[0],
                               rtol=1e-5, atol=1e-5)


def test_stacked_batch_first_gru_matches_numpy(rng):
    net = nn.GRU(3, 2, num_layers=2, batch_first=True)
    x = rng.standard_normal((2, 4, 3)).astype(np.float32)
    h0 = rng.standard_normal((2, 2, 2)).astype(np.float32)
    out, h = net(Tensor(x), Tensor(h0))
    layer_in = x.transpose(1, 0, 2).astype(np.float64)
    finals = []
    for layer in range(2):
        w = weights(net, f"l{layer}", "")
        state, outs = h0[layer].astype(np.float64), []
        for t in range(4):
            state = np_gru_step(layer_in[t], state, *w)
            outs.append(state)
        layer_in = np.stack(outs)
        finals.append(state)
    np.testing.assert_allclose(out.asnumpy(), layer_in.transpose(1, 0, 2), rtol=1e-5,
                               atol=1e-5)
    np.testing.assert_allclose(h.asnumpy(), np.stack(finals), rtol=1e-5, atol=1e-5)


def test_rnn_relu_and_cells(rng):
    x = rng.standard_normal((3, 2, 4)).astype(np.float32)
    net = nn.RNN(4, 3, nonlinearity="relu", has_bias=False)
    out, h = net(Tensor(x))
    state = np.zeros((2, 3))
    for t in range(3):
        state = np.maximum(x[t] @ net.weight_ih_l0.asnumpy().T
                           + state @ net.weight_hh_l0.asnumpy().T, 0)
    np.testing.assert_allclose(h.asnumpy()[0], state, rtol=1e-5, atol=1e-6)
    cell = nn.LSTMCell(4, 3)
    hx, cx = rng.standard_normal((2, 2, 3)).astype(np.float32)
    h1, c1 = cell(Tensor(x[0]), (Tensor(hx), Tensor(cx)))
    ref_h, ref_c = np_lstm_step(x[0], hx, cx, *[getattr(cell, n).asnumpy() for n in (
        "weight_ih", "weight_hh", "bias_ih", "bias_hh")])
    np.testing.assert_allclose(h1.asnumpy(), ref_h, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(c1.asnumpy(), ref_c, rtol=1e-5, atol=1e-6)
    gru = nn.GRUCell(4, 3)
    out = gru(Tensor(x[0]), Tensor(hx))
    ref = np_gru_step(x[0], hx, *[getattr(gru, n).asnumpy() for n in (
        "weight_ih", "weight_hh", "bias_ih", "bias_hh")])
    np.testing.assert_allclose(out.asnumpy(), ref, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("layer", [
    lambda: nn.LSTM(2, 2, bidirectional=True),
    lambda: nn.GRU(2, 2, num_layers=2),
    lambda: nn.RNN(2, 3),
])
def test_recurrent_gradients_orders_1_and_2(layer, rng):
    net = to_float64(layer())
    x = rng.standard_normal((3, 2, 2))

    def outputs(inp):
        out, _ = net(inp)
        return out

    check_grads(outputs, (x,), order=2, rtol=1e-4, atol=1e-6)
    check_weight_grads(_Outputs(net), (t64(x),))


class _Outputs(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net

    def construct(self, x):
        out, _ = self.net(x)
        return out


def test_lstm_cell_gradients(rng):
    cell = to_float64(nn.LSTMCell(2, 3))
    x, h, c = rng.standard_normal((2, 2)), rng.standard_normal((2, 3)), rng.standard_normal(
        (2, 3))
    check_grads(lambda a, b, d: cell(a, (b, d))[1], (x, h, c), order=2, rtol=1e-4)


def test_errors_name_the_layer():
    with pytest.raises(ValueError, match="dropout"):
        nn.LSTM(2, 2, dropout=1.5)
    with pytest.raises(ValueError, match="LSTM: expected an input of shape"):
        nn.LSTM(2, 2)(Tensor(np.ones((3, 2, 5), np.float32)))
    with pytest.raises(TypeError, match="seq_length"):
        nn.GRU(2, 2)(Tensor(np.ones((3, 2, 2), np.float32)), None,
                     Tensor(np.ones(2, np.float32)))


def test_dropout_between_layers_only_in_training():
    cellgraph.set_seed(0)
    net = nn.LSTM(2, 3, num_layers=2, dropout=0.5)
    x = Tensor(np.ones((2, 1, 2), np.float32))
    eval_out = net(x)[0].asnumpy()
    np.testing.assert_array_equal(net(x)[0].asnumpy(), eval_out)
    net.set_train()
    assert not np.allclose(net(x)[0].asnumpy(), eval_out)


def test_rnn_layers_create_their_parameters_in_dtype():
    rnn = cellgraph.nn.RNN(10, 16, 2, batch_first=True, dtype=cellgraph.float16)
    assert {p.dtype for p in rnn.get_parameters()} == {cellgraph.float16}
    out, h_n = rnn(cellgraph.Tensor(np.ones((3, 5, 10), np.float16)),
                   cellgraph.Tensor(np.zeros((2, 3, 16), np.float16)))
    assert out.dtype == h_n.dtype == cellgraph.float16 and out.shape == (3, 5, 16)
    assert {p.dtype for p in cellgraph.nn.LSTM(4, 3).get_parameters()} == {cellgraph.float32}


def test_assigning_the_parameter_lists_replaces_the_parameters_as_mindspore():
    """`net.w_ih_list = ParameterTuple(...)` (and w_hh, b_ih, b_hh) replaces the layer's
    Parameters, one a layer and direction; the output is MindSpore 2.10's for the same weights
    (recorded), and the Parameters keep their names."""
    import cellgraph as cg

    net = cg.nn.LSTM(4, 3, num_layers=2, has_bias=True, bidirectional=True)
    rng = np.random.RandomState(0)

    def params(kind, shape_of):
        return cg.ParameterTuple([cg.Parameter(cg.Tensor(rng.uniform(-0.5, 0.5, shape_of(
            layer)).astype(np.float32)), name=f"{kind}_l{layer}{suffix}")
            for layer in range(2) for suffix in ("", "_reverse")])

    net.w_ih_list = params("weight_ih", lambda layer: (12, 4 if layer == 0 else 6))
    net.w_hh_list = params("weight_hh", lambda layer: (12, 3))
    net.b_ih_list = params("bias_ih", lambda layer: (12,))
    net.b_hh_list = params("bias_hh", lambda layer: (12,))
    out, _ = net(cg.Tensor(rng.randn(5, 2, 4).astype(np.float32)))
    np.testing.assert_allclose(out.asnumpy().reshape(-1)[:8], [
        -0.05248, -0.0079, -0.09315, 0.44768, -0.21727, 0.26418, -0.05509, -0.00837], atol=1e-5)
    assert net.w_hh_list[3].name == "weight_hh_l1_reverse"
    with pytest.raises(ValueError, match="expected 4 Parameters for the weight_ih list, got 1"):
        net.w_ih_list = net.w_ih_list[:1]


def test_gradients_through_seq_length_masks_in_both_directions(rng):
    # each step's input is one piece of a split of the sequence: the steps' gradients join
    # back into the input's, frozen steps (past an element's length) contributing zero
    net = to_float64(nn.LSTM(2, 3, num_layers=2, bidirectional=True, batch_first=True))
    x = rng.standard_normal((2, 5, 2))
    lengths = Tensor(np.array([5, 3], np.int32))

    def outputs(inp):
        out, _ = net(inp, seq_length=lengths)
        return out

    check_grads(outputs, (x,), order=1, rtol=1e-4, atol=1e-6)
    grad = cellgraph.grad(lambda inp: outputs(inp).sum())(t64(x)).asnumpy()
    assert np.all(grad[1, 3:] == 0) and np.all(grad[1, :3] != 0) and np.all(grad[0] != 0)


def _compiled_nodes(net, x) -> list:
    from cellgraph.compiler.pipeline import compile_callable

    return [n.callee.name for n in compile_callable(net, (x,)).graph.nodes]


@pytest.mark.parametrize("kind", ["LSTM", "GRU", "RNN"])
def test_time_loop_is_one_scan_whatever_the_length(kind, rng):
    # the graph of a training step does not grow with the sequence: one scan per layer and
    # direction, its gradient a scan too
    net = _Outputs(getattr(nn, kind)(3, 4, num_layers=2, bidirectional=True, batch_first=True))
    grad = cellgraph.ops.GradOperation(get_by_list=True)(net, net.trainable_params())
    short, long = (_compiled_nodes(grad, Tensor(rng.standard_normal((2, steps, 3)).astype(
        np.float32))) for steps in (3, 60))
    assert short == long
    assert short.count("scan") >= 4


@pytest.mark.parametrize("kind", ["LSTM", "GRU", "RNN"])
def test_graph_scan_matches_the_eager_step_loop(kind, rng):
    # eagerly the steps run as a Python loop; in a graph as one scan: the same numbers
    np.random.seed(3)
    net = getattr(nn, kind)(3, 5, num_layers=2, bidirectional=True, batch_first=True)
    x = Tensor(rng.standard_normal((3, 7, 3)).astype(np.float32))
    lengths = Tensor(np.array([7, 4, 1], np.int32))
    eager_out, eager_h = net(x, None, lengths)
    graph_out, graph_h = cellgraph.jit(lambda inp, n: net(inp, None, n))(x, lengths)
    np.testing.assert_allclose(graph_out.asnumpy(), eager_out.asnumpy(), rtol=1e-6, atol=1e-7)
    for g, e in zip(graph_h if kind == "LSTM" else (graph_h,),
                    eager_h if kind == "LSTM" else (eager_h,)):
        np.testing.assert_allclose(g.asnumpy(), e.asnumpy(), rtol=1e-6, atol=1e-7)
    assert np.all(graph_out.asnumpy()[2, 1:] == 0)  # past its length an element outputs zeros


@pytest.mark.parametrize("layer", [
    lambda: nn.LSTM(2, 2, bidirectional=True, batch_first=True),
    lambda: nn.GRU(2, 3, bidirectional=True),
])
def test_gradients_through_the_time_scan_with_lengths_orders_1_and_2(layer, rng):
    net = to_float64(layer())
    x = rng.standard_normal((3, 2, 2)) if not net.batch_first else rng.standard_normal((2, 3, 2))
    lengths = Tensor(np.array([3, 2], np.int32))

    def outputs(inp):
        out, _ = net(inp, None, lengths)
        return out

    check_grads(outputs, (x,), order=2, rtol=1e-4, atol=1e-6)
