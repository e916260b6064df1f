"""MindSpore's `ops.operations.math_ops`: the primitive classes of math operations whose meaning
is a composition (`ops.AddN()`, `ops.ReduceAll()`, `ops.Einsum(equation)`, ...), configured
in `__init__` and applied in `__call__`."""
from __future__ import annotations

import numpy as np

from cellgraph._checkparam import LE, check, check_positive_int, check_value_type
from cellgraph.compiler.py_func_op import HostCall, py_func_p
from cellgraph.ops.function.array_func.attributes import is_tensor
from cellgraph.ops.function.array_func.shape import flip as _flip
from cellgraph.ops.function.array_func.shape import swapaxes
from cellgraph.ops.function.math_func.creation import linspace
from cellgraph.ops.function.math_func.elementwise import (
    addcmul,
    approximate_equal,
    check_tolerance,
    eps,
    fmod,
    heaviside,
    hypot,
    isclose,
    isfinite,
    isinf,
    isnan,
    lerp,
    logical_xor,
    logit,
    nan_to_num,
    truncate_div,
    xlogy,
)
from cellgraph.ops.function.math_func.incomplete_beta import betainc
from cellgraph.ops.function.math_func.linalg import cdist, cross, einsum, outer, renorm, trace
from cellgraph.ops.function.math_func.matrices import (
    logspace,
    lu_solve,
    lu_unpack,
    matrix_exp,
    matrix_power,
    orgqr,
    slogdet,
)
from cellgraph.ops.function.math_func.reduction import (
    addn,
    all,
    any,
    histc,
    logcumsumexp,
    norm,
    std_mean,
)
from cellgraph.ops.function.math_func.spectral import (
    bartlett_window,
    blackman_window,
    fft_with_size,
    hamming_window,
    stft,
)
from cellgraph.ops.function.method_forms import fmax, fmin, gcd, lcm
from cellgraph.ops.function.nn_func.normalization import _lp_norm
from cellgraph.ops.inplace import InplaceIndexAdd
from cellgraph.ops.operations._required import require
from cellgraph.ops.primitive_class import (
    PrimitiveClass,
    _init,
    define_class,
    define_classes,
    function_class,
    generate_classes,
)
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives import nn_functional as NF
from cellgraph.primitives import rounding_ops as R
from cellgraph.primitives.check_convert import (
    check_tensor_dtype,
    check_tensor_type,
    check_tensor_types_same,
    check_types_same,
    not_tensor_error,
    tensor_dtype_error,
)
from cellgraph.primitives.complex_ops import polar
from cellgraph.primitives.core import TensorType, abstract_of, fmt_shape, value_input
from cellgraph.primitives.errors import (
    ArgumentError,
    ArgumentValueError,
    DTypeError,
    RunError,
    ShapeError,
)
from cellgraph.primitives.exports import REQUIRED
from cellgraph.runtime.select_order import nth_element_order
from cellgraph.runtime.tensor import Tensor
from cellgraph.transform import user_loc

__all__ = ["STFT", "AddN", "AddV2", "Addcmul", "ApproximateEqual", "BatchMatMul", "Cauchy", "Cdist", "Cross", "CumSum", "Einsum", "Eps",
           "FFTWithSize", "InplaceIndexAdd",
           "IsFinite", "IsInf", "IsNan", "LinSpace", "Logit", "LpNorm", "MatMul", "ReduceAll",
           "ReduceAny", "ReduceMax", "ReduceMean", "ReduceMin", "ReduceProd", "ReduceStd",
           "ReduceSum", "Renorm", "Round"]


# the classes over one functional op, their static params keyword arguments of it
MatMul = define_class("MatMul", F.batch_matmul, {"transpose_a": False, "transpose_b": False},
                      module=__name__)
BatchMatMul = define_class("BatchMatMul", F.batch_matmul,
                           {"transpose_a": False, "transpose_b": False}, module=__name__)
class ApproximateEqual(define_class("ApproximateEqual", approximate_equal, {"tolerance": 1e-05},
                                    module=__name__)):
    """ops.ApproximateEqual(tolerance=1e-05): its tolerance is checked when it is made."""

    def __init__(self, tolerance=1e-05):
        check_tolerance(tolerance)
        super().__init__(tolerance)


def _reduction_class(name: str, reduce) -> type:
    """`ops.<name>(keep_dims=False)(x, axis=())`."""
    return define_class(name, lambda x, axis=(), keep_dims=False: reduce(x, axis, keep_dims),
                        {"keep_dims": False}, module=__name__)


def _reduce_sum(x, axis=(), keep_dims=False, skip_mode=False):
    """ReduceSum: with `skip_mode` an empty `axis` leaves x as it is (no reduction)."""
    if skip_mode and isinstance(axis, (tuple, list)) and not axis:
        return x
    return F.reduce_sum(x, axis, keep_dims)


ReduceSum = define_class("ReduceSum", _reduce_sum, {"keep_dims": False, "skip_mode": False},
                         module=__name__)
ReduceMean = _reduction_class("ReduceMean", F.reduce_mean)
ReduceMax = _reduction_class("ReduceMax", F.reduce_max)
ReduceMin = _reduction_class("ReduceMin", F.reduce_min)


def _logit(x, eps=-1.0):
    return logit(x, None if eps < 0 else eps)


def _reduce_std(input_x, axis=(), unbiased=True, keep_dims=False):
    """(std, mean) over `axis` (every axis when empty)."""
    axes = tuple(range(abstract_of(input_x).ndim)) if axis in ((), []) else axis
    return std_mean(input_x, axes, 1 if unbiased else 0, keep_dims)


Logit = define_class("Logit", _logit, {"eps": -1.0}, module=__name__)


Cdist = define_class("Cdist", cdist, {"p": 2.0}, module=__name__)


class Cauchy(PrimitiveClass):
    """`ops.Cauchy(size, median=0.0, sigma=1.0)()`: float32 draws of shape `size` (a list)
    from the Cauchy distribution (as Tensor.cauchy draws them), with MindSpore's checks."""

    def __init__(self, size, median=0.0, sigma=1.0):
        from cellgraph import _checkparam as validator

        validator.check_value_type("median", median, [float], "Cauchy")
        validator.check_value_type("sigma", sigma, [float], "Cauchy")
        validator.check_value_type("size", size, (list), "Cauchy")
        for index, size_ in enumerate(size):
            validator.check_positive_int(size_, f"size[{index}]", "Cauchy")
        self.size, self.median, self.sigma = size, median, sigma

    def __call__(self):
        zeros = Tensor(np.zeros(tuple(self.size), np.float32))
        return zeros.cauchy(self.median, self.sigma)


class Renorm(PrimitiveClass):
    """`ops.Renorm(p, dim, maxnorm)(x)`: `renorm(x, p, dim, maxnorm)`."""

    def __init__(self, p, dim, maxnorm):
        self.p, self.dim, self.maxnorm = p, dim, maxnorm

    def __call__(self, input_x):
        return renorm(input_x, self.p, self.dim, self.maxnorm)

    def __repr__(self) -> str:
        return f"Renorm(p={self.p}, dim={self.dim}, maxnorm={self.maxnorm})"


_ADD_V2_TYPES = ("Complex128", "Complex64", "Float16", "Float32", "Float64", "Float", "Int16",
                 "Int32", "Int64", "Int8", "UInt16", "UInt32", "UInt64", "UInt8")


def _add_v2(x, y):
    """AddV2: x + y of the same shape (no broadcasting, as MindSpore's), numeric dtypes only;
    mixed dtypes promote as Add's."""
    shapes = []
    for name, value in (("x", x), ("y", y)):
        aval = abstract_of(value)
        if str(aval.dtype) not in _ADD_V2_TYPES[:5] + _ADD_V2_TYPES[6:]:
            raise tensor_dtype_error("AddV2", name, _ADD_V2_TYPES, aval.dtype)
        shapes.append(tuple(aval.shape))
    if shapes[0] != shapes[1]:
        text = ["[" + "".join(f"{d}," for d in shape) + "]" for shape in shapes]
        raise ArgumentValueError(f"For primitive[AddV2], the input_shape: {text[0]} must be equal "
                                 f"to {text[1]}")
    return F.add(x, y)


class AddV2(define_class("AddV2", _add_v2, module=__name__)):
    """`ops.operations.math_ops.AddV2()(x, y)`: x + y of one shape (`_add_v2`)."""

    def __repr__(self) -> str:
        return "Prim[AddV2]"


class FFTWithSize(PrimitiveClass):
    """`ops.FFTWithSize(signal_ndim, inverse, real, norm="backward", onesided=True,
    signal_sizes=())(x)`: fft, ifft, rfft or irfft over the last signal_ndim axes
    (`fft_with_size`)."""

    def __init__(self, signal_ndim, inverse, real, norm="backward", onesided=True,
                 signal_sizes=()):
        self.signal_ndim, self.inverse, self.real = signal_ndim, inverse, real
        self.norm, self.onesided, self.signal_sizes = norm, onesided, tuple(signal_sizes)

    def __call__(self, x):
        return fft_with_size(x, self.signal_ndim, self.inverse, self.real, self.norm,
                             self.onesided, self.signal_sizes)

    def __repr__(self) -> str:
        return (f"FFTWithSize(signal_ndim={self.signal_ndim}, inverse={self.inverse}, "
                f"real={self.real}, norm={self.norm!r}, onesided={self.onesided}, "
                f"signal_sizes={self.signal_sizes})")


Addcmul = define_class("Addcmul", lambda input, x1, x2, value: addcmul(input, x1, x2, value),
                       module=__name__)


def _lin_space(start, stop, num):
    """The primitive takes Tensors for start and stop (the function `ops.linspace` also takes
    numbers) and an int or a Tensor for num."""
    kinds = [type(v).__name__ if isinstance(v, (bool, int, float)) else "Tensor"
             for v in (start, stop, num)]
    if kinds[0] != "Tensor" or kinds[1] != "Tensor" or kinds[2] not in ("int", "Tensor"):
        raise DTypeError(f'Failed calling LinSpace with "LinSpace()(start={kinds[0]}, '
                         f'stop={kinds[1]}, num={kinds[2]})".')
    return linspace(start, stop, num)


LinSpace = define_class("LinSpace", _lin_space, module=__name__)


ReduceStd = define_class("ReduceStd", _reduce_std,
                         {"axis": [], "unbiased": True, "keep_dims": False}, module=__name__)


LpNorm = require(define_class("LpNorm", _lp_norm,
                              {"axis": None, "p": 2, "keep_dims": False, "epsilon": 1e-12},
                              module=__name__), "axis")


Eps = define_class("Eps", eps, module=__name__)


class Cross(PrimitiveClass):
    """`ops.Cross(dim)(x1, x2)`: the cross product along `dim` (the default: the first axis of
    size 3)."""

    def __init__(self, dim=-65530):
        self.dim = dim

    def __call__(self, x1, x2):
        return cross(x1, x2, None if self.dim == -65530 else self.dim)


class Einsum(PrimitiveClass):
    """`ops.Einsum(equation)(operands)`."""

    def __init__(self, equation):
        self.equation = equation

    def __call__(self, operands):
        return einsum(self.equation, *operands)


def _stft_class(x, window=None, *, n_fft, hop_length, win_length, normalized, onesided,
                return_complex):
    """STFT the primitive: no centre padding (ops.stft pads before calling it)."""
    return stft(x, n_fft, hop_length, win_length, window, False, "REFLECT", normalized,
                onesided, return_complex)


STFT = require(define_class("STFT", _stft_class,
                            {"n_fft": None, "hop_length": None, "win_length": None,
                             "normalized": False, "onesided": True, "return_complex": True},
                            module=__name__),
               "n_fft", "hop_length", "win_length", "normalized", "onesided", "return_complex")


class _Reduce(PrimitiveClass):
    fn = staticmethod(all)

    def __init__(self, keep_dims=False):
        self.keep_dims = keep_dims

    def __call__(self, x, axis=()):
        return type(self).fn(x, axis, self.keep_dims)


class ReduceAll(_Reduce):
    fn = staticmethod(all)


class ReduceAny(_Reduce):
    fn = staticmethod(any)


IsNan = function_class("IsNan", isnan)


IsInf = function_class("IsInf", isinf)


IsFinite = function_class("IsFinite", isfinite)


AddN = function_class("AddN", addn)


class CumSum(PrimitiveClass):
    """`ops.CumSum(exclusive=False, reverse=False)(x, axis)`."""

    _init_names, _defaults = _init(exclusive=False, reverse=False)

    def __call__(self, x, axis):
        return NF.cumsum_ex(x, axis, None, self.exclusive, self.reverse)


class ReduceProd(PrimitiveClass):
    """`ops.ReduceProd(keep_dims=False)(x, axis=())`."""

    _init_names, _defaults = _init(keep_dims=False)

    def __call__(self, x, axis=()):
        return NF.reduce_prod(x, axis, self.keep_dims)


class Round(PrimitiveClass):
    """`ops.Round()(input, decimals=0)`: the class takes no arguments; the call rounds to
    `decimals` places, halves to even."""

    def __call__(self, input, decimals=0):
        return R.round_(input, decimals=decimals)


# classes over compositions (MindSpore's own; their values checked against MindSpore's)
def _square_sum_all(x, y):
    (ax, ay), floats = (abstract_of(x), abstract_of(y)), (dt.float16, dt.float32)
    check_tensor_types_same("SquareSumAll", {"x": ax.dtype, "y": ay.dtype}, floats, user_loc())
    if ax.shape != ay.shape:
        raise ShapeError(f"For primitive[SquareSumAll], the x: {fmt_shape(ax.shape)} must be "
                         f"equal to {fmt_shape(ay.shape)}", user_loc())
    return F.reduce_sum(F.square(x)), F.reduce_sum(F.square(y))


def _equal_count(x, y):
    return F.reshape(F.reduce_sum(F.cast(F.equal(x, y), abstract_of(x).dtype)), (1,))


def _zero_where(mask, value):
    return F.select(mask, F.zeros_like(value), value)


def _divide_unless(mask, x, y):
    """x / y where `mask` is False, x / 1 where it is True: the quotients the mask then
    replaces are never computed (no 0 / 0, no NaN in the gradient)."""
    ones = F.ones_like(F.add(F.zeros_like(x), F.zeros_like(y)))
    return F.div(x, F.select(mask, ones, F.add(F.zeros_like(ones), y)))


_COMPOSITION_CLASSES = {
    "SquaredDifference": lambda x, y: F.square(F.sub(x, y)),
    "Xdivy": lambda x, y: _divide_unless(F.equal(x, 0), x, y),
    "DivNoNan": lambda x1, x2: _zero_where(F.equal(x2, 0),
                                           _divide_unless(F.equal(x2, 0), x1, x2)),
    "TruncateDiv": truncate_div, "TruncateMod": fmod,
    "Mod": fmod,  # the remainder with the dividend's sign
    "SquareSumAll": _square_sum_all, "EqualCount": _equal_count, "Ger": outer,
    "Heaviside": heaviside, "Hypot": hypot, "Xlogy": xlogy, "LogicalXor": logical_xor,
    "Lerp": lerp, "Trace": trace,
    "Addcdiv": lambda input_data, x1, x2, value: input_data + value * F.div(x1, x2),
}
define_classes(globals(), _COMPOSITION_CLASSES, __name__)
__all__ += list(_COMPOSITION_CLASSES)


class NMSWithMask(PrimitiveClass):
    """`ops.NMSWithMask(iou_threshold=0.5)(bboxes)`: greedy non-maximum suppression of the
    (N, 5) boxes [x1, y1, x2, y2, score], as MindSpore's CPU kernel: the boxes sorted by
    descending score (a stable sort), int32 positions 0..N-1 of that order, and a bool mask of
    the boxes kept, a box being dropped when its IoU (areas (x2 - x1) (y2 - y1)) with a kept
    box of higher score exceeds `iou_threshold`. The greedy pass is unrolled over the N
    boxes."""

    def __init__(self, iou_threshold=0.5):
        if not isinstance(iou_threshold, float):
            raise ArgumentError(f"For 'NMSWithMask', the type of 'iou_threshold' should be "
                                f"'float', but got type '{type(iou_threshold).__name__}'.")
        self.iou_threshold = iou_threshold

    def __call__(self, bboxes):
        op = "NMSWithMask"
        if not hasattr(bboxes, "aval"):
            raise not_tensor_error(op, "bboxes", bboxes)
        check_tensor_dtype(op, "bboxes", bboxes.dtype, (dt.float16, dt.float32))
        if len(bboxes.shape) != 2:
            raise ShapeError(f"For primitive[{op}], the shape of bboxes must be equal to 2 , "
                             f"but got {len(bboxes.shape)}.")
        if bboxes.shape[1] != 5:
            raise ShapeError(f" For {op}, the 2nd dim in shape of bboxes should equal to 5 or "
                             f"8, but got {bboxes.shape[1]}" + (
                                 " (cellgraph takes the 5-column boxes only)"
                                 if bboxes.shape[1] == 8 else ""))
        count = bboxes.shape[0]
        order = F.argsort(F.neg(F.cast(bboxes[:, 4], dt.float32)), -1)
        boxes = F.gather(bboxes, order, 0)
        corners = F.cast(boxes[:, :4], dt.float32)
        x1, y1, x2, y2 = (corners[:, k] for k in range(4))
        area = F.mul(F.sub(x2, x1), F.sub(y2, y1))
        width = F.maximum(F.sub(F.minimum(x2[:, None], x2[None]),
                                F.maximum(x1[:, None], x1[None])), 0.0)
        height = F.maximum(F.sub(F.minimum(y2[:, None], y2[None]),
                                 F.maximum(y1[:, None], y1[None])), 0.0)
        inter = F.mul(width, height)
        iou = F.div(inter, F.sub(F.add(area[:, None], area[None]), inter))
        overlaps = F.greater(iou, self.iou_threshold)
        keep = F.ones((count,), dt.bool_)
        later = np.triu(np.ones((count, count), np.bool_), 1)
        for i in range(count):
            drop = F.logical_and(F.logical_and(overlaps[i], Tensor(later[i])), keep[i])
            keep = F.logical_and(keep, F.logical_not(drop))
        return boxes, Tensor(np.arange(count, dtype=np.int32)), keep

    def __repr__(self) -> str:
        return f"Prim[NMSWithMask]<iou_threshold={self.iou_threshold}>"


class NPUAllocFloatStatus(PrimitiveClass):
    """Ascend's float status register (eight float32 flags that overflow sets): allocated,
    read and cleared by these three primitives. They exist on Ascend only; as MindSpore on
    CPU, the call checks its inputs (MindSpore's errors) and then fails with its RuntimeError:
    there is no register to read. Overflow checks on any device:
    amp.all_finite or ops.isfinite."""

    def __call__(self, *args):
        if args:
            raise ArgumentError(f"For '{type(self).__name__}' op, input num should be 0, bug "
                                f"gets {len(args)}")
        _no_status_register(type(self).__name__)


class NPUGetFloatStatus(PrimitiveClass):
    """See NPUAllocFloatStatus: `input_x` a float16 or float32 Tensor of shape (8,)."""

    def __call__(self, *args):
        _check_status_input(type(self).__name__, args)
        _no_status_register(type(self).__name__)


class NPUClearFloatStatus(NPUGetFloatStatus):
    """See NPUAllocFloatStatus."""


class FloatStatus(PrimitiveClass):
    """`ops.FloatStatus()(x)`: a (1,) Tensor of x's dtype, 1 where x holds a NaN or an
    infinity and 0 otherwise, as MindSpore's GPU kernel gives it (MindSpore's CPU build has no
    kernel for it; cellgraph computes it on every backend)."""

    def __call__(self, x):
        if not hasattr(x, "aval"):
            raise not_tensor_error("FloatStatus", "x", x)
        dtype = check_tensor_dtype("FloatStatus", "x", abstract_of(x).dtype,
                                   (dt.float16, dt.float32, dt.float64))
        from cellgraph import ops

        finite = ops.isfinite(x).all().reshape((1,))
        return ops.cast(ops.logical_not(finite), dtype)


def _check_status_input(name, args) -> None:
    if len(args) != 1:
        raise ArgumentValueError(f"For primitive[{name}], the input number must be equal to 1, "
                                 f"but got {len(args)}.")
    (x,) = args
    if not hasattr(x, "aval"):
        kind = {bool: "Bool", int: "Int64", float: "Float32"}.get(type(x), type(x).__name__)
        raise ArgumentError(f"The primitive[{name}]'s input arguments[input_x] must be all "
                            f"tensor and those type must be same. But got input "
                            f"argument[input_x]:{kind}")
    check_tensor_dtype(name, "input_x", x.dtype, (dt.float16, dt.float32))
    if len(x.shape) != 1:
        raise ShapeError(f"Input_x must be a 1-dimensional tensor, but got {len(x.shape)}-"
                         f"dimensional tensor.")
    if x.shape[0] != 8:
        raise ShapeError(f"The first dimension of input_x must be 8, but got {x.shape[0]}")


def _no_status_register(name) -> None:
    raise RunError(f"Unsupported op [{name}] on CPU: Ascend's float status register exists on "
                   f"Ascend only (MindSpore on CPU has no kernel for it either); check for "
                   f"overflow with amp.all_finite or ops.isfinite")


_MEDIAN_TYPES = (dt.float32, dt.float64, dt.int16, dt.int32, dt.int64)


def _median(x, global_median=False, axis=0, keep_dims=False, ignore_nan=False):
    """(the lower median, its int64 index) along `axis`, as MindSpore's CPU Median kernel
    picks it: ties ordered by position; a NaN in the slice gives NaN and the first NaN's
    index, or with `ignore_nan` the median of the other elements (an all-NaN slice: NaN, at the
    position libstdc++'s nth_element leaves first, as the kernel's). `global_median`: the median of
    every element, index 0; an empty input gives NaN (0 for integers)."""
    from cellgraph.primitives.sort_ops import sort, take_along_axis

    aval = abstract_of(x)
    check_tensor_dtype("Median", "x", aval.dtype, _MEDIAN_TYPES)
    floating = aval.dtype.is_float
    if global_median:
        if aval.size == 0:
            empty = np.array(np.nan if floating else 0, aval.dtype.np)
            return F.cast(empty, aval.dtype), F.cast(0, dt.int64)
        value, _ = _median(F.reshape(x, (-1,)), False, 0, False, ignore_nan)
        return value, F.cast(0, dt.int64)
    if aval.ndim == 0:
        return x, F.cast(0, dt.int64)
    if not -aval.ndim <= axis < aval.ndim:
        raise ArgumentValueError(f"For primitive[Median], the axis must be in "
                                 f"[{-aval.ndim},{aval.ndim}), but got {axis}.")
    axis %= aval.ndim
    n = aval.shape[axis]
    if n == 0:
        shape = aval.shape[:axis] + ((1,) if keep_dims else ()) + aval.shape[axis + 1:]
        return F.zeros(shape, aval.dtype), F.zeros(shape, dt.int64)
    _, order = sort(x, axis)  # stable, NaN last
    order = F.cast(order, dt.int64)
    kept = aval.shape[:axis] + (1,) + aval.shape[axis + 1:]
    nan = F.not_equal(x, x) if floating else None
    if ignore_nan and floating:
        count = F.sub(n, F.reduce_sum(F.cast(nan, dt.int64), (axis,), True))
        middle = F.floor_div(F.maximum(F.sub(count, 1), 0), 2)
        index = take_along_axis(order, middle, axis=axis)
        # every NaN compares equivalent: the position nth_element leaves first, given n alone
        all_nan = nth_element_order(np.full(n, np.nan), 0)[0]
        index = F.select(F.less(count, 1), F.zeros_like(index) + all_nan, index)
    else:
        index = take_along_axis(order, F.fill(dt.int64, kept, (n - 1) // 2), axis=axis)
        if floating:
            positions = F.reshape(F.cast(np.arange(n), dt.int64),
                                  (1,) * axis + (n,) + (1,) * (aval.ndim - axis - 1))
            first_nan = F.reduce_min(F.select(nan, positions, F.zeros_like(positions) + n),
                                     (axis,), True)
            index = F.select(F.less(first_nan, n), first_nan, index)
    value = take_along_axis(x, index, axis=axis)
    if not keep_dims:
        value, index = F.squeeze(value, (axis,)), F.squeeze(index, (axis,))
    return value, index


class Median(PrimitiveClass):
    """`ops.Median(global_median=False, axis=0, keep_dims=False, ignore_nan=False)(x)`: (the
    median, its index); see `_median`."""

    def __init__(self, global_median=False, axis=0, keep_dims=False, ignore_nan=False):
        for name, value, kind in (("global_median", global_median, bool), ("axis", axis, int),
                                  ("keep_dims", keep_dims, bool),
                                  ("ignore_nan", ignore_nan, bool)):
            if type(value) is not kind:
                raise DTypeError(f"For 'Median', the type of '{name}' should be "
                                 f"'{kind.__name__}', but got type '{type(value).__name__}'.")
        self.global_median, self.axis = global_median, axis
        self.keep_dims, self.ignore_nan = keep_dims, ignore_nan

    def __call__(self, x):
        return _median(x, self.global_median, self.axis, self.keep_dims, self.ignore_nan)


__all__ += ["Median"]
__all__ += ["FloatStatus", "NMSWithMask", "NPUAllocFloatStatus", "NPUClearFloatStatus", "NPUGetFloatStatus"]



# ----- MindSpore's classes of functional ops cellgraph computes (the call takes the operands) ---

def _cumulative_logsumexp(x, axis, exclusive=False, reverse=False):
    """log(cumsum(exp(x))) along `axis`; `reverse` from the end, `exclusive` leaving out each
    element's own term (-inf for the first)."""
    axis = int(np.asarray(axis)) if not isinstance(axis, int) else axis
    axis %= abstract_of(x).ndim
    if reverse:
        x = _flip(x, (axis,))
    out = logcumsumexp(x, axis)
    if exclusive:
        first = F.fill(abstract_of(x).dtype, tuple(
            1 if d == axis else n for d, n in enumerate(abstract_of(x).shape)), float("-inf"))
        out = F.concat((first, _narrow_before_last(out, axis)), axis)
    return _flip(out, (axis,)) if reverse else out


def _narrow_before_last(x, axis):
    index = [slice(None)] * abstract_of(x).ndim
    index[axis] = slice(0, abstract_of(x).shape[axis] - 1)
    return F.getitem(x, tuple(index))


def _mul_no_nan(x, y):
    """x * y, 0 where y is 0 (even where x is infinite or NaN)."""
    both = F.add(F.zeros_like(x), F.zeros_like(y))  # the broadcast shape
    x, y = F.add(x, both), F.add(y, both)
    return F.mul(F.select(F.equal(y, 0), F.zeros_like(x), x), y)


def _triangular_solve(matrix, rhs, lower=True, adjoint=False):
    """x with T x = rhs, T the lower (or upper) triangle of `matrix` (the rest is not read),
    or its conjugate transpose with `adjoint`."""
    n = abstract_of(matrix).shape[-1]
    keep = np.tril(np.ones((n, n), bool)) if lower else np.triu(np.ones((n, n), bool))
    triangle = F.select(Tensor(keep), matrix, F.zeros_like(matrix))
    if adjoint:
        if abstract_of(matrix).dtype.is_complex:
            triangle = F.conj(triangle)
        triangle = swapaxes(triangle, -1, -2)
    return F.matrix_solve(triangle, rhs)


def _bincount_class(array, size, weights):
    """The count (sum of `weights`) of each value 0 .. size - 1 in `array`; other values are
    left out."""
    size = int(value_input(size, "Bincount", "size"))
    onehot = NF.one_hot(F.reshape(array, (-1,)), size, 1, 0)
    weights = F.reshape(weights, (-1, 1))
    return F.reduce_sum(F.mul(F.cast(onehot, abstract_of(weights).dtype), weights), 0)


def _complex_abs(x):
    """|x| of a complex64 or complex128 Tensor, as float32 or float64."""
    check_tensor_type("ComplexAbs", "x", x, (dt.complex64, dt.complex128))
    return F.abs(x)


def _window(fn):
    def call(length, **attrs):
        dtype = attrs.pop("dtype")
        return fn(int(value_input(length, "Window", "length").reshape(-1)[0]), dtype=dtype, **attrs)

    return call


_FUNCTION_CLASSES = {
    "Gcd": (gcd, {}), "Lcm": (lcm, {}), "Fmax": (fmax, {}), "Fmin": (fmin, {}),
    "IsClose": (isclose, {"rtol": 1e-05, "atol": 1e-08, "equal_nan": False}),
    "NanToNum": (nan_to_num, {"nan": None, "posinf": None, "neginf": None}),
    "Polar": (polar, {}), "MulNoNan": (_mul_no_nan, {}),
    "MatrixPower": (matrix_power, {"n": REQUIRED}),
    "LogMatrixDeterminant": (slogdet, {}), "MatrixExp": (matrix_exp, {}),
    "LuSolve": (lambda x, lu_data, lu_pivots: lu_solve(x, lu_data, lu_pivots), {}),
    "LuUnpack": (lu_unpack, {"unpack_data": True, "unpack_pivots": True}),
    "CumulativeLogsumexp": (_cumulative_logsumexp, {"exclusive": False, "reverse": False}),
    "LogSpace": (lambda start, end, steps, base, dtype: logspace(start, end, steps, base,
                                                               dtype=dtype),
                 {"steps": 10, "base": 10, "dtype": dt.float32}),
    "HammingWindow": (_window(hamming_window), {"periodic": True, "alpha": 0.54, "beta": 0.46,
                                                "dtype": dt.float32}),
    "BartlettWindow": (_window(bartlett_window), {"periodic": True, "dtype": dt.float32}),
    "BlackmanWindow": (_window(blackman_window), {"periodic": True, "dtype": dt.float32}),
    "NuclearNorm": (lambda x, dim, keepdim: norm(x, "nuc", dim or (-2, -1), keepdim),
                    {"dim": None, "keepdim": False}),
    "MatrixTriangularSolve": (_triangular_solve, {"lower": True, "adjoint": False}),
    "Bincount": (_bincount_class, {}),
    "ComplexAbs": (_complex_abs, {}),
    "Orgqr": (lambda x, tau: orgqr(x, tau), {}),
    "Betainc": (betainc, {}),
}
define_classes(globals(), _FUNCTION_CLASSES, __name__)
__all__ += list(_FUNCTION_CLASSES)


# ----- MindSpore's deprecated math classes its CPU kernels still run


def _check_dtypes(op: str, named: dict, allowed: tuple) -> None:
    """MindSpore's TypeError for an operand of `named` ({name: value}) that is not a Tensor
    of one of `allowed`."""
    for name, value in named.items():
        check_tensor_type(op, name, value, allowed)


def _check_same_dtype(op: str, named: dict) -> None:
    check_types_same(op, {name: abstract_of(value).dtype for name, value in named.items()})


class Histogram(PrimitiveClass):
    """`ops.Histogram(bins=100, min=0.0, max=0.0)(x)`: `histc`, the counts of a float16,
    float32 or int32 Tensor's elements in `bins` equal bins, in its dtype."""

    def __init__(self, bins=100, min=0.0, max=0.0):
        op = "Histogram"
        check_value_type("bins", bins, [int], op)
        check_value_type("min", min, [float], op)
        check_value_type("max", max, [float], op)
        check_positive_int(bins, "bins", op)
        check("min", min, "max", max, LE, op)
        self.bins, self.min, self.max = bins, min, max
        self._attrs = {"bins": bins, "min": min, "max": max}

    def __call__(self, x):
        _check_dtypes("Histogram", {"x": x}, (dt.float16, dt.float32, dt.int32))
        return histc(x, self.bins, self.min, self.max)


def _compare_and_bitpack(x, threshold):
    """Whether each element of `x` exceeds the 0-D `threshold`, 8 to a uint8 along the last
    axis, the first in the highest bit; a bool `x` is packed as it is, the first in the lowest
    bit (MindSpore's kernel reads 8 bools as one little-endian word)."""
    op = "CompareAndBitpack"
    _check_same_dtype(op, {"x": x, "threshold": threshold})
    _check_dtypes(op, {"threshold": threshold}, (dt.bool_, dt.float16, dt.float32, dt.float64,
                                                 dt.int8, dt.int16, dt.int32, dt.int64))
    if abstract_of(threshold).ndim != 0:
        raise ArgumentValueError(f"For primitive[{op}], the threshold's rank' must be equal to "
                                 f"0, but got {abstract_of(threshold).ndim}.")
    shape = abstract_of(x).shape
    if not shape:
        raise ArgumentValueError(f"For primitive[{op}], the x's rank must be greater than or "
                                 f"equal to 1, but got 0.")
    if shape[-1] % 8:
        raise ArgumentValueError(f"For primitive[{op}], the attribute[x innermost dimension % 8] "
                                 f"must be equal to 0, but got {shape[-1] % 8}.")
    is_bool = abstract_of(x).dtype == dt.bool_
    bits = x if is_bool else F.greater(x, threshold)
    bits = F.reshape(F.cast(bits, dt.int32), (*shape[:-1], shape[-1] // 8, 8))
    weights = Tensor(np.array([1, 2, 4, 8, 16, 32, 64, 128] if is_bool else
                              [128, 64, 32, 16, 8, 4, 2, 1], np.int32))
    return F.cast(F.reduce_sum(F.mul(bits, weights), -1), dt.uint8)


def _tridiagonal_matmul(superdiag, maindiag, subdiag, rhs):
    """The product of the tridiagonal matrices given by their diagonals (each `(..., 1, M)`;
    `superdiag[..., M-1]` and `subdiag[..., 0]` unused) with `rhs` `(..., M, N)`."""
    op = "TridiagonalMatMul"
    named = {"superdiag": superdiag, "maindiag": maindiag, "subdiag": subdiag, "rhs": rhs}
    _check_dtypes(op, named, (dt.float16, dt.float32, dt.float64, dt.complex64, dt.complex128))
    _check_same_dtype(op, named)
    for name, value in named.items():
        if abstract_of(value).ndim < 2:
            raise ArgumentValueError(f"For primitive[{op}], the dimension of '{name}' must be "
                                     f"greater than or equal to 2 , but got "
                                     f"{abstract_of(value).ndim}.")
    m = abstract_of(rhs).shape[-2]
    for name in ("superdiag", "maindiag", "subdiag"):
        shape = abstract_of(named[name]).shape
        if shape[-2:] != (1, m) or shape[:-2] != abstract_of(rhs).shape[:-2]:
            raise ArgumentValueError(f"For primitive[{op}], the shape of '{name}' must be "
                                     f"{(*abstract_of(rhs).shape[:-2], 1, m)}, but got {shape}.")
    column = [swapaxes(d, -1, -2) for d in (superdiag, maindiag, subdiag)]   # (..., M, 1)
    out = F.mul(column[1], rhs)
    if m > 1:
        zero = F.zeros_like(rhs[..., :1, :])
        above = F.mul(column[0][..., :-1, :], rhs[..., 1:, :])
        below = F.mul(column[2][..., 1:, :], rhs[..., :-1, :])
        out = F.add(out, F.add(F.concat((above, zero), -2), F.concat((zero, below), -2)))
    return out


def _adjoint(x):
    x = swapaxes(x, -1, -2)
    return F.conj(x) if abstract_of(x).dtype.is_complex else x


class MatrixSolveLs(PrimitiveClass):
    """`ops.MatrixSolveLs(fast=True)(matrix, rhs, l2_regularizer)`: the least-squares
    solutions X `(..., N, K)` of matrix `(..., M, N)` @ X = rhs `(..., M, K)`. fast: through
    the normal equations with the float64 scalar `l2_regularizer` added to the Gram matrix's
    diagonal (A^H A + l2 I when M >= N, else the minimum-norm A^H (A A^H + l2 I)^-1); not fast:
    the unregularised solution computed in double precision (MindSpore's complete orthogonal
    decomposition ignores `l2_regularizer`)."""

    def __init__(self, fast=True):
        self.fast = check_value_type("fast", fast, [bool], "MatrixSolveLs")
        self._attrs = {"fast": fast}

    def __call__(self, matrix, rhs, l2_regularizer):
        op = "MatrixSolveLs"
        kinds = (dt.float32, dt.float64, dt.complex64, dt.complex128)
        _check_dtypes(op, {"matrix": matrix, "rhs": rhs}, kinds)
        _check_same_dtype(op, {"matrix": matrix, "rhs": rhs})
        _check_dtypes(op, {"l2_regularizer": l2_regularizer}, (dt.float64,))
        a, b = abstract_of(matrix), abstract_of(rhs)
        if a.ndim < 2 or b.ndim < 2:
            raise ArgumentValueError(f"For '{op}', the rank of 'matrix' and 'rhs' must be at "
                                     f"least 2, but got {a.ndim} and {b.ndim}.")
        if a.shape[:-1] != b.shape[:-1]:
            raise ArgumentValueError(f"For '{op}', the shape of 'matrix' {a.shape} does not match "
                                     f"the shape of 'rhs' {b.shape}.")
        dtype = a.dtype
        if not self.fast:  # the unregularised solution, in double precision
            wide = dt.complex128 if dtype.is_complex else dt.float64
            solved = self._normal_solution(F.cast(matrix, wide), F.cast(rhs, wide), 0.0)
            return F.cast(solved, dtype)
        return self._normal_solution(matrix, rhs, F.cast(l2_regularizer, dtype))

    @staticmethod
    def _normal_solution(matrix, rhs, l2):
        m, n = abstract_of(matrix).shape[-2:]
        adjoint = _adjoint(matrix)
        dtype = abstract_of(matrix).dtype
        if m >= n:
            gram = F.add(F.matmul(adjoint, matrix), F.mul(Tensor(np.eye(n), dtype), l2))
            return F.matrix_solve(gram, F.matmul(adjoint, rhs))
        gram = F.add(F.matmul(matrix, adjoint), F.mul(Tensor(np.eye(m), dtype), l2))
        return F.matmul(adjoint, F.matrix_solve(gram, rhs))


class RaggedRange(PrimitiveClass):
    """`ops.RaggedRange(Tsplits)(starts, limits, deltas)`: the ranges [starts[i], limits[i])
    in steps of deltas[i], as a ragged Tensor: (row splits, in `Tsplits`; the values one after
    another, in the inputs' dtype). The sizes of the result depend on the values, so in a
    graph the inputs are read when it is built."""

    def __init__(self, Tsplits):
        if Tsplits not in (dt.int64, dt.int32):
            shown = Tsplits if isinstance(Tsplits, dt.DType) else type(Tsplits).__name__
            raise DTypeError(f"For 'RaggedRange', the 'Tsplits' should be one of "
                             f"[{dt.int64!r}, {dt.int32!r}], but got '{shown!r}'.")
        self.Tsplits = Tsplits
        self._attrs = {"Tsplits": Tsplits}

    def __call__(self, starts, limits, deltas):
        op = "RaggedRange"
        named = {"starts": starts, "limits": limits, "deltas": deltas}
        for name, value in named.items():
            if not is_tensor(value):
                raise DTypeError(f"For {op}, the input '{name}' must be a Tensor, but got "
                                 f"{type(value).__name__}.")
        types = [abstract_of(v).dtype for v in named.values()]
        if len(set(types)) > 1:
            raise DTypeError(f"For {op}, starts, limits, and deltas must have the same type, "
                             f"but got " + ", ".join(f"{k} Tensor[{t}]" for k, t in
                                                     zip(named, types)) + ".")
        _check_dtypes(op, {"starts": starts}, (dt.int32, dt.int64, dt.float32, dt.float64))
        shapes = [abstract_of(v).shape or (1,) for v in named.values()]
        if max(len(s) for s in shapes) != 1:
            raise ArgumentValueError(f"For {op}, starts, limits, and deltas must be 0-D or 1-D.")
        if len(set(shapes)) > 1:
            raise ArgumentValueError(
                f"For {op}, starts, limits, and deltas must have the same shape, but got "
                + ", ".join(f"{k} {s}" for k, s in zip(named, shapes)) + ".")
        values = [np.atleast_1d(value_input(v, op, k)).astype(types[0].np)
                  for k, v in named.items()]
        splits, dense = _ragged_ranges(*values)
        return (Tensor(np.asarray(splits, self.Tsplits.np)),
                Tensor(np.asarray(dense, types[0].np)))


def _ragged_ranges(starts, limits, deltas) -> tuple[list, list]:
    """(row splits, values) as MindSpore's RaggedRange kernel makes them: each row's size
    ceil(|limit - start| / |delta|) (0 where delta points away from limit), its values
    accumulated in the inputs' dtype."""
    splits, dense = [0], []
    for start, limit, delta in zip(starts, limits, deltas):
        if delta == 0:
            raise ArgumentValueError("For RaggedRange, requires input delta != 0.")
        if (delta > 0 and limit < start) or (delta < 0 and limit > start):
            size = 0
        elif np.issubdtype(starts.dtype, np.integer):
            size = (abs(int(limit) - int(start)) + abs(int(delta)) - 1) // abs(int(delta))
        else:
            size = int(np.ceil(abs((float(limit) - float(start)) / float(delta))))
        value = start
        for _ in range(size):
            dense.append(value)
            value = value + delta  # NumPy scalars: in the inputs' dtype
        splits.append(splits[-1] + size)
    return splits, dense


def _square_root(matrix: np.ndarray) -> np.ndarray:
    """The principal square root by the Denman-Beavers iteration (to convergence)."""
    root, inverse_root = matrix, np.eye(matrix.shape[0], dtype=matrix.dtype)
    for _ in range(100):
        step = (root + np.linalg.inv(inverse_root)) / 2
        inverse_root = (inverse_root + np.linalg.inv(root)) / 2
        done = np.linalg.norm(step - root, 1) <= 1e-15 * np.linalg.norm(step, 1)
        root = step
        if done:
            break
    return root


def principal_logarithm(matrix: np.ndarray) -> np.ndarray:
    """The principal logarithm of a square complex matrix by inverse scaling and squaring:
    square roots until it is within 0.25 of the identity, the series of log(I + Y) there,
    times 2 ** (the number of roots). Defective matrices (Jordan blocks) included."""
    identity = np.eye(matrix.shape[0], dtype=np.complex128)
    root, halvings = matrix.astype(np.complex128), 0
    while np.linalg.norm(root - identity, 1) > 0.25 and halvings < 64:
        root, halvings = _square_root(root), halvings + 1
    offset = root - identity
    term, total = identity, np.zeros_like(identity)
    for k in range(1, 80):
        term = term @ offset
        total = total + term * ((-1) ** (k + 1) / k)
        if np.linalg.norm(term, 1) < 1e-18:
            break
    return total * 2.0 ** halvings


def _logarithms(dtype):
    def compute(x):
        x = np.asarray(x)
        flat = x.reshape(-1, *x.shape[-2:])
        out = np.stack([principal_logarithm(m) for m in flat]) if flat.size else \
            flat.astype(np.complex128)
        return out.reshape(x.shape).astype(dtype.np)

    return compute


def _matrix_logarithm(x):
    """The principal logarithm of each square complex matrix of `x` (..., M, M), computed on
    the host where the graph runs (MindSpore defines no gradient for it)."""
    op = "MatrixLogarithm"
    _check_dtypes(op, {"x": x}, (dt.complex64, dt.complex128))
    shape = abstract_of(x).shape
    if len(shape) < 2:
        raise ArgumentValueError(f"For primitive[{op}], the dimension of x must be greater "
                                 f"than or equal to 2, but got {len(shape)}.")
    if shape[-1] != shape[-2]:
        raise ArgumentValueError(f"For primitive[{op}], the last two dimensions of x must be "
                                 f"equal, but got {shape[-2]} and {shape[-1]}.")
    dtype = abstract_of(x).dtype
    call = HostCall(_logarithms(dtype), op, (0,), (TensorType(shape, dtype),), True, user_loc())
    return py_func_p(x, call=call)[0]


_DEPRECATED_CLASSES = {"CompareAndBitpack": _compare_and_bitpack, "MatrixLogarithm": _matrix_logarithm,
                       "TridiagonalMatMul": _tridiagonal_matmul}
define_classes(globals(), _DEPRECATED_CLASSES, __name__)
__all__ += list(_DEPRECATED_CLASSES)
__all__ += ["Histogram", "MatrixSolveLs", "RaggedRange"]


# the classes derived from the primitives' declarations that MindSpore files here
generate_classes(globals())


def _real_div(x, y):
    """RealDiv: x / y with the two operands in their promoted dtype. MindSpore 2.10's Div
    ranks a 0-d tensor below the other operand (float16 / a float32 0-d scale is float16);
    its RealDiv does not (float32), as loss-scale code dividing float16 gradients reads.
    Integer operands give their integer quotient rounded towards zero, as MindSpore's."""
    from cellgraph.ops.function.math_func.elementwise import div as rounded_div
    from cellgraph.primitives.core import abstract_of, is_value, result_dtype
    from cellgraph.primitives.math_ops import div

    if not (is_value(x) and is_value(y)):
        return div(x, y)  # div reports the operand it cannot take
    avals = [abstract_of(x), abstract_of(y)]
    if avals[0].weak and avals[1].weak:  # (`all` is ops.all in this module)
        return div(x, y)
    target = result_dtype(*avals)
    x, y = [v if a.weak or a.dtype == target else F.cast(v, target)
            for v, a in zip((x, y), avals)]
    if target.is_float or target.is_complex:
        return div(x, y)
    return F.cast(rounded_div(x, y, rounding_mode="trunc"), target)


class RealDiv(globals()["Div"]):  # the generated Div's subclass, as the alias was
    """ops.RealDiv()(x, y)."""

    _fn = staticmethod(_real_div)
