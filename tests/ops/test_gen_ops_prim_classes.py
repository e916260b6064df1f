"""`ops.auto_generate.gen_ops_prim`'s classes against MindSpore 2.10: each case of
tests/data/gen_ops_prim_mindspore.json (recorded by tools/oracle/make_gen_ops_fixtures.py) makes
the class with the recorded constructor arguments, calls it on the recorded arguments and
compares values, dtypes and shapes, or the exception type where MindSpore raises. The cases
MindSpore's CPU build cannot run with the class itself hold the values of a MindSpore function
that computes the same (the case's `how`)."""
import json
from pathlib import Path

import numpy as np
import pytest

import cellgraph as cg
from cellgraph.ops.auto_generate import gen_ops_prim
from tests.tools.oracle_tools import load

FIXTURE = json.loads((Path(__file__).parents[1] / "data" / "gen_ops_prim_mindspore.json")
                     .read_text())
CASES = FIXTURE["cases"]


_values = load("recorded_values")


def _array(kept, key):
    return _values.array(kept, key)


def value(arg):
    """A recorded argument as cellgraph's."""
    return _values.decode(arg, cg)


def check(got, want, where):
    if "sequence" in want:
        assert isinstance(got, (tuple, list)) and len(got) == len(want["sequence"]), where
        for i, (g, w) in enumerate(zip(got, want["sequence"])):
            check(g, w, f"{where}[{i}]")
    elif "scalar" in want:
        assert not isinstance(got, cg.Tensor) and type(got).__name__ == want["type"], where
        assert got == pytest.approx(want["scalar"]), where
    else:
        assert isinstance(got, cg.Tensor), where
        assert (tuple(got.shape), str(got.dtype).lower()) == (tuple(want["shape"]),
                                                              want["dtype"]), where
        np.testing.assert_allclose(got.asnumpy(), _array(want, "values"),
                                   rtol=1e-5, atol=1e-5, err_msg=where)


def call(case, args):
    init = {k: value(v) for k, v in case["init"].items()}
    return getattr(gen_ops_prim, case["cls"])(**init)(*args)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_matches_mindspore(case):
    args = [value(a) for a in case["args"]]
    if "raises" in case:
        with pytest.raises(Exception) as info:
            call(case, args)
        assert case["raises"] in {k.__name__ for k in type(info.value).__mro__}
        return
    check(call(case, args), case["out"], case["name"])


@pytest.mark.parametrize("case", [c for c in CASES if "raises" not in c
                                  and any("tensor" in str(a) for a in c["args"])],
                         ids=lambda c: c["name"])
def test_same_results_in_a_graph(case):
    """The class inside a compiled Cell: Tensor arguments are the graph's inputs, the others
    constants, as MindSpore's graphs take them."""
    positions = [i for i, a in enumerate(case["args"]) if isinstance(a, dict) and "tensor" in a]
    fixed = [value(a) for a in case["args"]]
    op = getattr(gen_ops_prim, case["cls"])(**{k: value(v) for k, v in case["init"].items()})

    class Net(cg.nn.Cell):
        def construct(self, *tensors):
            args = list(fixed)
            for i, t in zip(positions, tensors):
                args[i] = t
            return op(*args)

    cg.set_context(mode=cg.GRAPH_MODE)
    try:
        out = Net()(*[fixed[i] for i in positions])
    finally:
        cg.set_context(mode=cg.PYNATIVE_MODE)
    check(out, case["out"], case["name"])


def test_group_norm_in_a_graph_takes_a_mutable_number_of_groups():
    """The number of groups sets the statistics' shape: a graph reads a `mutable` one when it
    compiles, as MindSpore's does (its test_primitive_with_kwargs passes it so)."""
    @cg.jit
    def norm(x, groups, weight, bias, eps):
        return gen_ops_prim.GroupNorm()(x, weight=weight, bias=bias, num_groups=groups, eps=eps)

    rng = np.random.default_rng(3)
    x = cg.Tensor(rng.standard_normal((2, 6, 3)).astype(np.float32))
    weight, bias = cg.Tensor(np.ones(6, np.float32)), cg.Tensor(np.zeros(6, np.float32))
    out, mean, rstd = norm(x, cg.mutable(3), weight, bias, cg.mutable(1e-5))
    grouped = x.asnumpy().reshape(2, 3, -1)
    np.testing.assert_allclose(mean.asnumpy(), grouped.mean(-1), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(rstd.asnumpy(), 1 / np.sqrt(grouped.var(-1) + 1e-5), rtol=1e-4)
    want = (grouped - grouped.mean(-1, keepdims=True)) / np.sqrt(
        grouped.var(-1, keepdims=True) + 1e-5)
    np.testing.assert_allclose(out.asnumpy(), want.reshape(2, 6, 3), rtol=1e-4, atol=1e-5)


def test_scatter_with_an_index_shorter_than_the_input_differentiates():
    """An index may be shorter than the input along the other axes (GatherD reads the input's
    leading part there); values and gradients are MindSpore 2.10's."""
    x = cg.Tensor(np.arange(25.0, dtype=np.float32).reshape(5, 5))
    index = cg.Tensor(np.array([[0, 1, 2], [0, 2, 2], [0, 1, 2]], np.int64))
    src = cg.Tensor(np.arange(1.0, 10.0, dtype=np.float32).reshape(3, 3))
    np.testing.assert_array_equal(cg.ops.gather_elements(x, 1, index).asnumpy(),
                                  [[0, 1, 2], [5, 7, 7], [10, 11, 12]])
    dx, dsrc = cg.grad(lambda a, s: gen_ops_prim.Scatter()(a, 1, index, s), (0, 1))(x, src)
    want = np.ones((5, 5), np.float32)
    want[:3, :3] = [[0, 0, 0], [0, 1, 0], [0, 0, 0]]
    np.testing.assert_array_equal(dx.asnumpy(), want)
    np.testing.assert_array_equal(dsrc.asnumpy(), np.ones((3, 3)))


def test_scatter_value_in_a_graph_takes_a_mutable_dim_and_value():
    """MindSpore's dynamic-shape tests pass the dim and the value as mutable numbers."""
    op = gen_ops_prim.ScatterValue()

    @cg.jit
    def scatter(x, dim, index, value):
        return op(x, dim, index, value)

    out = scatter(cg.Tensor(np.zeros((2, 3), np.float32)), cg.mutable(1),
                  cg.Tensor(np.array([[0], [2]])), cg.mutable(2.0))
    np.testing.assert_array_equal(out.asnumpy(), [[2, 0, 0], [0, 0, 2]])


def test_tuple_to_tensor_takes_a_dynamic_length_tuple_in_a_graph():
    """MindSpore's tests/st/ops/ascend/test_dynamic_sequence_to_tensor.py: a mutable
    dynamic-length tuple of ints gives int64, of floats float32."""
    op = gen_ops_prim.TupleToTensor()

    @cg.jit
    def convert(values):
        return op(values)

    ints = convert(cg.mutable((1, 2, 3), True))
    assert ints.dtype == cg.int64 and ints.asnumpy().tolist() == [1, 2, 3]
    floats = convert(cg.mutable((1.5, 2.0), True))
    assert floats.dtype == cg.float32 and floats.asnumpy().tolist() == [1.5, 2.0]
