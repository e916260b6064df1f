"""Shared by the nn-primitive tests: random operands and running an op eagerly and compiled."""
from __future__ import annotations

import numpy as np

import cellgraph
from cellgraph import Tensor

F32 = {"rtol": 2e-5, "atol": 2e-5}
F64 = {"rtol": 1e-12, "atol": 1e-12}
rng = np.random.default_rng(7)


def normal(*shape, dtype=np.float64):
    return rng.standard_normal(shape).astype(dtype)


def distinct(*shape):
    """Values at least 0.05 apart (no ties for max pooling within a finite-difference step)."""
    n = int(np.prod(shape))
    return (rng.permutation(n) * 0.05 - n * 0.025).reshape(shape)


def both_ways(fn, *args):
    """fn(*args) eagerly and compiled, as NumPy arrays (tuples stay tuples)."""
    def unpack(out):
        return tuple(o.asnumpy() for o in out) if isinstance(out, tuple) else out.asnumpy()

    tensors = [Tensor(a) if isinstance(a, np.ndarray) else a for a in args]
    return unpack(fn(*tensors)), unpack(cellgraph.jit(lambda *xs: fn(*xs))(*tensors))


def assert_both(fn, args, expected, **tol):
    for got in both_ways(fn, *args):
        if isinstance(expected, tuple):
            assert len(got) == len(expected)
            for g, e in zip(got, expected):
                np.testing.assert_allclose(g, e, **(tol or F32))
        else:
            np.testing.assert_allclose(got, expected, **(tol or F32))
