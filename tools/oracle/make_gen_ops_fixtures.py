"""Record MindSpore's results of `ops.auto_generate.gen_ops_prim` classes on small inputs, as the
fixture tests/data/gen_ops_prim_mindspore.json that tests/ops/test_gen_ops_prim_classes.py
replays on cellgraph (run with a Python that has MindSpore 2.10):

    python tools/oracle/make_gen_ops_fixtures.py [OUT]

Each case names a class, its constructor arguments and its call arguments. MindSpore's CPU
build runs many of these classes only in graph mode (their PyNative kernels are Ascend's), so a
case runs in PyNative mode, else in a graph; a class its CPU build cannot run at all is given
`reference`, the path of a MindSpore function that computes the same on the CPU (the class's
own op under another name), called with the same arguments. The fixture keeps the arguments,
the results (values, dtype, shape) or the exception type, and which of the three gave them.
"""
import json
import sys
from pathlib import Path

import mindspore as ms
from mindspore import nn
from mindspore.ops.auto_generate import gen_ops_prim

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the case modules beside this file
import gen_ops_cases_array
import gen_ops_cases_grad
import gen_ops_cases_math
import gen_ops_cases_nn
import gen_ops_cases_nn_grad
import recorded_values

OUT = Path(__file__).resolve().parents[2] / "tests" / "data" / "gen_ops_prim_mindspore.json"


CASES = [*gen_ops_cases_math.CASES, *gen_ops_cases_array.CASES, *gen_ops_cases_nn.CASES,
         *gen_ops_cases_grad.CASES, *gen_ops_cases_nn_grad.CASES]


# classes whose graphs crash MindSpore 2.10's CPU build (a segmentation fault while compiling):
# their cases take the reference's values
CRASHING = {"ReflectionPad1D", "ReflectionPad2D", "ReplicationPad1D", "ReplicationPad2D",
            "ReplicationPad3D"}


def value(arg):
    """A recorded argument as MindSpore's."""
    return recorded_values.decode(arg, ms)


def record(out):
    """A result as the fixture keeps it."""
    if isinstance(out, (tuple, list)):
        return {"sequence": [record(o) for o in out]}
    if isinstance(out, ms.Tensor):
        array = out.asnumpy()
        kept = {"values": array.real.tolist(), "dtype": str(out.dtype).lower(),
                "shape": list(out.shape)}
        if array.dtype.kind == "c":
            kept["imag"] = array.imag.tolist()
        return kept
    return {"scalar": out, "type": type(out).__name__}


class _Call(nn.Cell):
    def __init__(self, op, args):
        super().__init__()
        self.op, self.args = op, args

    def construct(self):
        return self.op(*self.args)


def _run_class(cls, init, args):
    op = getattr(gen_ops_prim, cls)(**{k: value(v) for k, v in init.items()})
    try:
        ms.set_context(mode=ms.PYNATIVE_MODE)
        return "pynative", record(op(*[value(a) for a in args]))
    except RuntimeError:  # no PyNative kernel on this CPU build: a graph may have one
        ms.set_context(mode=ms.GRAPH_MODE)
        try:
            return "graph", record(_Call(op, tuple(value(a) for a in args))())
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)


def _resolve(path):
    obj = ms
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def run(name, cls, init, args, reference):
    print(f"case {name}", file=sys.stderr, flush=True)
    case = {"name": name, "cls": cls, "init": init, "args": args}
    try:
        if cls in CRASHING:
            raise RuntimeError(f"{cls} crashes MindSpore's CPU build")
        case["how"], case["out"] = _run_class(cls, init, args)
    except RuntimeError as exc:
        if reference is None:
            print(f"{name}: {cls} does not run on this CPU build and has no reference: "
                  f"{str(exc).strip().splitlines()[-1][:200]}")
            return None
        case["how"] = reference if isinstance(reference, str) else reference.__doc__
        try:
            function = _resolve(reference) if isinstance(reference, str) else reference
            case["out"] = record(function(*[value(a) for a in args]))
        except Exception as exc:  # noqa: BLE001 -- a reference to fix: said, and left out
            print(f"{name}: the reference fails: {type(exc).__name__}: {str(exc)[:200]}")
            return None
    except (TypeError, ValueError, IndexError) as exc:
        case["how"], case["raises"] = "raised", type(exc).__name__
    return case


def main(out=OUT):
    cases = [case for case in (run(*c) for c in CASES) if case is not None]
    lines = ",\n".join(json.dumps(case, separators=(",", ":")) for case in cases)
    Path(out).write_text(f'{{"mindspore": "{ms.__version__}", "cases": [\n{lines}\n]}}\n')
    print(f"{len(cases)} cases -> {out}")


if __name__ == "__main__":
    main(*sys.argv[1:])
