"""The numbers MindSpore's random initializers draw, reproduced bit for bit.

MindSpore fills a float32 array from a Philox4x32-10 generator seeded with one draw from NumPy's
global generator (`np.random.randint(1, 2**63)`), through one of three transforms computed in
double precision: Box-Muller pairs (Normal), a scaled uniform (Uniform), and the inverse CDF of
a truncated normal (TruncatedNormal, Boost's erf_inv). Each output takes one 32-bit word (Normal
takes two per pair), so the numbers do not depend on how many threads MindSpore splits the
work over. The distributions' parameters reach MindSpore as C floats: they are rounded to
float32 here too.
"""
from __future__ import annotations

import math

import numpy as np

from cellgraph.runtime.rng import philox4x32


def philox_words(seed: int, count: int) -> np.ndarray:
    """The first `count` 32-bit words of Philox4x32-10 with key (seed low, seed high) and
    counter (block, 0, seed low, seed high), as MindSpore seeds it."""
    seed &= (1 << 64) - 1
    lo, hi = seed & 0xFFFFFFFF, seed >> 32
    blocks = np.arange((count + 3) // 4, dtype=np.uint64)
    return philox4x32((blocks, blocks >> np.uint64(32), lo, hi), (lo, hi)).reshape(-1)[:count]


def _f32(value: float) -> float:
    """A Python float as the C float it becomes on its way into MindSpore."""
    return float(np.float32(value))


def normal(seed: int, shape, mean: float, sigma: float) -> np.ndarray:
    """MindSpore's `_random_normal`: Box-Muller over 23-bit uniforms, cos then sin."""
    count = math.prod(shape)
    words = philox_words(seed, count + (count & 1))
    uniforms = ((words & 0x7FFFFF) | (127 << 23)).view(np.float32) - np.float32(1.0)
    u = np.maximum(uniforms.astype(np.float64), float(np.float32(1e-7)))
    u1, u2 = u[0::2], u[1::2]
    x = np.sqrt(-2.0 * np.log(u1)) * _f32(sigma)
    y = 2.0 * float(np.float32(3.1415926)) * u2
    out = np.empty(u.shape, np.float64)
    out[0::2] = _f32(mean) + x * np.cos(y)
    out[1::2] = _f32(mean) + x * np.sin(y)
    return out[:count].astype(np.float32).reshape(shape)


def _unit_uniform(seed: int, count: int) -> np.ndarray:
    return philox_words(seed, count).astype(np.float64) / 4294967296.0


def uniform(seed: int, shape, low: float, high: float) -> np.ndarray:
    """MindSpore's `_random_uniform`: (b - a) * s + a with s a 32-bit word over 2**32."""
    a, b = _f32(low), _f32(high)
    s = _unit_uniform(seed, math.prod(shape))
    return ((b - a) * s + a).astype(np.float32).reshape(shape)


_ROOT_TWO = float(np.float32(1.4142135))


def truncated_normal(seed: int, shape, low: float, high: float, mean: float,
                     sigma: float) -> np.ndarray:
    """MindSpore's `_truncated_normal`: the normal quantile of a uniform between the CDF at the
    bounds."""
    a, b, mean, sigma = _f32(low), _f32(high), _f32(mean), _f32(sigma)
    cdf_a, cdf_b = (math.erfc(-((v - mean) / sigma) / _ROOT_TWO) / 2.0 for v in (a, b))
    p = cdf_a + _unit_uniform(seed, math.prod(shape)) * (cdf_b - cdf_a)
    return (mean + -_erfc_inv(2.0 * p) * _ROOT_TWO * sigma).astype(np.float32).reshape(shape)


def _erfc_inv(z: np.ndarray) -> np.ndarray:
    z = np.clip(z, float(np.nextafter(np.float32(0), np.float32(2))),
                float(np.nextafter(np.float32(2), np.float32(0))))
    upper = z > 1.0
    q = np.where(upper, 2.0 - z, z)
    p = np.where(upper, 1.0 - q, 1.0 - z)
    return np.where(upper, -1.0, 1.0) * _erf_inv(p, q)


def _poly(coefficients, x):
    """Horner's rule from the highest coefficient down, as Boost (and MindSpore) evaluate."""
    total = np.full_like(x, coefficients[-1])
    for c in reversed(coefficients[:-1]):
        total = total * x + c
    return total


# Boost's erf_inv rational approximations: (Y, P, Q) per range
_SMALL = (float(np.float32(0.0891314744949340820313)),
          (-0.000508781949658280665617, -0.00836874819741736770379, 0.0334806625409744615033,
           -0.0126926147662974029034, -0.0365637971411762664006, 0.0219878681111168899165,
           0.00822687874676915743155, -0.00538772965071242932965),
          (1.0, -0.970005043303290640362, -1.56574558234175846809, 1.56221558398423026363,
           0.662328840472002992063, -0.71228902341542847553, -0.0527396382340099713954,
           0.0795283687341571680018, -0.00233393759374190016776, 0.000886216390456424707504))
_MIDDLE = (float(np.float32(2.249481201171875)),
           (-0.202433508355938759655, 0.105264680699391713268, 8.37050328343119927838,
            17.6447298408374015486, -18.8510648058714251895, -44.6382324441786960818,
            17.445385985570866523, 21.1294655448340526258, -3.67192254707729348546),
           (1.0, 6.24264124854247537712, 3.9713437953343869095, -28.6608180499800029974,
            -20.1432634680485188801, 48.5609213108739935468, 10.8268667355460159008,
            -22.6436933413139721736, 1.72114765761200282724))
_TAILS = (  # (upper bound of x, offset, Y, P, Q)
    (3.0, 1.125, float(np.float32(0.807220458984375)),
     (-0.131102781679951906451, -0.163794047193317060787, 0.117030156341995252019,
      0.387079738972604337464, 0.337785538912035898924, 0.142869534408157156766,
      0.0290157910005329060432, 0.00214558995388805277169, -0.679465575181126350155e-6,
      0.285225331782217055858e-7, -0.681149956853776992068e-9),
     (1.0, 3.46625407242567245975, 5.38168345707006855425, 4.77846592945843778382,
      2.59301921623620271374, 0.848854343457902036425, 0.152264338295331783612,
      0.01105924229346489121)),
    (6.0, 3.0, float(np.float32(0.93995571136474609375)),
     (-0.0350353787183177984712, -0.00222426529213447927281, 0.0185573306514231072324,
      0.00950804701325919603619, 0.00187123492819559223345, 0.000157544617424960554631,
      0.460469890584317994083e-5, -0.230404776911882601748e-9, 0.266339227425782031962e-11),
     (1.0, 1.3653349817554063097, 0.762059164553623404043, 0.220091105764131249824,
      0.0341589143670947727934, 0.00263861676657015992959, 0.764675292302794483503e-4)),
    (18.0, 6.0, float(np.float32(0.98362827301025390625)),
     (-0.0167431005076633737133, -0.00112951438745580278863, 0.00105628862152492910091,
      0.000209386317487588078668, 0.149624783758342370182e-4, 0.449696789927706453732e-6,
      0.462596163522878599135e-8, -0.281128735628831791805e-13, 0.99055709973310326855e-16),
     (1.0, 0.591429344886417493481, 0.138151865749083321638, 0.0160746087093676504695,
      0.000964011807005165528527, 0.275335474764726041141e-4, 0.282243172016108031869e-6)),
    (44.0, 18.0, float(np.float32(0.99714565277099609375)),
     (-0.0024978212791898131227, -0.779190719229053954292e-5, 0.254723037413027451751e-4,
      0.162397777342510920873e-5, 0.396341011304801168516e-7, 0.411632831190944208473e-9,
      0.145596286718675035587e-11, -0.116765012397184275695e-17),
     (1.0, 0.207123112214422517181, 0.0169410838120975906478, 0.000690538265622684595676,
      0.145007359818232637924e-4, 0.144437756628144157666e-6, 0.509761276599778486139e-9)),
    (math.inf, 44.0, float(np.float32(0.99941349029541015625)),
     (-0.000539042911019078575891, -0.28398759004727721098e-6, 0.899465114892291446442e-6,
      0.229345859265920864296e-7, 0.225561444863500149219e-9, 0.947846627503022684216e-12,
      0.135880130108924861008e-14, -0.348890393399948882918e-21),
     (1.0, 0.0845746234001899436914, 0.00282092984726264681981, 0.468292921940894236786e-4,
      0.399968812193862100054e-6, 0.161809290887904476097e-8, 0.231558608310259605225e-11)),
)


def _erf_inv(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    out = np.empty_like(p)
    small = p <= 0.5
    y, pc, qc = _SMALL
    ps = p[small]
    g = ps * (ps + 10.0)
    out[small] = g * y + g * (_poly(pc, ps) / _poly(qc, ps))
    middle = ~small & (q >= 0.25)
    y, pc, qc = _MIDDLE
    qm = q[middle]
    out[middle] = np.sqrt(-2.0 * np.log(qm)) / (y + _poly(pc, qm - 0.25) / _poly(qc, qm - 0.25))
    rest = ~small & ~middle
    with np.errstate(invalid="ignore", divide="ignore"):
        x_all = np.sqrt(-np.log(q))
    lower = 0.0
    for bound, offset, y, pc, qc in _TAILS:
        part = rest & (x_all >= lower) & (x_all < bound)
        x = x_all[part]
        xs = x - offset
        out[part] = y * x + (_poly(pc, xs) / _poly(qc, xs)) * x
        lower = bound
    return out
