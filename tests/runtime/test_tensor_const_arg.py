"""`Tensor(..., const_arg=True)` and `set_const_arg`: MindSpore's mark for a Tensor to be
compiled as a constant, kept on the Tensor; graphs compute the same values either way."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, ops


def test_const_arg_is_kept_and_set():
    x = Tensor([[1.0, 2.0]], ms.float32, const_arg=True)
    assert x.const_arg and not Tensor([1.0]).const_arg
    assert x.set_const_arg(False) is x and not x.const_arg
    assert ms.tensor([1.0], const_arg=True).const_arg
    with pytest.raises(TypeError, match="'const_arg' should be 'bool'"):
        x.set_const_arg(1)


def test_a_const_arg_tensor_computes_as_any_tensor():
    @ms.jit
    def f(a, b):
        return ops.matmul(a, b)

    a = Tensor(np.array([[0.5, 0.6], [1.2, 1.3]], np.float32), const_arg=True)
    b = Tensor(np.array([[1.0, 0.0], [0.0, 2.0]], np.float32), const_arg=True)
    np.testing.assert_allclose(f(a, b).asnumpy(), [[0.5, 1.2], [1.2, 2.6]], rtol=1e-6)


@pytest.mark.parametrize("make, message", [
    (lambda: Tensor([0], dtype=ms.int32, const_arg=1),
     "For 'Tensor', the type of 'const_arg' should be 'bool', but got type 'int'."),
    (lambda: Tensor([0], dtype=ms.int32, const_arg="yes"),
     "For 'Tensor', the type of 'const_arg' should be 'bool', but got type 'str'."),
    (lambda: Tensor([0], dtype=ms.int32).set_const_arg(1),
     "For 'set_const_arg', the type of 'const_arg' should be 'bool', but got type 'int'."),
])
def test_const_arg_must_be_a_bool(make, message):
    # MindSpore 2.10's messages, word for word
    with pytest.raises(TypeError) as info:
        make()
    assert str(info.value) == message
