"""More of `cellgraph.numpy` (MindSpore's mindspore.numpy): MindSpore 2.10's values, which are
NumPy's here (piecewise takes constants as NumPy does, where MindSpore 2.10 fails)."""
from __future__ import annotations

import numpy as onp
import pytest

import cellgraph.numpy as mnp
from cellgraph import Tensor

B = onp.array([[0.5, 1.0, 2.0], [1.0, -1.0, 3.0]], onp.float32)
A = onp.array([[1.5, -2.0, 3.0], [4.0, onp.nan, -6.0]], onp.float32)
I = onp.array([12, 18, -7])
J = onp.array([8, 12, 21])


def T(x):
    return Tensor(onp.asarray(x))


CASES = {
    "around": (lambda: mnp.around(T(onp.array([1.25, 2.5, -0.5], onp.float32)), 1),
               [1.2, 2.5, -0.5]),
    "cumsum": (lambda: mnp.cumsum(T(B), 1), onp.cumsum(B, 1)),
    "cumsum_flat": (lambda: mnp.cumsum(T(B)), onp.cumsum(B)),
    "diff": (lambda: mnp.diff(T(B), 2, prepend=0), onp.diff(B, 2, prepend=0)),
    "ediff1d": (lambda: mnp.ediff1d(T(B), to_end=T(onp.array([9.0], onp.float32))),
                onp.ediff1d(B, to_end=[9.0])),
    "exp2": (lambda: mnp.exp2(T(B)), onp.exp2(B)),
    "fabs_int": (lambda: mnp.fabs(T(I)), [12, 18, 7]),
    "fix": (lambda: mnp.fix(T(B * 1.7)), onp.fix(B * 1.7)),
    "gcd": (lambda: mnp.gcd(T(I), T(J)), onp.gcd(I, J)),
    "lcm": (lambda: mnp.lcm(T(I), T(J)), onp.lcm(I, J)),
    "gradient": (lambda: mnp.gradient(T(onp.array([1.0, 4.0, 9.0, 16.0], onp.float32)), 2.0),
                 onp.gradient(onp.array([1.0, 4.0, 9.0, 16.0]), 2.0)),
    "inner": (lambda: mnp.inner(T(B), T(B)), onp.inner(B, B)),
    "kron": (lambda: mnp.kron(T(B), T(onp.eye(2, dtype=onp.float32))), onp.kron(B, onp.eye(2))),
    "matrix_power": (lambda: mnp.matrix_power(T(onp.array([[1.0, 2.0], [3.0, 4.0]], onp.float32)),
                                              3), [[37.0, 54.0], [81.0, 118.0]]),
    "nancumsum": (lambda: mnp.nancumsum(T(A), 1), onp.nancumsum(A, 1)),
    "nanmax": (lambda: mnp.nanmax(T(A), 1), onp.nanmax(A, 1)),
    "nanmean": (lambda: mnp.nanmean(T(A), 0), onp.nanmean(A, 0)),
    "nanstd": (lambda: mnp.nanstd(T(A), 1), onp.nanstd(A, 1)),
    "nanvar_ddof": (lambda: mnp.nanvar(T(A), 1, ddof=1), onp.nanvar(A, 1, ddof=1)),
    "outer": (lambda: mnp.outer(T(B), T(onp.array([1.0, 2.0], onp.float32))),
              onp.outer(B, [1.0, 2.0])),
    "polyadd": (lambda: mnp.polyadd(T([1.0, 2.0]), T([3.0, 4.0, 5.0])), [3.0, 5.0, 7.0]),
    "polyder": (lambda: mnp.polyder(T([1.0, 2.0, 3.0, 4.0]), 2), [6.0, 4.0]),
    "polyint": (lambda: mnp.polyint(T([3.0, 2.0, 1.0])), [1.0, 1.0, 1.0, 0.0]),
    "polymul": (lambda: mnp.polymul(T([1.0, 2.0]), T([3.0, 4.0, 5.0])), [3.0, 10.0, 13.0, 10.0]),
    "polyval": (lambda: mnp.polyval(T([3.0, 0.0, 1.0]), T([1.0, 2.0])), [4.0, 13.0]),
    "ptp": (lambda: mnp.ptp(T(B), 1), [1.5, 4.0]),
    "rint": (lambda: mnp.rint(T(onp.array([0.5, 1.5, -2.5, 2.6], onp.float32))),
             [0.0, 2.0, -2.0, 3.0]),
    "trapz": (lambda: mnp.trapz(T(B), dx=0.5), onp.trapezoid(B, dx=0.5)
              if hasattr(onp, "trapezoid") else onp.trapz(B, dx=0.5)),
    "unwrap": (lambda: mnp.unwrap(T(onp.array([0.0, 3.0, 6.5, -3.0, 0.0], onp.float32))),
               onp.unwrap(onp.array([0.0, 3.0, 6.5, -3.0, 0.0]))),
    "convolve": (lambda: mnp.convolve(T([1.0, 2.0, 3.0]), T([0.0, 1.0, 0.5])),
                 onp.convolve([1.0, 2.0, 3.0], [0.0, 1.0, 0.5])),
    "convolve_same": (lambda: mnp.convolve(T([1.0, 2.0, 3.0, 4.0]), T([0.0, 1.0, 0.5]), "same"),
                      onp.convolve([1.0, 2.0, 3.0, 4.0], [0.0, 1.0, 0.5], "same")),
    "correlate": (lambda: mnp.correlate(T([1.0, 2.0, 3.0, 4.0]), T([0.0, 1.0, 0.5])),
                  onp.correlate([1.0, 2.0, 3.0, 4.0], [0.0, 1.0, 0.5])),
    "correlate_full": (lambda: mnp.correlate(T([1.0, 2.0]), T([0.0, 1.0, 0.5]), "full"),
                       onp.correlate([1.0, 2.0], [0.0, 1.0, 0.5], "full")),
    "ravel_multi_index": (lambda: mnp.ravel_multi_index((T([1, 2]), T([0, 5])), (3, 4)), [4, 11]),
    "bartlett": (lambda: mnp.bartlett(5), onp.bartlett(5)),
    "hanning": (lambda: mnp.hanning(5), onp.hanning(5)),
    "geomspace": (lambda: mnp.geomspace(1, 100, 3), [1.0, 10.0, 100.0]),
    "logspace": (lambda: mnp.logspace(0, 2, 3, base=2.0), [1.0, 2.0, 4.0]),
    "indices": (lambda: mnp.indices((2, 3)), onp.indices((2, 3))),
    "tri": (lambda: mnp.tri(3, 4, 1), onp.tri(3, 4, 1)),
    "vander": (lambda: mnp.vander(T([1.0, 2.0, 3.0]), 3, True), onp.vander([1, 2, 3], 3, True)),
    "histogram_bin_edges": (lambda: mnp.histogram_bin_edges(T(B), 4),
                            onp.histogram_bin_edges(B, 4)),
    "choose": (lambda: mnp.choose(T([0, 1, 0]), [T([1, 2, 3]), T([7, 8, 9])]), [1, 8, 3]),
    "column_stack": (lambda: mnp.column_stack((T([1, 2]), T([3, 4]))), [[1, 3], [2, 4]]),
    "fliplr": (lambda: mnp.fliplr(T(B)), onp.fliplr(B)),
    "rot90": (lambda: mnp.rot90(T(B)), onp.rot90(B)),
    "select": (lambda: mnp.select([T([True, False, False]), T([False, True, False])],
                                  [T([1, 2, 3]), T([4, 5, 6])], 9), [1, 5, 9]),
    "piecewise": (lambda: mnp.piecewise(T(onp.array([-1.0, 0.0, 2.0], onp.float32)),
                                        [T([True, False, False]), T([False, False, True])],
                                        [lambda x: x * 10, 7.0]), [-10.0, 0.0, 7.0]),
    "intersect1d": (lambda: mnp.intersect1d(T([1, 3, 4, 3]), T([3, 1, 2, 1])), [1, 3]),
    "setdiff1d": (lambda: mnp.setdiff1d(T([1, 2, 3, 2, 4]), T([3, 4])), [1, 2]),
    "in1d": (lambda: mnp.in1d(T([[1, 5], [3, 4]]), T([3, 5])), [False, True, True, False]),
    "isneginf": (lambda: mnp.isneginf(T([-onp.inf, onp.inf, 1.0])), [True, False, False]),
    "apply_along_axis": (lambda: mnp.apply_along_axis(lambda r: r.sum(), 1, T(B)), B.sum(1)),
    "take_along_axis_keeps_nan_apart": (
        lambda: mnp.take_along_axis(T([[1.0, onp.nan], [3.0, 4.0]]), T([[0], [1]]), 1),
        [[1.0], [4.0]]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_values(name):
    call, want = CASES[name]
    np_out = call()
    np_out = np_out.asnumpy() if hasattr(np_out, "asnumpy") else onp.asarray(
        [t.asnumpy() for t in np_out])
    onp.testing.assert_allclose(np_out, onp.asarray(want, dtype=onp.float64), rtol=2e-6,
                                atol=1e-6)


def test_shapes_tuples_and_predicates():
    assert [t.shape for t in mnp.ix_(T([0, 1]), T([2, 4, 5]))] == [(2, 1), (1, 3)]
    assert [t.shape for t in mnp.atleast_2d(T(onp.float32(1)), T(B))] == [(1, 1), (2, 3)]
    assert mnp.atleast_3d(T([1.0, 2.0])).shape == (1, 2, 1)
    assert [t.shape for t in mnp.hsplit(T(B), 3)] == [(2, 1)] * 3
    assert mnp.rollaxis(T(onp.ones((2, 3, 4))), 2).shape == (4, 2, 3)
    assert mnp.rollaxis(T(onp.ones((2, 3, 4))), 0, 2).shape == (3, 2, 4)
    assert mnp.apply_over_axes(mnp.sum, T(onp.arange(24.0).reshape(2, 3, 4)), [0, 2]).shape == \
        (1, 3, 1)
    quotient, remainder = mnp.divmod(T(B), 0.7)
    onp.testing.assert_allclose(quotient.asnumpy(), onp.floor_divide(B, onp.float32(0.7)))
    onp.testing.assert_allclose(remainder.asnumpy(), onp.remainder(B, onp.float32(0.7)),
                                rtol=1e-5, atol=1e-6)
    assert bool(mnp.array_equal(T(B), T(B))) and not bool(mnp.array_equal(T(B), T(B[0])))
    assert bool(mnp.array_equiv(T([1.0, 2.0]), T([[1.0, 2.0], [1.0, 2.0]])))
    assert not bool(mnp.array_equiv(T([1.0, 2.0]), T([1.0, 2.0, 3.0])))
    assert mnp.isscalar(3.0) and not mnp.isscalar(T(B))
    assert bool(mnp.sometrue(T(B) > 2))
    assert str(mnp.promote_types(mnp.int32, mnp.float16)) == "Float16"
