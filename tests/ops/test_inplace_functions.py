"""MindSpore's in-place functions in `ops` (`put_`, `normal_`, `uniform_`, `exponential_`,
`random_`, `bernoulli_`, `zero_`, `clamp_`, `tanh_`, `erfinv_`, `inplace_sigmoid`) and the Tensor
methods of the same names: each writes its input and returns it, eagerly and on a Parameter in
a compiled Cell; the random fills' draws have the distribution asked for."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Parameter, Tensor, nn, ops


def test_put_writes_and_accumulates_at_flat_positions():
    x = Tensor(np.zeros((2, 3), np.float32))
    out = ops.put_(x, Tensor(np.array([0, -1])), Tensor(np.array([5.0, 6.0])))
    assert out is x
    np.testing.assert_array_equal(x.asnumpy(), [[5, 0, 0], [0, 0, 6]])
    x.put_(Tensor(np.array([0, 0])), Tensor(np.array([1.0, 1.0])), True)
    np.testing.assert_array_equal(x.asnumpy(), [[7, 0, 0], [0, 0, 6]])


@pytest.mark.parametrize("fill, check", [
    (lambda x: ops.normal_(x, 2, 0.5), lambda v: abs(v.mean() - 2) < 0.05 and
     abs(v.std() - 0.5) < 0.05),
    (lambda x: ops.uniform_(x, 3, 4), lambda v: v.min() >= 3 and v.max() < 4),
    (lambda x: ops.exponential_(x, 2), lambda v: v.min() >= 0 and abs(v.mean() - 0.5) < 0.05),
    (lambda x: ops.random_(x, 0, 3), lambda v: set(np.unique(v)) == {0, 1, 2}),
    (lambda x: ops.bernoulli_(x, 0.25), lambda v: set(np.unique(v)) == {0, 1} and
     abs(v.mean() - 0.25) < 0.05),
    (lambda x: x.uniform_(), lambda v: v.min() >= 0 and v.max() < 1),
])
def test_random_fills(fill, check):
    x = Tensor(np.zeros(4000, np.float32))
    assert fill(x) is x
    assert x.dtype == cg.float32 and check(x.asnumpy())


def test_the_others_write_their_input():
    for op, before, after in ((ops.zero_, [1.0, 2.0], [0, 0]),
                              (lambda t: ops.clamp_(t, 0, 1), [-1.0, 5.0], [0, 1]),
                              (ops.tanh_, [0.5, 0.0], np.tanh([0.5, 0.0])),
                              (ops.inplace_sigmoid, [0.0, 0.0], [0.5, 0.5]),
                              (ops.erfinv_, [0.0, 0.5], [0.0, 0.47693628])):
        x = Tensor(np.array(before, np.float32))
        assert op(x) is x
        np.testing.assert_allclose(x.asnumpy(), after, rtol=1e-6)


def test_a_generators_seed_and_offset_key_the_draws():
    first = ops.uniform_(Tensor(np.zeros(3, np.float32)), generator=cg.Generator().manual_seed(4))
    again = ops.uniform_(Tensor(np.zeros(3, np.float32)), generator=cg.Generator().manual_seed(4))
    np.testing.assert_array_equal(first.asnumpy(), again.asnumpy())
    generator = cg.Generator().manual_seed(4)
    ops.normal_(Tensor(np.zeros(3, np.float32)), generator=generator)
    assert generator.get_state().asnumpy()[8] == 12  # the offset moved on


class Fill(nn.Cell):
    def __init__(self):
        super().__init__()
        self.p = Parameter(Tensor(np.zeros(3, np.float32)), name="p")

    def construct(self):
        ops.uniform_(self.p, 1, 2)
        return self.p * 1


def test_on_a_parameter_in_a_compiled_cell():
    net = Fill()
    out = net().asnumpy()
    np.testing.assert_array_equal(out, net.p.asnumpy())
    assert out.min() >= 1 and out.max() < 2
