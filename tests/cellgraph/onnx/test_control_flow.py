"""Branches and loops that stay in the graph export as ONNX If and Loop."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")


def flat(value) -> list:
    if isinstance(value, (tuple, list)):
        return [leaf for v in value for leaf in flat(v)]
    return [value]


def run_both(net, args, tmp_path, more_args=()):
    """The exported model's outputs and cellgraph's, for `args` and each of `more_args`."""
    ms.export(net, *args, file_name=str(tmp_path / "m"), file_format="ONNX")
    session = ort.InferenceSession(str(tmp_path / "m.onnx"), providers=["CPUExecutionProvider"])
    for call in [args, *more_args]:
        got = session.run(None, {i.name: a.asnumpy() for i, a in zip(session.get_inputs(), call)})
        want = flat(net(*call))
        assert len(got) == len(want)
        for g, w in zip(got, want):
            w = w.asnumpy() if hasattr(w, "asnumpy") else np.asarray(w)  # a number: int64
            assert g.shape == w.shape and g.dtype == w.dtype
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


class WhileThenIf(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(4, 4)

    def construct(self, x, n):
        i = 0
        while i < n:
            x = ops.tanh(self.fc(x))
            i += 1
        if x.sum() > 0:
            y = x * 2
        else:
            y = x - 1
        return y, i


def test_while_loop_and_branch_follow_the_inputs(tmp_path, rng):
    x = Tensor(rng.standard_normal((2, 4)).astype(np.float32))
    others = [(Tensor(rng.standard_normal((2, 4)).astype(np.float32)), Tensor(n, ms.int32))
              for n in (0, 1, 5)]
    run_both(WhileThenIf(), (x, Tensor(3, ms.int32)), tmp_path, others)


class Cumulative(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scan = ops.Scan()
        self.fori = ops.ForiLoop()

    def construct(self, xs, n):
        def step(carry, x):
            carry = carry * 0.5 + x
            return carry, carry * 2

        last, ys = self.scan(step, ops.zeros((3,), ms.float32), [xs[0], xs[1], xs[2]],
                             unroll=False)
        total = self.fori(0, n, lambda i, v: v + i * 1.5, ops.zeros((), ms.float32),
                          unroll=False)
        return last, ys, total


def test_scan_and_fori_loop(tmp_path, rng):
    xs = Tensor(rng.standard_normal((5, 3)).astype(np.float32))
    others = [(xs, Tensor(0, ms.int32)), (xs * 2, Tensor(7, ms.int32))]
    run_both(Cumulative(), (xs, Tensor(4, ms.int32)), tmp_path, others)


def test_reverse_scan(tmp_path, rng):
    """A scan that walks its elements backwards (what reverse mode emits) stacks its outputs
    in the elements' order."""
    from cellgraph.compiler.control_prims import loop_graph
    from cellgraph.compiler.loop_prims import scan
    from cellgraph.primitives.core import TensorType
    from cellgraph.primitives.dtype import float32

    row = TensorType((3,), float32)
    body = loop_graph("step", lambda c, x: (c * 0.5 + x, c + x * 3), [row, row])

    class Backwards(nn.Cell):
        def construct(self, xs):
            return tuple(scan(np.asarray(4, np.int64), [ops.zeros((3,), ms.float32)], [xs], [],
                              body, reverse=True))

    xs = Tensor(rng.standard_normal((4, 3)).astype(np.float32))
    run_both(Backwards(), (xs,), tmp_path)
    want = np.zeros(3, np.float32)
    for k in range(3, -1, -1):  # the reference loop
        want = want * 0.5 + xs.asnumpy()[k]
    np.testing.assert_allclose(Backwards()(xs)[0].asnumpy(), want, rtol=1e-6)
