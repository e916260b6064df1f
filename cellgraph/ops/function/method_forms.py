"""The functional forms of operations cellgraph first wrote as Tensor methods
(`ops.tensor_overloads`), as mint functions or under another name: MindSpore's `ops` has each
of them too, under the parameter names given here, computing what the original computes."""
from __future__ import annotations

import math

from cellgraph.ops import tensor_overloads as _methods
from cellgraph.primitives import functional as F
from cellgraph.primitives.core import abstract_of
from cellgraph.primitives.errors import DTypeError

__all__ = [
    "accumulate_n",
    "adaptive_avg_pool2d_ext",
    "addcdiv",
    "adjoint",
    "arctan2",
    "baddbmm_ext",
    "bernoulli_ext",
    "conv3d_transpose",
    "copysign",
    "dense_to_sparse_coo",
    "dense_to_sparse_csr",
    "diagflat",
    "diff_ext",
    "einsum_ext",
    "embedding",
    "expand_as",
    "fills",
    "float_power_ext",
    "floordiv",
    "floormod",
    "fmax",
    "fmin",
    "gcd",
    "group_norm",
    "i0",
    "is_complex",
    "isnan_ext",
    "lcm",
    "ldexp",
    "logaddexp2",
    "mirror_pad",
    "mse_loss_ext",
    "msort",
    "mv",
    "nanmean",
    "numel",
    "ravel",
    "select_scatter",
    "sinc",
    "slice_scatter",
    "swiglu",
    "tensor_expm1",
    "tensor_muls",
    "tensor_range",
    "truncate_div",
    "truncate_mod",
    "type_as",
    "upsample",
    "view_as",
    "xdivy",
]


def _ops():
    from cellgraph import ops

    return ops


def _mint():
    from cellgraph import mint

    return mint


def _mint_functional():
    from cellgraph.mint.nn import functional

    return functional


def _checked(op: str, input):
    if not hasattr(input, "aval") and not hasattr(input, "_data"):
        raise DTypeError(f"For '{op}', the input must be a Tensor, but got "
                         f"{type(input).__name__}.")
    return abstract_of(input)


def addcdiv(input, tensor1, tensor2, value=1):
    """input + value * tensor1 / tensor2."""
    return _mint().addcdiv(input, tensor1, tensor2, value=value)


def adjoint(x):
    """The conjugate transpose of the last two axes."""
    return _methods.adjoint(x)


def arctan2(input, other):
    """The angle of the point (other, input), elementwise."""
    return _ops().atan2(input, other)


def copysign(x, other):
    """|x| with the sign of `other` (a float result)."""
    return _methods.copysign(x, other)


def diagflat(input, offset=0):
    """A square matrix with the flattened input on diagonal `offset`."""
    return _methods.diagflat(input, offset)


def expand_as(input, other):
    """input broadcast to other's shape."""
    return _mint().expand_as(input, other)


def floordiv(input, other):
    """floor(input / other), elementwise."""
    return _ops().floor_divide(input, other)


def floormod(x, y):
    """x - floor(x / y) * y, elementwise."""
    return _ops().floor_mod(x, y)


def fmax(input, other):
    """The larger of the two where both are numbers; the number where one is NaN."""
    return _methods.fmax(input, other)


def fmin(input, other):
    """The smaller of the two where both are numbers; the number where one is NaN."""
    return _methods.fmin(input, other)


def gcd(input, other):
    """The greatest common divisor of two integer Tensors, elementwise."""
    return _methods.gcd(input, other)


def lcm(input, other):
    """The least common multiple of two integer Tensors, elementwise."""
    return _methods.lcm(input, other)


def i0(input):
    """The modified Bessel function of the first kind of order 0 (`bessel_i0`)."""
    return _ops().bessel_i0(input)


def is_complex(input):
    """Whether the Tensor's dtype is complex (a Python bool)."""
    return _checked("is_complex", input).dtype.is_complex


def ldexp(x, other):
    """x * 2 ** other."""
    return _methods.ldexp(x, other)


def logaddexp2(input, other):
    """log2(2 ** input + 2 ** other)."""
    return _methods.logaddexp2(input, other)


def msort(input):
    """The Tensor sorted along its first axis."""
    return _methods.msort(input)


def mv(mat, vec):
    """The product of the matrix `mat` and the vector `vec`."""
    return _mint().mv(mat, vec)


def nanmean(input, axis=None, keepdims=False, *, dtype=None):
    """The mean of the elements that are not NaN."""
    return _methods.nanmean(input, axis, keepdims, dtype=dtype)


def numel(input):
    """The number of elements (a Python int)."""
    return math.prod(_checked("numel", input).shape)


def ravel(input):
    """The Tensor flattened to one axis."""
    _checked("ravel", input)
    return F.reshape(input, (-1,))


def select_scatter(input, src, axis, index):
    """input with `src` written at `index` along `axis`."""
    return _methods.select_scatter(input, src, axis, index)


def sinc(input):
    """sin(pi x) / (pi x), 1 at 0."""
    return _mint().sinc(input)


def slice_scatter(input, src, axis=0, start=None, end=None, step=1):
    """input with `src` written into the slice start:end:step along `axis`."""
    return _methods.slice_scatter(input, src, axis, start, end, step)


def truncate_div(x, y):
    """x / y rounded toward zero."""
    return _ops().TruncateDiv()(x, y)


def truncate_mod(x, y):
    """The remainder of the division rounded toward zero (the sign of x)."""
    return _ops().TruncateMod()(x, y)


def type_as(input, other):
    """input cast to other's dtype."""
    return F.cast(input, _checked("type_as", other).dtype)


def view_as(input, other):
    """input reshaped to other's shape."""
    return F.reshape(input, tuple(_checked("view_as", other).shape))


def xdivy(x, y):
    """x / y, 0 where x is 0."""
    return _ops().Xdivy()(x, y)


# ----- MindSpore's other names: the mint-style `_ext` forms and the older `tensor_` ones ------

def adaptive_avg_pool2d_ext(input, output_size):
    return _ops().adaptive_avg_pool2d(input, output_size)


def baddbmm_ext(input, batch1, batch2, *, beta=1, alpha=1):
    return _ops().baddbmm(input, batch1, batch2, beta, alpha)


def bernoulli_ext(input, *, generator=None):
    """0/1 draws, each 1 with the probability its element of `input` gives."""
    return _mint().bernoulli(input, generator=generator)


def diff_ext(input, n=1, dim=-1, prepend=None, append=None):
    return _ops().diff(input, n, dim, prepend, append)


def einsum_ext(equation, *operands):
    return _ops().einsum(equation, *operands)


def float_power_ext(input, exponent):
    return _ops().float_power(input, exponent)


def isnan_ext(tensor):
    return _ops().isnan(tensor)


def mse_loss_ext(input, target, reduction="mean"):
    return _ops().mse_loss(input, target, reduction)


def tensor_expm1(input):
    return _ops().expm1(input)


def tensor_muls(input, other):
    return _ops().mul(input, other)


def tensor_range(start, end, step):
    return _ops().range(start, end, step)


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
             recompute_scale_factor=None):
    """`interpolate`, under its older name."""
    return _ops().interpolate(input, size, scale_factor, mode, align_corners,
                              recompute_scale_factor)


# ----- the functional forms of mint's and the primitives' ---------------------------------------

def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False):
    """The rows of `weight` at the indices `input`."""
    return _mint_functional().embedding(input, weight, padding_idx, max_norm, norm_type,
                                        scale_grad_by_freq)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05):
    """Normalisation over groups of channels (axis 1), then the per-channel affine map."""
    return _mint_functional().group_norm(input, num_groups, weight, bias, eps)


def conv3d_transpose(inputs, weight, pad_mode="valid", padding=0, stride=1, dilation=1, group=1,
                     output_padding=0):
    """The transposed 3-D convolution of `inputs` (N, C, D, H, W) by `weight`, no bias."""
    return _ops().conv_transpose3d(inputs, weight, None, stride, pad_mode, padding, dilation,
                                   group, output_padding)


def mirror_pad(input_x, paddings, mode):
    """`MirrorPad(mode)`: input_x padded by reflection ('REFLECT' or 'SYMMETRIC')."""
    return _ops().MirrorPad(mode)(input_x, paddings)


def swiglu(input, dim=-1):
    """silu(a) * b, a and b the two halves of `input` along `dim`."""
    aval = _checked("swiglu", input)
    if not aval.dtype.is_float:
        raise DTypeError(f"For 'swiglu', the input must be a float16, float32 or bfloat16 "
                         f"Tensor, but got {aval.dtype}.")
    a, b = _ops().chunk(input, 2, dim)
    return F.mul(_ops().silu(a), b)


def accumulate_n(x):
    """The elementwise sum of the Tensors in the list or tuple `x` (ops.addn)."""
    if not isinstance(x, (list, tuple)) or not x:
        raise DTypeError(f"For 'accumulate_n', 'x' must be a non-empty list or tuple of "
                         f"Tensors, but got {type(x).__name__}.")
    total = x[0]
    for item in x[1:]:
        total = F.add(total, item)
    return total


def fills(x, value):
    """A Tensor of x's shape and dtype holding the number (or 0-d Tensor) `value`."""
    return _methods.fills(x, value)


def dense_to_sparse_coo(tensor):
    """The non-zero elements of the 2-D `tensor` as a COOTensor."""
    return _methods.to_coo(tensor)


def dense_to_sparse_csr(tensor):
    """The non-zero elements of the 2-D `tensor` as a CSRTensor."""
    return _methods.to_csr(tensor)
