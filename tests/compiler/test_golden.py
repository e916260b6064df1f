"""Golden IR: each program's printed IR at each stage must match its file exactly.

After a deliberate compiler change, `make golden` rewrites the files; review that diff.
"""
import difflib

import numpy as np
import pytest

from cellgraph.compiler.ir import print_graph, verify
from cellgraph.inspect_ir import graph_at_stage
from tests.golden.programs import MLP, PROGRAMS, golden_cases, tensor
from tests.golden.regenerate import current_ir, golden_path, program_context

CASES = golden_cases()


@pytest.mark.parametrize("program, stage", CASES, ids=[f"{p.name}.{s}" for p, s in CASES])
def test_ir_matches_golden_file(program, stage):
    path = golden_path(program.name, stage)
    assert path.exists(), f"{path.name} is missing; run `make golden`"
    expected, actual = path.read_text(encoding="utf-8"), current_ir(program, stage)
    if actual != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                            f"golden/{path.name}", "now"))
        pytest.fail(f"IR of {program.name} at {stage} changed (`make golden` if intended):\n"
                    f"{diff}", pytrace=False)


@pytest.mark.parametrize("program, stage", CASES, ids=[f"{p.name}.{s}" for p, s in CASES])
def test_stage_graph_verifies_and_prints_as_dumped(program, stage):
    with program_context(program):
        fn, args = program.build()
        graph = graph_at_stage(fn, *args, stage=stage)
    verify(graph)
    assert print_graph(graph) == current_ir(program, stage)


def test_every_program_has_its_golden_files_and_no_others():
    expected = {golden_path(p.name, s).name for p, s in CASES}
    present = {path.name for path in golden_path("x", "y").parent.glob("*.ir")}
    assert present == expected


def test_seed_matmul_grad_gives_the_seed_numbers():
    program = next(p for p in PROGRAMS if p.name == "seed_matmul_grad_x")
    fn, args = program.build()
    np.testing.assert_allclose(fn(*args).asnumpy(), [[4.51, 2.7, 3.6], [4.51, 2.7, 3.6]],
                               rtol=1e-6)


def test_mlp_weight_gradients_match_numpy_backprop():
    program = next(p for p in PROGRAMS if p.name == "mlp_grad_weights")
    fn, (x,) = program.build()
    net = MLP()
    w1, b1, w2, b2 = (p.asnumpy().astype(np.float64) for p in (net.w1, net.b1, net.w2, net.b2))
    xs = tensor((3, 4)).asnumpy().astype(np.float64)
    hidden = np.tanh(xs @ w1 + b1)
    out = np.tanh(hidden @ w2 + b2)
    d_pre2 = 1.0 - out**2  # sens = ones
    d_pre1 = (d_pre2 @ w2.T) * (1.0 - hidden**2)
    expected = (xs.T @ d_pre1, d_pre1.sum(0), hidden.T @ d_pre2, d_pre2.sum(0))
    for got, want in zip(fn(x), expected):
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5, atol=1e-6)
