"""Tensor methods MindSpore's Tensor has that are compositions of ops (ops/tensor_overloads.py
SINGLE and PROPERTIES), in eager code and in graphs. The expected values were recorded from
MindSpore 2.10 (CPU, PyNative)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor

NAN = float("nan")
X = np.array([[1., -2., np.nan], [4., 5., -0.0]], np.float32)
Y = np.array([[2., np.nan, 1.], [-1., 7., 3.]], np.float32)
C = np.array([[1 + 2j, 3 - 1j], [0 + 1j, 2 + 0j]], np.complex64)
INT = np.array([[3, -2], [1, 4]], np.int32)

# name -> (call on x, y, c, i, MindSpore's (dtype, values))
CASES = {
    "H": (lambda x, y, c, i: c.H, ("Complex64", [[1 - 2j, -1j], [3 + 1j, 2 - 0j]])),
    "mH_int": (lambda x, y, c, i: i.mH, ("Int32", [[3, 1], [-2, 4]])),
    "adjoint": (lambda x, y, c, i: c.adjoint(), ("Complex64", [[1 - 2j, -1j], [3 + 1j, 2 - 0j]])),
    "type_cast": (lambda x, y, c, i: i.type(ms.float32), ("Float32", [[3., -2.], [1., 4.]])),
    "msort": (lambda x, y, c, i: i.msort(), ("Int32", [[1, -2], [3, 4]])),
    "fmax": (lambda x, y, c, i: x.fmax(y), ("Float32", [[2., -2., 1.], [4., 7., 3.]])),
    "fmax_int": (lambda x, y, c, i: i.fmax(i), ("Int32", [[3, -2], [1, 4]])),
    "copysign": (lambda x, y, c, i: x.copysign(y), ("Float32", [[1., 2., NAN], [-4., 5., 0.]])),
    "copysign_int_number": (lambda x, y, c, i: i.copysign(-1.0),
                            ("Float32", [[-3., -2.], [-1., -4.]])),
    "ldexp_int": (lambda x, y, c, i: i.ldexp(i), ("Float32", [[24., -0.5], [2., 64.]])),
    "nanmean": (lambda x, y, c, i: x.nanmean(), ("Float32", 1.6)),
    "nanmean_axis": (lambda x, y, c, i: x.nanmean(axis=1), ("Float32", [-0.5, 3.0])),
    "reshape_as": (lambda x, y, c, i: x.reshape_as(Tensor(np.zeros((3, 2)))),
                   ("Float32", [[1., -2.], [NAN, 4.], [5., -0.]])),
    "sum_to_size": (lambda x, y, c, i: x.sum_to_size(1, 3), ("Float32", [[5., 3., NAN]])),
    "sum_to_size_tuple": (lambda x, y, c, i: x.sum_to_size((2, 1)), ("Float32", [[NAN], [9.]])),
    "trace_int": (lambda x, y, c, i: i.trace(), ("Int64", 7)),
    "diagonal_offset": (lambda x, y, c, i: i.diagonal(1, 0, 1), ("Int32", [-2])),
    "diagflat_nan": (lambda x, y, c, i: x.diagflat(), ("Float32", np.diagflat(X).tolist())),
    "diagflat_offset": (lambda x, y, c, i: i.diagflat(1), ("Int32", np.diagflat(INT, 1).tolist())),
    "float_power": (lambda x, y, c, i: i.float_power(2), ("Float64", [[9., 4.], [1., 16.]])),
    "multiply": (lambda x, y, c, i: x.multiply(2), ("Float32", [[2., -4., NAN], [8., 10., -0.]])),
    "sinc_int": (lambda x, y, c, i: i.sinc(), ("Float32", [[0., 0.], [0., 0.]])),
    "ptp_int": (lambda x, y, c, i: i.ptp(), ("Int32", 6)),
    "ptp_keepdims": (lambda x, y, c, i: i.ptp(0, True), ("Int32", [[2, 6]])),
}


@pytest.mark.parametrize("graph", [False, True], ids=["eager", "graph"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_method_as_mindspore(case, graph):
    call, (dtype, values) = CASES[case]

    def run(x, y, c, i):
        return call(x, y, c, i)

    fn = ms.jit(run) if graph else run
    out = fn(Tensor(X), Tensor(Y), Tensor(C), Tensor(INT))
    assert str(out.dtype) == dtype
    np.testing.assert_allclose(out.asnumpy(), np.array(values), rtol=1e-5, atol=1e-6)


def test_predicates_and_plain_values():
    x, c, i = Tensor(X), Tensor(C), Tensor(INT)
    u, b = Tensor(np.array([1, 2], np.uint8)), Tensor(np.array([True, False]))
    assert (x.is_complex(), c.is_complex()) == (False, True)
    assert (x.is_signed(), i.is_signed(), u.is_signed(), b.is_signed()) == (True, True, False,
                                                                          False)
    assert x.type() == "Float32" and i.ndimension() == 2
    low, high = i.aminmax(axis=1, keepdims=True)
    assert low.asnumpy().tolist() == [[-2], [1]] and high.asnumpy().tolist() == [[3], [4]]


def test_nanmean_of_integers_is_mindspores_error():
    with pytest.raises(TypeError, match="For 'nanmean', input should be floating point dtype"):
        Tensor(INT).nanmean(0)


def test_subtract_alpha_unfold_and_nansum_to_an_integer_dtype():
    y = Tensor(np.array([1., 2.], np.float32))
    assert y.subtract(Tensor(np.array([3., 1.], np.float32)), alpha=2).asnumpy().tolist() == [
        -5.0, 0.0]
    patches = Tensor(np.arange(96, dtype=np.float32).reshape(2, 3, 4, 4)).unfold(kernel_size=3)
    assert patches.shape == (2, 27, 4) and float(patches.sum().asnumpy()) == 10260.0
    # the NaNs are zeros before the cast to int64 (MindSpore: [[0, 128, -128]])
    z = Tensor([[NAN, 128.1, -256.9], [NAN, NAN, 128]], ms.float32)
    out = z.nansum(axis=0, keepdims=True, dtype=ms.int64)
    assert str(out.dtype) == "Int64" and out.asnumpy().tolist() == [[0, 128, -128]]


@pytest.mark.parametrize("axes, error, message", [
    ((0, (1,)), TypeError, ("For ops.swapaxes, the axis argument must be integer, but got "
                            "<class 'tuple'>.")),
    ((0, 3), ValueError, r"The 'axis' must be in the range of \[-2, 2\), but got 3."),
    ((-3, 0), ValueError, r"The 'axis' must be in the range of \[-2, 2\), but got -3."),
])
def test_swapdims_and_swapaxes_errors_as_mindspore(axes, error, message):
    z = Tensor(np.zeros((2, 3), np.float32))
    with pytest.raises(error, match=message):
        z.swapdims(*axes)
    with pytest.raises(error, match=message):
        ms.ops.swapaxes(z, *axes)


@pytest.mark.parametrize("graph", [False, True], ids=["eager", "graph"])
@pytest.mark.parametrize("axes, message", [
    ((0, 3, 4), r"For primitive\[Transpose\], the perm value must be in \[-3,3\), but got 3."),
    ((0, -4, 1), r"For primitive\[Transpose\], the perm value must be in \[-3,3\), but got -4."),
    ((0, 1), "For 'Transpose', size of perm should equal to rank of x, but got 2 and 3!"),
    ((0, 0, 1), "For 'Transpose', perms should all be unique dim, but0 is not unique!"),
])
def test_transpose_errors_as_mindspore(axes, message, graph):
    def run(x):
        return x.transpose(axes)

    fn = ms.jit(run) if graph else run
    with pytest.raises(ValueError, match=message):
        fn(Tensor(np.ones((2, 3, 4), np.float32)))


@pytest.mark.parametrize("graph", [False, True], ids=["eager", "graph"])
def test_gcd_and_lcm(graph):
    # MindSpore: gcd [1, 4, 6, 5, 0, 5], lcm [21, 24, 36, 0, 0, 75] (int32)
    a = Tensor(np.array([7, 8, -12, 0, 0, 15], np.int32))
    b = Tensor(np.array([3, 12, 18, 5, 0, -25], np.int32))

    def run(x, y):
        return x.gcd(y), x.lcm(y)

    divisor, multiple = (ms.jit(run) if graph else run)(a, b)
    assert str(divisor.dtype) == "Int32" and divisor.asnumpy().tolist() == [1, 4, 6, 5, 0, 5]
    assert multiple.asnumpy().tolist() == [21, 24, 36, 0, 0, 75]


def test_gcd_and_lcm_of_large_int64_values_as_numpy():
    rng = np.random.RandomState(0)
    x, y = (rng.randint(-10**6, 10**6, 200).astype(np.int64) for _ in range(2))
    np.testing.assert_array_equal(Tensor(x).gcd(Tensor(y)).asnumpy(), np.gcd(x, y))
    np.testing.assert_array_equal(Tensor(x).lcm(Tensor(y)).asnumpy(), np.lcm(x, y))


def test_cauchy_and_log_normal_draw_tensors_like_self():
    a = Tensor(np.zeros((2000, 3)), ms.float32)
    draws = a.cauchy(median=1.0, sigma=2.0)
    assert draws.dtype == a.dtype and draws.shape == a.shape
    assert abs(float(np.median(draws.asnumpy())) - 1.0) < 0.3  # the median is `median`
    logs = np.log(a.log_normal().asnumpy())  # mean 1, std 2 by default, as MindSpore's
    assert a.log_normal().dtype == a.dtype and abs(logs.mean() - 1.0) < 0.2
    assert abs(logs.std() - 2.0) < 0.2


@pytest.mark.parametrize("wrap", [False, True])
def test_fill_diagonal_of_a_tall_matrix(wrap):
    # MindSpore's values (its tests/st/tensor/test_fill_diagonal.py)
    out = Tensor(np.zeros((6, 3)), ms.float32).fill_diagonal(5.0, wrap=wrap)
    expected = [[5., 0., 0.], [0., 5., 0.], [0., 0., 5.], [0., 0., 0.],
                [5. if wrap else 0., 0., 0.], [0., 5. if wrap else 0., 0.]]
    assert out.asnumpy().tolist() == expected


@pytest.mark.parametrize("graph", [False, True], ids=["eager", "graph"])
def test_slice_scatter_and_select_scatter(graph):
    # MindSpore's values
    a = Tensor(np.zeros((4, 6), np.float32))
    s = Tensor(np.arange(1, 13, dtype=np.float32).reshape(4, 3))

    def run(x, src):
        return (x.slice_scatter(src, 1, 0, 6, 2),
                x.select_scatter(Tensor(np.ones(4, np.float32)), 1, -1))

    sliced, selected = (ms.jit(run) if graph else run)(a, s)
    expected = np.zeros((4, 6))
    expected[:, ::2] = np.arange(1, 13).reshape(4, 3)
    np.testing.assert_array_equal(sliced.asnumpy(), expected)
    expected = np.zeros((4, 6))
    expected[:, -1] = 1
    np.testing.assert_array_equal(selected.asnumpy(), expected)


def test_slice_scatter_of_a_source_of_another_shape_is_mindspores_error():
    with pytest.raises(ValueError, match=r"For slice_scatter, src shape should be equal to the "
                                         r"slice size,but got src shape \(2, 3\) and slice shape "
                                         r"\(2, 6\)"):
        Tensor(np.zeros((4, 6), np.float32)).slice_scatter(Tensor(np.ones((2, 3))), 0, 1, 3)


@pytest.mark.parametrize("graph", [False, True], ids=["eager", "graph"])
def test_sign_of_nan_is_zero(graph):
    # MindSpore: [[-1, 0, 1, 1, 0], [1, 1, -1, -1, 0]]
    x = Tensor([[-1, 0, float("inf"), 4, float("nan")], [2, 3, float("-inf"), -6, 0]])

    def run(v):
        return v.sign()

    out = (ms.jit(run) if graph else run)(x)
    assert out.asnumpy().tolist() == [[-1, 0, 1, 1, 0], [1, 1, -1, -1, 0]]


@pytest.mark.parametrize("graph", [False, True], ids=["eager", "graph"])
def test_cov_with_and_without_weights(graph):
    # MindSpore's values
    x = Tensor(np.array([[0., 3., 1., 7.], [2., 1., 5., 4.], [1., 1., 2., 8.]], np.float32))
    fw = Tensor(np.array([1, 2, 1, 3], np.int32))
    aw = Tensor(np.array([0.5, 1.0, 2.0, 1.5], np.float32))

    def run(v, f, a):
        return v.cov(), v.cov(correction=2, fweights=f, aweights=a), v[0].cov()

    plain, weighted, single = (ms.jit(run) if graph else run)(x, fw, aw)
    np.testing.assert_allclose(plain.asnumpy(), [[9.5833, 1.0, 9.3333], [1.0, 3.3333, 3.0],
                                                 [9.3333, 3.0, 11.3333]], rtol=1e-4)
    np.testing.assert_allclose(weighted.asnumpy(), [[10.9864, 0.9727, 12.35],
                                                    [0.9727, 3.1455, 3.3727],
                                                    [12.35, 3.3727, 16.0045]], rtol=1e-4)
    assert single.shape == () and abs(float(single.asnumpy()) - 9.5833) < 1e-3


@pytest.mark.parametrize("graph", [False, True])
def test_scatter_arithmetic_methods_are_tensor_scatter_ops(graph):
    # x.scatter_<op>(indices, updates) is tensor_scatter_<op>; values from MindSpore 2.10
    x = Tensor(np.array([[1., 2., 3.], [4., 5., 6.]], np.float32))
    indices = Tensor(np.array([[0, 1], [1, 2], [0, 1]], np.int32))
    updates = Tensor(np.array([2., 4., -3.], np.float32))
    expected = {"scatter_sub": [[1., 3., 3.], [4., 5., 2.]],
                "scatter_mul": [[1., -12., 3.], [4., 5., 24.]],
                "scatter_div": [[1., -1 / 3, 3.], [4., 5., 1.5]],
                "scatter_max": [[1., 2., 3.], [4., 5., 6.]],
                "scatter_min": [[1., -3., 3.], [4., 5., 4.]]}
    for name, values in expected.items():
        def call(a, b, c, name=name):
            return getattr(a, name)(b, c)
        out = (ms.jit(call) if graph else call)(x, indices, updates)
        np.testing.assert_allclose(out.asnumpy(), values, rtol=1e-6, err_msg=name)
    xi = Tensor(np.array([[7, -7, 3]], np.int32))
    out = xi.scatter_div(Tensor(np.array([[0, 0], [0, 1]], np.int32)),
                         Tensor(np.array([2, 2], np.int32)))
    assert out.asnumpy().tolist() == [[3, -3, 3]]


@pytest.mark.parametrize("graph", [False, True], ids=["pynative", "graph"])
def test_narrow_checks_its_range_as_mindspore(graph):
    """Tensor.narrow / ops.narrow: 0 <= start < size and 1 <= length <= size - start, else
    MindSpore's ValueError; mint.narrow takes a negative start and a 0 length, and refuses a
    range past the end in its own words."""
    from cellgraph import mint, ops

    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert x.narrow(1, 1, 2).asnumpy().tolist() == [[1, 2], [4, 5]]
    assert (ms.jit(lambda t: ops.narrow(t, -1, 1, 2)) if graph else
            (lambda t: ops.narrow(t, -1, 1, 2)))(x).asnumpy().tolist() == [[1, 2], [4, 5]]
    for call, message in (
            (lambda: x.narrow(1, 2, 2), "in range of [1, 1], but got 2"),
            (lambda: x.narrow(1, 3, 1), "in range of [0, 3), but got 3"),
            (lambda: ops.narrow(x, 1, -1, 1), "in range of [0, 3), but got -1"),
            (lambda: ops.narrow(x, 1, 0, 0), "in range of [1, 3], but got 0"),
            (lambda: x.narrow(2, 0, 1), "The 'axis' must be in the range of [-2, 2), but got 2."),
            (lambda: mint.narrow(x, 1, 2, 2),
             "For 'Narrow', start (2), + length (2) exceeds dimension size (3).")):
        with pytest.raises(ValueError) as info:
            call()
        assert message in str(info.value)
    assert mint.narrow(x, 1, -1, 1).asnumpy().tolist() == [[2], [5]]
    assert mint.narrow(x, 1, 0, 0).shape == (2, 0)


def test_an_index_out_of_range_prints_as_indexerror():
    with pytest.raises(IndexError) as info:
        Tensor(np.ones((2, 3), np.float32))[2]
    assert type(info.value).__name__ == "IndexError"
