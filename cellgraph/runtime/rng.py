"""The global random generator: `cellgraph.set_seed` resets it; parameter initializers and the
`uniform_real` kernel draw from it. Beside it, the generators MindSpore's CPU kernels use
where a program's numbers depend on them: the `std::default_random_engine` (minstd) stream of
its Dropout, StandardNormal, Multinomial and RandomShuffle kernels, and Philox draws
(philox.py: the initializers', and how its kernels mix a global and an op seed); the
`std::mt19937` of UniformReal and UniformInt is in mt19937.py. The draw kernels take any of
them through their `seed` parameter."""
from __future__ import annotations

import threading
import weakref
from collections import Counter

import numpy as np

from .mt19937 import Mt19937Stream
from .numpy_backend import numpy_backend
from .philox import kernel_seed, philox4x32
from .std_shuffle import shuffle

_state = {"seed": None, "rng": np.random.default_rng(), "streams": {}}


def seed_generator(seed: int) -> None:
    _state["seed"] = seed
    _state["rng"] = np.random.default_rng(seed)
    _state["streams"] = {}  # the op seeds' streams start again, combined with the new seed


def seed_draws(seed: int) -> None:
    """Restart the global generator's draws from `seed` (any int, taken modulo 2**64) without
    recording a global seed: `manual_seed` seeds the draws but, as in MindSpore, not
    `get_seed`, NumPy's generator or the op seeds' streams."""
    _state["rng"] = np.random.default_rng(int(seed) % 2**64)


def stream(key: tuple) -> np.random.Generator:
    """The generator of an op-level seed `key`: the same numbers in every process, started
    again by set_seed (and combined with its seed)."""
    streams = _state["streams"]
    if key not in streams:
        entropy = list(key) if _state["seed"] is None else [*key, int(_state["seed"])]
        streams[key] = np.random.default_rng(entropy)
    return streams[key]


def current_seed() -> int | None:
    return _state["seed"]


def generator() -> np.random.Generator:
    return _state["rng"]


_MINSTD_M, _MINSTD_A = 2**31 - 1, 16807


# The kernel streams made in this process, in order, so that a resumed run can give each the
# state it had (train/resume.py): a stream is known by its seed pair and how many streams of
# that pair were made before it, which a deterministic program repeats after a restart.
_KERNEL_STREAMS: list = []  # weak references
_MADE: Counter = Counter()
_RESTORED: dict = {}  # key -> state, for streams not made yet
_REGISTRY_LOCK = threading.Lock()


def kernel_stream_states() -> dict:
    """{"seed0,seed1,n": state} of the live kernel streams."""
    with _REGISTRY_LOCK:
        live = [ref() for ref in _KERNEL_STREAMS]
    return {",".join(map(str, s.key)): s.state for s in live if s is not None}


def restore_kernel_stream_states(states: dict) -> None:
    """Give each kernel stream the state `kernel_stream_states` recorded for it: now for those
    already made, when made for the rest."""
    wanted = {tuple(int(v) for v in key.split(",")): int(state) for key, state in states.items()}
    with _REGISTRY_LOCK:
        for ref in _KERNEL_STREAMS:
            stream = ref()
            if stream is not None and stream.key in wanted:
                stream.state = wanted.pop(stream.key)
        _RESTORED.update(wanted)


_POWERS = {"table": np.full(1, _MINSTD_A, np.int64)}  # a**1 .. a**k (mod m), shared


def _minstd_powers(n: int) -> np.ndarray:
    """a**1 .. a**n (mod m): the multipliers that take a minstd state n draws on at once. The
    table is the same for every stream and draw, so it is kept, grown by doubling when a draw
    needs more of it (a dropout layer draws the same count on every step)."""
    table = _POWERS["table"]
    if len(table) < n:
        with _REGISTRY_LOCK:
            table = _POWERS["table"]
            while len(table) < n:
                table = np.concatenate([table, table * int(table[-1]) % _MINSTD_M])
            _POWERS["table"] = table
    return table[:n]


class MinstdStream:
    """The uniform floats of `std::uniform_real_distribution<float>(0, 1)` over libstdc++'s
    `std::default_random_engine` (minstd_rand0), seeded as MindSpore's CPU Dropout kernel
    seeds it (`kernel_seed(seed0, seed1)`): each draw is the engine's next state x as
    float32(x - 1) / 2**31 (kept below 1, as generate_canonical keeps it). The state carries on from draw to draw, as the kernel's does across
    its runs; a lock keeps the draws of concurrent runs whole."""

    def __init__(self, seed0: int, seed1: int):
        self.seeds = (int(seed0), int(seed1))
        self.state = kernel_seed(*self.seeds) % _MINSTD_M or 1
        self._lock = threading.Lock()
        with _REGISTRY_LOCK:
            self.key = (*self.seeds, _MADE[self.seeds])
            _MADE[self.seeds] += 1
            self.state = _RESTORED.pop(self.key, self.state)
            _KERNEL_STREAMS[:] = [ref for ref in _KERNEL_STREAMS if ref() is not None]
            _KERNEL_STREAMS.append(weakref.ref(self))

    low, span = 1, _MINSTD_M - 2  # the engine's min() and max() - min(), for std_shuffle.py

    def __call__(self) -> int:
        """The engine's next state (for runtime/std_shuffle.py); the caller holds the lock."""
        self.state = self.state * _MINSTD_A % _MINSTD_M
        return self.state

    def random(self, shape) -> np.ndarray:
        n = int(np.prod(shape, dtype=np.int64))
        powers = _minstd_powers(n)
        with self._lock:
            states = powers * self.state % _MINSTD_M
            if n:
                self.state = int(states[-1])
        drawn = (states - 1).astype(np.float32) / np.float32(2.0**31)
        return np.minimum(drawn, np.nextafter(np.float32(1), np.float32(0))).reshape(shape)

    def normal(self, shape) -> np.ndarray:
        """The float32 draws of `std::normal_distribution<float>(0, 1)`, made afresh for each
        draw as MindSpore's CPU StandardNormal kernel makes it: libstdc++'s polar method over
        pairs of canonical floats u (as `random` above, kept below 1), x = 2u - 1 and y = 2v - 1
        kept when 0 < r2 = x*x + y*y <= 1, giving y * m then x * m with m =
        sqrt(-2 log(r2) / r2), all in float (the C library's logf); an odd count leaves the last
        pair's second."""
        n = int(np.prod(shape, dtype=np.int64))
        pairs_needed = (n + 1) // 2
        chosen = []
        with self._lock:
            while pairs_needed:
                pairs = pairs_needed * 4 // 3 + 8  # about pi / 4 of the pairs are kept
                states = _minstd_powers(2 * pairs) * self.state % _MINSTD_M
                u = np.minimum((states - 1).astype(np.float32) / np.float32(2.0**31),
                               np.nextafter(np.float32(1), np.float32(0)))
                xy = (2.0 * u.astype(np.float64) - 1.0).astype(np.float32)
                x, y = xy[0::2], xy[1::2]
                r2 = x * x + y * y
                kept = np.flatnonzero((r2 <= 1) & (r2 != 0))[:pairs_needed]
                used = kept[-1] + 1 if kept.size == pairs_needed else pairs
                self.state = int(states[2 * used - 1])
                chosen.append((x[kept], y[kept], r2[kept]))
                pairs_needed -= kept.size
        x, y, r2 = (np.concatenate(part) for part in zip(*chosen)) if chosen else \
            (np.zeros(0, np.float32),) * 3
        logs = _logf(r2)
        mult = np.sqrt(np.float32(-2) * logs / r2)
        out = np.empty(2 * x.size, np.float32)
        out[0::2], out[1::2] = y * mult, x * mult
        return out[:n].reshape(shape)

    def __getstate__(self) -> dict:  # (copied and pickled with the Cell holding it)
        return {"seeds": self.seeds, "state": self.state, "key": self.key}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"MinstdStream{self.seeds}"


class MinstdEngine:
    """libstdc++'s `std::default_random_engine(seed)` (minstd_rand0) made afresh, as kernels that
    seed one per call draw from it: the words, for runtime/std_shuffle.py, and
    `canonical()`, `generate_canonical<double, 53>` (two words)."""

    low, span = 1, _MINSTD_M - 2

    def __init__(self, seed: int):
        self.state = int(seed) % _MINSTD_M or 1

    def __call__(self) -> int:
        self.state = self.state * _MINSTD_A % _MINSTD_M
        return self.state

    def canonical(self) -> float:
        span = float(self.span)
        value = (float(self() - 1) + float(self() - 1) * span) / (span * span)
        return min(value, float(np.nextafter(1.0, 0.0)))


class TruncatedNormalStream(MinstdStream):
    """The draws of MindSpore's CPU TruncatedNormal kernel: `std::normal_distribution<double>`
    (0, 1) over libstdc++'s minstd_rand0 seeded as MinstdStream, those outside [-2, 2]
    dropped. Each canonical double takes two of the engine's words, (w0 - 1 + (w1 - 1) * R) /
    R**2 with R = 2**31 - 2 (`generate_canonical<double, 53>`); the polar method keeps pairs
    with 0 < r2 <= 1 and gives y * m then x * m, m = sqrt(-2 log(r2) / r2). The distribution is
    made afresh for each run, so an unused second value of a pair is dropped."""

    limit = 2.0  # the kernel's kMax

    def normal(self, shape) -> np.ndarray:
        n = int(np.prod(shape, dtype=np.int64))
        chosen, span = [], float(_MINSTD_M - 2)
        with self._lock:
            while n:
                pairs = n + 8
                states = _minstd_powers(4 * pairs) * self.state % _MINSTD_M
                words = (states - 1).astype(np.float64).reshape(pairs, 2, 2)
                u = (words[..., 0] + words[..., 1] * span) / (span * span)
                u = np.minimum(u, np.nextafter(1.0, 0.0))
                x, y = 2.0 * u[:, 0] - 1.0, 2.0 * u[:, 1] - 1.0
                r2 = x * x + y * y
                polar = (r2 <= 1.0) & (r2 != 0.0)
                mult = np.sqrt(-2.0 * np.log(np.where(polar, r2, 0.5)) / np.where(polar, r2, 1))
                values = np.stack([y * mult, x * mult], 1)              # (pairs, 2)
                kept = polar[:, None] & (np.abs(values) <= self.limit)
                flat = np.flatnonzero(kept.reshape(-1))[:n]
                used = flat[-1] // 2 + 1 if flat.size == n else pairs
                self.state = int(states[4 * used - 1])
                chosen.append(values.reshape(-1)[flat])
                n -= flat.size
        return (np.concatenate(chosen) if chosen else np.zeros(0)).reshape(shape)


def _load_logf():
    """The C library's `logf`, which MindSpore's kernels call (its last bit differs from a
    correctly rounded log in a few draws in a thousand); None where it cannot be loaded."""
    import ctypes
    import ctypes.util

    try:
        logf = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6").logf
    except (OSError, AttributeError):
        return None
    logf.restype, logf.argtypes = ctypes.c_float, [ctypes.c_float]
    return logf


_LOGF: list = []  # the loaded logf, once looked for


def _logf(values: np.ndarray) -> np.ndarray:
    """float32 logs as the C library's logf gives them (NumPy's, where there is none)."""
    if not _LOGF:
        _LOGF.append(_load_logf())
    if _LOGF[0] is None:
        return np.log(values.astype(np.float64)).astype(np.float32)
    return np.fromiter(map(_LOGF[0], values.tolist()), np.float32, values.size)


class MinstdDoubleStream(MinstdStream):
    """The draws of `std::uniform_real_distribution<double>(0, 1)` over the same engine, as
    MindSpore's CPU RandomCategorical kernel makes them: libstdc++'s generate_canonical takes
    two states x1, x2 per draw, (x1 - 1 + (x2 - 1) * r) / r**2 with r = 2**31 - 2, in double."""

    def random(self, shape) -> np.ndarray:
        n = int(np.prod(shape, dtype=np.int64))
        powers = _minstd_powers(2 * n)
        with self._lock:
            states = powers * self.state % _MINSTD_M
            if n:
                self.state = int(states[-1])
        r = np.float64(_MINSTD_M - 1)
        drawn = ((states[0::2] - 1).astype(np.float64) + (states[1::2] - 1).astype(np.float64)
                 * r) / (r * r)
        return np.minimum(drawn, np.nextafter(1.0, 0.0)).reshape(shape)

    def __repr__(self) -> str:
        return f"MinstdDoubleStream{self.seeds}"


class PhiloxMantissaStream:
    """The uniform floats of MindSpore's CPU MultinomialWithReplacement kernel: Philox4x32-10
    keyed by the 64-bit seed, the offset the counter's high 64 bits, one 32-bit word w a draw,
    float32 with w's low 23 bits the mantissa of a number in [1, 2), minus 1. A block's unused
    words and the counter carry on from draw to draw, as the kernel's generator does across its
    runs; `carry` starts it with another stream's unused words (the kernel keeps them when a new
    seed re-seeds it)."""

    def __init__(self, seed: int, offset: int, carry: PhiloxMantissaStream | None = None):
        self.seeds = (int(seed), int(offset))
        mask = (1 << 64) - 1
        self.key = (int(seed) & 0xFFFFFFFF, (int(seed) & mask) >> 32)
        self.counter = (int(offset) & mask) << 64  # the 128-bit counter, words 0..3 low first
        self.words = carry.words.copy() if carry is not None else np.zeros(0, np.uint32)
        self._lock = threading.Lock()

    def random(self, shape) -> np.ndarray:
        n = int(np.prod(shape, dtype=np.int64))
        with self._lock:
            blocks = max(0, -(-(n - self.words.size) // 4))
            if blocks:
                counters = [self.counter + i for i in range(blocks)]
                words = philox4x32([np.array([(c >> (32 * k)) & 0xFFFFFFFF for c in counters],
                                             np.uint64) for k in range(4)], self.key)
                self.counter = (self.counter + blocks) % (1 << 128)
                self.words = np.concatenate([self.words, words.reshape(-1)])
            taken, self.words = self.words[:n], self.words[n:]
        bits = (taken & np.uint32(0x7FFFFF)) | np.uint32(127 << 23)
        return (bits.view(np.float32) - np.float32(1.0)).reshape(shape)

    def __getstate__(self) -> dict:  # (copied and pickled with the Cell holding it)
        return {k: v for k, v in self.__dict__.items() if k != "_lock"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"PhiloxMantissaStream{self.seeds}"


class PhiloxRestartingStream(PhiloxMantissaStream):
    """The draws of MindSpore's CPU Bernoulli kernel: PhiloxMantissaStream's, but the generator
    made again from (seed, offset) at every run, as the kernel re-seeds it at each launch; the
    last block's unused words still carry on to the next run."""

    def random(self, shape) -> np.ndarray:
        with self._lock:
            self.counter = (self.seeds[1] & ((1 << 64) - 1)) << 64
        return super().random(shape)

    def __repr__(self) -> str:
        return f"PhiloxRestartingStream{self.seeds}"


@numpy_backend.register("random_poisson")
def _random_poisson(rate, shape, dtype, seed=None):
    """Poisson counts for each rate (0 where it is not positive), `shape + rate.shape` of
    them, from the global generator or an op seed's stream."""
    rng = _drawer(seed)
    if isinstance(rng, Mt19937Stream):  # MindSpore's kernel's draws
        rate = np.asarray(rate)
        counts = rng.poisson(rate.reshape(-1), int(np.prod(shape, dtype=np.int64)))
        return counts.reshape(tuple(shape) + rate.shape).astype(dtype.np)
    rate = np.maximum(np.asarray(rate, np.float64), 0.0)
    return rng.poisson(rate, size=tuple(shape) + rate.shape).astype(dtype.np)


@numpy_backend.register("random_gamma")
def _random_gamma(alpha, shape, seed=None):
    """Gamma(alpha, 1) draws for each alpha (0 where it is 0, NaN where it is negative, as
    MindSpore's kernel gives), `shape + alpha.shape` of them, from the global generator or an
    op seed's stream."""
    rng = generator() if seed is None else stream(tuple(seed))
    alpha = np.asarray(alpha)
    with np.errstate(invalid="ignore"):
        valid = alpha.astype(np.float64) > 0
        draws = rng.standard_gamma(np.where(valid, alpha, 1.0).astype(np.float64),
                                   size=tuple(shape) + alpha.shape)
    return np.where(valid, draws, np.where(alpha == 0, 0.0, np.nan)).astype(alpha.dtype)


@numpy_backend.register("uniform_candidate_sampler")
def _uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                               remove_accidental_hits, seed=None, log_uniform=False):
    """MindSpore's CPU kernels' sampling (its range samplers): classes drawn one at a time
    from [0, range_max), uniformly or, with `log_uniform`, with probability
    p(c) = log((c + 2) / (c + 1)) / log(range_max + 1); with `unique` each new one kept until
    `num_sampled` are (skipping the true classes with `remove_accidental_hits`, unless too few
    classes are left). The expected count of a class is p * num_sampled, or
    1 - (1 - p) ** tries when more draws than num_sampled were made. Draws from the global
    generator, or the op's own stream (`seed`)."""
    rng = generator() if seed is None else seed
    true_classes = np.asarray(true_classes)
    hits = set(true_classes.ravel().tolist()) if remove_accidental_hits else set()
    if num_sampled + len(hits) > range_max:  # MindSpore warns and samples without removing
        hits = set()

    def draw(count):
        u = rng.random((count,)).astype(np.float64)
        values = np.floor(np.exp(u * np.log(range_max + 1.0))) - 1.0 if log_uniform else \
            np.floor(u * range_max)
        return np.clip(values, 0, range_max - 1).astype(np.int64)

    if not unique:
        picked, tries = draw(num_sampled).tolist(), num_sampled
    else:
        picked, seen, tries = [], set(), 0
        while len(picked) < num_sampled:
            for value in draw(num_sampled - len(picked)).tolist():
                tries += 1
                if value not in seen and value not in hits:
                    seen.add(value)
                    picked.append(value)
                    if len(picked) == num_sampled:
                        break

    def expected(classes):
        classes = np.asarray(classes, np.float64)
        p = np.log((classes + 2.0) / (classes + 1.0)) / np.log(range_max + 1.0) \
            if log_uniform else np.full(classes.shape, 1.0 / range_max)
        p = p.astype(np.float32).astype(np.float64)
        count = p * num_sampled if tries == num_sampled else -np.expm1(tries * np.log1p(-p))
        return count.astype(np.float32)

    return (np.asarray(picked, true_classes.dtype), expected(true_classes),
            expected(np.asarray(picked)))


def _drawer(seed):
    """What a draw's `seed` names: the global generator (None), an op seed's stream (a key),
    or a MindSpore kernel's stream object (MinstdStream, mt19937.Mt19937Stream, ...)."""
    if seed is None:
        return generator()
    if isinstance(seed, (tuple, list)):
        return stream(tuple(seed))
    return seed


@numpy_backend.register("uniform_real")
def _uniform_real(shape, dtype, seed=None):
    """U[0, 1) draws from the generator `seed` names."""
    return _drawer(seed).random(shape).astype(dtype.np)


@numpy_backend.register("standard_normal")
def _standard_normal(shape, dtype, seed=None):
    """N(0, 1) draws from the generator `seed` names (a kernel's stream: its `normal`)."""
    rng = _drawer(seed)
    draw = rng.standard_normal if isinstance(rng, np.random.Generator) else rng.normal
    return np.asarray(draw(tuple(shape))).astype(dtype.np)


@numpy_backend.register("random_permutation")
def _random_permutation(n, seed=None, engine_seed=None):
    """A permutation of 0 .. n-1 (int64): NumPy's from the global generator or an op seed's
    stream; with a kernel's stream (or `engine_seed`: a `std::mt19937(engine_seed)` made
    afresh for each run), libstdc++'s std::shuffle of 0 .. n-1 over its words, as MindSpore's
    RandomShuffle and RandpermV2 kernels shuffle."""
    if engine_seed is not None:
        seed = Mt19937Stream(0, 0, engine_seed=engine_seed)
    rng = _drawer(seed)
    if isinstance(rng, np.random.Generator):
        return rng.permutation(n).astype(np.int64)
    order = list(range(n))
    with rng._lock:
        shuffle(order, rng)
    return np.asarray(order, np.int64)


@numpy_backend.register("shuffled_true_positions")
def _shuffled_true_positions(flags, seed=None):
    """The True positions of `flags` in a random order, then the False ones (int32): NumPy's
    permutation from the global generator or an op seed's stream; with a kernel's stream,
    std::shuffle of 0 .. k-1 (k True elements) picking among them, as MindSpore's
    RandomChoiceWithMask kernel does."""
    flags = np.asarray(flags, bool)
    true, false = np.flatnonzero(flags), np.flatnonzero(~flags)
    rng = _drawer(seed)
    if isinstance(rng, np.random.Generator):
        true = rng.permutation(true)
    else:
        picks = list(range(true.size))
        with rng._lock:
            shuffle(picks, rng)
        true = true[np.asarray(picks, np.int64)]
    return np.concatenate([true, false]).astype(np.int32)


@numpy_backend.register("uniform_int")
def _uniform_int(shape, low, high, seed=None):
    """int32 draws in [low, high) from the generator `seed` names."""
    rng = _drawer(seed)
    if isinstance(rng, np.random.Generator):
        return rng.integers(low, high, tuple(shape)).astype(np.int32)
    return rng.integers(low, high, tuple(shape))
