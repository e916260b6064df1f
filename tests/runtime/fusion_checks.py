"""What the fused-kernel tests share: running a function with fusion and without, comparing bit
for bit, and the W7 loop (x = sin(x) * w + 0.5 * x) with its gradient written out by hand."""
import numpy as np

import cellgraph as ms
from cellgraph import Tensor, ops
from cellgraph.compiler.ir import all_graphs
from cellgraph.runtime import fused_kernels


def nodes_named(jitted, name: str) -> list:
    graph = jitted._cache.last.compiled.graph
    return [n for g in all_graphs(graph) for n in g.nodes if n.callee.name == name]


def fused_and_plain(fn, *args):
    """(the jitted fn, its result with fusion on a second call, the result without fusion),
    compared bit for bit (signed zeros too)."""
    jitted = ms.jit(fn)
    out = jitted(*args)
    out = jitted(*args)  # (a second call: the kernel, whatever the warm-up)
    fused_kernels.ENABLED = False
    try:
        plain = ms.jit(fn)(*args)
    finally:
        fused_kernels.ENABLED = True
    flat_f = out if isinstance(out, tuple) else (out,)
    flat_p = plain if isinstance(plain, tuple) else (plain,)
    assert len(flat_f) == len(flat_p)
    for a, b in zip(flat_f, flat_p):
        assert type(a) is type(b)
        a, b = (np.asarray(v.asnumpy() if isinstance(v, Tensor) else v) for v in (a, b))
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(np.signbit(a), np.signbit(b))
    return jitted, out


def data(dtype, shape, seed, scale=1.0):
    rng = np.random.default_rng(seed)
    return Tensor((rng.standard_normal(shape) * scale).astype(dtype))


def sin_loop(x, w, n):
    i = 0
    while i < n:
        x = ops.sin(x) * w + 0.5 * x
        i = i + 1
    return x.sum()


def check_sin_loop_grad(out, x, w, trips, dtype) -> None:
    """`out` is the gradient of sin_loop in (x, w), as the loop written out by hand gives it."""
    xs, ws = x.asnumpy(), w.asnumpy()
    states = []
    for _ in range(trips):
        states.append(xs)
        xs = np.sin(xs) * ws + dtype(0.5) * xs
    dx, dw = np.ones_like(xs), np.zeros_like(ws)
    for s in reversed(states):
        dw = dw + dx * np.sin(s)
        dx = dx * dtype(0.5) + dx * ws * np.cos(s)
    np.testing.assert_array_equal(out[0].asnumpy(), dx)
    np.testing.assert_array_equal(out[1].asnumpy(), dw)
