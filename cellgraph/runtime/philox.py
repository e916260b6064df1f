"""Philox4x32-10, the counter-based generator MindSpore's initializers draw from, and the seed
its CPU kernels mix from their (global, op) seed pair with it."""
from __future__ import annotations

import numpy as np

_M0, _M1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
_LOW, _32 = np.uint64(0xFFFFFFFF), np.uint64(32)


def philox4x32(counter, key) -> np.ndarray:
    """Philox4x32-10: the four 32-bit words of each block; `counter` four arrays (or ints) of
    32-bit words, `key` two ints. Returns an (n, 4) uint32 array."""
    c0, c1, c2, c3 = (np.atleast_1d(np.asarray(c, np.uint64)) & _LOW for c in counter)
    k0, k1 = (int(k) & 0xFFFFFFFF for k in key)
    for round_ in range(10):
        t0, t1 = _M0 * c0, _M1 * c2
        c0, c1, c2, c3 = ((t1 >> _32) ^ c1 ^ np.uint64(k0), t1 & _LOW,
                          (t0 >> _32) ^ c3 ^ np.uint64(k1), t0 & _LOW)
        if round_ < 9:
            k0, k1 = (k0 + 0x9E3779B9) & 0xFFFFFFFF, (k1 + 0xBB67AE85) & 0xFFFFFFFF
    return np.stack(np.broadcast_arrays(c0, c1, c2, c3), 1).astype(np.uint32)


def kernel_seed(seed0: int, seed1: int) -> int:
    """The seed a MindSpore CPU kernel derives from its (global, op) seed pair: one Philox
    block over the pair with a fixed key (its `random::GetSeed`)."""
    words = philox4x32((seed0, seed0 >> 32, seed1, seed1 >> 32), (0x3EC8F720, 0x02461E29))[0]
    return (int(words[1]) << 32) | int(words[0])
