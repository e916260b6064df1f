"""gen_ops_prim's discrete cosine transforms, DCT, IDCT, DCTN and IDCTN, as MindSpore 2.10 has
them: type II with orthonormal scaling only (norm None is "ortho"), the input cut or padded with
zeros to `n` along each transformed axis. Each transform is a product with a constant
orthonormal matrix (the inverse with its transpose), so it differentiates and batches as a
matrix product does."""
import math

import numpy as np

from cellgraph import ops
from cellgraph.ops.primitive_class import define_class
from cellgraph.primitives import dtype as mstype
from cellgraph.primitives.errors import ArgumentValueError

MODULE = "cellgraph.ops.auto_generate.gen_ops_prim"
_NORMS = ("backward", "forward", "ortho")


def _dct_matrix(n: int) -> np.ndarray:
    """The orthonormal DCT-II matrix: row k is sqrt(2 / n) cos(pi k (2 i + 1) / 2n) over i,
    row 0 scaled by 1 / sqrt(2)."""
    k, i = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    matrix = math.sqrt(2.0 / n) * np.cos(np.pi * k * (2 * i + 1) / (2 * n))
    matrix[0] /= math.sqrt(2.0)
    return matrix


def _check(op: str, type, norm):
    if norm is not None and norm not in _NORMS:
        raise ArgumentValueError(f"Failed to convert the value \"{norm}\" of input 'norm' of "
                                 f"'{op}' to enum.")
    if type != 2:
        raise ArgumentValueError("Only dct type II is supported currently.")
    if norm not in (None, "ortho"):
        raise ArgumentValueError('Only norm "ortho" is supported currently.')


def _float(x):
    """The input as the dtype the transform computes in: float32 for integers, bools and
    float16, the input's own for float32, float64 and complex."""
    if x.dtype in (mstype.float32, mstype.float64, mstype.complex64, mstype.complex128):
        return x
    return ops.cast(x, mstype.float32)


def _transform(op: str, x, n, axis: int, inverse: bool):
    """The transform of x along `axis`, the axis cut or zero-padded to `n` first."""
    ndim = len(x.shape)
    if not -ndim <= axis < ndim:
        raise ArgumentValueError(f"For primitive[{op}], the axis must be in [{-ndim},{ndim}), "
                                 f"but got {axis}.")
    axis %= ndim
    size = x.shape[axis] if n is None else n
    if size <= 0:
        raise ArgumentValueError(f"The argument[n] must be greater than 0, but got {size}.")
    x = ops.swapaxes(x, axis, -1)
    if size < x.shape[-1]:
        x = x[..., :size]
    elif size > x.shape[-1]:
        x = ops.pad(x, (0, size - x.shape[-1]))
    matrix = _dct_matrix(size)
    matrix = matrix if inverse else matrix.T  # rows of x times the (transposed) matrix
    real = mstype.float64 if x.dtype in (mstype.float64, mstype.complex128) else mstype.float32
    out = ops.matmul(x, ops.cast(ops.Tensor(matrix, real), x.dtype))
    return ops.swapaxes(out, axis, -1)


def _one_axis(op: str, inverse: bool):
    def call(x, type=2, n=None, axis=-1, norm=None):
        _check(op, type, norm)
        return _transform(op, _float(x), n, axis, inverse)

    call.__name__ = call.__qualname__ = op.lower()
    return call


def _n_axes(op: str, inverse: bool):
    """DCTN, IDCTN: the transform along each of `axes` (all, or the last len(s), when None),
    `s` giving each one's length."""
    def call(x, type=2, s=None, axes=None, norm=None):
        _check(op, type, norm)
        ndim = len(x.shape)
        if axes is None:
            axes = tuple(range(ndim - (ndim if s is None else len(s)), ndim))
        axes = (axes,) if isinstance(axes, int) else tuple(axes)
        sizes = (None,) * len(axes) if s is None else tuple(s)
        if len(sizes) != len(axes):
            raise ArgumentValueError(f"For '{op}', 's' and 'axes' must have the same length, "
                                     f"but got {len(sizes)} and {len(axes)}")
        out = _float(x)
        for axis, size in zip(axes, sizes):
            out = _transform(op, out, size, axis, inverse)
        return out

    call.__name__ = call.__qualname__ = op.lower()
    return call


CLASSES = {name: define_class(name, fn, None, MODULE) for name, fn in {
    "DCT": _one_axis("DCT", False), "IDCT": _one_axis("IDCT", True),
    "DCTN": _n_axes("DCTN", False), "IDCTN": _n_axes("IDCTN", True)}.items()}
