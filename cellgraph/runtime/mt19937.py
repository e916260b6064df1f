"""The `std::mt19937` stream of MindSpore's CPU UniformReal and UniformInt kernels.

Each kernel seeds a `std::mt19937` with `kernel_seed(seed, seed2)` (the engine keeps its low 32
bits) when it is made, and carries the engine on from launch to launch. UniformReal draws
`std::uniform_real_distribution<double>(0, 1)` and rounds it to float: libstdc++'s
generate_canonical takes two words w0, w1 per draw, (w0 + w1 * 2**32) / 2**64 in double (the
largest double below 1 where that rounds to 1). UniformInt draws
`std::uniform_int_distribution<int>(low, high - 1)`: libstdc++'s downscaling, a word w kept when
it is below the last whole multiple of the range's size n in 2**32 - 1 and mapped to
low + w // ((2**32 - 1) // n), the words past it skipped.
"""
from __future__ import annotations

import math
import threading

import numpy as np

from .philox import kernel_seed

_WORD = 0xFFFFFFFF


class Mt19937Stream:
    """The words of `std::mt19937(kernel_seed(seed0, seed1))` and the two distributions
    MindSpore's kernels draw from them; a lock keeps the draws of concurrent runs whole."""

    @classmethod
    def for_poisson(cls, seed0: int, seed1: int) -> Mt19937Stream:
        """The engine of MindSpore's CPU RandomPoisson kernel: seeded with one PCG step of
        the pair's kernel_seed."""
        state = (kernel_seed(seed0, seed1) * 6364136223846793005 + 0xDA3E39CB94B95BDB) % 2**64
        return cls(seed0, seed1, engine_seed=state)

    def __init__(self, seed0: int, seed1: int, engine_seed: int | None = None):
        """The stream of a kernel seeded by the pair (seed0, seed1), or, given `engine_seed`,
        of `std::mt19937(engine_seed)` itself."""
        self.seeds = (int(seed0), int(seed1))
        if engine_seed is None:
            engine_seed = kernel_seed(*self.seeds)
        legacy = np.random.RandomState(engine_seed & _WORD)  # as std::mt19937(s)
        self._bits = np.random.MT19937()
        self._bits.state = legacy.get_state(legacy=False)
        self._spare = np.zeros(0, np.uint32)  # words drawn ahead and not used yet
        self._lock = threading.Lock()

    low, span = 0, _WORD  # the engine's min() and max() - min(), for runtime/std_shuffle.py

    def __call__(self) -> int:
        """The next word (for runtime/std_shuffle.py); the caller holds the lock."""
        return int(self._words(1)[0])

    def _words(self, count: int) -> np.ndarray:
        """The next `count` words (uint32); the caller holds the lock."""
        if count > self._spare.size:
            fresh = self._bits.random_raw(count - self._spare.size).astype(np.uint32)
            self._spare = np.concatenate([self._spare, fresh])
        taken, self._spare = self._spare[:count], self._spare[count:]
        return taken

    def _unread(self, words: np.ndarray) -> None:
        """Put words drawn ahead back in front of the stream; the caller holds the lock."""
        self._spare = np.concatenate([words, self._spare])

    def random(self, shape) -> np.ndarray:
        """UniformReal's float32 draws in [0, 1)."""
        n = int(np.prod(shape, dtype=np.int64))
        with self._lock:
            words = self._words(2 * n).astype(np.float64)
        drawn = (words[0::2] + words[1::2] * 4294967296.0) / 18446744073709551616.0
        return np.minimum(drawn, np.nextafter(1.0, 0.0)).astype(np.float32).reshape(shape)

    def integers(self, low: int, high: int, shape) -> np.ndarray:
        """UniformInt's int32 draws in [low, high) (high > low)."""
        n = int(np.prod(shape, dtype=np.int64))
        size = high - low
        scaling = _WORD // size
        past = size * scaling
        kept = []
        with self._lock:
            while n:
                # a word is kept with probability past / 2**32 (at least 1/2): draw a little
                # more than that many, and give back what follows the last one needed
                words = self._words(int(n * 4294967296 / past) + 16)
                good = np.flatnonzero(words < past)
                if good.size >= n:
                    self._unread(words[good[n - 1] + 1:])
                    good = good[:n]
                kept.append(words[good].astype(np.int64))
                n -= good.size
        values = np.concatenate(kept) if kept else np.zeros(0, np.int64)
        return (low + values // scaling).astype(np.int32).reshape(shape)

    def _canonical(self) -> float:
        """One `std::uniform_real_distribution<double>(0, 1)` draw; the caller holds the lock."""
        low, high = self._words(2).astype(np.float64)
        value = (low + high * 4294967296.0) / 18446744073709551616.0
        return value if value < 1.0 else float(np.nextafter(1.0, 0.0))

    def poisson(self, rates: np.ndarray, count: int) -> np.ndarray:
        """MindSpore's CPU RandomPoisson draws: `count` counts for each rate (float64, shape
        (count, len(rates))), all of the first rate's first, each by Knuth's product of
        uniforms below a rate of 10, else by Hormann's transformed rejection (PTRS), the
        uniforms canonical doubles."""
        out = np.empty((count, len(rates)), np.float64)
        with self._lock:
            for column, rate in enumerate(np.asarray(rates, np.float64).tolist()):
                for row in range(count):
                    out[row, column] = self._poisson_count(rate)
        return out

    def _poisson_count(self, rate: float) -> float:
        if rate < 10.0:
            count, product, limit = 0.0, 1.0, math.exp(-rate)
            while True:
                product *= self._canonical()
                if product <= limit:
                    return count
                count += 1
        if math.isinf(rate):
            return math.inf
        log_rate, b = math.log(rate), 0.931 + 2.53 * math.sqrt(rate)
        a = -0.059 + 0.02483 * b
        inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
        vr = 0.9277 - 3.6224 / (b - 2)
        while True:
            u = self._canonical() - 0.5
            v = self._canonical()
            us = 0.5 - math.fabs(u)
            k = math.floor((2 * a / us + b) * u + rate + 0.43)
            if us >= 0.07 and v <= vr:
                return k
            if k < 0 or (us < 0.013 and v > us):
                continue
            if math.log(v * inv_alpha / (a / (us * us) + b)) <= -rate + k * log_rate - \
                    math.lgamma(k + 1):
                return k

    def __getstate__(self) -> dict:  # (copied and pickled with the Cell holding it)
        state = {k: v for k, v in self.__dict__.items() if k not in ("_lock", "_bits")}
        state["engine"] = self._bits.state
        return state

    def __setstate__(self, state: dict) -> None:
        engine = state.pop("engine")
        self.__dict__.update(state)
        self._bits = np.random.MT19937()
        self._bits.state = engine
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"Mt19937Stream{self.seeds}"
