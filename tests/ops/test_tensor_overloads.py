"""The Tensor methods MindSpore dispatches among overloads take each of its forms, picked as
MindSpore picks them (by keyword names and by the types of the values), in eager code and in
graphs. The expected values were recorded from MindSpore 2.10 (CPU, PyNative)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor
from cellgraph.ops.tensor_overloads import FORMS, PYNATIVE_CALLINGS
from cellgraph.primitives.method_overloads import OVERLOADS

X = np.array([[-0.1, 0.3, 3.6], [0.4, 0.5, -3.2]], np.float32)
V = np.arange(1, 8, dtype=np.float32)

# name -> (method call on x (X) and v (V), MindSpore's result: (dtype, values) or a tuple of them)
CASES = {
    "gather_dim": (lambda x, v: x.gather(1, Tensor(np.array([[0, 0], [1, 1]], np.int32))),
                   ("Float32", [[-0.1, -0.1], [0.5, 0.5]])),
    "gather_dim_keywords": (
        lambda x, v: x.gather(index=Tensor(np.array([[0, 0], [1, 1]], np.int32)), dim=1),
        ("Float32", [[-0.1, -0.1], [0.5, 0.5]])),
    "gather_indices": (lambda x, v: v.gather(Tensor(np.array([0, 2, 4], np.int32)), 0),
                       ("Float32", [1.0, 3.0, 5.0])),
    "gather_axis_keyword": (lambda x, v: v.gather(Tensor(np.array([6, 1], np.int32)), axis=0),
                            ("Float32", [7.0, 2.0])),
    "sort_dim": (lambda x, v: x.sort(dim=1, descending=True),
                 (("Float32", [[3.6, 0.3, -0.1], [0.5, 0.4, -3.2]]),
                  ("Int32", [[2, 1, 0], [1, 0, 2]]))),
    "sort_axis": (lambda x, v: x.sort(axis=0),
                  (("Float32", [[-0.1, 0.3, -3.2], [0.4, 0.5, 3.6]]),
                   ("Int32", [[0, 0, 1], [1, 1, 0]]))),
    "argsort_dim": (lambda x, v: x.argsort(dim=1), ("Int32", [[0, 1, 2], [2, 0, 1]])),
    "max_positional_dim": (lambda x, v: x.max(1),
                           (("Float32", [3.6, 0.5]), ("Int64", [2, 1]))),
    "max_dim_keepdim": (lambda x, v: x.max(dim=0, keepdim=True),
                        (("Float32", [[0.4, 0.5, 3.6]]), ("Int64", [[1, 1, 0]]))),
    "max_axis": (lambda x, v: x.max(axis=1), ("Float32", [3.6, 0.5])),
    "max_whole": (lambda x, v: x.max(), ("Float32", 3.6)),
    "min_dim": (lambda x, v: x.min(dim=1), (("Float32", [-0.1, -3.2]), ("Int64", [0, 2]))),
    "divide_floor": (
        lambda x, v: x.divide(Tensor(np.array([0.25], np.float32)), rounding_mode="floor"),
        ("Float32", [[-1.0, 1.0, 14.0], [1.0, 2.0, -13.0]])),
    "div_trunc": (lambda x, v: x.div(0.25, rounding_mode="trunc"),
                  ("Float32", [[-0.0, 1.0, 14.0], [1.0, 2.0, -12.0]])),
    "remainder_divisor": (lambda x, v: x.remainder(divisor=0.25),
                          ("Float32", [[0.15, 0.05, 0.1], [0.15, 0.0, 0.05]])),
    "expand_as_x": (lambda x, v: Tensor(np.array([1., 2., 3.], np.float32)).expand_as(x=x),
                    ("Float32", [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]])),
    "scatter_add_indices": (
        lambda x, v: Tensor(np.zeros((3, 2), np.float32)).scatter_add(
            Tensor(np.array([[0], [2], [0]], np.int32)), Tensor(np.ones((3, 2), np.float32))),
        ("Float32", [[2.0, 2.0], [0.0, 0.0], [1.0, 1.0]])),
    "flatten_start_dim": (lambda x, v: Tensor(np.ones((2, 3, 2), np.float32)).flatten(
        start_dim=1), ("Float32", np.ones((2, 6)).tolist())),
    "mean_dim": (lambda x, v: x.mean(dim=1, keepdim=True), ("Float32", [[1.26667], [-0.76667]])),
    "sum_dim": (lambda x, v: x.sum(dim=0), ("Float32", [0.3, 0.8, 0.4])),
    "mean_dtype": (lambda x, v: x.mean(1, dtype=ms.float64), ("Float64", [1.26667, -0.76667])),
    "round_positional": (
        lambda x, v: Tensor(np.array([0.8, 1.5, 2.5, -4.5], np.float32)).round(0),
        ("Float32", [1.0, 2.0, 2.0, -4.0])),
    "select_dim": (lambda x, v: x.select(1, 2), ("Float32", [3.6, -3.2])),
    "select_condition": (lambda x, v: x.select(x > 0, 0.0),
                         ("Float32", [[0.0, 0.3, 3.6], [0.4, 0.5, 0.0]])),
    "select_condition_int": (
        lambda x, v: Tensor(np.array([2, 3], np.int32)).select(Tensor([True, False]), 7),
        ("Int32", [2, 7])),
    "scatter_axis_number": (
        lambda x, v: x.scatter(axis=1, index=Tensor(np.array([[2], [0]], np.int64)), src=2.5),
        ("Float32", [[-0.1, 0.3, 2.5], [2.5, 0.5, -3.2]])),
    "scatter_dim_number": (
        lambda x, v: Tensor(np.array([[1, 2, 3]], np.int32)).scatter(
            1, Tensor(np.array([[0, 2]], np.int64)), 2.5),
        ("Int32", [[2, 2, 2]])),
    "index_select_dim": (
        lambda x, v: x.index_select(dim=1, index=Tensor(np.array([2, 0], np.int32))),
        ("Float32", [[3.6, -0.1], [-3.2, 0.4]])),
    "tile_reps": (lambda x, v: Tensor(np.array([1., 2.], np.float32)).tile(reps=(2,)),
                  ("Float32", [1.0, 2.0, 1.0, 2.0])),
    "logsumexp_dim": (lambda x, v: x.logsumexp(dim=1), ("Float32", [3.65978, 1.15729])),
    "matmul_tensor2": (lambda x, v: x.matmul(tensor2=x.T),
                       ("Float32", [[13.06, -11.41], [-11.41, 10.65]])),
    "where_other": (lambda x, v: x.where(x > 0, other=0.0),
                    ("Float32", [[0.0, 0.3, 3.6], [0.4, 0.5, 0.0]])),
    "cumsum_dim_dtype": (lambda x, v: x.cumsum(1, dtype=ms.float64),
                         ("Float64", [[-0.1, 0.2, 3.8], [0.4, 0.9, -2.3]])),
    "cumsum_dim_keyword": (lambda x, v: x.cumsum(dim=0),
                           ("Float32", [[-0.1, 0.3, 3.6], [0.3, 0.8, 0.4]])),
    "cumsum_flattened": (lambda x, v: x.cumsum(), ("Float32", [-0.1, 0.2, 3.8, 4.2, 4.7, 1.5])),
    "cumsum_axis": (lambda x, v: x.cumsum(axis=1),
                    ("Float32", [[-0.1, 0.2, 3.8], [0.4, 0.9, -2.3]])),
    "take_index": (lambda x, v: x.take(Tensor(np.array([0, 4], np.int32))),
                   ("Float32", [-0.1, 0.5])),
    "take_axis": (lambda x, v: x.take(Tensor(np.array([0, 2], np.int32)), axis=1),
                  ("Float32", [[-0.1, 3.6], [0.4, -3.2]])),
    "add_list": (lambda x, v: x.add([[1, 2, 3], [4, 5, 6]]),
                 ("Float32", [[0.9, 2.3, 6.6], [4.4, 5.5, 2.8]])),
    "sub_tuple": (lambda x, v: x.sub((1, 2, 3)),
                  ("Float32", [[-1.1, -1.7, 0.6], [-0.6, -1.5, -6.2]])),
    "byte": (lambda x, v: Tensor(np.array([1.7, 300.0], np.float32)).byte(), ("UInt8", [1, 44])),
    "logaddexp2": (lambda x, v: v.logaddexp2(v), ("Float32", np.arange(2, 9).tolist())),
}


def _check(result, expected):
    if isinstance(expected[0], tuple):
        assert isinstance(result, tuple) and len(result) == len(expected)
        for r, e in zip(result, expected):
            _check(r, e)
        return
    dtype, values = expected
    assert str(result.dtype) == dtype
    np.testing.assert_allclose(result.asnumpy(), np.array(values), rtol=1e-5, atol=1e-5)


# MindSpore 2.10's graph mode (jit) picks another form for these: positional arguments of max
# and min are the reduction's (axis, keepdims), which gives the values only
GRAPH_RESULTS = {"max_positional_dim": ("Float32", [3.6, 0.5])}


@pytest.mark.parametrize("graph", [False, True], ids=["eager", "graph"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_method_form_as_mindspore(case, graph):
    call, expected = CASES[case]
    expected = GRAPH_RESULTS.get(case, expected) if graph else expected

    def run(x, v):
        return call(x, v)

    fn = ms.jit(run) if graph else run
    _check(fn(Tensor(X), Tensor(V)), expected)


@pytest.mark.parametrize("graph", [False, True], ids=["eager", "graph"])
def test_no_form_takes_the_call(graph):
    def run(x):
        return x.gather(foo=1)

    fn = ms.jit(run) if graph else run
    with pytest.raises(TypeError, match=r'Failed calling gather with "gather\(foo=int\)"'):
        fn(Tensor(X))


def test_every_form_is_one_of_mindspores_callings():
    # each form's parameter names are those of a calling MindSpore lists for the method
    for name, forms in FORMS.items():
        assert name in OVERLOADS or name in PYNATIVE_CALLINGS
        assert getattr(Tensor, name).forms == forms


def test_clamp_without_bounds_is_mindspores_error():
    with pytest.raises(ValueError, match="For Clamp, at least one of 'min' or 'max' must not be "
                                         "None."):
        Tensor(X).clip(None, None)


def test_a_mutable_tuple_of_axes_fits_the_tuple_forms():
    class Net(ms.nn.Cell):
        def construct(self, x, dim):
            return x.sum(dim), x.mean(dim)

    total, mean = Net()(Tensor(X), ms.mutable((1,)))
    np.testing.assert_allclose(total.asnumpy(), X.sum(1), rtol=1e-6)
    np.testing.assert_allclose(mean.asnumpy(), X.mean(1), rtol=1e-6)


@pytest.mark.parametrize("graph", [False, True], ids=["eager", "graph"])
@pytest.mark.parametrize("x, y, message", [
    (np.array([2, 3], np.float32), 1, "'y' is int, then the tensor type should be int32 but "
                                      + "got Float32"),
    (np.array([2, 3], np.int32), 1.0, "'y' is float, then the tensor type should be float32 "
                                      + "but got Int32"),
    (np.array([2, 3], np.float32), "a", "Failed calling select"),
])
def test_select_number_needs_its_dtype(x, y, message, graph):
    # MindSpore 2.10's Tensor.select(condition, y) takes an int y for int32 Tensors only and a
    # float y for float32 ones, and raises TypeError otherwise
    def run(x, condition, y):
        return x.select(condition, y)

    fn = ms.jit(run) if graph else run
    with pytest.raises(TypeError, match=message):
        fn(Tensor(x), Tensor([True, False]), y)
