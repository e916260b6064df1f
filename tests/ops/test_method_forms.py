"""The functional forms in `ops` of operations that are Tensor methods or mint functions
(`ops.gcd`, `ops.fmax`, `ops.slice_scatter`, ...), against NumPy, eagerly and in a compiled
Cell; and the functional Parameter scatters (`ops.scatter_div`, `ops.scatter_nd_update`, ...)."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Parameter, Tensor, nn, ops

X = np.array([[1.0, -2.0], [3.0, 4.0]], np.float32)
I = np.array([12, 18, -7, 0])
J = np.array([8, 12, 21, 5])

CASES = {
    "addcdiv": (lambda: ops.addcdiv(Tensor(X), Tensor(X), Tensor(X + 10), 2),
                X + 2 * X / (X + 10)),
    "adjoint": (lambda: ops.adjoint(Tensor(X)), X.T),
    "arctan2": (lambda: ops.arctan2(Tensor(X), Tensor(X[::-1].copy())), np.arctan2(X, X[::-1])),
    "copysign": (lambda: ops.copysign(Tensor(X), -1.0), -np.abs(X)),
    "diagflat": (lambda: ops.diagflat(Tensor(X), 1), np.diagflat(X, 1)),
    "expand_as": (lambda: ops.expand_as(Tensor(X[0]), Tensor(X)), np.broadcast_to(X[0], X.shape)),
    "floordiv": (lambda: ops.floordiv(Tensor(X), 3), np.floor_divide(X, 3)),
    "floormod": (lambda: ops.floormod(Tensor(X), 3.0), np.mod(X, 3)),
    "fmax": (lambda: ops.fmax(Tensor(X), Tensor(np.array([np.nan, 1.0], np.float32))),
             np.fmax(X, [np.nan, 1.0])),
    "fmin": (lambda: ops.fmin(Tensor(X), Tensor(np.array([np.nan, 1.0], np.float32))),
             np.fmin(X, [np.nan, 1.0])),
    "gcd": (lambda: ops.gcd(Tensor(I), Tensor(J)), np.gcd(I, J)),
    "lcm": (lambda: ops.lcm(Tensor(I), Tensor(J)), np.lcm(I, J)),
    "ldexp": (lambda: ops.ldexp(Tensor(X), Tensor(np.array([1, 2]))), np.ldexp(X, [1, 2])),
    "logaddexp2": (lambda: ops.logaddexp2(Tensor(X), Tensor(X.T.copy())), np.logaddexp2(X, X.T)),
    "msort": (lambda: ops.msort(Tensor(X[::-1].copy())), np.sort(X[::-1], 0)),
    "mv": (lambda: ops.mv(Tensor(X), Tensor(np.array([1.0, 2.0], np.float32))), X @ [1, 2]),
    "nanmean": (lambda: ops.nanmean(Tensor(np.array([1.0, np.nan, 3.0])), 0), 2.0),
    "ravel": (lambda: ops.ravel(Tensor(X)), X.ravel()),
    "select_scatter": (lambda: ops.select_scatter(Tensor(X), Tensor(np.array([9.0, 9.0],
                                                                             np.float32)), 0, 1),
                       np.array([[1.0, -2.0], [9.0, 9.0]])),
    "slice_scatter": (lambda: ops.slice_scatter(Tensor(X), Tensor(np.zeros((2, 1), np.float32)),
                                                1, 0, 1), np.array([[0.0, -2.0], [0.0, 4.0]])),
    "sinc": (lambda: ops.sinc(Tensor(X)), np.sinc(X)),
    "truncate_div": (lambda: ops.truncate_div(Tensor(I), Tensor(J)), np.trunc(I / J)),
    "truncate_mod": (lambda: ops.truncate_mod(Tensor(I), Tensor(J)), np.fmod(I, J)),
    "type_as": (lambda: ops.type_as(Tensor(I), Tensor(X)), I.astype(np.float32)),
    "view_as": (lambda: ops.view_as(Tensor(X), Tensor(np.zeros(4))), X.ravel()),
    "swiglu": (lambda: ops.swiglu(Tensor(X)), X[:, :1] / (1 + np.exp(-X[:, :1])) * X[:, 1:]),
    "tensor_range": (lambda: ops.tensor_range(Tensor(0), Tensor(5), Tensor(2)), [0, 2, 4]),
    "tensor_muls": (lambda: ops.tensor_muls(Tensor(X), 2.0), X * 2),
    "tensor_expm1": (lambda: ops.tensor_expm1(Tensor(X)), np.expm1(X)),
    "mirror_pad": (lambda: ops.mirror_pad(Tensor(X), Tensor(np.array([[0, 0], [1, 1]])),
                                          "REFLECT"), np.pad(X, ((0, 0), (1, 1)), "reflect")),
    "mse_loss_ext": (lambda: ops.mse_loss_ext(Tensor(X), Tensor(X * 0)), np.mean(X ** 2)),
    "diff_ext": (lambda: ops.diff_ext(Tensor(X), 1, 0), np.diff(X, axis=0)),
    "einsum_ext": (lambda: ops.einsum_ext("ij->ji", Tensor(X)), X.T),
    "isnan_ext": (lambda: ops.isnan_ext(Tensor(X)), np.isnan(X)),
    "float_power_ext": (lambda: ops.float_power_ext(Tensor(X), 2), X.astype(np.float64) ** 2),
    "embedding": (lambda: ops.embedding(Tensor(np.array([1, 0])), Tensor(X)), X[[1, 0]]),
    "group_norm": (lambda: ops.group_norm(Tensor(np.arange(8.0).reshape(1, 4, 2)), 2),
                   np.tile([-1.3416355, -0.44721183, 0.44721183, 1.3416355], 2).reshape(1, 4, 2)),
    "channel_shuffle": (lambda: ops.channel_shuffle(Tensor(np.arange(6.0).reshape(1, 6, 1)), 2),
                        np.array([0.0, 3, 1, 4, 2, 5]).reshape(1, 6, 1)),
    "xdivy": (lambda: ops.xdivy(Tensor(np.array([0.0, 2.0], np.float32)),
                                Tensor(np.array([0.0, 4.0], np.float32))), [0.0, 0.5]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_match_numpy(name):
    call, want = CASES[name]
    np.testing.assert_allclose(call().asnumpy(), want, rtol=1e-6, atol=1e-6)


def test_predicates_and_counts_are_python_values():
    assert ops.is_complex(Tensor(X)) is False
    assert ops.is_complex(Tensor(X.astype(np.complex64))) is True
    assert ops.numel(Tensor(X)) == 4
    with pytest.raises(TypeError, match="For 'is_complex', the input must be a Tensor"):
        ops.is_complex(X)


class Net(nn.Cell):
    def construct(self, a, b):
        return ops.gcd(a, b) + ops.numel(a), ops.fmax(ops.ravel(a).astype(cg.float32), 3.0)


def test_in_a_compiled_cell():
    first, second = Net()(Tensor(I), Tensor(J))
    np.testing.assert_array_equal(first.asnumpy(), np.gcd(I, J) + 4)
    np.testing.assert_array_equal(second.asnumpy(), np.fmax(I, 3.0))


@pytest.mark.parametrize("op, indices, expected", [
    (ops.scatter_div, [0, 2], [[4, 4], [8, 8], [4, 4]]),
    (ops.scatter_mul, [1], [[8, 8], [16, 16], [8, 8]]),
    (ops.scatter_max, [0], [[8, 8], [8, 8], [8, 8]]),
    (ops.scatter_min, [0], [[2, 2], [8, 8], [8, 8]]),
    (ops.scatter_update, [2], [[8, 8], [8, 8], [2, 2]]),
])
def test_parameter_scatters_update_in_place(op, indices, expected):
    param = Parameter(Tensor(np.full((3, 2), 8, np.float32)), name="p")
    updates = Tensor(np.full((len(indices), 2), 2, np.float32))
    out = op(param, Tensor(np.array(indices, np.int32)), updates)
    np.testing.assert_array_equal(out.asnumpy(), expected)
    np.testing.assert_array_equal(param.asnumpy(), expected)


@pytest.mark.parametrize("op, expected", [
    (ops.scatter_nd_update, [[8, 8], [2, 2], [8, 8]]),
    (ops.scatter_nd_sub, [[8, 8], [6, 6], [8, 8]]),
    (ops.scatter_nd_mul, [[8, 8], [16, 16], [8, 8]]),
    (ops.scatter_nd_div, [[8, 8], [4, 4], [8, 8]]),
    (ops.scatter_nd_max, [[8, 8], [8, 8], [8, 8]]),
    (ops.scatter_nd_min, [[8, 8], [2, 2], [8, 8]]),
])
def test_parameter_nd_scatters_update_in_place(op, expected):
    param = Parameter(Tensor(np.full((3, 2), 8, np.float32)), name="p")
    op(param, Tensor(np.array([[1]], np.int32)), Tensor(np.full((1, 2), 2, np.float32)))
    np.testing.assert_array_equal(param.asnumpy(), expected)


def test_tensor_methods_of_the_new_functions():
    x = Tensor(np.array([[2.0, 1.0], [1.0, 3.0]], np.float32))
    np.testing.assert_allclose(x.slogdet()[1].asnumpy(), np.log(5.0), rtol=1e-6)
    np.testing.assert_allclose(x.matrix_power(2).asnumpy(), [[5, 5], [5, 10]])
    np.testing.assert_allclose(x.quantile(0.5).asnumpy(), 1.5)
    np.testing.assert_allclose(x.xdivy(x).asnumpy(), np.ones((2, 2)))
    np.testing.assert_allclose(x.matrix_determinant().asnumpy(), 5.0, rtol=1e-6)
    assert [t.shape for t in x.hsplit(2)] == [(2, 1), (2, 1)]
    np.testing.assert_array_equal(x.gather_nd(Tensor(np.array([[1, 1]]))).asnumpy(), [3.0])
    np.testing.assert_array_equal(x.reverse([0]).asnumpy(), x.asnumpy()[::-1])
    import cellgraph.ops.functional as F

    assert F.fft is ops.fft and F.quantile is ops.quantile and F.huber_loss is ops.huber_loss


def test_select_and_slice_scatter_errors_as_mindspore():
    # MindSpore 2.10: select_scatter is slice_scatter of the slice index:index + 1, so its shape
    # errors are slice_scatter's; a number for input or src is a TypeError
    x = Tensor(np.arange(18, dtype=np.float32).reshape(2, 3, 3))
    with pytest.raises(ValueError, match=r"For slice_scatter, src shape should be equal to the "
                                         r"slice size,but got src shape \(1, 3, 1\) and slice "
                                         r"shape \(2, 3, 1\)"):
        ops.select_scatter(x, Tensor(np.ones((1, 3), np.float32)), 2, 0)
    with pytest.raises(ValueError, match=r"slice shape \(2, 3, 0\)"):
        ops.select_scatter(x, Tensor(np.ones((2, 3), np.float32)), 2, 5)
    out = ops.select_scatter(x, Tensor(np.ones((2, 3), np.float32)), 2, -1)
    assert out.asnumpy().sum() == 102.0
    with pytest.raises(TypeError, match="For select_scatter, input must be a Tensor, but got "
                                        "<class 'float'>"):
        ops.select_scatter(1.0, 2, 2, 0)
    with pytest.raises(TypeError, match="For slice_scatter, src must be a Tensor, but got "
                                        "<class 'float'>"):
        ops.slice_scatter(x, 2.0, 1, 0)

    class Select(nn.Cell):
        def construct(self, a, b):
            return ops.select_scatter(a, b, 2, 0)

    with pytest.raises(TypeError, match="input must be a Tensor"):
        Select()(1.0, 2)
