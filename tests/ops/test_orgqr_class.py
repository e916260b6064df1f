"""ops.Orgqr: MindSpore 2.10 CPU's Q from Householder vectors and scalars, single and batched."""
from __future__ import annotations

import numpy as np
import pytest

from cellgraph import Tensor, ops
from tests.ops.nn_helpers import both_ways


def test_as_mindspore():
    x = np.array([[-114.6, 10.9, 1.1], [-0.304, 38.07, 69.38], [-0.45, -0.17, 62.]], np.float32)
    tau = np.array([1.55, 1.94, 0.0], np.float32)
    for got in both_ways(ops.Orgqr(), x, tau):
        np.testing.assert_allclose(got, [[-0.55, -0.21289244, 0.8137956],
                                         [0.47119996, -0.8752807, 0.08240613],
                                         [0.69749993, 0.42560163, 0.57772595]], atol=1e-6)
    xb = np.sin(np.arange(2 * 4 * 3)).reshape(2, 4, 3)
    tb = np.array([[1.2, 0.4], [1.9, 1.1]])
    got = ops.Orgqr()(Tensor(xb), Tensor(tb)).asnumpy()
    np.testing.assert_allclose(got, [
        [[-0.2, -0.29733763, 0.2512085], [-0.16934401, 0.55803971, -0.22734409],
         [0.3352986, -0.1797139, 0.7571559], [-0.49454218, 0.09507011, 0.2464935]],
        [[-0.9, -0.12716458, 1.59299702], [-1.2355469, -0.18269358, 0.87104166],
         [1.42687577, -0.06936596, -0.22102994], [-1.58964571, -0.09665652, 1.33424921]]],
        atol=1e-8)


def test_more_scalars_than_columns_is_an_error():
    with pytest.raises(ValueError, match="Orgqr"):
        ops.Orgqr()(Tensor(np.ones((3, 3), np.float32)), Tensor(np.ones(4, np.float32)))
