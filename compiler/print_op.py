"""`print` inside a graph: an effectful node that prints when the graph runs.

    print("loss:", x)   ->   print(%x) {template=('loss:', 0)}   (printed at run time)
"""
from __future__ import annotations

from cellgraph.ops.core import Primitive

from . import codegen
from .builder import Tracer, is_tensor_like

print_p = Primitive("print", lambda *avals, template, sep=" ", end="\n": (),
                    label="Print", multiple_results=True, nondifferentiable=True,
                    effectful=True)


def emit_print(args, kwargs):
    """Text parts stay in the node's template; Tensor parts become its inputs."""
    template, values = [], []
    for a in args:
        if isinstance(a, Tracer) or is_tensor_like(a):
            template.append(len(values))
            values.append(a)
        else:
            template.append(str(a))
    params = {k: kwargs[k] for k in ("sep", "end") if k in kwargs}
    print_p(*values, template=tuple(template), **params)


def _print_code(ctx, node, args, outs):
    return [f"{ctx.kernel(node)}({', '.join(args)})"]


codegen.CODEGEN_RULES["print"] = _print_code
