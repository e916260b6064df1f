"""`Tensor.view(dtype)`: MindSpore 2.10's ViewDtype, the tensor's bytes read as another dtype
(a bitcast), in PyNative and graph mode; `view(*shape)` stays a reshape."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, ops

X = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32)


@pytest.mark.parametrize("call, expected", [
    (lambda t: t.view(ms.int32), X.view(np.int32)),
    (lambda t: t.view(dtype=ms.int32), X.view(np.int32)),
    (lambda t: t.view(ms.float16), X.view(np.float16)),
    (lambda t: t.view(ms.uint8), X.view(np.uint8)),
    (lambda t: t.view(ms.bool_), X.view(np.uint8) != 0),
    (lambda t: t.T.view(ms.int32), np.ascontiguousarray(X.T).view(np.int32)),
    (lambda t: t.view(3, 2), X.reshape(3, 2)),
    (lambda t: t.view((-1,)), X.reshape(-1)),
])
def test_view_reads_the_bytes_as_a_dtype_or_reshapes(call, expected):
    for run in (call, ms.jit(call)):
        out = run(Tensor(X))
        assert out.asnumpy().dtype == expected.dtype
        np.testing.assert_array_equal(out.asnumpy(), expected)


def test_view_dtype_widens_the_last_axis_and_vmaps():
    half = np.arange(8, dtype=np.float16).reshape(2, 4)
    np.testing.assert_array_equal(Tensor(half).view(ms.float32).asnumpy(), half.view(np.float32))
    batched = ops.vmap(lambda t: t.view(ms.int16), in_axes=1)(Tensor(X))
    np.testing.assert_array_equal(batched.asnumpy(), np.ascontiguousarray(X.T).view(np.int16))


@pytest.mark.parametrize("call, error, words", [
    (lambda: Tensor(X).view(ms.int64), ValueError,
     ("last dimension must be divisible by 2 to view Float32 as Int64 (different element sizes), "
     "but got 3")),
    (lambda: Tensor(np.float32(1.0)).view(ms.float16), ValueError,
     "scalar tensor (shape: ()) cannot be viewed Float32 as Float16 (different element sizes)"),
    (lambda: Tensor(X).view(), TypeError, 'Failed calling view with "view()".'),
])
def test_view_refuses_what_mindspore_refuses(call, error, words):
    with pytest.raises(error, match=words.replace("(", r"\(").replace(")", r"\)")):
        call()
