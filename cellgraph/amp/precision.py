"""Automatic mixed precision: which Cells compute in float16 (or bfloat16).

`auto_mixed_precision(net, "O2")` marks the network with `Cell.to_float(float16)` (inputs cast on
entry, float Parameters cast where they are read: the Parameters stay float32 master weights),
keeps the black-list Cells (batch and layer normalisation) in float32 with their outputs cast
back to float16, and casts the network's outputs to float32. "O1" runs only the white-list
Cells (convolutions, Dense, recurrent cells) in float16, each output cast back to float32, and
puts the same casts around the white-list primitives a Cell holds (`self.matmul =
ops.MatMul()`); "O3" runs everything in float16. "auto" works on primitives, as MindSpore's:
each call of the network (a Cell or a function) runs under an amp strategy
(`_c_expression.amp`) that casts the inputs of the primitives of AMP_AUTO_WHITE_LIST to low
precision, those of AMP_AUTO_BLACK_LIST to float32 (every float argument: MindSpore 2.10
records AMP_PRIM_ARG_TABLE's positions in the strategy but casts them all) and those of the
promote list to their widest float type. The lists are MindSpore's, restricted to the
classes cellgraph has.
"""
from __future__ import annotations

import collections
import functools
import inspect

from cellgraph import nn, ops
from cellgraph._c_expression.amp import (
    AmpLevel,
    create_amp_strategy,
    pop_amp_strategy,
    push_amp_strategy,
)
from cellgraph.nn import hooks
from cellgraph.nn.cell import cast_float
from cellgraph.ops import auto_generate
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import ArgumentValueError, DTypeError

__all__ = ["AMP_AUTO_BLACK_LIST", "AMP_AUTO_WHITE_LIST", "AMP_PRIM_ARG_TABLE",
           "auto_mixed_precision", "custom_mixed_precision", "get_black_list",
           "get_white_list"]

_WHITE_NAMES = ("Conv1d", "Conv2d", "Conv3d", "Conv1dTranspose", "Conv2dTranspose",
                "Conv3dTranspose", "Dense", "LSTMCell", "RNNCell", "GRUCell")
_WHITE_PRIMITIVE_NAMES = ("Conv2D", "Conv3D", "Conv2DTranspose", "Conv3DTranspose",
                          "Conv2DBackpropInput", "MatMul", "BatchMatMul", "PReLU", "ReLU", "Ger")
_BLACK_NAMES = ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm")
LEVELS = ("O0", "O1", "O2", "O3", "auto")
_AUTO_WHITE_NAMES = ("Conv2D", "Conv3D", "Conv2DExt", "Conv3DExt", "ConvTranspose2D",
                     "Conv2DTranspose", "Conv3DTranspose", "Convolution", "MatMul", "MatMulExt",
                     "BatchMatMul", "BatchMatMulExt", "PReLU", "Einsum", "Dense", "Addmm",
                     "Addbmm", "Addmv", "Baddbmm", "Mv")
_AUTO_BLACK_NAMES = ("Pow", "ACos", "Asin", "Cosh", "Erfinv", "Exp", "Expm1", "Log", "Log10",
                     "Log1p", "Log2", "Reciprocal", "Rsqrt", "Sinh", "Tan", "Softplus",
                     "SoftplusExt", "LayerNorm", "LayerNormExt", "BatchNorm", "BatchNormExt",
                     "GroupNorm", "Norm", "KLDivLoss", "SmoothL1Loss", "MultilabelMarginLoss",
                     "SoftMarginLoss", "TripletMarginLoss", "MultiMarginLoss",
                     "BCEWithLogitsLoss", "Pdist", "Cdist", "Renorm", "ReduceProd", "Softmax",
                     "LogSoftmax", "LogSoftmaxExt", "CumProd", "CumSum", "CumsumExt", "ProdExt",
                     "SumExt", "L1LossExt", "MSELossExt", "NLLLoss", "NLLLoss2d")


def _existing(names) -> list:
    return [getattr(nn, name) for name in names if hasattr(nn, name)]


def get_white_list() -> list:
    """The Cell and primitive classes that level "O1" runs in low precision."""
    return _existing(_WHITE_NAMES) + _white_primitives()


def _primitives(names) -> list:
    """The primitive classes named, from ops or (the `Ext` forms) ops.auto_generate."""
    found = (getattr(ops, name, None) or getattr(auto_generate, name, None) for name in names)
    return [cls for cls in found if cls is not None]


def _white_primitives() -> list:
    return _primitives(_WHITE_PRIMITIVE_NAMES)


AMP_AUTO_WHITE_LIST = _primitives(_AUTO_WHITE_NAMES)  # run in low precision under "auto"
AMP_AUTO_BLACK_LIST = _primitives(_AUTO_BLACK_NAMES)  # run in float32 under "auto"
# primitive class -> the positions of the arguments to cast (none listed: every float one)
AMP_PRIM_ARG_TABLE = collections.defaultdict(list)


class CastAround:
    """A white-list primitive under level "O1": its float inputs are cast to `dtype` and its
    float outputs back to float32, the casts MindSpore's rewrite puts around the call."""

    def __init__(self, primitive, dtype):
        self.primitive, self.dtype = primitive, dtype
        self.positions = tuple(AMP_PRIM_ARG_TABLE.get(type(primitive), ()))

    def __call__(self, *args):
        if self.positions:
            args = tuple(cast_float(a, self.dtype) if i in self.positions else a
                         for i, a in enumerate(args))
        else:
            args = cast_float(args, self.dtype)
        return cast_float(self.primitive(*args), dt.float32)

    def __getattr__(self, name):
        return getattr(self.primitive, name)

    def __repr__(self) -> str:
        return f"CastAround({self.primitive!r}, {self.dtype})"


def get_black_list() -> list:
    """The Cell classes that level "O2" keeps in float32."""
    return _existing(_BLACK_NAMES)


def _low_precision(dtype) -> dt.DType:
    dtype = dt.as_dtype(dtype)
    if dtype not in (dt.float16, dt.bfloat16):
        raise ArgumentValueError(f"auto_mixed_precision: `dtype` must be float16 or bfloat16, "
                                 f"got {dtype}")
    return dtype


def _set_output_cast(cell, dtype) -> None:
    cell._cast_outputs_to(dtype)


def _white_list_to(network, white_list, dtype) -> None:
    """White-list Cells and the white-list primitives Cells hold to `dtype`."""
    cells = tuple(c for c in white_list if isinstance(c, type) and issubclass(c, nn.Cell))
    primitives = tuple(c for c in white_list if c not in cells)
    for _, cell in network.cells_and_names():
        if isinstance(cell, cells):
            cell.to_float(dtype)
            _set_output_cast(cell, dt.float32)
        elif primitives and cell.__dict__.get("_amp_types") is None:
            for name, value in list(cell.__dict__.items()):
                if isinstance(value, primitives):  # `self.matmul = ops.MatMul()`
                    object.__setattr__(cell, name, CastAround(value, dtype))


def black_list_to(network, black_list, dtype) -> None:
    """`network` in `dtype`, the Cells of `black_list` in float32 with their outputs cast back."""
    network.to_float(dtype)
    for _, cell in network.cells_and_names():
        if cell is not network and isinstance(cell, tuple(black_list)):
            cell.to_float(dt.float32)
            _set_output_cast(cell, dtype)


def auto_mixed_precision(network, amp_level="O0", dtype=dt.float16):
    """Mark `network` for mixed precision at `amp_level` ("O0" to "O3", or "auto", which also
    takes a function) and return it."""
    if not isinstance(network, nn.Cell):
        if amp_level != "auto":
            raise DTypeError(f"For amp_level '{amp_level}', the network type should be Cell.")
        if not inspect.isfunction(network) and not inspect.ismethod(network):
            raise DTypeError("For amp_level 'auto', the network type should be Cell or "
                             "function.")
    if dt.as_dtype(dtype) not in (dt.float16, dt.bfloat16):
        raise ArgumentValueError(f"The dtype should be one of (mstype.float16, "
                                 f"mstype.bfloat16), but got {dt.as_dtype(dtype)}.")
    if amp_level not in LEVELS:
        raise ArgumentValueError(f"The amp level {amp_level} is not supported")
    dtype = _low_precision(dtype)
    if amp_level == "O0":
        return network
    if amp_level == "O1":
        _white_list_to(network, get_white_list(), dtype)
    elif amp_level == "auto":
        network = _under_auto_strategy(network, dtype)
    elif amp_level == "O2":
        black_list_to(network, get_black_list(), dtype)
        _set_output_cast(network, dt.float32)
    else:
        network.to_float(dtype)
        _set_output_cast(network, dt.float32)
    network._amp_level = amp_level
    return network


def _under_auto_strategy(network, dtype):
    """Level "auto": `network` (a Cell or a function) whose every call runs under the strategy
    of the auto lists, also set as its `amp_strategy` attribute."""
    white = [(p.__name__, list(AMP_PRIM_ARG_TABLE[p])) for p in AMP_AUTO_WHITE_LIST]
    black = [(p.__name__, list(AMP_PRIM_ARG_TABLE[p])) for p in AMP_AUTO_BLACK_LIST]
    strategy = create_amp_strategy(AmpLevel.AmpAuto, dtype, white, black)
    if isinstance(network, nn.Cell):
        network.amp_strategy = strategy
        hooks.set_call_state(network, "_amp_strategy", (AmpLevel.AmpAuto, dtype, white, black))
        return network
    network.amp_strategy = strategy

    @functools.wraps(network)
    def under_strategy(*args, **kwargs):
        push_amp_strategy(AmpLevel.AmpAuto, dtype, white, black)
        try:
            return network(*args, **kwargs)
        finally:
            pop_amp_strategy()

    return under_strategy


def custom_mixed_precision(network, *, white_list=None, black_list=None, dtype=dt.float16):
    """Mixed precision with your own list of Cell classes: those in `white_list` run in
    `dtype`, or everything except those in `black_list` does."""
    if not isinstance(network, nn.Cell):
        raise DTypeError(f"custom_mixed_precision: `network` must be a Cell, got "
                         f"{type(network).__name__}")
    if (white_list is None) == (black_list is None):
        raise ArgumentValueError("custom_mixed_precision: give exactly one of `white_list` and "
                                 "`black_list`")
    dtype = _low_precision(dtype)
    if white_list is not None:
        _white_list_to(network, list(white_list), dtype)
    else:
        black_list_to(network, list(black_list), dtype)
        _set_output_cast(network, dt.float32)
    return network
