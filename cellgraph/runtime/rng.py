"""The global random generator: `cellgraph.set_seed` resets it; parameter initializers and the
`uniform_real` kernel (dropout masks) draw from it. Beside it, the generators MindSpore's CPU
kernels use where a program's numbers depend on them: Philox4x32-10 (MindSpore's initializers,
and how its kernels mix a global and an op seed) and the `std::default_random_engine` (minstd)
stream of its Dropout kernel."""
from __future__ import annotations

import threading
import weakref
from collections import Counter

import numpy as np

from .numpy_backend import numpy_backend

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
    float32(x - 1) / 2**31. The state carries on from draw to draw, as the kernel's does across
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

    def random(self, shape) -> np.ndarray:
        n = int(np.prod(shape, dtype=np.int64))
        powers = _minstd_powers(n)
        with self._lock:
            states = powers * self.state % _MINSTD_M
            if n:
                self.state = int(states[-1])
        return ((states - 1).astype(np.float32) / np.float32(2.0**31)).reshape(shape)

    def __getstate__(self) -> dict:  # (copied and pickled with the Cell holding it)
        return {"seeds": self.seeds, "state": self.state, "key": self.key}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"MinstdStream{self.seeds}"


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


@numpy_backend.register("random_poisson")
def _random_poisson(rate, shape, dtype, seed=None):
    """Poisson counts for each rate (0 where it is not positive), `shape + rate.shape` of
    them, from the global generator or an op seed's stream."""
    rng = generator() if seed is None else stream(tuple(seed))
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


@numpy_backend.register("uniform_real")
def _uniform_real(shape, dtype, seed=None):
    """U[0, 1) draws: from the global generator, an op seed's stream (`seed` a key), or a
    MindSpore kernel's stream (`seed` a MinstdStream)."""
    if seed is None:
        rng = generator()
    elif isinstance(seed, (MinstdStream, PhiloxMantissaStream)):
        rng = seed
    else:
        rng = stream(tuple(seed))
    return rng.random(shape).astype(dtype.np)
