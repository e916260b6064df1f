"""MindSpore's `ops.function.fft_func`: the discrete Fourier transforms `fft`, `ifft`, `rfft`,
`irfft`, `hfft`, `ihfft`, their 2-D and n-D forms, `fftshift`, `ifftshift`, `fftfreq` and
`rfftfreq`, with MindSpore's dtype rules and checks.

Each transform is a product with a constant DFT matrix along one axis at a time (the
`FFTWithSize` helpers of `spectral`), so it differentiates to any order and batches through
the matmuls it is made of. The matrix also does the resizing: a signal longer than the
transform's size is cut (its rows are zero), a shorter one is padded with zeros (it has fewer
rows). Conventions are NumPy's and PyTorch's: norm "backward" (the default) scales the inverse
by 1/n, "forward" the forward transform, "ortho" both by 1/sqrt(n); hfft is the irfft of the
conjugate with the norm's direction swapped, ihfft the conjugate of the rfft likewise. As
MindSpore does, real and integer inputs become complex64 (float64: complex128). The real
transforms (rfft, ihfft) take the real part of a complex input, as NumPy does: MindSpore 2.10's
CPU kernel accepts one but returns values that are no transform of it (the complex FFT's
values, read in the wrong order), so there cellgraph deliberately differs.
"""
from __future__ import annotations

import numbers

import numpy as np

from cellgraph.ops.function.array_func.attributes import _const, is_tensor
from cellgraph.ops.function.array_func.shape import roll
from cellgraph.ops.function.math_func.spectral import _along
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives.complex_ops import conj, real_part
from cellgraph.primitives.core import abstract_of, value_input
from cellgraph.primitives.errors import ArgumentValueError, DTypeError

__all__ = ["fft", "fft2", "fftfreq", "fftn", "fftshift", "hfft", "hfft2", "hfftn", "ifft", "ifft2",
           "ifftn", "ifftshift", "ihfft", "ihfft2", "ihfftn", "irfft", "irfft2", "irfftn", "rfft",
           "rfft2", "rfftfreq", "rfftn"]

_NORMS = (None, "backward", "forward", "ortho")
_DUAL = {None: "forward", "backward": "forward", "forward": "backward", "ortho": "ortho"}


# ----- arguments ------------------------------------------------------------------------------

def _value(op: str, name: str, value):
    """An argument given as a Tensor (a `mutable` number or tuple passed to the graph) as the
    Python value it holds: the graph is specialised on it, as MindSpore's graph mode reads such
    an argument when it compiles."""
    if hasattr(value, "aval"):
        array = value_input(value, op, name)
        return array.item() if array.ndim == 0 else tuple(array.tolist())
    if isinstance(value, (tuple, list)):
        return tuple(_value(op, name, v) for v in value)
    return value


def _check_input(op: str, x, signature: str):
    """The input's abstract value: a Tensor of rank 1 to 8 and a numeric dtype."""
    if not is_tensor(x):
        raise DTypeError(f'Failed calling {op} with "{op}()(input={type(x).__name__}, ...)".\n'
                         f'The valid calling should be: \n"{op}()(input=<Tensor>, {signature})".')
    aval = abstract_of(x)
    if not 1 <= aval.ndim <= 8:
        raise ArgumentValueError(f"For primitive[{op}], the rank of input must be in [1,8], but "
                                 f"got {aval.ndim}.")
    if aval.dtype == dt.bool_:
        raise DTypeError(f"For primitive[{op}], the input's dtype must be a number type "
                         f"(int, uint, float or complex), but got Bool.")
    return aval


def _check_norm(op: str, norm):
    if norm not in _NORMS:
        raise ArgumentValueError(f'Failed to convert the value "{norm}" of input \'norm\' of '
                                 f"'{op}' to enum.")


def _check_size(op: str, name: str, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise DTypeError(f"For primitive[{op}], the argument[{name}] must be an int, but got "
                         f"{type(value).__name__} {value!r}.")
    if value <= 0:
        raise ArgumentValueError(f"For primitive[{op}], the argument[{name}] must be greater "
                                 f"than 0, but got {value}.")
    return int(value)


def _axis(op: str, dim, ndim: int) -> int:
    if isinstance(dim, bool) or not isinstance(dim, numbers.Integral):
        raise DTypeError(f"For primitive[{op}], the dim must be an int, but got "
                         f"{type(dim).__name__} {dim!r}.")
    if not -ndim <= dim < ndim:
        raise ArgumentValueError(f"For primitive[{op}], the dim must be in [{-ndim},{ndim}), "
                                 f"but got {dim}.")
    return int(dim) % ndim


def _axes_and_sizes(op: str, aval, s, dim, default_dim):
    """The transform's axes and sizes (None where the signal keeps its length): `dim` given,
    or the last len(s) axes when only `s` is, else `default_dim` (None: every axis)."""
    ndim = aval.ndim
    s, dim = _value(op, "s", s), _value(op, "dim", dim)
    as_tuple = (lambda v: (v,) if isinstance(v, numbers.Integral) else tuple(v))
    if dim is None and s is not None:
        dim = tuple(range(-len(as_tuple(s)), 0))
    elif dim is None:
        dim = default_dim if default_dim is not None else tuple(range(ndim))
    dims = as_tuple(dim)
    if s is not None and len(as_tuple(s)) != len(dims):
        raise ArgumentValueError("When given, dim and s arguments must have the same length.")
    axes = [_axis(op, d, ndim) for d in dims]
    if len(set(axes)) != len(axes):
        raise ArgumentValueError("The dims must be unique.")
    sizes = [None] * len(axes) if s is None else [
        None if v == -1 else _check_size(op, "s", v) for v in as_tuple(s)]
    return axes, sizes


# ----- the transforms along one axis ----------------------------------------------------------

def _complex(x, aval, real_only: bool):
    """The input as complex64 (complex128 from float64 or complex128); with `real_only`, its
    real part as float32 or float64 (the real transforms take that)."""
    wide = aval.dtype in (dt.float64, dt.complex128)
    if real_only:
        if aval.dtype.is_complex:
            x = real_part(x)
        return F.cast(x, dt.float64 if wide else dt.float32), (dt.complex128 if wide
                                                               else dt.complex64)
    return x, dt.complex128 if wide else dt.complex64


def _scale(norm, n: int, inverse: bool) -> float:
    if norm == "ortho":
        return 1.0 / np.sqrt(n) if n else 1.0
    scaled = "forward" if not inverse else "backward"
    return 1.0 / n if n and (norm or "backward") == scaled else 1.0


def _c2c(x, axis: int, n, norm, inverse: bool, cdtype, bins=None):
    """The complex DFT of length n (the axis' length when None) along `axis`, keeping the first
    `bins` outputs (all n when None)."""
    length = abstract_of(x).shape[axis]
    n = length if n is None else n
    bins = n if bins is None else bins
    k = np.arange(min(length, n))
    angles = (1.0 if inverse else -1.0) * 2 * np.pi * np.outer(k, np.arange(bins)) / n
    matrix = np.zeros((length, bins), np.complex128)
    matrix[:len(k)] = np.exp(1j * angles) * _scale(norm, n, inverse)
    return _along(F.cast(x, cdtype), axis, _const(matrix.astype(cdtype.np), cdtype))


def _c2r(x, axis: int, n, norm, cdtype):
    """The real signal of length n (default 2 (m - 1)) whose one-sided spectrum of m bins is
    `x` along `axis`: each bin but the constant and the Nyquist one stands for itself and its
    mirror image, and the imaginary parts of those two are ignored, as NumPy's irfft does."""
    m = abstract_of(x).shape[axis]
    n = 2 * (m - 1) if n is None else n
    used = min(m, n // 2 + 1)
    w = np.arange(used)
    weights = np.where((w == 0) | ((n % 2 == 0) & (w == n // 2)), 1.0, 2.0)
    matrix = np.zeros((m, n), np.complex128)
    if n:
        matrix[:used] = weights[:, None] * np.exp(2j * np.pi * np.outer(w, np.arange(n)) / n)
        matrix *= _scale(norm, n, True)
    return real_part(_along(F.cast(x, cdtype), axis, _const(matrix.astype(cdtype.np), cdtype)))


# ----- the public transforms ------------------------------------------------------------------

_ONE = "n=<int>, dim=<int>, norm=<string>"
_MANY = "s=<tuple of int>, dim=<tuple of int>, norm=<string>"


def _one_axis(op, x, n, dim, norm):
    aval = _check_input(op, x, _ONE)
    n, dim = _value(op, "n", n), _value(op, "dim", dim)
    _check_norm(op, norm)
    n = None if n is None else _check_size(op, "n", n)
    return aval, _axis(op, dim, aval.ndim), n


def _c2c_n(op, x, s, dim, norm, inverse, default_dim):
    aval = _check_input(op, x, _MANY)
    _check_norm(op, norm)
    axes, sizes = _axes_and_sizes(op, aval, s, dim, default_dim)
    x, cdtype = _complex(x, aval, False)
    for axis, n in zip(axes, sizes):
        x = _c2c(x, axis, n, norm, inverse, cdtype)
    return x if axes else F.cast(x, cdtype)


def _r2c_n(op, x, s, dim, norm, default_dim):
    """rfftn: the one-sided transform along the last axis, then the full one along the rest."""
    aval = _check_input(op, x, _MANY)
    _check_norm(op, norm)
    axes, sizes = _axes_and_sizes(op, aval, s, dim, default_dim)
    x, cdtype = _complex(x, aval, True)
    n = aval.shape[axes[-1]] if sizes[-1] is None else sizes[-1]
    x = _c2c(x, axes[-1], n, norm, False, cdtype, bins=n // 2 + 1)
    for axis, size in zip(axes[:-1], sizes[:-1]):
        x = _c2c(x, axis, size, norm, False, cdtype)
    return x


def _c2r_n(op, x, s, dim, norm, default_dim):
    """irfftn: the full inverse transform along all axes but the last, then the one-sided one
    along it."""
    aval = _check_input(op, x, _MANY)
    _check_norm(op, norm)
    axes, sizes = _axes_and_sizes(op, aval, s, dim, default_dim)
    x, cdtype = _complex(x, aval, False)
    for axis, size in zip(axes[:-1], sizes[:-1]):
        x = _c2c(x, axis, size, norm, True, cdtype)
    return _c2r(x, axes[-1], sizes[-1], norm, cdtype)


def fft(input, n=None, dim=-1, norm=None):
    """The one-dimensional DFT along `dim`, the signal cut or zero-padded to `n` points."""
    aval, axis, n = _one_axis("FFT", input, n, dim, norm)
    x, cdtype = _complex(input, aval, False)
    return _c2c(x, axis, n, norm, False, cdtype)


def ifft(input, n=None, dim=-1, norm=None):
    """The inverse of `fft`."""
    aval, axis, n = _one_axis("IFFT", input, n, dim, norm)
    x, cdtype = _complex(input, aval, False)
    return _c2c(x, axis, n, norm, True, cdtype)


def rfft(input, n=None, dim=-1, norm=None):
    """The DFT of a real signal along `dim`: its n // 2 + 1 non-negative frequencies."""
    aval, axis, n = _one_axis("RFFT", input, n, dim, norm)
    x, cdtype = _complex(input, aval, True)
    n = aval.shape[axis] if n is None else n
    return _c2c(x, axis, n, norm, False, cdtype, bins=n // 2 + 1)


def irfft(input, n=None, dim=-1, norm=None):
    """The real signal of `n` points (default 2 (m - 1)) whose rfft is `input`."""
    aval, axis, n = _one_axis("IRFFT", input, n, dim, norm)
    x, cdtype = _complex(input, aval, False)
    return _c2r(x, axis, n, norm, cdtype)


def hfft(input, n=None, dim=-1, norm=None):
    """The (real) DFT of a signal with Hermitian symmetry given by its first half."""
    aval, axis, n = _one_axis("HFFT", input, n, dim, norm)
    x, cdtype = _complex(input, aval, False)
    return _c2r(conj(F.cast(x, cdtype)), axis, n, _DUAL[norm], cdtype)


def ihfft(input, n=None, dim=-1, norm=None):
    """The inverse of `hfft`: the first half of the spectrum of a real signal's inverse DFT."""
    aval, axis, n = _one_axis("IHFFT", input, n, dim, norm)
    x, cdtype = _complex(input, aval, True)
    n = aval.shape[axis] if n is None else n
    return conj(_c2c(x, axis, n, _DUAL[norm], False, cdtype, bins=n // 2 + 1))


def fft2(input, s=None, dim=(-2, -1), norm=None):
    """`fftn` over two axes (the last two by default)."""
    return _c2c_n("FFT2", input, s, dim, norm, False, (-2, -1))


def ifft2(input, s=None, dim=(-2, -1), norm=None):
    """`ifftn` over two axes (the last two by default)."""
    return _c2c_n("IFFT2", input, s, dim, norm, True, (-2, -1))


def fftn(input, s=None, dim=None, norm=None):
    """The DFT over the axes `dim` (every axis, or the last len(s) ones when only `s` is
    given), each cut or zero-padded to its size in `s`."""
    return _c2c_n("FFTN", input, s, dim, norm, False, None)


def ifftn(input, s=None, dim=None, norm=None):
    """The inverse of `fftn`."""
    return _c2c_n("IFFTN", input, s, dim, norm, True, None)


def rfft2(input, s=None, dim=(-2, -1), norm=None):
    """`rfftn` over two axes (the last two by default)."""
    return _r2c_n("RFFT2", input, s, dim, norm, (-2, -1))


def irfft2(input, s=None, dim=(-2, -1), norm=None):
    """`irfftn` over two axes (the last two by default)."""
    return _c2r_n("IRFFT2", input, s, dim, norm, (-2, -1))


def rfftn(input, s=None, dim=None, norm=None):
    """The DFT of a real signal over the axes `dim`, one-sided along the last of them."""
    return _r2c_n("RFFTN", input, s, dim, norm, None)


def irfftn(input, s=None, dim=None, norm=None):
    """The real signal whose rfftn is `input`; the last axis becomes s[-1] points (default
    2 (m - 1))."""
    return _c2r_n("IRFFTN", input, s, dim, norm, None)


def hfft2(input, s=None, dim=(-2, -1), norm=None):
    """`hfftn` over two axes (the last two by default)."""
    return _hermitian("HFFT2", input, s, dim, norm, (-2, -1))


def ihfft2(input, s=None, dim=(-2, -1), norm=None):
    """`ihfftn` over two axes (the last two by default)."""
    return _ihermitian("IHFFT2", input, s, dim, norm, (-2, -1))


def hfftn(input, s=None, dim=None, norm=None):
    """The (real) n-D DFT of a Hermitian-symmetric signal given by the first half of its last
    axis: the irfftn of its conjugate, with the norm's direction swapped."""
    return _hermitian("HFFTN", input, s, dim, norm, None)


def ihfftn(input, s=None, dim=None, norm=None):
    """The inverse of `hfftn`: the conjugate of the rfftn, with the norm's direction swapped."""
    return _ihermitian("IHFFTN", input, s, dim, norm, None)


def _hermitian(op, x, s, dim, norm, default_dim):
    aval = _check_input(op, x, _MANY)
    _check_norm(op, norm)
    x, cdtype = _complex(x, aval, False)
    return _c2r_n(op, conj(F.cast(x, cdtype)), s, dim, _DUAL[norm], default_dim)


def _ihermitian(op, x, s, dim, norm, default_dim):
    _check_norm(op, norm)
    return conj(_r2c_n(op, x, s, dim, _DUAL[norm], default_dim))


# ----- shifts and frequencies -----------------------------------------------------------------

def _shift(op: str, x, dim, sign: int):
    if not is_tensor(x):
        raise DTypeError(f"For primitive[{op}], the input must be a Tensor, but got "
                         f"{type(x).__name__}.")
    aval = abstract_of(x)
    dim = _value(op, "dim", dim)
    if dim is None:
        axes = list(range(aval.ndim))
    else:
        axes = [_axis(op, d, aval.ndim) for d in ((dim,) if isinstance(dim, numbers.Integral)
                                                    else tuple(dim))]
    if not axes:
        return x
    return roll(x, [sign * (aval.shape[a] // 2) for a in axes], axes)


def fftshift(input, dim=None):
    """The zero frequency moved to the middle of each axis in `dim` (every axis when None)."""
    return _shift("FFTShift", input, dim, 1)


def ifftshift(input, dim=None):
    """The inverse of `fftshift`."""
    return _shift("IFFTShift", input, dim, -1)


def _frequencies(op: str, n, d, dtype, values):
    n, d = _check_size(op, "n", _value(op, "n", n)), _value(op, "d", d)
    dtype = dt.float32 if dtype is None else dt.as_dtype(dtype)
    return _const(np.asarray(values(n, d)).astype(dtype.np), dtype)


def fftfreq(n, d=1.0, dtype=None):
    """The sample frequencies of an n-point DFT with sample spacing `d` (float32 by default)."""
    return _frequencies("FFTFreq", n, d, dtype, np.fft.fftfreq)


def rfftfreq(n, d=1.0, dtype=None):
    """The non-negative sample frequencies of an n-point rfft with sample spacing `d`."""
    return _frequencies("RFFTFreq", n, d, dtype, np.fft.rfftfreq)
