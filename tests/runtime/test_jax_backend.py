"""The jax backend's own behaviour: one XLA program per compiled graph (branches and loops as
lax control flow), random draws through explicit keys, printing and Parameter updates.
Agreement with NumPy on the kernel cases and programs is tests/runtime/test_backends.py's."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import cellgraph
from cellgraph import Parameter, Tensor, nn, ops
from cellgraph.runtime import backend as rb
from tests.cellgraph.test_loops import ScanNet
from tests.golden.programs import TensorIf, TensorWhile, scalar

jax = pytest.importorskip("jax")

from cellgraph.runtime import jax_lowering  # (needs JAX: after the importorskip)


@pytest.fixture(autouse=True)
def on_jax():
    rb.set_backend("jax")
    yield
    rb.set_backend("numpy")


def _graph(fn, *args):
    from cellgraph.compiler.pipeline import compile_callable

    return compile_callable(fn, args).graph


def _jaxpr_text(fn, *args) -> str:
    graph = _graph(fn, *args)
    lowering = jax_lowering.Lowering(rb.get_backend().kernels).trace()  # as a compile traces
    arrays = [a._data for a in args] + [w._data for w in graph.weights]
    return str(jax.make_jaxpr(lambda *xs: lowering.run(graph, list(xs))[0])(*arrays))


def test_branches_and_loops_lower_to_lax_control_flow():
    assert "cond[" in _jaxpr_text(TensorIf(), scalar(0.7))
    assert "while[" in _jaxpr_text(TensorWhile(), scalar(1.5))
    h, a, b = (Tensor(np.array(v, np.float32)) for v in ([0.1, 0.2], [0.5, -0.3], [1.2, 0.4]))
    assert "scan[" in _jaxpr_text(ScanNet(False), h, a, b)
    assert "scan[" in _jaxpr_text(cellgraph.grad(ScanNet(False)), h, a, b)


def _on_numpy_too(fn, *args):
    got = fn(*args).asnumpy()
    rb.set_backend("numpy")
    want = fn(*args).asnumpy()
    rb.set_backend("jax")
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_loops_and_their_gradients_agree_with_numpy():
    h, a, b = (Tensor(np.array(v, np.float32)) for v in ([0.1, 0.2], [0.5, -0.3], [1.2, 0.4]))
    for fn in (ScanNet(False), cellgraph.grad(ScanNet(False))):
        _on_numpy_too(fn, h, a, b)
    _on_numpy_too(TensorWhile(), scalar(1.5))


class SinLoop(nn.Cell):
    """A Tensor `while` whose trip count is an argument, with a `break` on the state."""

    def construct(self, x, w, n):
        i = 0
        while i < n:
            x = ops.sin(x) * w + 0.5 * x
            if x.sum() > 1e6:
                break
            i = i + 1
        return (x * x).sum()


class PrintingLoop(nn.Cell):
    def construct(self, x):
        while x.sum() < 10:
            print("x:", x)
            x = x * 2
        return x


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_reverse_mode_through_a_tensor_while_runs_in_xla(dtype, monkeypatch):
    """The loop's tape is a buffer of a static bound, which grows when a run outgrows it: the
    gradient is one XLA program for every trip count (none, one, around the bound, past it,
    then fewer again) and agrees with the NumPy backend's."""
    monkeypatch.setattr(jax_lowering, "FIRST_BOUND", 4)
    grad = cellgraph.grad(SinLoop(), grad_position=(0, 1))
    rng = np.random.default_rng(0)
    x, w = (Tensor(rng.standard_normal(5).astype(dtype)) for _ in range(2))
    assert jax_lowering.dynamic_node(_graph(grad, x, w, Tensor(3, cellgraph.int32))) is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no node-by-node run
        for n in (0, 1, 3, 4, 5, 2, 19, 7):
            trips = Tensor(n, cellgraph.int32)
            got = grad(x, w, trips)
            assert all(isinstance(g._data, jax.Array) for g in got)
            rb.set_backend("numpy")
            want = grad(x, w, trips)
            rb.set_backend("jax")
            for g, r in zip(got, want):
                np.testing.assert_allclose(np.asarray(g.asnumpy()), r.asnumpy(),
                                           rtol=1e-5 if dtype == np.float32 else 1e-12)


def test_a_second_derivative_through_a_tensor_while_runs_in_xla():
    """The backward pass of the backward pass walks tapes the first one stacked: buffers of
    the same bound, in the same XLA program."""
    grad2 = cellgraph.grad(cellgraph.grad(TensorWhile()))
    assert jax_lowering.dynamic_node(_graph(grad2, scalar(1.5))) is None
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        for start in (1.5, 0.01, 20.0):
            _on_numpy_too(grad2, scalar(start))


def test_numpy_held_arguments_go_to_the_compiled_function_as_they_are(monkeypatch):
    """Tensors holding NumPy arrays (made on the numpy backend) are passed to the jitted
    function as they are, which moves them itself: no device_put of its own per argument and
    call, which took most of a small graph's call. The results are JAX arrays and right."""
    rb.set_backend("numpy")
    x, w = Tensor(np.array([0.3, -0.2], np.float32)), Tensor(np.array([1.5, 0.5], np.float32))
    trips = Tensor(3, cellgraph.int32)
    grad = cellgraph.grad(SinLoop(), grad_position=(0, 1))
    want = grad(x, w, trips)
    rb.set_backend("jax")
    backend = rb.get_backend()
    moved = []
    monkeypatch.setattr(backend, "from_host", lambda a: moved.append(a) or jax.device_put(a))
    for _ in range(2):
        got = grad(x, w, trips)
        assert isinstance(x._data, np.ndarray) and moved == []
        for g, r in zip(got, want):
            assert isinstance(g._data, jax.Array)
            np.testing.assert_allclose(np.asarray(g.asnumpy()), r.asnumpy(), rtol=1e-6)


def test_a_graph_xla_cannot_take_runs_on_the_host(monkeypatch):
    """A taped loop whose graph prints cannot be run again with a larger bound without
    printing twice: it runs on the host, and the user is told so once, with the node and the
    line."""
    from cellgraph.runtime import jax_backend

    monkeypatch.setattr(jax_backend, "_WARNED", set())  # (other tests may have compiled it)
    grad_while = cellgraph.grad(PrintingLoop())
    node, why = jax_lowering.dynamic_node(_graph(grad_while, scalar(1.5)))
    assert node.callee.name == "while_loop" and "print" in why
    with pytest.warns(RuntimeWarning, match=r"runs node by node on the host, not through XLA: "
                                            r"node while_loop at test_jax_backend\.py:\d+ "
                                            r"\(while "):
        _on_numpy_too(grad_while, scalar(1.5))
    assert isinstance(grad_while(scalar(1.5))._data, jax.Array)
    with warnings.catch_warnings():  # said once per graph, not on every compile or call
        warnings.simplefilter("error", RuntimeWarning)
        cellgraph.grad(PrintingLoop())(scalar(1.5))


class Dropout(nn.Cell):
    """A dropout with no seed pair of its own: its masks are drawn from jax.random keys."""

    def __init__(self):
        super().__init__()
        self.dropout = ops.Dropout(keep_prob=0.6)

    def construct(self, x):
        return self.dropout(x)[0]


def test_dropout_draws_from_keys_reproducibly_after_set_seed():
    net = Dropout()
    net.set_train()
    x = Tensor(np.ones((50, 40), np.float32))
    cellgraph.set_seed(7)
    first, second = net(x).asnumpy(), net(x).asnumpy()
    cellgraph.set_seed(7)
    np.testing.assert_array_equal(net(x).asnumpy(), first)
    assert not np.array_equal(first, second)  # a new key on every call
    kept = first != 0
    np.testing.assert_allclose(first[kept], 1 / 0.6, rtol=1e-6)
    assert 0.5 < kept.mean() < 0.7


def test_a_seeded_dropout_layer_draws_mindspores_masks_on_the_host():
    """nn.Dropout made after set_seed has a seed pair: its masks come from MindSpore's kernel
    stream, on the host, the same as on the NumPy backend."""
    x = Tensor(np.ones((6, 7), np.float32))
    masks = []
    for backend in ("jax", "numpy"):
        rb.set_backend(backend)
        cellgraph.set_seed(5)
        layer = nn.Dropout(p=0.4)
        layer.set_train()
        masks.append([np.asarray(layer(x).asnumpy()) for _ in range(2)])
    rb.set_backend("jax")
    for got, want in zip(*masks):
        np.testing.assert_array_equal(got, want)


def test_draws_inside_a_loop_differ_per_trip():
    def fill_rows(x):
        i = Tensor(0, cellgraph.int64)
        while i < 3:
            x = ops.concat((x[1:], ops.expand_dims(ops.rand(4), 0)), 0)  # a new last row
            i = i + 1
        return x

    out = cellgraph.jit(fill_rows)(Tensor(np.zeros((3, 4), np.float32))).asnumpy()
    assert len({tuple(row) for row in out}) == 3 and (out > 0).all() and (out < 1).all()


def test_print_runs_on_every_call_through_a_host_callback(capsys):
    def show(x):
        print("x:", x)
        return x * 2

    fn = cellgraph.jit(show)
    fn(Tensor(np.array([1.5, 2.0], np.float32)))
    fn(Tensor(np.array([-1.5, 0.0], np.float32)))
    jax.effects_barrier()
    assert capsys.readouterr().out == (  # a jit function: MindSpore's Print operator's form
        "x:\nTensor(shape=[2], dtype=Float32, value=[ 1.50000000e+00  2.00000000e+00])\n"
        "x:\nTensor(shape=[2], dtype=Float32, value=[-1.50000000e+00  0.00000000e+00])\n")


def test_training_step_updates_parameters_through_donated_buffers():
    w = Parameter(Tensor(np.ones((3, 2), np.float32)), name="w")

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = w

        def construct(self, x):
            return ops.reduce_sum(ops.matmul(x, self.w))

    net = Net()
    step = nn.TrainOneStepCell(net, nn.SGD(net.trainable_params(), learning_rate=0.5))
    x = Tensor(np.full((4, 3), 0.25, np.float32))
    graph = _graph(step, x)
    donated = jax_lowering.donated_positions(graph)
    weight_ids = [id(p) for p in graph.weights]
    assert graph.n_inputs + weight_ids.index(id(w)) in donated
    assert {weight_ids[i - graph.n_inputs] for i in donated} == {id(p) for p in graph.updates}
    for k in range(1, 3):
        step(x)
        assert isinstance(w._data, jax.Array)
        np.testing.assert_allclose(w.asnumpy(), np.full((3, 2), 1 - 0.5 * k))


def _momentum_step(seed: int):
    cellgraph.set_seed(seed)
    net = nn.SequentialCell([nn.Dense(3, 3), nn.Dense(3, 3)])
    return net, nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                    nn.Momentum(net.trainable_params(), 0.1, 0.9))


def test_updated_weights_come_out_in_the_order_of_their_donated_buffers():
    """JAX lends a donated buffer to the first output of its shape: a weight's new value must
    come before its moment's (same shape), or XLA copies buffers to keep both. The values are
    the NumPy backend's."""
    x = Tensor(np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3))
    net, step = _momentum_step(3)
    graph = _graph(step, x, x)
    donated = jax_lowering.donated_positions(graph)
    results = jax_lowering._Results(graph, donated)
    assert results.order is not None
    assert [results.kept[o] for o in results.order[:len(donated)]] == sorted(donated)
    assert [results.order[k] for k in results.inverse] == list(range(len(graph.outputs)))
    for _ in range(3):
        step(x, x)
    rb.set_backend("numpy")
    reference, reference_step = _momentum_step(3)
    for _ in range(3):
        reference_step(x, x)
    rb.set_backend("jax")
    for p, q in zip(net.trainable_params(), reference.trainable_params()):
        np.testing.assert_allclose(p.asnumpy(), q.asnumpy(), rtol=1e-5, atol=1e-6)


def test_a_failed_run_time_check_raises_its_own_error():
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    fn = cellgraph.jit(lambda x, y: loss(x, y))
    x = Tensor(np.zeros((3, 4), np.float32))
    np.testing.assert_allclose(fn(x, Tensor(np.array([0, 1, 3], np.int32))).asnumpy(),
                               np.log(4.0), rtol=1e-6)
    with pytest.raises(IndexError, match=r"label 7 out of range \[0, 4\)"):
        fn(x, Tensor(np.array([0, 7, 3], np.int32)))


def test_a_failed_check_in_a_training_step_leaves_the_parameters_as_they_were():
    """The top-level check is a flag read after the run, not a host callback mid-program; when
    it fails, the weights (whose buffers were donated) keep their values and stay usable."""
    net = nn.Dense(4, 3)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(),
                                                                      0.1, 0.9))
    x = Tensor(np.ones((2, 4), np.float32))
    good, bad = (Tensor(np.array(v, np.int32)) for v in ([0, 1], [0, 7]))
    assert "callback" not in _jaxpr_text(step, x, good)
    step(x, good)
    before = {p.name: p.asnumpy().copy() for p in step.get_parameters()}
    with pytest.raises(IndexError, match=r"label 7 out of range \[0, 3\)") as raised:
        step(x, bad)
    assert isinstance(raised.value, cellgraph.primitives.errors.CellgraphError)
    for p in step.get_parameters():
        np.testing.assert_array_equal(p.asnumpy(), before[p.name])
    step(x, good)  # the weights are still there, and the step goes on from them
    assert not np.array_equal(net.weight.asnumpy(), before[net.weight.name])


def test_a_check_inside_a_loop_still_runs_on_the_host_in_order():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="sum")

        def construct(self, x, y, n):
            total = ops.zeros((), cellgraph.float32)
            while n > 0:
                total = total + self.loss(x, y)
                n = n - 1
            return total

    x, n = Tensor(np.zeros((2, 4), np.float32)), Tensor(2, cellgraph.int32)
    np.testing.assert_allclose(Net()(x, Tensor(np.array([0, 3], np.int32)), n).asnumpy(),
                               4 * np.log(4.0), rtol=1e-6)
    with pytest.raises(IndexError, match=r"label 9 out of range"):
        Net()(x, Tensor(np.array([9, 3], np.int32)), n)


class _ComplexNet(nn.Cell):
    def construct(self, x, y):
        z = ops.Complex()(x, y)
        w = ops.exp(z) * ops.conj(z) + 1j
        return ops.abs(w) + ops.angle(w / (z + 2)), ops.view_as_real(w * w)


def test_complex_programs_and_their_gradients_agree_with_numpy():
    x, y = (Tensor(np.array(v, np.float32)) for v in ([0.3, -1.2, 2.0], [1.1, 0.4, -0.7]))
    _on_numpy_too(lambda a, b: _ComplexNet()(a, b)[0], x, y)
    _on_numpy_too(lambda a, b: _ComplexNet()(a, b)[1], x, y)
    for position in (0, 1):
        _on_numpy_too(cellgraph.grad(lambda a, b: _ComplexNet()(a, b)[0].sum(), position), x, y)


def test_taped_graphs_called_from_several_threads_agree(monkeypatch):
    """The bound grows under a lock; runs in flight on a smaller bound are made again."""
    import concurrent.futures

    monkeypatch.setattr(jax_lowering, "FIRST_BOUND", 2)
    grad = cellgraph.grad(SinLoop(), grad_position=(0,))
    x, w = Tensor(np.full(3, 0.3, np.float32)), Tensor(np.full(3, 0.9, np.float32))
    counts = [1, 9, 3, 17, 5, 33, 2, 12]
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda n: np.asarray(grad(x, w, Tensor(n, cellgraph.int32))
                                                 .asnumpy()), counts))
    rb.set_backend("numpy")
    for n, g in zip(counts, got):
        np.testing.assert_allclose(g, grad(x, w, Tensor(n, cellgraph.int32)).asnumpy(),
                                   rtol=1e-5)
    rb.set_backend("jax")
