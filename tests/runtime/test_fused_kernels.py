"""Fused elementwise kernels (numba): every fused pattern gives the unfused path's numbers, bit
for bit, in float32 and float64 and through derivatives of order 1 to 3; calls from several
threads at once agree; kernels are cached on disk and loaded by later processes."""
import os
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, ops
from cellgraph.compiler import fusion
from cellgraph.runtime import fused_kernels

pytest.importorskip("numba")

DTYPES = [np.float32, np.float64]


pytestmark = pytest.mark.usefixtures("kernel_cache")  # tests/runtime/conftest.py


def fused_nodes(jitted) -> list:
    graph = jitted._cache.last.compiled.graph
    from cellgraph.compiler.ir import all_graphs

    return [n for g in all_graphs(graph) for n in g.nodes
            if n.callee.name == "fused_elementwise"]


def both(fn, *args, fused_expected=True):
    """fn compiled with fusion and without; asserts equal results (NaN equal to NaN, -0.0
    told from 0.0) and that the first fused something."""
    fused = ms.jit(fn)
    out_fused = fused(*args)
    fused_kernels.ENABLED = False
    try:
        out_plain = ms.jit(fn)(*args)
    finally:
        fused_kernels.ENABLED = True
    if fused_expected:
        assert fused_nodes(fused), "nothing was fused"
    flat_f = out_fused if isinstance(out_fused, tuple) else (out_fused,)
    flat_p = out_plain if isinstance(out_plain, tuple) else (out_plain,)
    assert len(flat_f) == len(flat_p)
    for a, b in zip(flat_f, flat_p):
        a, b = a.asnumpy(), b.asnumpy()
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(np.signbit(a), np.signbit(b))
    return out_fused


def _data(dtype, shape=(4, 8), seed=0, special=True):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape).astype(dtype)
    if special:
        flat = x.reshape(-1)
        flat[:6] = [0.0, -0.0, np.nan, np.inf, -np.inf, 1e-30]
    return Tensor(x)


@pytest.mark.parametrize("dtype", DTYPES)
def test_arithmetic_with_numbers_and_broadcast(dtype):
    x, y = _data(dtype, seed=1), _data(dtype, seed=2, special=False)
    bias = _data(dtype, (8,), seed=3, special=False)
    row = _data(dtype, (1, 8), seed=4, special=False)

    def f(x, y, bias, row):
        a = x * y + bias
        b = (a - 0.5) / (y * y + 1e-3)
        c = -b * row + 3
        return c * c - ops.square(a) + ops.abs(b) / 7.0

    both(f, x, y, bias, row)


@pytest.mark.parametrize("dtype", DTYPES)
def test_division_by_zero_sqrt_and_reciprocals(dtype):
    x, y = _data(dtype, seed=5), _data(dtype, seed=6)

    def f(x, y):
        z = x / (y * 0)
        return ops.sqrt(x * x + z) + ops.reciprocal(y - y) + ops.rsqrt(ops.abs(x) + 1) * 2

    both(f, x, y)


@pytest.mark.parametrize("dtype", DTYPES)
def test_max_min_relu_with_nan_and_signed_zeros(dtype):
    x, y = _data(dtype, seed=7), _data(dtype, seed=8)
    x.asnumpy()  # the special values are in both, at the same places: equal pairs too

    def f(x, y):
        a = ops.maximum(x * 1, y * 1) + ops.minimum(x * 2, -y)
        return ops.relu(a * 1) - ops.maximum(-x, 0.0) * ops.minimum(y, -0.0)

    both(f, x, y)
    zeros = Tensor(np.array([0.0, -0.0, -0.0, 0.0, np.nan, 1.0], dtype))
    other = Tensor(np.array([-0.0, 0.0, -0.0, 0.0, 1.0, np.nan], dtype))
    both(f, zeros, other)


@pytest.mark.parametrize("dtype", DTYPES)
def test_comparisons_selects_and_logical_ops(dtype):
    x, y = _data(dtype, seed=9), _data(dtype, seed=10)

    def f(x, y):
        big = (x * 2 > y) & (x < 1.5) | ~(y >= 0.25)
        same = (x == y * 1) | (x != 0.1) ^ (x * y >= 0)
        picked = ops.select(big, x * 3, y - 1)
        either = ops.logical_or(ops.logical_and(same, big), ops.logical_not(x > y))
        return picked + ops.select(same & big, y, x * 0.5), big, x * y <= 0, either

    both(f, x, y)


@pytest.mark.parametrize("dtype", DTYPES)
def test_casts_between_float_dtypes_and_bool(dtype):
    x = _data(dtype, seed=11)
    other = ms.float64 if dtype == np.float32 else ms.float32

    def f(x):
        wide = ops.cast(x * 3, other) * 1.5
        back = ops.cast(wide, ms.float32 if dtype == np.float32 else ms.float64)
        flags = ops.cast(ops.cast(x - 1, ms.bool_), back.dtype)
        return back + flags * 2

    both(f, x)


@pytest.mark.parametrize("dtype", DTYPES)
def test_transcendentals_stay_numpy_calls_between_fused_runs(dtype):
    x, w = _data(dtype, seed=12, special=False), _data(dtype, seed=13, special=False)

    def f(x, w):
        return ops.sum(ops.tanh(x * w) * x + ops.sin(x) * 0.5 - ops.exp(-x * x) * w)

    fn = ms.jit(fn_grad := ms.grad(f))
    fn(x, w)
    names = {op[0] for node in fused_nodes(fn) for op in node.params["program"].ops}
    assert not names & {"tanh", "sin", "exp", "cos"}
    both(fn_grad, x, w)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", [1, 2, 3])
def test_derivatives_of_order_one_to_three(dtype, order):
    x = _data(dtype, (16, 8), seed=14, special=False)
    w = _data(dtype, (8,), seed=15, special=False)

    def f(x, w):
        h = ops.tanh(x * w + 0.25)
        return ops.sum(h * h * x - ops.sin(x) * w / (1 + x * x))

    g = f
    for _ in range(order):
        g = ms.grad(g)
    both(g, x, w)
    both(ms.grad(f, grad_position=(0, 1)) if order == 1 else g, x, w)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", [1, 2, 3])
def test_relu_and_max_gradients(dtype, order):
    x = _data(dtype, (16, 8), seed=21, special=False)

    def f(x):
        return ops.sum(ops.relu(x * 2 - 0.5) * x * x + ops.maximum(x * x, 0.3) * x)

    g = f
    for _ in range(order):
        g = ms.grad(g)
    both(g, x)


def test_loop_bodies_fuse_and_reverse_mode_through_a_tensor_while():
    x0 = _data(np.float32, (64,), seed=16, special=False)
    w = _data(np.float32, (64,), seed=17, special=False)

    def f(x, w):
        n = ms.Tensor(np.int32(0))
        while n < 10:
            x = ops.sin(x) * w + 0.5 * x - x * x * 0.01
            n = n + 1
        return ops.sum(x)

    both(ms.grad(f, grad_position=(0, 1)), x0, w)


def test_non_contiguous_operands_numpy_scalars_and_zero_d():
    x = Tensor(np.arange(64, dtype=np.float32).reshape(8, 8) / 7)

    def f(x):
        t = ops.transpose(x, (1, 0))
        return (t * 2 + x) * (t - 1) / 3

    both(f, x)
    s = Tensor(np.float32(2.5))

    def g(s):
        return (s * 2 + 1) * s - 0.5

    both(g, s)


def test_large_contiguous_and_strided_operands():
    x = _data(np.float32, (128, 64), seed=18)

    def f(x):
        return (x * 2 + 1) * (x - 3) / 5

    both(f, x)

    def g(x):
        t = ops.transpose(x, (1, 0))
        return (t * 2 + 1) * (t - 3) / 5

    both(g, x)


def test_calls_from_several_threads_at_once_agree():
    x = _data(np.float32, (32, 32), seed=19, special=False)

    def f(x):
        return ops.sum((x * 3 + 1) * (x - 0.5) / (x * x + 2))

    fn = ms.jit(ms.grad(f))
    expected = fn(x).asnumpy()
    results, errors = [], []
    barrier = threading.Barrier(4)

    def work():
        try:
            barrier.wait()
            for _ in range(50):
                results.append(fn(x).asnumpy())
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(results) == 200
    for r in results:
        np.testing.assert_array_equal(r, expected)


def test_first_calls_run_unfused_then_the_kernel_with_the_same_numbers(monkeypatch):
    monkeypatch.setattr(fused_kernels, "COMPILE_AFTER", 3)
    x = _data(np.float32, seed=22)

    def f(x):
        return ops.maximum(x * 3 - 1, x / 7) * (x + 0.5) > -np.inf

    fn = ms.jit(lambda x: f(x) | (x * x - 2 >= 0.25))
    outs = [fn(x).asnumpy() for _ in range(3)]
    runs = [node.params["run"] for node in fused_nodes(fn)]
    assert runs and not any(run.__globals__["hot"] for run in runs)
    outs += [fn(x).asnumpy() for _ in range(2)]
    assert all(run.__globals__["hot"] for run in runs)  # the fourth call compiled the kernel
    for out in outs:
        np.testing.assert_array_equal(out, outs[0])
    monkeypatch.setattr(fused_kernels, "COMPILE_AFTER", 0)
    both(lambda x: f(x) | (x * x - 2 >= 0.25), x)


def test_first_calls_from_several_threads_compile_one_kernel():
    program = fusion.FusedProgram(
        (("float32", (3,)),), (("mul", (("in", 0), ("c", 2.0)), "float32"),
                               ("add", (("t", 0), ("c", 1.0)), "float32")), (1,), (3,))
    run = fused_kernels.make_runner(program)
    x = np.array([1.0, 2.0, 3.0], np.float32)
    outs = []
    threads = [threading.Thread(target=lambda: outs.append(run(x)[0])) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(outs) == 4
    for o in outs:
        np.testing.assert_array_equal(o, x * 2 + 1)


def test_kernels_are_cached_on_disk_and_loaded_by_the_next_process(kernel_cache):
    script = textwrap.dedent("""
        import numpy as np
        import cellgraph as ms
        from cellgraph import Tensor, ops
        from cellgraph.runtime import fused_kernels

        fused_kernels.COMPILE_AFTER = 0

        def f(x):
            return (x * 3 + 1) * (x - 0.25) / 7

        out = ms.jit(f)(Tensor(np.arange(6, dtype=np.float32)))
        kernel = next(iter(fused_kernels._kernels.values()))
        print(sum(kernel.stats.cache_hits.values()), sum(kernel.stats.cache_misses.values()))
        print(out.asnumpy().tolist())
    """)
    env = {**os.environ, "CELLGRAPH_CACHE_DIR": str(kernel_cache)}
    runs = [subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                           text=True, check=True).stdout.split("\n") for _ in range(2)]
    assert runs[0][0] == "0 1"  # compiled, and written
    assert runs[1][0] == "1 0"  # loaded
    assert runs[0][1] == runs[1][1]
    files = sorted(os.listdir(kernel_cache / "fused"))
    assert len([f for f in files if f.endswith(".py")]) == 1
    assert any(f.endswith(".nbi") for f in os.listdir(kernel_cache / "fused" / "__pycache__"))


def test_kernel_source_holds_no_user_names():
    def a_userish_name(xx_secret_input, yy_other):
        return (xx_secret_input * 2 + yy_other) * yy_other - 1

    x = _data(np.float32, seed=20)
    fn = ms.jit(a_userish_name)
    fn(x, x)
    (node,) = fused_nodes(fn)
    source = fused_kernels.kernel_source(node.params["program"].structure(), cache=True)
    for name in ("a_userish_name", "xx_secret_input", "yy_other"):
        assert name not in source
    assert len(fused_kernels.structure_key(node.params["program"].structure())) == 32


def test_without_numba_or_disabled_graphs_are_bound_unfused(monkeypatch):
    x = _data(np.float32, seed=21)

    def f(x):
        return (x * 2 + 1) * x - 3

    monkeypatch.setattr(fused_kernels, "ENABLED", False)
    fn = ms.jit(f)
    fn(x)
    assert not fused_nodes(fn) and "fused" not in fn._cache.last.compiled.stages
    monkeypatch.setattr(fused_kernels, "ENABLED", True)
    monkeypatch.setattr(fused_kernels, "COMPILE_AFTER", 0)  # every call runs the kernel
    fused_kernels.available.cache_clear()
    monkeypatch.setattr(fused_kernels.importlib.util, "find_spec", lambda name: None)
    try:
        fn = ms.jit(f)
        fn(x)
        assert not fused_nodes(fn)
    finally:
        monkeypatch.undo()
        fused_kernels.available.cache_clear()
