"""`stft`, the short-time Fourier transform, and `hann_window`: the frames are one `gather`
of the (padded) signal at constant positions, windowed, and the DFT is two matmuls with
constant cosine and sine matrices, so the transform differentiates (and batches) through those
operations; a complex signal is transformed part by part and the parts joined with `complex`."""
from __future__ import annotations

import numbers

import numpy as np

from cellgraph.ops.function.array_func.attributes import _const, _tensor
from cellgraph.ops.function.array_func.padding import pad
from cellgraph.primitives import array_ops as A
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives.check_convert import dtype_error
from cellgraph.primitives.complex_ops import complex_, imag_part, real_part
from cellgraph.primitives.core import abstract_of, value_input
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError

__all__ = ["bartlett_window", "blackman_window", "fft_with_size", "hamming_window",
           "hann_window", "kaiser_window", "stft"]


def _make_window(op: str, window_length, periodic, dtype, values, default=dt.float32):
    """A window of `window_length` points (an int, or a 0-d integer Tensor) in `dtype`:
    values(n, N) at n = 0 .. length - 1, N the length (periodic) or the length - 1; `default`
    is the dtype without one (MindSpore's hann and kaiser windows are float64)."""
    if hasattr(window_length, "aval") and window_length.ndim == 0:
        window_length = value_input(window_length, op, "window_length").item()
    if isinstance(window_length, bool) or not isinstance(window_length, numbers.Integral) \
            or window_length < 0:
        raise ArgumentValueError(f"{op}: `window_length` must be a non-negative int, got "
                                 f"{window_length!r}")
    if not isinstance(periodic, bool):
        raise DTypeError(f"{op}: `periodic` must be a bool, got {type(periodic).__name__}")
    dtype = dt.as_dtype(dtype or default)
    if not dtype.is_float:
        raise DTypeError(f"{op}: `dtype` must be a float type, got {dtype}")
    n = window_length if periodic else window_length - 1
    out = np.ones(window_length) if window_length == 1 else values(
        np.arange(window_length, dtype=np.float64), n)
    return _const(np.asarray(out).astype(dtype.np), dtype)


def hann_window(window_length, periodic=True, *, dtype=None):
    """0.5 - 0.5 cos(2 pi n / N), N the length (periodic) or the length - 1."""
    return _make_window("hann_window", window_length, periodic, dtype,
                   lambda k, n: 0.5 - 0.5 * np.cos(2 * np.pi * k / n), dt.float64)


def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None):
    """alpha - beta cos(2 pi n / N)."""
    return _make_window("hamming_window", window_length, periodic, dtype,
                   lambda k, n: alpha - beta * np.cos(2 * np.pi * k / n))


def blackman_window(window_length, periodic=True, *, dtype=None):
    """0.42 - 0.5 cos(2 pi n / N) + 0.08 cos(4 pi n / N)."""
    return _make_window("blackman_window", window_length, periodic, dtype,
                   lambda k, n: 0.42 - 0.5 * np.cos(2 * np.pi * k / n)
                   + 0.08 * np.cos(4 * np.pi * k / n))


def bartlett_window(window_length, periodic=True, *, dtype=None):
    """1 - |2 n / N - 1|."""
    return _make_window("bartlett_window", window_length, periodic, dtype,
                   lambda k, n: 1 - np.abs(2 * k / n - 1))


def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None):
    """I0(beta sqrt(1 - (2 n / N - 1)^2)) / I0(beta)."""
    return _make_window("kaiser_window", window_length, periodic, dtype,
                   lambda k, n: np.i0(beta * np.sqrt(np.clip(1 - (2 * k / n - 1) ** 2, 0, None)))
                   / np.i0(beta), dt.float64)


_PAD_MODES = {"REFLECT": "reflect", "CONSTANT": "constant", "REPLICATE": "replicate",
              "CIRCULAR": "circular"}


def _dft(frames, n_fft: int, bins: int, dtype):
    """(real, imag) of sum_k frames[..., k] exp(-2 pi i w k / n_fft) for w < bins."""
    angles = 2 * np.pi * np.outer(np.arange(n_fft), np.arange(bins)) / n_fft
    cos = A.cast(np.cos(angles), dtype=dtype)
    sin = A.cast(-np.sin(angles), dtype=dtype)
    return F.matmul(frames, cos), F.matmul(frames, sin)


def _window(window, win_length: int, n_fft: int, dtype):
    """The window padded with zeros on both sides to n_fft samples (centred)."""
    if window is None:
        window = A.cast(np.ones(win_length), dtype=dtype)
    window = F.cast(window, dtype)
    if tuple(abstract_of(window).shape) != (win_length,):
        raise ShapeError(f"stft: expected a window of shape ({win_length},), got "
                         f"{abstract_of(window).shape}")
    left = (n_fft - win_length) // 2
    if left or n_fft - win_length - left:
        window = pad(window, (left, n_fft - win_length - left))
    return window


def stft(x, n_fft, hop_length=None, win_length=None, window=None, center=True,
         pad_mode="REFLECT", normalized=False, onesided=None, return_complex=None):
    """(*, bins, frames) complex spectra of a 1-D or 2-D (batch, time) signal; with
    return_complex=False a real (*, bins, frames, 2) of the real and imaginary parts. Signal
    and window may each be complex."""
    shape = abstract_of(x).shape
    if len(shape) not in (1, 2):
        raise ShapeError(f"stft: expected a 1-D or 2-D signal, got shape {shape}")
    hop_length = n_fft // 4 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    if not 0 < win_length <= n_fft or hop_length <= 0:
        raise ArgumentValueError(f"stft: expected 0 < win_length <= n_fft and hop_length > 0, "
                                 f"got n_fft={n_fft}, win_length={win_length}, "
                                 f"hop_length={hop_length}")
    x_complex = abstract_of(x).dtype.is_complex
    w_complex = window is not None and abstract_of(window).dtype.is_complex
    if onesided and (x_complex or w_complex):
        raise ArgumentValueError("stft: onesided=True needs a real signal and window")
    onesided = not (x_complex or w_complex) if onesided is None else onesided
    return_complex = (x_complex or w_complex) if return_complex is None else return_complex
    x_parts = (real_part(x), imag_part(x)) if x_complex else (x, None)
    w_parts = (real_part(window), imag_part(window)) if w_complex else (window, None)
    dtype = _float_dtype(x_parts[0], w_parts[0])
    frames = [None if part is None else
              _frames(F.cast(part, dtype), n_fft, hop_length, center, pad_mode)
              for part in x_parts]
    windows = [None if part is None and i else _window(part, win_length, n_fft, dtype)
               for i, part in enumerate(w_parts)]
    # (a + ib)(c + id) = (ac - bd) + i(ad + bc), per frame sample
    real = _sum_of([(frames[0], windows[0], 1), (frames[1], windows[1], -1)])
    imag = _sum_of([(frames[0], windows[1], 1), (frames[1], windows[0], 1)])
    bins = n_fft // 2 + 1 if onesided else n_fft
    re, im = _dft(real, n_fft, bins, dtype)
    if imag is not None:  # (p + iq) M = (pC - qS) + i(pS + qC), C and S the DFT's parts
        im_re, im_im = _dft(imag, n_fft, bins, dtype)
        re, im = re - im_im, im + im_re
    if normalized:
        re, im = re * (n_fft ** -0.5), im * (n_fft ** -0.5)
    axes = tuple(range(len(shape) - 1)) + (len(shape), len(shape) - 1)  # (*, bins, T)
    re, im = F.transpose(re, axes), F.transpose(im, axes)
    if return_complex:
        return complex_(re, im)
    return F.stack((re, im), -1)


def _float_dtype(*parts):
    """The widest float dtype of the parts given (float32 when none is a float)."""
    dtypes = [abstract_of(p).dtype for p in parts if p is not None]
    floats = [d for d in dtypes if d.is_float]
    return max(floats, key=lambda d: np.dtype(d.np).itemsize) if floats else dt.float32


def _sum_of(terms):
    """sum of sign * frames * window over the terms whose frames and window are given."""
    out = None
    for frames, window, sign in terms:
        if frames is None or window is None:
            continue
        term = frames * window if sign > 0 else F.neg(frames * window)
        out = term if out is None else out + term
    return out


def _frames(x, n_fft, hop_length, center, pad_mode):
    """(*, frames, n_fft): the signal's frames, after its padding when `center`."""
    shape = abstract_of(x).shape
    if center:
        if pad_mode.upper() not in _PAD_MODES:
            raise ArgumentValueError(f"stft: pad_mode must be one of {tuple(_PAD_MODES)}, got "
                                     f"{pad_mode!r}")
        x = pad(x, (n_fft // 2, n_fft // 2), _PAD_MODES[pad_mode.upper()])
    length = abstract_of(x).shape[-1]
    if length < n_fft:
        raise ShapeError(f"stft: the (padded) signal of length {length} is shorter than "
                         f"n_fft={n_fft}")
    count = 1 + (length - n_fft) // hop_length
    positions = np.arange(count)[:, None] * hop_length + np.arange(n_fft)[None, :]
    return A.gather(x, positions.astype(np.int64), axis=len(shape) - 1)

# ---------------------------------------------------------------- FFTWithSize
_FFT_NORMS = ("backward", "forward", "ortho")
_RFFT_INPUTS = (dt.float32, dt.float64, dt.uint8, dt.int8, dt.int16, dt.int32, dt.int64, dt.bool_)


def _fft_matrix(n_in: int, n_out: int, period: int, inverse: bool, scale: float, dtype):
    """The constant (n_in, n_out) matrix of a DFT along one axis: exp(-+2 pi i j k / period)."""
    sign = 1.0 if inverse else -1.0
    angles = sign * 2 * np.pi * np.outer(np.arange(n_in), np.arange(n_out)) / period
    return _const((np.exp(1j * angles) * scale).astype(dtype.np), dtype)


def _along(x, axis: int, matrix):
    """x transformed along `axis` by a matrix: the axis moved last, multiplied, moved back."""
    ndim = abstract_of(x).ndim
    perm = [d for d in range(ndim) if d != axis] + [axis]
    back = list(np.argsort(perm))
    moved = F.transpose(x, tuple(perm)) if axis != ndim - 1 else x
    out = F.matmul(moved, matrix)
    return F.transpose(out, tuple(int(d) for d in back)) if axis != ndim - 1 else out


def _irfft_sizes(op: str, shape, signal_ndim: int, signal_sizes):
    """The length of the last axis of the signal an onesided irfft rebuilds (MindSpore's checks
    of `signal_sizes`, then its default 2 * (n - 1))."""
    n = shape[-1]
    sizes = [int(v) for v in signal_sizes]
    if not sizes:
        if n == 1:
            raise ArgumentValueError(f"For '{op}', the last dimension of the input cannot be 1, "
                                     f"but got: {n}")
        return 2 * (n - 1)
    if len(sizes) != signal_ndim:
        raise ArgumentValueError(f"For '{op}', signal_sizes is expected to be empty (default) or "
                                 f"of signal_ndim={signal_ndim}D, but got signal_sizes={sizes}")
    even = list(shape[len(shape) - signal_ndim:])
    even[-1] = (n - 1) * 2
    odd = even[:-1] + [even[-1] + 1]
    if sizes[:-1] != even[:-1] or sizes[-1] // 2 + 1 != n:
        raise ArgumentValueError(f"For '{op}', got invalid signal_sizes: {sizes}, a valid one "
                                 f"should be {even}, or {odd}.")
    return sizes[-1]


def fft_with_size(x, signal_ndim, inverse, real, norm="backward", onesided=True,
                  signal_sizes=()):
    """`ops.FFTWithSize`: the discrete Fourier transform over the last `signal_ndim` (1 to 3)
    axes, as MindSpore's CPU kernel: fft / ifft of a complex input (real=False); rfft of a real
    input (float64 gives complex128, other real and bool dtypes complex64), onesided keeping the
    last axis' n // 2 + 1 bins; irfft of a complex input to its real dtype, onesided rebuilding
    the last axis to signal_sizes[-1] (default 2 * (n - 1)) from its Hermitian half. norm:
    "backward" scales the inverse by 1/n, "forward" the forward transform, "ortho" both by
    1/sqrt(n), n the signal's element count. Computed in the graph as products with constant
    DFT matrices, one axis at a time, so it has gradients and batches under vmap."""
    op = "FFTWithSize"
    aval = _tensor(x, op, "x")
    if isinstance(signal_ndim, bool) or not isinstance(signal_ndim, numbers.Integral) \
            or not 1 <= signal_ndim <= 3:
        raise ArgumentValueError(f"For '{op}', the signal_ndim must be in range of [1, 3], but "
                                 f"got {signal_ndim!r}.")
    if aval.ndim < signal_ndim:
        raise ArgumentValueError(f"For '{op}', the x's dimension  must be greater than or equal "
                                 f"to {signal_ndim}, but got {aval.ndim}.")
    if norm not in _FFT_NORMS:
        raise ArgumentValueError(f'Failed to convert the value "{norm}" of input \'norm\' of '
                                 f"'{op}' to enum.")
    if real and not inverse:
        if aval.dtype not in _RFFT_INPUTS:
            raise dtype_error(op, "x", _RFFT_INPUTS, aval.dtype, "in rfft mode")
        cdtype = dt.complex128 if aval.dtype == dt.float64 else dt.complex64
        x = F.cast(x, cdtype)
    else:
        if aval.dtype not in (dt.complex64, dt.complex128):
            raise dtype_error(op, "x", (dt.complex64, dt.complex128), aval.dtype,
                              "in irfft mode" if real else "in fft/ifft mode")
        cdtype = aval.dtype
    shape = aval.shape
    axes = list(range(aval.ndim - signal_ndim, aval.ndim))
    sizes = [shape[a] for a in axes]
    rebuild = bool(real and inverse and onesided)
    out_last = _irfft_sizes(op, shape, signal_ndim, signal_sizes) if rebuild else sizes[-1]
    count = int(np.prod(sizes[:-1], dtype=np.int64)) * out_last
    scale = {"backward": 1.0, "forward": 1.0 / count, "ortho": 1.0 / np.sqrt(count)}[norm]
    if inverse:   # the kernel's inverse transform divides by n; norm then undoes that
        scale = {"backward": 1.0 / count, "forward": 1.0, "ortho": 1.0 / np.sqrt(count)}[norm]
    for a in axes[:-1]:
        x = _along(x, a, _fft_matrix(shape[a], shape[a], shape[a], inverse, 1.0, cdtype))
    n = sizes[-1]
    if rebuild:
        # the last axis' full spectrum is the input's n bins then conj(X[M - p]) at p in [n, M);
        # the output is its real part, and Re(conj(X_q) w) = Re(X_q conj(w)) folds each mirrored
        # bin into the row of the bin it copies
        m = out_last
        matrix = np.exp(2j * np.pi * np.outer(np.arange(n), np.arange(m)) / m)
        for p in range(n, m):
            matrix[m - p] += np.exp(-2j * np.pi * p * np.arange(m) / m)
        matrix = _const((matrix * scale).astype(cdtype.np), cdtype)
        return real_part(_along(x, axes[-1], matrix))
    bins = n // 2 + 1 if real and not inverse and onesided else n
    x = _along(x, axes[-1], _fft_matrix(n, bins, n, inverse, scale, cdtype))
    return real_part(x) if real and inverse else x
