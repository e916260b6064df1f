"""The `summary` primitive: the summary operations' one effect (train/summary/ops.py makes
`ops.ScalarSummary` and the others of it). Its kernel keeps the latest value per (kind, name) on
the host (runtime/numpy_backend.py); other backends run it there (backend.HOST_FALLBACKS)."""
from __future__ import annotations

from cellgraph.primitives.core import Primitive

from . import codegen

summary_p = Primitive("summary", lambda value, kind, tag: (), label="Summary",
                      multiple_results=True, nondifferentiable=True, effectful=True)


def _summary_code(ctx, node, args, outs):
    return [f"{ctx.kernel(node)}({', '.join(args)})"]


codegen.CODEGEN_RULES["summary"] = _summary_code
