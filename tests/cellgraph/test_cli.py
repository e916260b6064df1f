"""The `cellgraph` command line, run in a subprocess on small scripts."""
import importlib.util
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from cellgraph.cli import SAMPLES_DIR, sample_summaries

NET = textwrap.dedent('''\
    import numpy as np
    import cellgraph as ms
    from cellgraph import nn, ops, Tensor, Parameter


    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.matmul = ops.MatMul()
            self.z = Parameter(Tensor(np.array([1.0], np.float32)), name="z")

        def construct(self, x, y):
            x = x * self.z
            return self.matmul(x, y)


    x = Tensor([[0.8, 0.6, 0.2], [1.8, 1.3, 1.1]], dtype=ms.float32)
    y = Tensor([[0.11, 3.3, 1.1], [1.1, 0.2, 1.4], [1.1, 2.2, 0.3]], dtype=ms.float32)
    print("before the call")
    print(ms.grad(Net())(x, y))
    print(Net()(x, y))
    print("after the call")
    ''')

BAD_SHAPES = textwrap.dedent('''\
    import numpy as np
    from cellgraph import nn, ops, Tensor


    class Bad(nn.Cell):
        def construct(self, x, y):
            return ops.matmul(x, y)


    x = Tensor(np.ones((2, 3), np.float32))
    Bad()(x, x)
    ''')


def cellgraph_cli(*args, cwd):
    return subprocess.run([sys.executable, "-m", "cellgraph", *map(str, args)], cwd=cwd, check=False,
                          capture_output=True, text=True, timeout=60)


@pytest.fixture
def net_script(tmp_path):
    path = tmp_path / "net.py"
    path.write_text(NET)
    return path


def test_run_executes_the_script_as_main(net_script, tmp_path):
    proc = cellgraph_cli("run", net_script, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "before the call",
        "[[4.5099998 2.7       3.6000001]",
        " [4.5099998 2.7       3.6000001]]",
        "[[0.96800005 3.2000003  1.7800001 ]",
        " [2.838      8.62       4.13      ]]",
        "after the call",
    ]


MODE_SCRIPT = textwrap.dedent('''\
    import sys
    import cellgraph as ms
    from cellgraph import context
    print("mode", ms.get_context("mode"))
    context.set_context(mode=context.GRAPH_MODE)
    print("mode after set_context", ms.get_context("mode"))
    print("argv", sys.argv[1:])
    ''')


@pytest.mark.parametrize("flags, mode", [((), 0), (("--pynative",), 1)])
def test_run_mode_is_pinned_by_the_command_line(tmp_path, flags, mode):
    (tmp_path / "mode.py").write_text(MODE_SCRIPT)
    proc = cellgraph_cli("run", "mode.py", *flags, "--", "a", "--b", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [f"mode {mode}", f"mode after set_context {mode}",
                                        "argv ['a', '--b']"]


BACKEND_SCRIPT = textwrap.dedent('''
    import cellgraph as ms
    from cellgraph import Tensor, ops

    ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
    print(ms.get_context("backend"), ms.get_context("device_target"))
    print(type(ops.exp(Tensor([0.0]))._data).__module__.split(".")[0])
    ''')


@pytest.mark.parametrize("flags, expected", [
    ((), ["numpy CPU", "numpy"]),
    pytest.param(("--backend", "torch"), ["torch CPU", "torch"], marks=pytest.mark.skipif(
        importlib.util.find_spec("torch") is None, reason="PyTorch is not installed")),
])
def test_run_backend_is_pinned_by_the_command_line(tmp_path, flags, expected):
    """`--backend` decides where the script runs, over its own `device_target`."""
    (tmp_path / "backend.py").write_text(BACKEND_SCRIPT)
    proc = cellgraph_cli("run", "backend.py", *flags, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == expected


def test_run_unknown_backend_is_a_clear_error(tmp_path):
    (tmp_path / "backend.py").write_text(BACKEND_SCRIPT)
    proc = cellgraph_cli("run", "backend.py", "--backend", "tpu", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.startswith("cellgraph run: set_context: backend 'tpu' cannot run")
    assert "Traceback" not in proc.stderr


def test_run_save_graphs_writes_every_stage(net_script, tmp_path):
    proc = cellgraph_cli("run", net_script, "--save-graphs", tmp_path / "graphs", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    names = sorted(p.name for p in (tmp_path / "graphs").iterdir())
    assert names == ["00_parse_construct.ir", "00_parse_grad_construct.ir",
                     "01_shard_operators_construct.ir", "01_shard_operators_grad_construct.ir",
                     "02_expand_grad_construct.ir", "02_expand_grad_grad_construct.ir",
                     "03_optimize_construct.ir", "03_optimize_grad_construct.ir",
                     "04_codegen_construct.py", "04_codegen_grad_construct.py"]
    parsed = (tmp_path / "graphs" / "00_parse_construct.ir").read_text()
    assert "  %1 = mul(%x, %z)  : f32[2,3]   # net.py:13  x = x * self.z\n" in parsed


def test_run_reports_a_user_error_without_compiler_frames(tmp_path):
    (tmp_path / "bad.py").write_text(BAD_SHAPES)
    proc = cellgraph_cli("run", "bad.py", cwd=tmp_path)
    assert proc.returncode == 1
    lines = proc.stderr.splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert lines[1].endswith('bad.py", line 11, in <module>')
    assert lines[2] == "    Bad()(x, x)"
    assert lines[3] == ("ShapeRunError: For 'MatMulExt' op, shape1[-1] must be equal to "
                        "shape2[-2], but got 3 and 2 (shapes (2, 3) and (2, 3)).")
    assert lines[4].endswith('bad.py:7') and lines[5] == "    return ops.matmul(x, y)"
    assert "compiler" not in proc.stderr and "runpy" not in proc.stderr


def test_run_missing_file_is_a_usage_error(tmp_path):
    proc = cellgraph_cli("run", "nowhere.py", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr == "cellgraph run: no such file: nowhere.py\n"


def test_ir_prints_the_first_top_level_cell_call(net_script, tmp_path):
    proc = cellgraph_cli("ir", net_script, "--stage", "parse", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (
        "graph @construct(%x: f32[2,3], %y: f32[3,3], %z: f32[1]) -> f32[2,3] {   # net.py:12\n"
        "  %1 = mul(%x, %z)  : f32[2,3]   # net.py:13  x = x * self.z\n"
        "  %2 = matmul(%1, %y)  : f32[2,3]   # net.py:14  return self.matmul(x, y)\n"
        "  return %2\n"
        "}\n")
    # the script's prints go to stderr, and it stops at the recorded call
    assert "before the call" in proc.stderr and "after the call" not in proc.stderr


def test_ir_grad_is_the_gradient_wrt_all_tensor_inputs(net_script, tmp_path):
    proc = cellgraph_cli("ir", net_script, "--grad", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    ones = "const([[1., 1., 1.], [1., 1., 1.]]: f32[2,3])"
    assert proc.stdout == (
        "graph @grad_construct(%x: f32[2,3], %y: f32[3,3], %z: f32[1]) -> "
        "(f32[2,3], f32[3,3]) {   # net.py:12\n"
        "  %1 = mul(%x, %z)  : f32[2,3]   # net.py:13  x = x * self.z\n"
        f"  %2 = matmul({ones}, %y) {{transpose_b=True}}  : f32[2,3]   "
        "# net.py:14  return self.matmul(x, y)\n"
        f"  %3 = matmul(%1, {ones}) {{transpose_a=True}}  : f32[3,3]   "
        "# net.py:14  return self.matmul(x, y)\n"
        "  %4 = mul(%2, %z)  : f32[2,3]   # net.py:13  x = x * self.z\n"
        "  return (%4, %3)\n"
        "}\n")


def test_ir_dot_draws_one_node_per_apply(net_script, tmp_path):
    proc = cellgraph_cli("ir", net_script, "--dot", "--stage", "parse", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "digraph cellgraph {" and lines[-1] == "}"
    assert '    g0_n1 [label="%1 = mul\\nf32[2,3]", shape=box];' in lines
    assert '    g0_n2 [label="%2 = matmul\\nf32[2,3]", shape=box];' in lines
    assert [ln for ln in lines if "->" in ln] == [
        "    g0_p0 -> g0_n1;", "    g0_p2 -> g0_n1;", "    g0_n1 -> g0_n2;",
        "    g0_p1 -> g0_n2;", "    g0_n2 -> g0_return;"]


def test_ir_dot_refuses_the_codegen_stage(net_script, tmp_path):
    proc = cellgraph_cli("ir", net_script, "--dot", "--stage", "codegen", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr == ("cellgraph ir: --dot draws a graph, but stage 'codegen' is Python "
                           "source; use one of parse, shard_operators, expand_grad, optimize\n")


def test_ir_without_a_cell_call_is_a_usage_error(tmp_path):
    (tmp_path / "empty.py").write_text("print('no cells here')\n")
    proc = cellgraph_cli("ir", "empty.py", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr == ("no cells here\n"
                           "cellgraph ir: empty.py never called a Cell, so there is no graph to "
                           "show\n")


def test_sample_summaries_take_the_first_docstring_line(tmp_path):
    (tmp_path / "b_mlp.py").write_text('"""Two-layer MLP.\n\nMore text."""\nx = 1\n')
    (tmp_path / "a_plain.py").write_text("x = 1\n")
    (tmp_path / "_helper.py").write_text('"""Not a sample."""\n')
    assert sample_summaries(tmp_path) == [("a_plain.py", ""), ("b_mlp.py", "Two-layer MLP.")]


def test_samples_lists_the_repository_samples(tmp_path):
    proc = cellgraph_cli("samples", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    expected = sample_summaries(SAMPLES_DIR)
    if not expected:
        assert proc.stdout == f"no samples in {SAMPLES_DIR}\n"
    for name, summary in expected:
        assert any(ln.startswith(name) and ln.endswith(summary)
                   for ln in proc.stdout.splitlines()), name


def test_console_script_is_installed(tmp_path):
    script = Path(sys.executable).parent / "cellgraph"
    if not script.exists():
        pytest.skip("the cellgraph console script is not installed in this environment")
    proc = subprocess.run([str(script), "--help"], check=False, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0
    assert "    run       run a script in graph mode\n" in proc.stdout
