"""Fused scans (numba): a scan with an elementwise body, as the walk back over a Tensor `while`
loop's tape is, runs as one kernel and gives the per-trip loop's numbers bit for bit, in float32
and float64, through gradients of order 1 and 2; calls from several threads agree; kernels are
cached on disk under a key of their structure and hold no user names."""
import os
import threading

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, ops
from cellgraph.compiler.loop_fusion import ScanProgram
from cellgraph.runtime import fused_kernels, fused_loops

from .fusion_checks import check_sin_loop_grad, data, fused_and_plain, nodes_named, sin_loop

pytest.importorskip("numba")

DTYPES = [np.float32, np.float64]


pytestmark = pytest.mark.usefixtures("kernel_cache")  # tests/runtime/conftest.py


def scan_nodes(jitted) -> list:
    return nodes_named(jitted, "fused_scan")


def both(fn, *args, scans_expected=True):
    """fn compiled with fusion and without: equal results, bit for bit."""
    jitted, out = fused_and_plain(fn, *args)
    if scans_expected:
        assert scan_nodes(jitted), "no scan was fused"
    return out


_data = data


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("trips", [0, 1, 10, 37])
def test_gradient_through_a_tensor_while_walks_its_tape_in_one_kernel(dtype, trips):
    x, w = _data(dtype, (64,), 1), _data(dtype, (64,), 2)
    n = Tensor(np.array(trips, np.int64))
    out = both(ms.grad(sin_loop, grad_position=(0, 1)), x, w, n)
    check_sin_loop_grad(out, x, w, trips, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_second_order_and_broadcast_constants(dtype):
    x, w = _data(dtype, (4, 8), 3), _data(dtype, (8,), 4)

    def f(x, w):
        n = Tensor(np.int32(0))
        while n < 6:
            x = x * w - x * x * 0.125 + 0.25
            n = n + 1
        return ops.sum(x * x)

    both(ms.grad(f), x, w)  # d/dx alone: w, broadcast along the rows, is a kernel operand
    both(ms.grad(f, grad_position=(0, 1)), x, w, scans_expected=False)  # dw: a reduction
    both(ms.grad(ms.grad(f)), x, w, scans_expected=False)


@pytest.mark.parametrize("dtype", DTYPES)
def test_zero_d_carries(dtype):
    def f(x, w, n):
        i = 0
        while i < n:
            x = x * w + 0.5 * x - x * x * 0.01
            i = i + 1
        return x

    n = Tensor(np.array(9, np.int64))
    both(ms.grad(f, grad_position=(0, 1)), Tensor(dtype(0.7)), Tensor(dtype(1.1)), n)


def _program(reverse: bool) -> ScanProgram:
    """carry c (f32[3]), stacked a (f32[k,3]) and m (bool[k,1]), constant b (f32[1]):
    c = select(m, c * a + b, max(c, b/0)); per step: c * 2 (a float) and c > a (a bool)."""
    ops_ = (("mul", (("in", 0), ("in", 1)), "float32"),
            ("add", (("t", 0), ("in", 3)), "float32"),
            ("div", (("in", 3), ("c", 0.0)), "float32"),
            ("maximum", (("in", 0), ("t", 2)), "float32"),
            ("select", (("in", 2), ("t", 1), ("t", 3)), "float32"),
            ("mul", (("in", 0), ("c", 2.0)), "float32"),
            ("greater", (("in", 0), ("in", 1)), "bool"))
    return ScanProgram((("float32", (3,)), ("float32", (3,)), ("bool", (1,)), ("float32", (1,))),
                       1, 2, ops_, (("t", 4), ("t", 5), ("t", 6)), (3,), reverse)


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.filterwarnings("ignore:divide by zero")
def test_a_scan_with_per_step_outputs_selects_and_broadcasts(reverse):
    run = fused_loops.make_scan_runner(_program(reverse))
    rng = np.random.default_rng(5)
    c = rng.standard_normal(3).astype(np.float32)
    a = rng.standard_normal((9, 3)).astype(np.float32)[:, ::-1]  # strided: any layout
    a[2, 1] = np.nan
    m = rng.standard_normal((9, 1)) > 0
    b = np.float32(0.75)  # a NumPy scalar where the program has f32[1]: converted
    got = run(np.int64(7), c, a, m, b)
    want = run.__globals__["unfused"](np.int64(7), c, a, m, b)
    assert len(got) == len(want) == 3
    for g, r in zip(got, want):
        assert g.dtype == r.dtype and g.shape == r.shape
        np.testing.assert_array_equal(g, r)


@pytest.mark.filterwarnings("ignore:divide by zero")
def test_operands_the_kernel_was_not_made_for_run_the_unfused_loop():
    run = fused_loops.make_scan_runner(_program(True))
    c, a = np.ones(3, np.float32), np.ones((4, 3), np.float32)
    m, b = np.ones((4, 1), bool), np.ones(1, np.float32)
    with pytest.raises(IndexError):  # fewer stacked steps than trips, as the loop reads them
        run(np.int64(5), c, a, m, b)
    np.testing.assert_array_equal(run(np.int64(3), c, a.astype(np.float64), m, b)[0],
                                  run.__globals__["unfused"](np.int64(3), c, a, m, b)[0])


def test_the_warm_up_ends_after_a_number_of_calls_or_of_trips(monkeypatch):
    x, w = _data(np.float32, (64,), 10), _data(np.float32, (64,), 11)
    fn = ms.jit(ms.grad(sin_loop, grad_position=(0, 1)))
    monkeypatch.setattr(fused_kernels, "COMPILE_AFTER", 1000)
    monkeypatch.setattr(fused_loops, "COMPILE_AFTER_TRIPS", 30)
    n = Tensor(np.array(25, np.int64))
    outs = [fn(x, w, n)]
    (node,) = scan_nodes(fn)
    run = node.params["run"]
    outs.append(fn(x, w, n))
    assert not run.__globals__["hot"]  # 25 trips so far
    outs.append(fn(x, w, n))
    assert run.__globals__["hot"]  # after 50, the third call compiled the kernel
    for out in outs[1:]:
        for a, b in zip(out, outs[0]):
            np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())


def test_calls_from_several_threads_at_once_agree():
    x, w = _data(np.float32, (64,), 6), _data(np.float32, (64,), 7)
    n = Tensor(np.array(25, np.int64))
    fn = ms.jit(ms.grad(sin_loop, grad_position=(0, 1)))
    expected = [t.asnumpy() for t in fn(x, w, n)]
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
        i = 0
        while i < nn_count:
            xx_secret_input = ops.sin(xx_secret_input) * yy_other + 0.5 * xx_secret_input
            i = i + 1
        return xx_secret_input.sum()

    fn = ms.jit(ms.grad(a_userish_loop))
    fn(_data(np.float32, (8,), 8), _data(np.float32, (8,), 9), Tensor(np.array(3, np.int64)))
    (node,) = scan_nodes(fn)
    structure = node.params["program"].structure()
    source = fused_loops.scan_kernel_source(structure, cache=True)
    text = source + repr(structure) + repr(node.params["program"])
    for name in ("a_userish_loop", "xx_secret_input", "yy_other", "nn_count"):
        assert name not in text
    digest = fused_kernels.structure_key(structure, fused_loops.KIND)
    assert digest != fused_kernels.structure_key(structure)  # the generator is in the key
    files = os.listdir(kernel_cache / "fused")
    assert f"k_{digest}.py" in files
    with open(kernel_cache / "fused" / f"k_{digest}.py", encoding="utf-8") as f:
        assert f.read() == source
