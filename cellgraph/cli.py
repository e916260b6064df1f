"""The `cellgraph` command line: run a script in graph mode, show its IR, list the samples.

    cellgraph run FILE.py [--pynative] [--save-graphs DIR] [--device-target T] [--backend NAME]
                  [-- SCRIPT ARGS...]
    cellgraph ir FILE.py [--stage parse|expand_grad|optimize|codegen] [--grad] [--dot]
    cellgraph samples
    cellgraph launch --nproc N [--nnodes M --node-rank R --master-addr A --master-port P]
                     SCRIPT.py [SCRIPT ARGS...]

`python -m cellgraph ...` is the same program.
"""
from __future__ import annotations

import argparse
import ast
import contextlib
import runpy
import sys
import traceback
from pathlib import Path

import cellgraph
from cellgraph import context
from cellgraph.compiler.builder import current_builder
from cellgraph.compiler.dot import to_dot
from cellgraph.compiler.pipeline import STAGES
from cellgraph.inspect_ir import GRAPH_STAGES, graph_at_stage
from cellgraph.launch import LaunchError
from cellgraph.launch import add_parser as _add_launch
from cellgraph.nn import Cell
from cellgraph.primitives.errors import ArgumentError
from cellgraph.runtime.tensor import Tensor

SAMPLES_DIR = Path(cellgraph.__file__).resolve().parents[1] / "samples"
# Frames from these folders are the compiler's, not the user's: tracebacks leave them out.
_INTERNAL_DIRS = tuple(str(Path(m.__file__).resolve().parent) for m in (
    cellgraph, cellgraph.compiler, cellgraph.ops, cellgraph.runtime)) + (
    str(Path(runpy.__file__).resolve()),)


class UsageError(Exception):
    """A command line that names a missing file or an impossible combination of options."""


class _CellCallRecorded(BaseException):
    """Stops the user's script at the Cell call `cellgraph ir` was waiting for. A BaseException,
    so that the script's own `except Exception` does not swallow it."""


# ----- running a script ------------------------------------------------------------------------

def _script_path(name: str) -> Path:
    path = Path(name)
    if not path.is_file():
        raise UsageError(f"no such file: {name}")
    return path.resolve()


@contextlib.contextmanager
def _script_environment(path: Path, script_args: list[str]):
    """`sys.argv` and `sys.path[0]` as `python FILE.py ARGS` would set them."""
    saved_argv, saved_path = sys.argv, list(sys.path)
    sys.argv = [str(path), *script_args]
    sys.path.insert(0, str(path.parent))
    try:
        yield
    finally:
        sys.argv, sys.path[:] = saved_argv, saved_path


@contextlib.contextmanager
def pinned_context(**pinned):
    """Set context keys and keep them: the script's own `set_context(mode=...)` cannot undo
    what the command line asked for (a backend named there also decides the device, so the
    script's `device_target` gives way to it)."""
    original = context.set_context

    def set_context(**kwargs):
        if "backend" in pinned:
            kwargs.pop("device_target", None)
        original(**{**kwargs, **pinned})

    try:
        original(**pinned)
    except ArgumentError as error:  # a backend or device the command line named cannot run
        raise UsageError(error.args[0]) from None
    context.set_context = cellgraph.set_context = set_context
    try:
        yield
    finally:
        context.set_context = cellgraph.set_context = original


def run_script(path: Path, script_args: list[str]) -> None:
    """Run `path` as `__main__`."""
    with _script_environment(path, script_args):
        runpy.run_path(str(path), run_name="__main__")


def _is_internal(filename: str) -> bool:
    """The compiler's files, runpy, and pseudo-files (`<frozen runpy>`, generated code)."""
    return filename.startswith("<") or str(Path(filename).resolve()).startswith(_INTERNAL_DIRS)


def report_error(error: BaseException) -> None:
    """Print the user's frames and the message; the compiler's own frames stay hidden (a
    cellgraph error already names the user's source line, with a caret)."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if not _is_internal(f.filename)]
    if frames:
        print("Traceback (most recent call last):", file=sys.stderr)
        print("".join(traceback.format_list(frames)), end="", file=sys.stderr)
    print(f"{type(error).__qualname__}: {error}", file=sys.stderr)


# ----- cellgraph ir ----------------------------------------------------------------------------

@contextlib.contextmanager
def record_first_cell_call():
    """While active, the first top-level Cell call is recorded (cell, args) and stops the
    script; calls made while a graph is being built are the Cell's inner calls, not recorded."""
    recorded: dict = {}
    original_call = Cell.__call__

    def recording_call(self, *args, **kwargs):
        if current_builder() is None and not recorded:
            recorded.update(cell=self, args=args)
            raise _CellCallRecorded
        return original_call(self, *args, **kwargs)

    Cell.__call__ = recording_call
    try:
        yield recorded
    except _CellCallRecorded:
        pass
    finally:
        Cell.__call__ = original_call


def _gradient_of(cell: Cell, args: tuple):
    positions = tuple(i for i, a in enumerate(args) if isinstance(a, Tensor))
    if not positions:
        raise UsageError(f"--grad: the first call of {type(cell).__name__} has no Tensor "
                         f"arguments to differentiate (got {_arg_types(args)})")
    return cellgraph.grad(cell, grad_position=positions)


def _arg_types(args: tuple) -> str:
    return "(" + ", ".join(type(a).__name__ for a in args) + ")"


def _ir_text(fn, args: tuple, stage: str, dot: bool) -> str:
    if dot:
        return to_dot(graph_at_stage(fn, *args, stage=stage))
    return cellgraph.dump_ir(fn, *args, stage=stage)


def command_ir(ns: argparse.Namespace) -> int:
    """Print the IR of the first Cell the script calls (at top level) at one stage."""
    path = _script_path(ns.file)
    if ns.dot and ns.stage not in GRAPH_STAGES:
        raise UsageError(f"--dot draws a graph, but stage {ns.stage!r} is Python source; use "
                         f"one of {', '.join(GRAPH_STAGES)}")
    with contextlib.redirect_stdout(sys.stderr), record_first_cell_call() as recorded:
        run_script(path, ns.script_args)  # the script's own prints go to stderr
    if not recorded:
        raise UsageError(f"{ns.file} never called a Cell, so there is no graph to show")
    cell, args = recorded["cell"], recorded["args"]
    fn = _gradient_of(cell, args) if ns.grad else cell
    sys.stdout.write(_ir_text(fn, args, ns.stage, ns.dot))
    return 0


# ----- cellgraph run / samples -----------------------------------------------------------------

def command_run(ns: argparse.Namespace) -> int:
    """Run the script as `__main__`, in graph mode unless --pynative."""
    path = _script_path(ns.file)
    pinned = {"mode": context.PYNATIVE_MODE if ns.pynative else context.GRAPH_MODE}
    if ns.save_graphs:
        pinned.update(save_graphs=True, save_graphs_path=ns.save_graphs)
    if ns.device_target:
        pinned["device_target"] = ns.device_target
    if ns.backend:
        pinned["backend"] = ns.backend
    with pinned_context(**pinned):
        run_script(path, ns.script_args)
    return 0


def sample_summaries(folder: Path = SAMPLES_DIR) -> list[tuple[str, str]]:
    """(file name, first line of the module docstring) for each `*.py` in `folder`."""
    out = []
    for path in sorted(folder.glob("*.py")):
        if path.name.startswith("_"):
            continue
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        out.append((path.name, doc.strip().splitlines()[0] if doc.strip() else ""))
    return out


def command_samples(ns: argparse.Namespace) -> int:
    """List the sample programs, each with the first line of its docstring."""
    rows = sample_summaries()
    if not rows:
        print(f"no samples in {SAMPLES_DIR}")
        return 0
    width = max(len(name) for name, _ in rows)
    for name, summary in rows:
        print(f"{name:<{width}}  {summary}".rstrip())
    print(f"\nrun one with: cellgraph run {SAMPLES_DIR / rows[0][0]}")
    return 0


# ----- argument parsing ------------------------------------------------------------------------

def _add_run(sub) -> None:
    p = sub.add_parser("run", help="run a script in graph mode")
    p.add_argument("file", help="the Python script to run as __main__")
    p.add_argument("--pynative", action="store_true", help="run in PyNative (eager) mode")
    p.add_argument("--save-graphs", metavar="DIR", help="write each compiled graph's stages "
                   "(00_parse ... 03_codegen) into DIR")
    p.add_argument("--device-target", choices=("CPU", "GPU", "Ascend"),
                   help="set_context(device_target=...) for the whole run (GPU: PyTorch on CUDA, "
                        "CuPy or JAX, whichever is installed and sees a device)")
    p.add_argument("--backend", metavar="NAME", help="run on this backend (numpy, torch, "
                   "torch_cuda, cupy, jax), whatever the script's set_context says")
    p.set_defaults(handler=command_run)


def _add_ir(sub) -> None:
    p = sub.add_parser("ir", help="print the IR of the first Cell a script calls")
    p.add_argument("file", help="the Python script; it stops at its first top-level Cell call")
    p.add_argument("--stage", choices=STAGES, default="optimize", help="pipeline stage "
                   "(default: optimize)")
    p.add_argument("--grad", action="store_true", help="the gradient graph w.r.t. all Tensor "
                   "inputs instead of the forward graph")
    p.add_argument("--dot", action="store_true", help="Graphviz dot text instead of IR text")
    p.set_defaults(handler=command_ir)


def _add_samples(sub) -> None:
    p = sub.add_parser("samples", help="list the sample programs")
    p.set_defaults(handler=command_samples)


COMMANDS = (_add_run, _add_ir, _add_samples, _add_launch)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cellgraph", description="Graph-mode compiler for MindSpore-style nn.Cell programs.",
        epilog="Arguments after `--` are passed to the script as sys.argv[1:].")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add_command in COMMANDS:
        add_command(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `cellgraph` console script; returns the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    own, script_args = (argv[:argv.index("--")], argv[argv.index("--") + 1:]) \
        if "--" in argv else (argv, [])
    parser = build_parser()
    ns = parser.parse_args(own)
    ns.script_args = list(getattr(ns, "script_args", None) or []) + script_args
    try:
        return ns.handler(ns)
    except (UsageError, LaunchError) as error:
        parser.exit(2, f"cellgraph {ns.command}: {error}\n")
    except Exception as error:  # noqa: BLE001 - the user's script failed: show its frames and
        report_error(error)  # message, not the compiler's frames
        return 1
