"""The order MindSpore's CPU TopK leaves the k largest elements in when `sorted=False`: its
kernel runs C++'s `std::nth_element` (libstdc++'s introselect) over the positions 0..n-1 of each
row, comparing values with `>`, and reads the first k. That order is the algorithm's, not a
sorted one, so it is reproduced step by step here:

    values [5, 1, 4, 2, 3], k = 3   ->   positions [4, 0, 2] (values [3, 5, 4])

With k == n (nth_element's `nth == last`) nothing moves: the row as it is."""
from __future__ import annotations

import numpy as np


def _move_median_to_first(idx, result, a, b, c, greater):
    if greater(idx[a], idx[b]):
        if greater(idx[b], idx[c]):
            pick = b
        elif greater(idx[a], idx[c]):
            pick = c
        else:
            pick = a
    elif greater(idx[a], idx[c]):
        pick = a
    elif greater(idx[b], idx[c]):
        pick = c
    else:
        pick = b
    idx[result], idx[pick] = idx[pick], idx[result]


def _unguarded_partition(idx, first, last, pivot, greater):
    while True:
        while greater(idx[first], idx[pivot]):
            first += 1
        last -= 1
        while greater(idx[pivot], idx[last]):
            last -= 1
        if not first < last:
            return first
        idx[first], idx[last] = idx[last], idx[first]
        first += 1


def _insertion_sort(idx, first, last, greater):
    for i in range(first + 1, last):
        value = idx[i]
        if greater(value, idx[first]):
            idx[first + 1:i + 1] = idx[first:i]
            idx[first] = value
        else:
            j = i
            while greater(value, idx[j - 1]):
                idx[j] = idx[j - 1]
                j -= 1
            idx[j] = value


def nth_element_order(row: np.ndarray, k: int) -> list:
    """The positions of `row` in the order std::nth_element(idx, idx + k, idx + n, >) leaves."""
    n = len(row)
    idx = list(range(n))
    if k >= n or n == 0:
        return idx
    values = row.tolist()

    def greater(p, q):
        return values[p] > values[q]

    first, last, nth = 0, n, k
    depth = 2 * (n.bit_length() - 1)
    while last - first > 3:
        if depth == 0:  # libstdc++ turns to a heap selection here (inputs built to defeat the
            # median-of-three pivot): the same elements, here listed greatest first
            rest = sorted(idx[first:last], key=lambda p: (-values[p], p))
            idx[first:last] = rest
            return idx
        depth -= 1
        mid = first + (last - first) // 2
        _move_median_to_first(idx, first, first + 1, mid, last - 1, greater)
        cut = _unguarded_partition(idx, first + 1, last, first, greater)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(idx, first, last, greater)
    return idx


def unsorted_topk_order(x: np.ndarray, k: int, largest: bool) -> np.ndarray:
    """(..., k) positions along the last axis of x, in TopK(sorted=False)'s order; for
    `largest=False` the k smallest, as MindSpore's ops.topk takes them (the largest of -x)."""
    rows = x.reshape(-1, x.shape[-1])
    if not largest:
        rows = -rows.astype(np.float64) if rows.dtype.kind in "ub" else -rows
    order = np.array([nth_element_order(r, k)[:k] for r in rows], np.int64)
    return order.reshape(x.shape[:-1] + (k,))
