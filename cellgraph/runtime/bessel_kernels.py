"""Kernels of the Bessel functions of order 0 and 1: J, Y, the modified I and K, and the
exponentially scaled I and K (i0e = exp(-|x|) i0, k0e = exp(x) k0).

Written with the array API alone (no SciPy), in float64, from integral representations that a
fixed rule integrates to double precision, and Hankel's asymptotic series for large arguments:

* J_n(x) = 1/pi int_0^pi cos(n t - x sin t) dt and exp(-x) I_n(x) = 1/pi int_0^pi
  exp(x (cos t - 1)) cos(n t) dt: smooth even periodic integrands, so the trapezoid rule on
  [0, pi] converges geometrically (64 points reach double precision up to |x| = 25).
* exp(x) K_n(x) = int_0^inf exp(-x (cosh t - 1)) cosh(n t) dt: an even integrand decaying
  double-exponentially, which the trapezoid rule on the whole line integrates as fast
  (0 < x <= 25).
* Y_n(x) = 1/pi int_0^pi sin(x sin t - n t) dt - 1/pi int_0^inf (e^{nt} + (-1)^n e^{-nt})
  exp(-x sinh t) dt by Gauss-Legendre for 2 <= x <= 25; its power series below 2.
* For |x| > 25, the asymptotic series (20 terms: their error is below 1e-16 there).

Out of the domain, as MindSpore: Y at x <= 0 is -inf, K and its scaled form +inf.
"""
from __future__ import annotations

import math

import numpy as np

_LARGE = 25.0
_TRAPEZOID_POINTS = 64
_ASYMPTOTIC_TERMS = 20
_K_STEP, _K_POINTS = 0.2, 250
_EULER_GAMMA = 0.5772156649015329
_GAUSS_U, _GAUSS_W = (np.asarray(a) for a in np.polynomial.legendre.leggauss(96))
_GAUSS_U, _GAUSS_W = (_GAUSS_U + 1) / 2, _GAUSS_W / 2  # on [0, 1]


def _float64(xp, x):
    return xp.astype(x, xp.float64)


def _trapezoid_over_pi(xp, integrand):
    """1/pi int_0^pi f(t) dt of an even 2pi-periodic f, by the trapezoid rule."""
    t = xp.asarray(np.linspace(0.0, math.pi, _TRAPEZOID_POINTS + 1))
    w = np.full(_TRAPEZOID_POINTS + 1, 1.0 / _TRAPEZOID_POINTS)
    w[0] = w[-1] = 0.5 / _TRAPEZOID_POINTS
    return xp.sum(integrand(t) * xp.asarray(w), axis=-1)


def _hankel_terms(n: int, x):
    """The terms c_k = prod_{j<=k} (4n^2 - (2j-1)^2) / (k! (8x)^k), k = 0.. of Hankel's
    series, as a list."""
    mu, terms, term = 4 * n * n, [], 1.0
    for k in range(_ASYMPTOTIC_TERMS + 1):
        terms.append(term)
        term = term * (mu - (2 * k + 1) ** 2) / ((k + 1) * 8 * x)
    return terms


def _hankel_pq(n: int, x):
    terms = _hankel_terms(n, x)
    p = sum(((-1) ** (k // 2)) * c for k, c in enumerate(terms) if k % 2 == 0)
    q = sum(((-1) ** (k // 2)) * c for k, c in enumerate(terms) if k % 2 == 1)
    return p, q


def _j_y_large(xp, n: int, x):
    """(J_n(x), Y_n(x)) for x > 0 large, by Hankel's expansion."""
    p, q = _hankel_pq(n, x)
    chi = x - (n / 2 + 0.25) * math.pi
    scale = xp.sqrt(2 / (math.pi * x))
    return scale * (p * xp.cos(chi) - q * xp.sin(chi)), scale * (p * xp.sin(chi) + q * xp.cos(chi))


def _odd_series(xp, x, sign: float):
    """J_1(x) (sign -1) or I_1(x) (sign +1) for |x| < 1 by the power series: the quadrature's
    rounding, ~1e-17 absolute, would be a large part of a value near x / 2."""
    quarter = sign * x * x / 4
    total, term = xp.zeros_like(x), x / 2
    for k in range(16):
        total = total + term
        term = term * quarter / ((k + 1) * (k + 2))
    return total


def _j(xp, n: int, x):
    """J_n(x) in float64 for any real x."""
    ax = xp.abs(x)
    small = ax <= _LARGE
    xs = xp.where(small, x, 0.0)[..., None]
    near = _trapezoid_over_pi(xp, lambda t: xp.cos(n * t - xs * xp.sin(t)))
    far = _j_y_large(xp, n, xp.where(small, _LARGE + 1, ax))[0]
    if n % 2:
        far = xp.where(x < 0, -far, far)
        tiny = ax < 1
        near = xp.where(tiny, _odd_series(xp, xp.where(tiny, x, 0.0), -1.0), near)
    return xp.where(small, near, far)


def _y_series(xp, n: int, x, j):
    """Y_n(x) for 0 < x < 2 from the power series around 0 (j: J_n(x))."""
    quarter = x * x / 4
    log_half = xp.log(x / 2)
    if n == 0:
        total, term, harmonic = xp.zeros_like(x), xp.ones_like(x), 0.0
        for k in range(1, 30):
            term = term * quarter / (k * k)
            harmonic += 1.0 / k
            total = total + (-1) ** (k + 1) * harmonic * term
        return 2 / math.pi * ((log_half + _EULER_GAMMA) * j + total)
    total, term = xp.zeros_like(x), x / 2
    psi_k1, psi_k2 = -_EULER_GAMMA, 1 - _EULER_GAMMA
    for k in range(30):
        total = total + (-1) ** k * (psi_k1 + psi_k2) * term
        term = term * quarter / ((k + 1) * (k + 2))
        psi_k1, psi_k2 = psi_k2, psi_k2 + 1.0 / (k + 2)
    return 2 / math.pi * log_half * j - 2 / (math.pi * x) - total / math.pi


def _y_integral(xp, n: int, x):
    """Y_n(x) for moderate x > 0 from its integral representation, by Gauss-Legendre."""
    u, w = xp.asarray(_GAUSS_U), xp.asarray(_GAUSS_W)
    xs = x[..., None]
    first = xp.sum(xp.sin(xs * xp.sin(math.pi * u) - n * math.pi * u) * w, axis=-1)
    span = xp.asinh(40.0 / x)[..., None]
    t = span * u
    decay = (xp.exp(n * t) + (-1) ** n * xp.exp(-n * t)) * xp.exp(-xs * xp.sinh(t))
    second = xp.sum(decay * w, axis=-1) * span[..., 0]
    return first - second / math.pi


def _y(xp, n: int, x):
    positive = x > 0
    safe = xp.where(positive, x, 1.0)
    series = _y_series(xp, n, xp.where(safe < 2, safe, 1.0), _j(xp, n, xp.where(safe < 2, safe,
                                                                                 1.0)))
    moderate = _y_integral(xp, n, xp.clip(safe, 2.0, _LARGE))
    far = _j_y_large(xp, n, xp.where(safe > _LARGE, safe, _LARGE + 1))[1]
    out = xp.where(safe < 2, series, xp.where(safe <= _LARGE, moderate, far))
    return xp.where(positive, out, xp.where(xp.isnan(x), x, -math.inf))


def _i_scaled(xp, n: int, x):
    """exp(-|x|) I_n(x) in float64."""
    ax = xp.abs(x)
    small = ax <= _LARGE
    xs = xp.where(small, ax, 0.0)[..., None]
    near = _trapezoid_over_pi(xp, lambda t: xp.exp(xs * (xp.cos(t) - 1)) * xp.cos(n * t))
    big = xp.where(small, _LARGE + 1, ax)
    terms = _hankel_terms(n, big)
    far = sum(((-1) ** k) * c for k, c in enumerate(terms)) / xp.sqrt(2 * math.pi * big)
    out = xp.where(small, near, far)
    if n % 2 == 0:
        return out
    tiny = ax < 1
    series = _odd_series(xp, xp.where(tiny, ax, 0.0), 1.0) * xp.exp(-xp.where(tiny, ax, 0.0))
    out = xp.where(tiny, series, out)
    return xp.where(x < 0, -out, out)


def _k_scaled(xp, n: int, x):
    """exp(x) K_n(x) in float64 (x > 0; +inf elsewhere). The trapezoid's step shrinks with
    the integrand's width, 1/sqrt(x)."""
    positive = x > 0
    safe = xp.where(positive, x, 1.0)
    small = safe <= _LARGE
    xs = xp.where(small, safe, 1.0)[..., None]
    step = _K_STEP * xp.minimum(1.0, 2 / xp.sqrt(xs))
    t = step * xp.asarray(np.arange(_K_POINTS + 1.0))
    w = np.ones(_K_POINTS + 1)
    w[0] = 0.5
    near = xp.sum(xp.exp(-xs * (xp.cosh(t) - 1)) * xp.cosh(n * t) * xp.asarray(w),
                  axis=-1) * step[..., 0]
    big = xp.where(small, _LARGE + 1, safe)
    far = sum(_hankel_terms(n, big)) * xp.sqrt(math.pi / (2 * big))
    out = xp.where(small, near, far)
    return xp.where(positive, out, xp.where(xp.isnan(x), x, math.inf))


def _in_dtype(fn):
    def run(xp, x):
        return xp.astype(fn(xp, _float64(xp, x)), x.dtype)
    return run


BESSEL_KERNELS = {
    "bessel_j0": lambda xp, x: _j(xp, 0, x),
    "bessel_j1": lambda xp, x: _j(xp, 1, x),
    "bessel_y0": lambda xp, x: _y(xp, 0, x),
    "bessel_y1": lambda xp, x: _y(xp, 1, x),
    "bessel_i0e": lambda xp, x: _i_scaled(xp, 0, x),
    "bessel_i1e": lambda xp, x: _i_scaled(xp, 1, x),
    "bessel_i0": lambda xp, x: _i_scaled(xp, 0, x) * xp.exp(xp.abs(x)),
    "bessel_i1": lambda xp, x: _i_scaled(xp, 1, x) * xp.exp(xp.abs(x)),
    "bessel_k0e": lambda xp, x: _k_scaled(xp, 0, x),
    "bessel_k1e": lambda xp, x: _k_scaled(xp, 1, x),
    "bessel_k0": lambda xp, x: _k_scaled(xp, 0, x) * xp.exp(-x),
    "bessel_k1": lambda xp, x: _k_scaled(xp, 1, x) * xp.exp(-x),
}

BESSEL_KERNELS = {name: _in_dtype(fn) for name, fn in BESSEL_KERNELS.items()}
