"""function_ast reads a function's own source: a `functools.wraps` wrapper is compiled as the
wrapper it is, not as the function it wraps (whose globals and arity are not the wrapper's)."""
import functools

import numpy as np

import cellgraph as ms
from cellgraph import Tensor, nn


class _Call(nn.Cell):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def construct(self, *args):
        return self.fn(*args)


def _through_cell(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return _Call(fn)(*args, **kwargs)

    return wrapper


@_through_cell
def _scaled_sum(x, y, scale):
    return (x + y) * scale


@_through_cell
def _product(x, y):
    return x * y


def test_wrappers_sharing_one_code_object_compile_each_call():
    x = Tensor(np.ones((4, 3), np.float32))
    y = Tensor(np.full((4, 3), 2.0, np.float32))
    np.testing.assert_allclose(_scaled_sum(x, y, 3.0).asnumpy(), np.full((4, 3), 9.0))
    dx, dy = ms.grad(_scaled_sum, grad_position=(0, 1))(x, y, 3.0)
    np.testing.assert_allclose(dx.asnumpy(), np.full((4, 3), 3.0))
    np.testing.assert_allclose(dy.asnumpy(), np.full((4, 3), 3.0))
    # the same wrapper code with two parameters, after the three-parameter one was compiled
    out = ms.vmap(_product, in_axes=0, out_axes=0)(x, y)
    np.testing.assert_allclose(out.asnumpy(), np.full((4, 3), 2.0))
