"""Fused while loops (numba): a Tensor `while` with elementwise trips runs as one kernel, its
transcendental functions through NumPy's own loops, and gives the per-trip loop's numbers bit for
bit (the tape a gradient reads too), in float32 and float64, through gradients of order 1 and 2;
operands it was not made for run the loop unfused; calls from several threads agree; kernels are
cached on disk under a key of their structure and hold no user names."""
import os
import threading

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, ops
from cellgraph.runtime import fused_kernels, fused_while, ufunc_loops

from .fusion_checks import check_sin_loop_grad, data, fused_and_plain, nodes_named, sin_loop

pytest.importorskip("numba")

DTYPES = [np.float32, np.float64]


pytestmark = pytest.mark.usefixtures("kernel_cache")  # tests/runtime/conftest.py


def while_nodes(jitted) -> list:
    return nodes_named(jitted, "fused_while")


def both(fn, *args, fused=True):
    """fn compiled with fusion and without: equal results, bit for bit, and whether a while
    loop was fused is `fused`."""
    jitted, out = fused_and_plain(fn, *args)
    assert bool(while_nodes(jitted)) == fused
    return out


_data = data


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("trips", [0, 1, 17, 300])
def test_gradient_through_a_tensor_while_records_its_tape_in_one_kernel(dtype, trips):
    x, w = _data(dtype, (64,), 1), _data(dtype, (64,), 2)
    n = Tensor(np.array(trips, np.int64))
    out = both(ms.grad(sin_loop, grad_position=(0, 1)), x, w, n)
    check_sin_loop_grad(out, x, w, trips, dtype)  # 300 trips reach denormal numbers


@pytest.mark.parametrize("dtype", DTYPES)
def test_transcendentals_selects_and_broadcast_constants_order_one_and_two(dtype):
    x, w = _data(dtype, (4, 8), 3), _data(dtype, (8,), 4)

    def f(x, w):
        n = Tensor(np.int64(0))
        while n < 7:
            y = ops.tanh(x * w) + ops.exp(-x * x) * 0.25 - ops.cos(x) * 0.5
            x = ops.where(y > 0, y, ops.log1p(y * y) * 0.5) + ops.atan(x) * 0.125
            n = n + 1
        return ops.sum(x * x)

    both(f, x, w)
    both(ms.grad(f, grad_position=(0, 1)), x, w)
    both(ms.grad(ms.grad(f)), x, w)


@pytest.mark.parametrize("dtype", DTYPES)
def test_a_forward_loop_without_a_tape_and_a_counter_that_steps_down(dtype):
    def f(x, n):
        while n > 0:
            x = ops.sin(x) * 1.5 + ops.cos(x * 3.0)
            n = n - 2
        return x

    both(f, _data(dtype, (3, 5), 5, scale=100.0), Tensor(np.array(9, np.int64)))


def test_a_counter_read_after_the_loop_keeps_the_loop_unfused():
    def f(x, n):
        i = 0
        while i < n:
            x = ops.sin(x) * 0.5
            i = i + 1
        return x, i

    both(f, _data(np.float32, (6,), 6), Tensor(np.array(4, np.int64)), fused=False)


def _outcome(fn, operands):
    """fn's results, or the type of the OverflowError it raised."""
    try:
        return fn(*operands)
    except OverflowError as e:
        return type(e)


def test_operands_the_kernel_was_not_made_for_run_the_unfused_loop():
    x, w = _data(np.float32, (16,), 7), _data(np.float32, (16,), 8)
    fn = ms.jit(ms.grad(sin_loop, grad_position=(0, 1)))
    fn(x, w, Tensor(np.array(5, np.int64)))
    (node,) = while_nodes(fn)
    run = node.params["run"]
    calls = []
    unfused = run.__globals__["unfused"]
    run.__globals__["unfused"] = lambda *a: calls.append(1) or unfused(*a)
    strided = np.random.default_rng(7).standard_normal((16, 2)).astype(np.float32)[:, 0]
    wide = np.random.default_rng(8).standard_normal(16).astype(np.float32)
    # NumPy's loop sees a strided operand's steps: only the unfused loop gives its bits
    for operands in [(strided, 0, np.array(3), wide),
                     (strided.copy(), 0, np.array(3), wide.astype(np.float64))]:
        got = run(*operands)
        assert calls == [1]
        calls.clear()
        for a, b in zip(got, unfused(*operands)):
            np.testing.assert_array_equal(a, b)
    # a counter past int64: whatever the unfused loop does with it (NumPy 2 raises
    # OverflowError, NumPy 1 counts in Python ints)
    past_int64 = (strided.copy(), -2 ** 63 - 2, -2 ** 63, wide)
    got, want = _outcome(run, past_int64), _outcome(unfused, past_int64)
    assert calls == [1]
    calls.clear()
    if isinstance(want, type):
        assert got is want
    else:
        for a, b in zip(got, want):
            np.testing.assert_array_equal(a, b)
    # a contiguous carry, and a strided constant that no NumPy loop reads: the kernel
    for operands in [(strided.copy(), 0, np.array(3), wide), (strided.copy(), 0, 3, strided)]:
        got = run(*operands)
        assert not calls
        for a, b in zip(got, unfused(*operands)):
            np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(fused_while.UFUNC_CALLS.values()))
def test_numpys_loops_called_from_a_kernel_give_numpys_bits(name, dtype):
    from numba import njit

    call_loop = ufunc_loops.call_unary_loop()

    @njit(nogil=True)
    def apply(loops, x, out):
        call_loop(loops[0], loops[1], x, out)

    info = np.finfo(dtype)
    rng = np.random.default_rng(9)
    x = np.concatenate([rng.standard_normal(257) * 30, rng.standard_normal(64) * info.tiny,
                        [0.0, -0.0, np.inf, -np.inf, np.nan, 1e300, -1e300, 1.0, -1.0]])
    x = x.astype(dtype)
    address = ufunc_loops.loop_address(name, dtype)
    assert address is not None
    got = np.empty_like(x)
    apply(np.array(address, np.int64), x, got)
    with np.errstate(all="ignore"):
        want = getattr(np, name)(x)
    assert got.tobytes() == want.tobytes()


def test_a_ufunc_the_struct_does_not_describe_has_no_loop():
    assert ufunc_loops.loop_address("add", "float32") is None  # two inputs
    assert ufunc_loops.loop_address("sin", "int8") is None  # no such loop of its own


def test_calls_from_several_threads_at_once_agree():
    x, w = _data(np.float32, (64,), 10), _data(np.float32, (64,), 11)
    n = Tensor(np.array(40, np.int64))
    fn = ms.jit(ms.grad(sin_loop, grad_position=(0, 1)))
    expected = [t.asnumpy() for t in fn(x, w, n)]
    assert while_nodes(fn)
    results, errors = [], []
    barrier = threading.Barrier(4)

    def work():
        try:
            barrier.wait()
            for _ in range(25):
                results.append([t.asnumpy() for t in fn(x, w, n)])
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(results) == 100
    for got in results:
        for g, e in zip(got, expected):
            np.testing.assert_array_equal(g, e)


def test_kernels_are_cached_on_disk_keyed_by_structure_without_user_names(kernel_cache):
    def a_userish_loop(xx_secret_input, yy_other, nn_count):
        ii_counter = 0
        while ii_counter < nn_count:
            xx_secret_input = ops.sin(xx_secret_input) * yy_other + 0.5 * xx_secret_input
            ii_counter = ii_counter + 1
        return xx_secret_input.sum()

    fn = ms.jit(ms.grad(a_userish_loop))
    fn(_data(np.float32, (8,), 12), _data(np.float32, (8,), 13), Tensor(np.array(3, np.int64)))
    (node,) = while_nodes(fn)
    program = node.params["program"]
    structure = program.structure()
    source = fused_while.while_kernel_source(structure, cache=True)
    text = source + repr(structure) + repr(program)
    for name in ("a_userish_loop", "xx_secret_input", "yy_other", "nn_count", "ii_counter"):
        assert name not in text
    assert "0x" not in source and str(ufunc_loops.loop_address("sin", "float32")[0]) not in source
    digest = fused_kernels.structure_key(structure, fused_while.KIND)
    with open(kernel_cache / "fused" / f"k_{digest}.py", encoding="utf-8") as f:
        assert f.read() == source
    assert f"k_{digest}.py" in os.listdir(kernel_cache / "fused")
