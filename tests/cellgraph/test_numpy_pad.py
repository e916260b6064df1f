"""numpy.pad takes MindSpore's parameters and modes: reflect/symmetric with reflect_type,
wrap, the statistics with stat_length, linear_ramp with end_values, per-axis values. The
expected values were recorded from MindSpore 2.10 CPU (whose mirror modes pad beyond one
period chunk by chunk, and whose integer mean truncates)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import numpy as mnp
from cellgraph.primitives.errors import UnsupportedError

V = np.array([1.0, 2.0, 4.0], np.float32)
VI = np.array([1, 2, 4], np.int32)

EXPECTED = {
    "reflect_odd": [-5.0, -4.0, -2.0, 0.0, 1.0, 2.0, 4.0, 6.0, 7.0, 8.0, 10.0, 12.0],
    "symmetric_odd": [-2.0, -2.0, 0.0, 1.0, 1.0, 2.0, 4.0, 4.0, 6.0, 7.0, 7.0, 8.0],
    "symmetric": [4.0, 4.0, 2.0, 1.0, 1.0, 2.0, 4.0, 4.0, 2.0, 1.0, 1.0, 2.0],
    "wrap": [4.0, 1.0, 2.0, 4.0, 1.0, 2.0, 4.0, 1.0, 2.0, 4.0, 1.0, 2.0],
    "mean_int": [1, 1, 1, 2, 4, 3],
    "ramp_int": [10, 7, 4, 1, 2, 4, 0, -3],
    "minimum": [1.0, 1.0, 2.0, 4.0, 2.0, 2.0],
}

CALLS = {
    "reflect_odd": lambda: mnp.pad(ms.Tensor(V), (4, 5), mode="reflect", reflect_type="odd"),
    "symmetric_odd": lambda: mnp.pad(ms.Tensor(V), (4, 5), mode="symmetric",
                                     reflect_type="odd"),
    "symmetric": lambda: mnp.pad(ms.Tensor(V), (4, 5), mode="symmetric"),
    "wrap": lambda: mnp.pad(ms.Tensor(V), (4, 5), mode="wrap"),
    "mean_int": lambda: mnp.pad(ms.Tensor(VI), (2, 1), mode="mean", stat_length=2),
    "ramp_int": lambda: mnp.pad(ms.Tensor(VI), (3, 2), mode="linear_ramp", end_values=(10, -3)),
    "minimum": lambda: mnp.pad(ms.Tensor(V), (1, 2), mode="minimum", stat_length=(1, 2)),
}


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_pad_modes_match_mindspore(case):
    out = CALLS[case]().asnumpy()
    np.testing.assert_array_equal(out, np.array(EXPECTED[case], out.dtype))


def test_pad_per_axis_values_and_numpy_agreement():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    out = mnp.pad(ms.Tensor(x), ((1, 2), (0, 1)), constant_values=((7, 8), (9, 10)))
    np.testing.assert_array_equal(out.asnumpy(), [[7, 7, 7, 10], [0, 1, 2, 10], [3, 4, 5, 10],
                                                  [8, 8, 8, 10], [8, 8, 8, 10]])
    for mode in ("edge", "reflect", "symmetric", "maximum", "mean"):   # within one period
        np.testing.assert_array_equal(mnp.pad(ms.Tensor(x), 1, mode=mode).asnumpy(),
                                      np.pad(x, 1, mode=mode))
    assert mnp.pad(ms.Tensor(x), 1, mode="empty").shape == (4, 5)


def test_pad_refusals():
    x = ms.Tensor(V)
    with pytest.raises(NotImplementedError):
        mnp.pad(x, 1, mode="median")
    with pytest.raises(ValueError):
        mnp.pad(x, 1, mode="nearest")
    with pytest.raises(UnsupportedError):
        mnp.pad(x, 1, mode=lambda vector, width, axis, kwargs: vector)
