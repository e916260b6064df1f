"""The window functions (ops.blackman_window, hamming_window, hann_window, bartlett_window,
kaiser_window): the values and dtypes MindSpore 2.10 gives (recorded below; its hann and
kaiser windows are float64 by default, the others float32)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import ops

EXPECTED = {"b": [0.0, 0.20077013969421387, 0.8492298722267151, 0.8492298722267151, 0.20077013969421387], "b_np": [0.0, 0.3400000035762787, 1.0, 0.3400000035762787, 0.0], "h": [0.08000001311302185, 0.39785221219062805, 0.9121478199958801, 0.9121478199958801, 0.39785221219062805], "h2": [0.0, 0.345491498708725, 0.9045084714889526, 0.9045084714889526, 0.345491498708725, 0.0], "hn": [0.0, 0.3454915028125263, 0.9045084971874737, 0.9045084971874737, 0.3454915028125264], "bt": [0.0, 0.4000000059604645, 0.800000011920929, 0.800000011920929, 0.4000000059604645], "bt2": [0.0, 0.4000000059604645, 0.800000011920929, 0.800000011920929, 0.4000000059604645, 0.0], "k": [5.2773441320097665e-05, 0.10171968770956323, 0.7929398341014605, 0.7929398341014605, 0.10171968770956323], "k2": [0.2048847564012536, 0.6247462075770618, 0.9522218569243645, 0.9522218569243645, 0.6247462075770618, 0.2048847564012536], "dt": "Float64", "one": [1.0]}


def _run():
    out={}
    out['b']=ops.blackman_window(ms.Tensor(5,ms.int32)).asnumpy().tolist()
    out['b_np']=ops.blackman_window(ms.Tensor(5,ms.int32), periodic=False).asnumpy().tolist()
    out['h']=ops.hamming_window(5).asnumpy().tolist(); out['h2']=ops.hamming_window(6, False, 0.5, 0.5).asnumpy().tolist()
    out['hn']=ops.hann_window(5).asnumpy().tolist()
    out['bt']=ops.bartlett_window(ms.Tensor(5,ms.int32)).asnumpy().tolist(); out['bt2']=ops.bartlett_window(ms.Tensor(6,ms.int32), False).asnumpy().tolist()
    out['k']=ops.kaiser_window(5).asnumpy().tolist(); out['k2']=ops.kaiser_window(6, False, 3.0).asnumpy().tolist()
    out['dt']=str(ops.blackman_window(ms.Tensor(4,ms.int32), dtype=ms.float64).dtype)
    out['one']=ops.kaiser_window(1).asnumpy().tolist()
    return out


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_as_mindspore(name):
    got, want = _run()[name], EXPECTED[name]
    if isinstance(want, str):
        assert got == want
    else:
        np.testing.assert_allclose(np.array(got), np.array(want), rtol=1e-6, atol=1e-7)


def test_default_dtypes_as_mindspore():
    assert str(ops.hann_window(4).dtype) == str(ops.kaiser_window(4).dtype) == "Float64"
    assert str(ops.hamming_window(4).dtype) == str(ops.bartlett_window(4).dtype) == "Float32"


def test_arguments_are_checked():
    with pytest.raises(ValueError, match="non-negative int"):
        ops.blackman_window(-1)
    with pytest.raises(TypeError, match="float type"):
        ops.hamming_window(4, dtype=ms.int32)
