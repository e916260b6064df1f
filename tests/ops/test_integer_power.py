"""`**` (Pow) on integer Tensors with negative exponents: MindSpore 2.10's CPU kernel answers
(the values below are its own), where NumPy and torch raise."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, ops

BASE = [2, 1, -1, 3, -2, 0, 5, -1]
EXPONENT = [-1, -2, -3, -2, -1, 2, 0, -4]


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
@pytest.mark.parametrize("np_dtype", [np.int8, np.int32])
def test_negative_powers_of_integers(mode, np_dtype):
    ms.set_context(mode=mode)
    base, exponent = Tensor(np.array(BASE, np_dtype)), Tensor(np.array(EXPONENT, np_dtype))
    for out in (ms.jit(lambda b, e: b ** e)(base, exponent), ops.pow(base, exponent)):
        assert out.asnumpy().dtype == np_dtype
        assert out.asnumpy().tolist() == [0, 1, -1, 0, 0, 0, 1, 1]
    ms.set_context(mode=ms.PYNATIVE_MODE)


def test_zero_to_a_negative_power_and_python_bases():
    base = Tensor(np.array([2, 1, -1, 3, -2, 0], np.int64))
    exponent = Tensor(np.array([-1, -2, -3, -2, -1, -1], np.int64))
    assert (base ** exponent).asnumpy().tolist() == [0, 1, -1, 0, 0, -9223372036854775808]
    zero = Tensor(np.array([0, 0], np.int32)) ** Tensor(np.array([-1, -2], np.int32))
    assert zero.asnumpy().tolist() == [-2147483648] * 2  # the dtype's min from 32 bits up
    zero = Tensor(np.array([0, 0], np.int16)) ** Tensor(np.array([-1, -2], np.int16))
    assert zero.asnumpy().tolist() == [0, 0]
    powers = 86 ** Tensor(np.array([-1, -2, 2, 0], np.int32))
    assert powers.asnumpy().tolist() == [0, 0, 7396, 1]
