"""Matrix products and convolutions given arguments that do not fit raise MindSpore 2.10's
exception types with its words (checked against it), in graph and PyNative mode: shapes when
the operation runs, pad_mode / padding when a layer or primitive is made."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, mint, nn, ops


def ones(*shape):
    return Tensor(np.ones(shape, np.float32))


@pytest.fixture(params=[ms.GRAPH_MODE, ms.PYNATIVE_MODE], ids=["graph", "pynative"])
def mode(request):
    ms.set_context(mode=request.param)
    yield request.param
    ms.set_context(mode=ms.GRAPH_MODE)


def call(fn, *args):
    return (ms.jit(fn) if ms.get_context("mode") == ms.GRAPH_MODE else fn)(*args)


def raises(error_type: str, text: str, run):
    """`run()` raises an exception that prints as `error_type` (type(e).__name__, as a program
    written for MindSpore prints it) and whose message starts with `text`."""
    with pytest.raises(Exception) as info:
        run()
    assert type(info.value).__name__ == error_type, info.value
    assert str(info.value).startswith(text), str(info.value)


def matmul_class(x, y):
    return ops.MatMul()(x, y)


def matmul_transposed(x, y):
    return ops.MatMul(transpose_b=True)(x, y)


def batch_matmul(x, y):
    return ops.BatchMatMul()(x, y)


def matmul_function(x, y):
    return ops.matmul(x, y)


def conv2d_function(x, w):
    return ops.conv2d(x, w)


def test_matrix_products_of_unequal_inner_dimensions(mode):
    raises("ValueError", "For 'MatMul' the input dimensions must be equal, but got 'x1_col': 3 "
                         "and 'x2_row': 4 (shapes (2, 3) and (4, 5)).",
           lambda: call(matmul_class, ones(2, 3), ones(4, 5)))
    raises("ValueError", "For 'MatMul' the input dimensions must be equal, but got 'x1_col': 3 "
                         "and 'x2_row': 5", lambda: call(matmul_transposed, ones(2, 3), ones(4, 5)))
    raises("ValueError", "For BatchMatMul, the row of the input 'y' should be same as the col of "
                         "the input 'x', with x shape [const vector]{2, 2, 3}(transpose_a=0), y "
                         "shape [const vector]{2, 4, 5}(transpose_b=0)",
           lambda: call(batch_matmul, ones(2, 2, 3), ones(2, 4, 5)))
    raises("RuntimeError", "For 'MatMulExt' op, shape1[-1] must be equal to shape2[-2], but got 3 "
                           "and 4", lambda: call(matmul_function, ones(2, 3), ones(4, 5)))
    raises("ValueError", "For 'MatMul' the input dimensions must be equal, but got 'x1_col': 5 "
                         "and 'x2_row': 3", lambda: nn.Dense(3, 4)(ones(2, 5)))


def test_convolution_input_shapes(mode):
    c_in = ("For 'Conv2D', 'C_in' of input 'x' shape divide by parameter 'group' must be equal to "
            "'C_in' of input 'weight' shape: 3, but got 'C_in' of input 'x' shape: 5, and "
            "'group': 1.")
    raises("RuntimeError", c_in, lambda: nn.Conv2d(3, 4, 3)(ones(1, 5, 8, 8)))
    raises("RuntimeError", c_in, lambda: call(conv2d_function, ones(1, 5, 8, 8), ones(4, 3, 3, 3)))
    raises("RuntimeError", c_in, lambda: nn.Conv1d(3, 4, 3)(ones(1, 5, 8)))
    raises("ValueError", c_in.replace("Conv2D", "Conv3D"),
           lambda: nn.Conv3d(3, 4, 3)(ones(1, 5, 8, 8, 8)))
    raises("ValueError", "For primitive[Conv2D], the x shape size must be equal to 4, but got 3.",
           lambda: nn.Conv2d(3, 4, 3)(ones(5, 8, 8)))
    raises("ValueError", "For 'Conv2d', input shape's h and w after padding must be greater than "
                         "or equal to kernel_size's h and w respectively.",
           lambda: nn.Conv2d(3, 4, 5, pad_mode="valid")(ones(1, 3, 3, 3)))


def test_convolution_padding_arguments():
    not_pad = "For 'Conv2D', the 'pad' must be zero when 'pad_mode' is not 'pad', but got 'pad': 1"
    raises("ValueError", not_pad + " and 'pad_mode': same.",
           lambda: nn.Conv2d(3, 4, 3, pad_mode="same", padding=1))
    raises("ValueError", not_pad + " and 'pad_mode': valid.", lambda: ops.Conv2D(4, 3, pad=1))
    bad_mode = ("For 'Conv2D', the 'pad_mode' must be str and must be in '['valid', 'same', "
                "'pad']', but got '{}'.")
    raises("ValueError", bad_mode.format("foo"), lambda: nn.Conv2d(3, 4, 3, pad_mode="foo"))
    raises("ValueError", bad_mode.format("SAME"), lambda: ops.Conv2D(4, 3, pad_mode="SAME"))
    raises("ValueError", "For 'Conv2d', the 'padding' must be int and must >= 0, but got '-1' "
                         "with type 'int'.", lambda: nn.Conv2d(3, 4, 3, pad_mode="pad", padding=-1))
    raises("ValueError", "For 'Conv2D', the 'pad size' must be int and must = 4, but got '3' with "
                         "type 'int'.", lambda: nn.Conv2d(3, 4, 3, pad_mode="pad", padding=(1,) * 3))
    raises("TypeError", "For 'Conv2D', the type of 'pad' should be one of '['int', 'tuple']', but "
                        "got type 'list'.", lambda: ops.Conv2D(4, 3, pad_mode="pad", pad=[1] * 4))
    raises("ValueError", "The argument 'group' should be divisible by 'in_channels' and "
                         "'out_channels', but got group:2, in_channels:3, out_channels:4.",
           lambda: nn.Conv2d(3, 4, 3, group=2))
    # ops' functions take the mode by pad_mode: a padding by name is refused
    raises("TypeError", "For 'Conv2D', the type of 'pad' should be one of '['int', 'tuple']', but "
                        "got type 'str'.", lambda: ops.conv2d(ones(1, 3, 8, 8), ones(4, 3, 3, 3),
                                                             padding="same"))
    raises("TypeError", "For 'conv1d', padding must be a tuple, list or int, but got <class "
                        "'str'>.", lambda: ops.conv1d(ones(1, 3, 8), ones(4, 3, 3), padding="same"))
    # mint's take padding="same" with stride 1 only
    raises("ValueError", "For primitive[Conv2DPadding], stride must be 1 when padding is same.",
           lambda: mint.nn.functional.conv2d(ones(1, 3, 8, 8), ones(4, 3, 3, 3), stride=2,
                                             padding="same"))
    raises("ValueError", "padding='same' is not supported for strided convolutions",
           lambda: mint.nn.Conv2d(3, 4, 3, stride=2, padding="same"))


def test_padding_that_fits_still_works():
    x, w = ones(1, 3, 8, 8), ones(4, 3, 3, 3)
    assert ops.conv2d(x, w, pad_mode="same").shape == (1, 4, 8, 8)
    assert ops.conv2d(x, w, pad_mode="pad", padding=(1, 2)).shape == (1, 4, 8, 10)
    assert nn.Conv2d(3, 4, 3, stride=2, pad_mode="same")(x).shape == (1, 4, 4, 4)
    assert ops.Conv2D(4, 3, pad_mode="pad", pad=(1, 1, 0, 0))(x, w).shape == (1, 4, 8, 6)
    assert mint.nn.functional.conv2d(x, w, padding="same").shape == (1, 4, 8, 8)


def test_every_convolution_layer_checks_its_padding():
    """MindSpore's _Conv check, for 1-D, 3-D and transposed layers too."""
    raises("ValueError", "For 'Conv1d', the 'padding' must be int and must >= 0, but got '-1' "
                         "with type 'int'.", lambda: nn.Conv1d(3, 2, 3, pad_mode="pad", padding=-1))
    raises("ValueError", "For 'Conv3d', the 'padding item' must be int and must >= 0, but got "
                         "'-2' with type 'int'.",
           lambda: nn.Conv3d(2, 2, 3, pad_mode="pad", padding=(1, 1, 1, 1, 1, -2)))
    with pytest.raises(TypeError):
        nn.Conv2dTranspose(3, 2, 3, pad_mode="pad", padding=1.5)
    assert nn.Conv1dTranspose(3, 2, 3, pad_mode="pad", padding=1)(ones(1, 3, 5)).shape == (1, 2, 5)
