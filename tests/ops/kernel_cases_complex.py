"""Kernel cases over complex64/complex128: the complex primitives (complex, real, imag, conj,
angle) and complex operands of the elementwise arithmetic, with NumPy references in
complex128. `tests/ops/test_kernels.py` appends them to the case table."""
from __future__ import annotations

import numpy as np

from cellgraph.primitives import dtype as dt

from .kernel_cases import SHAPE_PAIRS, SHAPES_1, Case, arr, seeded

c64, c128, f32, f64, i32 = dt.complex64, dt.complex128, dt.float32, dt.float64, dt.int32


def carr(shape, dtype, low=-2.0, high=2.0):
    """Random complex values with both parts in [low, high)."""
    part = dt.real_of(dtype)
    return np.asarray(arr(shape, part, low, high) + 1j * arr(shape, part, low, high), dtype.np)


def c128_of(x):
    return np.asarray(x, np.complex128)


def _parts():
    return [Case((arr(sx, d), arr(sy, d)), lambda re, im: re + 1j * c128_of(im),
                 dt.complex_of(d)) for d in (f32, f64) for sx, sy in SHAPE_PAIRS[:3]]


def _unary(np_fn, result=lambda d: d):
    return [Case((carr(s, d),), lambda x: np_fn(c128_of(x)), result(d))
            for d in (c64, c128) for s in SHAPES_1]


def _binary(np_fn):
    ref = lambda x, y: np_fn(c128_of(x), c128_of(y))
    cases = [Case((carr(sx, d), carr(sy, d, 0.5, 2.0)), ref, d)
             for d in (c64, c128) for sx, sy in SHAPE_PAIRS[:3]]
    # a real tensor meets a complex one in the complex dtype wide enough for both
    cases += [Case((arr((2, 3), f32), carr((3,), c64, 0.5, 2.0)), ref, c64),
              Case((arr((2, 3), f64), carr((3,), c64, 0.5, 2.0)), ref, c128),
              Case((arr((2, 3), i32), carr((3,), c64, 0.5, 2.0)), ref, c64),
              Case((carr((2, 3), c64), 2.5), ref, c64),
              Case((arr((2, 3), f32), 1.5j), ref, c64),
              Case((arr((2, 3), f64), 1.5j), ref, c128)]
    return cases


def _casts():
    z = carr((2, 3), c64)
    return [Case((z,), lambda x, dtype: np.real(x), f32, {"dtype": f32}),
            Case((z,), lambda x, dtype: c128_of(x), c128, {"dtype": c128}),
            Case((arr((2, 3), f64),), lambda x, dtype: c128_of(x), c64, {"dtype": c64})]


def _solves():
    """Complex systems; `adjoint` solves with the conjugate transpose."""
    def ref(a, b, adjoint=False):
        a = c128_of(a)
        return np.linalg.solve(np.conj(np.swapaxes(a, -1, -2)) if adjoint else a, c128_of(b))

    return [Case(((carr(sa, d) + 4 * np.eye(sa[-1])).astype(d.np), carr(sb, d)), ref, d,
                 {"adjoint": adjoint})
            for sa, sb, d, adjoint in [((3, 3), (3, 2), c128, False), ((3, 3), (3, 2), c128, True),
                                       ((2, 2, 2), (2, 2, 1), c64, True)]]


def _eigs():
    """LAPACK's geev: complex eigenvalues and unit eigenvectors of real and complex matrices
    (every backend runs NumPy's on the host); without compute_v a 0-d placeholder."""
    def ref(a, compute_v=True):
        kind = np.complex64 if a.dtype in (np.float32, np.complex64) else np.complex128
        if not compute_v:
            return np.linalg.eigvals(a).astype(kind), np.zeros((), kind)
        w, v = np.linalg.eig(a)
        return w.astype(kind), v.astype(kind)

    return [Case((arr((3, 3), f32),), ref, (c64, c64)),
            Case((arr((2, 3, 3), f64),), ref, (c128, c128)),
            Case((carr((2, 2), c128),), ref, (c128, c128)),
            Case((arr((3, 3), f64),), ref, (c128, c128), {"compute_v": False})]


COMPLEX_CASES = seeded({
    "eig": _eigs,
    "matrix_solve": _solves,
    "complex": _parts,
    "real": lambda: _unary(np.real, dt.real_of),
    "imag": lambda: _unary(np.imag, dt.real_of),
    "conj": lambda: _unary(np.conj),
    "angle": lambda: _unary(np.angle, dt.real_of),
    "abs": lambda: _unary(np.abs, dt.real_of),
    "neg": lambda: _unary(np.negative),
    "exp": lambda: _unary(np.exp),
    "sin": lambda: _unary(np.sin),
    "tanh": lambda: _unary(np.tanh),
    "sqrt": lambda: _unary(np.sqrt),
    "add": lambda: _binary(np.add),
    "sub": lambda: _binary(np.subtract),
    "mul": lambda: _binary(np.multiply),
    "div": lambda: _binary(np.divide),
    "cast": _casts,
})
