"""The benchmark harness's contract (bench/README.md): workloads are found by name and declare
what the table needs; the table shows medians, ratios and targets. No workload is timed here."""
import bench.timing
from bench.__main__ import discover, table, verdict


def test_every_workload_declares_its_label_description_and_run():
    modules = discover()
    labels = [m.WORKLOAD for m in modules]
    assert {"W1", "W2", "W3", "W5", "W6", "W7", "W8", "W16", "W17", "W18", "W19"} <= set(labels)
    assert labels == sorted(labels, key=lambda w: int(w[1:]))
    for module in modules:
        assert isinstance(module.DESCRIPTION, str) and module.DESCRIPTION
        assert callable(module.run)


def test_table_shows_ratios_and_targets_and_skips_missing_columns():
    rows = [("W1", {"name": "tiny", "cellgraph_s": 3e-6, "numpy_s": 2e-6, "jax_s": None,
                    "target_ratio": 1.5}),
            ("W5", {"name": "compile", "cellgraph_s": 0.2, "numpy_s": None, "target_s": 0.1,
                    "note": "first call"})]
    text = table(rows, [("numpy_s", "NumPy")])
    assert "JAX" not in text
    assert "1.50x" in text and "3 us" in text and "200 ms" in text and "first call" in text
    assert verdict(rows[0][1]) == "met" and verdict(rows[1][1]) == "MISSED"
    assert verdict({"cellgraph_s": 1.0, "numpy_s": 1.0}) == ""


def test_compare_reports_none_for_an_absent_library():
    calls = []
    result = bench.timing.compare({"cellgraph": lambda: calls.append(1), "numpy": lambda: None,
                                   "torch": None}, repeats=2)
    assert result["torch"] is None and result["cellgraph"] > 0 and calls


def test_peer_target_judges_against_the_fastest_peer():
    row = {"name": "step", "cellgraph_s": 2.0, "jax_s": 1.0, "torch_s": 1.8}
    assert bench.timing.peer_target(row, 1.2, ("jax", "torch"))["target_met"] is False
    judged = bench.timing.peer_target(row, 1.2, ("torch",))
    assert judged["target_met"] is True and judged["note"] == "target <= 1.2x PyTorch"
    assert "target_met" not in bench.timing.peer_target(dict(row, torch_s=None), 1, ("torch",))


def test_cellgraph_backends_lists_numpy_first_and_skips_switched_off_ones(monkeypatch):
    monkeypatch.setenv("BENCH_NO_TORCH", "1")
    monkeypatch.setenv("BENCH_NO_JAX", "1")
    assert bench.timing.cellgraph_backends() == ["numpy"]


def test_the_clock_can_be_cpu_time():
    bench.timing.set_clock("cpu")
    try:
        result = bench.timing.compare({"cellgraph": lambda: sum(range(1000)),
                                       "numpy": lambda: None}, repeats=2)
        assert result["cellgraph"] > 0
    finally:
        bench.timing.set_clock("wall")


def test_a_call_on_another_backend_leaves_numpy_selected():
    """A workload times its numpy column in the same rounds as its other backends' calls: each
    of those must hand the numpy backend back, or the numpy column would time them."""
    import numpy as np

    from cellgraph.runtime import backend as rb
    from cellgraph.runtime.cupy_kernels import make_backend

    rb.register_backend(make_backend(np, "bench_other", device="CPU"))
    try:
        seen = []
        call = bench.timing.on_backend("bench_other", lambda: (
            lambda: seen.append(rb.get_backend().name), ()))
        assert rb.get_backend().name == "numpy"
        call()
        assert seen == ["bench_other"] and rb.get_backend().name == "numpy"
    finally:
        rb._BACKENDS.pop("bench_other")
