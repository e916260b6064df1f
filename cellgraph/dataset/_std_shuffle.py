"""MindSpore's random sampler orders, reproduced.

MindSpore's C++ RandomSampler seeds a `std::mt19937` with the dataset seed (`dataset.config.
set_seed`, which `set_seed` also sets; one more per epoch) and shuffles the row ids with
`std::shuffle` as the GNU C++ library MindSpore 2.10 is built with implements it: two swap
positions from one draw while n * n fits in the generator's 32 bits, else one per position, each
`std::uniform_int_distribution` draw by rejection and division. With replacement it draws each
row id that way. The generator here is NumPy's MT19937 seeded as `std::mt19937(seed)` is.
"""
from __future__ import annotations

import itertools
import os

import numpy as np

from cellgraph.runtime.std_shuffle import shuffle, uniform_below

_WORD = 0xFFFFFFFF


class Mt19937Words:
    """The 32-bit outputs of `std::mt19937(seed)`, one per call."""

    low, span = 0, _WORD  # the engine's min() and max() - min(), which the distributions read

    def __init__(self, seed: int):
        legacy = np.random.RandomState(seed & _WORD)  # init_genrand(seed), as std::mt19937
        self._bits = np.random.MT19937()
        self._bits.state = legacy.get_state(legacy=False)
        self._buffer: list[int] = []

    @property
    def state(self) -> dict:
        """Where the engine stands (a resumed pass restores it)."""
        return {"mt19937": self._bits.state, "buffered": list(self._buffer)}

    @state.setter
    def state(self, value: dict) -> None:
        self._bits.state = value["mt19937"]
        self._buffer = list(value["buffered"])

    def __call__(self) -> int:
        if not self._buffer:
            self._buffer = self._bits.random_raw(1024).tolist()[::-1]
        return self._buffer.pop()

    def block(self, count: int) -> np.ndarray:
        """The next `count` outputs at once (uint32), as `count` calls would give them."""
        head = self._buffer[::-1][:count]
        del self._buffer[len(self._buffer) - len(head):]
        rest = self._bits.random_raw(count - len(head)) if count > len(head) else []
        return np.concatenate([np.asarray(head, np.uint64), np.asarray(rest, np.uint64)]
                              ).astype(np.uint32)


class MinstdWords:
    """The outputs of libstdc++'s `std::default_random_engine(seed)` (minstd_rand0: x = x * 16807
    mod 2**31 - 1, in [1, 2**31 - 2]), one per call."""

    low, span = 1, 2**31 - 3
    _M = 2**31 - 1

    def __init__(self, seed: int):
        self.state = (seed % self._M) or 1

    def __call__(self) -> int:
        self.state = self.state * 16807 % self._M
        return self.state


def canonical_double(words: Mt19937Words) -> float:
    """`std::generate_canonical<double, 53>` over 32-bit words: two words, the second the high
    one, over 2**64 (the largest double below 1 where that rounds to 1)."""
    value = (float(words()) + float(words()) * 4294967296.0) / 18446744073709551616.0
    return value if value < 1.0 else float(np.nextafter(1.0, 0.0))


def canonical_float(words: Mt19937Words) -> np.float32:
    """`std::generate_canonical<float, 24>` over 32-bit words: one word, rounded to float,
    over 2**32 in float."""
    value = np.float32(words()) / np.float32(4294967296.0)
    return value if value < 1 else np.nextafter(np.float32(1), np.float32(0))


def bernoulli(words: Mt19937Words, p: float) -> bool:
    """`std::bernoulli_distribution(p)`: a canonical double below p."""
    return canonical_double(words) < p


def uniform_float(words: Mt19937Words, low, high) -> np.float32:
    """`std::uniform_real_distribution<float>(low, high)`, in float arithmetic."""
    low, high = np.float32(low), np.float32(high)
    return canonical_float(words) * (high - low) + low


def uniform_int(words: Mt19937Words, low: int, high: int) -> int:
    """`std::uniform_int_distribution<int>(low, high)` (both ends included)."""
    return low + uniform_below(words, high - low + 1)


class SamplerOrder:
    """The orders of one random sampler over its epochs: epoch e shuffles epoch e - 1's order
    with seed + e (the first shuffles 0..n-1 with seed), as MindSpore's sampler does when it
    resets; the last order is kept, so epochs in sequence cost one shuffle each."""

    def __init__(self):
        self._last = None  # (seed, n, epoch, order)

    def permutation(self, seed: int, n: int, epoch: int) -> np.ndarray:
        if self._last is not None and self._last[:2] == (seed, n) and self._last[2] <= epoch:
            _, _, done, ids = self._last
            ids = list(ids)
        else:
            done, ids = -1, list(range(n))
        for e in range(done + 1, epoch + 1):
            shuffle(ids, Mt19937Words(seed + e))
        self._last = (seed, n, epoch, ids)
        return np.array(ids, dtype=np.int64)


def draws_with_replacement(seed: int, n: int, count: int, epoch: int) -> np.ndarray:
    """`count` row ids in [0, n), drawn as MindSpore's sampler with replacement draws them in
    epoch `epoch` (its generator reseeded with seed + epoch)."""
    words = Mt19937Words(seed + epoch)
    return np.array([uniform_below(words, n) for _ in range(count)], dtype=np.int64)


class Mt19937x64:
    """The 64-bit outputs of `std::mt19937_64(seed)`, one per call (the generator MindSpore's
    buffer shuffle draws from)."""

    _N, _M, _MASK = 312, 156, (1 << 64) - 1

    def __init__(self, seed: int):
        state = [seed & self._MASK]
        for i in range(1, self._N):
            prev = state[-1]
            state.append((6364136223846793005 * (prev ^ (prev >> 62)) + i) & self._MASK)
        self._state, self._index = state, self._N

    def _twist(self) -> None:
        state, n, m = self._state, self._N, self._M
        for i in range(n):
            bits = (state[i] & 0xFFFFFFFF80000000) | (state[(i + 1) % n] & 0x7FFFFFFF)
            value = bits >> 1
            if bits & 1:
                value ^= 0xB5026F5AA96619E9
            state[i] = state[(i + m) % n] ^ value
        self._index = 0

    def __call__(self) -> int:
        if self._index >= self._N:
            self._twist()
        y = self._state[self._index]
        self._index += 1
        y ^= (y >> 29) & 0x5555555555555555
        y ^= (y << 17) & 0x71D67FFFEDA60000
        y ^= (y << 37) & 0xFFF7EEE000000000
        y ^= y >> 43
        return y


def buffer_shuffle(rows, size: int, words):
    """MindSpore's ShuffleOp: a buffer of up to `size` rows; each row out is the one in a
    random slot (word % filled slots), the last filled slot moves into its place and the next
    row coming in takes the last slot; when the input ends the buffer drains the same way."""
    buffer = []
    rows = iter(rows)
    for row in rows:
        buffer.append(row)
        if len(buffer) == size:
            break
    active = len(buffer) == size
    last = len(buffer) - 1
    while last >= 0:
        slot = words() % (last + 1)
        yield buffer[slot]
        buffer[slot] = buffer[last]
        if active:
            row = next(rows, None)
            if row is None:
                active = False
            else:
                buffer[last] = row
        if not active:
            last -= 1


_PARTIAL_BLOCK = 1_000_000  # MindRecord's ShuffleSize


class ShardShuffleOrder:
    """The row orders of MindRecord's reader (MindDataset) under a random or distributed
    sampler, as its ShardShuffle makes them: each epoch's shuffle is seeded with the dataset
    seed + 1 + epoch and uses `std::default_random_engine` (MinstdWords). GLOBAL shuffles the
    rows, FILES the order of the files' row ranges, INFILE the rows within each range (every
    range with a generator of the same seed); with replacement, row i of the epoch is drawn by
    `std::mt19937(seed + i)`. Without sharding, an epoch shuffles the previous epoch's rows
    (cut to num_samples); with sharding, the rows as read, then every num_shards-th (wrapping
    round to make the shards even; with MS_DEV_MINDRECORD_SHARD_BY_BLOCK=true, a block of
    consecutive rows a shard); mode None keeps the rows' order."""

    def __init__(self, file_rows: list[int], mode: str, replacement=False, num_samples=None,
                 shards=None):
        self.ends = list(itertools.accumulate(file_rows))
        self.mode, self.replacement = mode, replacement
        self.num_samples, self.shards = num_samples or None, shards
        self._last = None  # (seed, epoch, rows)

    def _shuffled(self, rows: list, seed: int) -> list:
        if self.mode == "files":
            files = list(range(len(self.ends)))
            shuffle(files, MinstdWords(seed))
            starts = [0, *self.ends[:-1]]
            rows = [r for f in files for r in rows[starts[f]:self.ends[f]]]
        elif self.mode == "infile":
            rows = list(rows)
            start = 0
            for end in self.ends:
                part = rows[start:end]
                shuffle(part, MinstdWords(seed))
                rows[start:end] = part
                start = end
        elif self.replacement:
            count = self.num_samples or len(rows)
            rows = [rows[uniform_below(Mt19937Words(seed + i), len(rows))] for i in range(count)]
        else:
            rows = list(rows)
            shuffle(rows, MinstdWords(seed))
        return rows if self.num_samples is None else rows[:self.num_samples]

    def _partial(self, num_rows: int, seed: int) -> list:
        """Shuffle.PARTIAL (MindRecord's slow-load mode): the files in a shuffled order (cut to
        num_samples), then the positions in blocks of a million, each block shuffled by a
        generator of the same seed; every epoch anew from the files as read."""
        files = list(range(len(self.ends)))
        shuffle(files, MinstdWords(seed))
        starts = [0, *self.ends[:-1]]
        rows = [r for f in files for r in range(starts[f], self.ends[f])]
        rows += list(range(self.ends[-1], num_rows))  # padded rows last
        if self.num_samples is not None:
            rows = rows[:self.num_samples]
        order = []
        for block in range(0, len(rows), _PARTIAL_BLOCK):
            ids = list(range(block, min(block + _PARTIAL_BLOCK, len(rows))))
            shuffle(ids, MinstdWords(seed))
            order.extend(rows[i] for i in ids)
        return order

    def rows(self, seed: int, num_rows: int, epoch: int) -> np.ndarray:
        if self.mode == "partial":
            return np.array(self._partial(num_rows, seed + 1 + epoch), np.int64)
        if self.shards is not None:
            num_shards, shard_id = self.shards
            order = list(range(num_rows))
            if self.mode is not None:
                order = self._shuffled(order, seed + 1 + epoch)
            taking = -(-len(order) // num_shards)
            if os.environ.get("MS_DEV_MINDRECORD_SHARD_BY_BLOCK", "").lower() == "true":
                picked = range(shard_id * taking, (shard_id + 1) * taking)  # a block a shard
            else:
                picked = range(shard_id, shard_id + num_shards * taking, num_shards)
            return np.array([order[i % len(order)] for i in picked], np.int64)
        if self._last is not None and self._last[0] == seed and self._last[1] <= epoch:
            _, done, rows = self._last
        else:
            done, rows = -1, list(range(num_rows))
        for e in range(done + 1, epoch + 1):
            rows = self._shuffled(rows, seed + 1 + e)
        self._last = (seed, epoch, rows)
        return np.array(rows, np.int64)


class NormalFloat:
    """`std::normal_distribution<float>(0, 1)` of libstdc++: Marsaglia's polar method, which
    keeps the second value of each pair for the next call (so one object per distribution)."""

    def __init__(self):
        self.saved = None

    def __call__(self, words: Mt19937Words) -> np.float32:
        if self.saved is not None:
            value, self.saved = self.saved, None
            return value
        while True:
            x = np.float32(2.0 * float(canonical_float(words)) - 1.0)
            y = np.float32(2.0 * float(canonical_float(words)) - 1.0)
            r2 = np.float32(x * x + y * y)
            if r2 <= 1 and r2 != 0:
                break
        mult = np.float32(np.sqrt(np.float32(-2) * np.log(r2) / r2))
        self.saved = np.float32(x * mult)
        return np.float32(y * mult)


class Mt19937Normal(Mt19937Words):
    """`std::mt19937(seed)` with the `std::normal_distribution<float>` of the op that holds
    both: the distribution keeps the second value of each pair between the op's calls."""

    def __init__(self, seed: int):
        super().__init__(seed)
        self.normal = NormalFloat()

    @property
    def state(self) -> dict:
        return {**Mt19937Words.state.fget(self), "normal": self.normal.saved}

    @state.setter
    def state(self, value: dict) -> None:
        Mt19937Words.state.fset(self, value)
        self.normal.saved = value.get("normal")


class GammaFloat:
    """`std::gamma_distribution<float>(alpha, 1)` of libstdc++: Marsaglia and Tsang's method
    on its own normal distribution (alpha < 1 draws for alpha + 1 and scales by U**(1/alpha))."""

    def __init__(self, alpha: float):
        self.alpha = np.float32(alpha)
        self.malpha = self.alpha + np.float32(1) if self.alpha < 1 else self.alpha
        self.a1 = np.float32(self.malpha - np.float32(1.0 / 3.0))
        self.a2 = np.float32(np.float32(1) / np.sqrt(np.float32(9) * self.a1))
        self.normal = NormalFloat()

    def __call__(self, words: Mt19937Words) -> np.float32:
        while True:
            while True:
                n = self.normal(words)
                v = np.float32(np.float32(1) + self.a2 * n)
                if v > 0:
                    break
            v = np.float32(v * v * v)
            u = canonical_float(words)
            n64 = float(n)
            if not (float(u) > 1.0 - 0.0331 * n64 ** 4 and
                    float(np.log(u)) > 0.5 * n64 * n64 + float(self.a1) * (
                        1.0 - float(v) + float(np.log(v)))):
                break
        value = np.float32(self.a1 * v)
        if self.alpha == self.malpha:
            return value
        while True:
            u = canonical_float(words)
            if u != 0:
                break
        return np.float32(np.power(u, np.float32(1) / self.alpha) * value)


def sample(items: list, count: int, words: Mt19937Words) -> list:
    """`std::sample(items.begin(), items.end(), back_inserter(out), count, words)` of
    libstdc++: selection sampling (the chosen keep their order), two positions from one draw
    while the range allows it."""
    out = []
    left = len(items)
    count = min(count, left)
    position = 0
    if words.span // left >= left:
        while count != 0 and left >= 2:
            both = uniform_below(words, left * (left - 1))
            first, second = divmod(both, left - 1)
            left -= 1
            if first < count:
                out.append(items[position])
                count -= 1
            position += 1
            if count == 0:
                break
            left -= 1
            if second < count:
                out.append(items[position])
                count -= 1
            position += 1
    while count != 0:
        left -= 1
        if uniform_below(words, left + 1) < count:
            out.append(items[position])
            count -= 1
        position += 1
    return out
