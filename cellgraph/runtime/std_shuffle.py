"""libstdc++'s `std::shuffle` and `std::uniform_int_distribution` over an engine's words, as
the GNU C++ library MindSpore 2.10 is built with implements them. `words` is a callable giving
the engine's next word, with the engine's `low` (min()) and `span` (max() - min()): the dataset
samplers' engines (dataset/_std_shuffle.py) and the kernels' streams (rng.MinstdStream,
mt19937.Mt19937Stream)."""
from __future__ import annotations


def uniform_below(words, n: int) -> int:
    """`std::uniform_int_distribution(0, n - 1)` over an engine's words (downscaling by
    division, rejecting the words past the last whole multiple)."""
    scaling = words.span // n
    past = n * scaling
    while True:
        word = words() - words.low
        if word < past:
            return word // scaling


def shuffle(ids: list, words) -> None:
    """`std::shuffle(ids.begin(), ids.end(), words)`, in place."""
    n = len(ids)
    if n < 2:
        return
    if words.span // n >= n:  # two positions from one draw
        i = 1
        if n % 2 == 0:
            j = uniform_below(words, 2)
            ids[i], ids[j] = ids[j], ids[i]
            i += 1
        while i != n:
            span = i + 1
            both = uniform_below(words, span * (span + 1))
            first, second = divmod(both, span + 1)
            ids[i], ids[first] = ids[first], ids[i]
            i += 1
            ids[i], ids[second] = ids[second], ids[i]
            i += 1
        return
    for i in range(1, n):
        j = uniform_below(words, i + 1)
        ids[i], ids[j] = ids[j], ids[i]
