"""MindSpore's `ops.function.sparse_unary_func`: `coo_<op>` and `csr_<op>`, an elementwise
operation on the stored values of a COOTensor or CSRTensor, its indices and shape kept (the
zeros it does not store stay zeros, as in MindSpore, even where op(0) is not 0)."""
from __future__ import annotations

from cellgraph.ops.function.math_func import elementwise as _math
from cellgraph.ops.function.nn_func import activation as _nn
from cellgraph.primitives import functional as F
from cellgraph.primitives.errors import DTypeError

# the operation each pair applies, by MindSpore's name (ops.<name>)
UNARY_OPS = {
    **{name: getattr(F, name) for name in (
        "abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "ceil", "cos", "cosh", "exp",
        "expm1", "floor", "inv", "log", "log1p", "neg", "round", "sigmoid", "sin", "sinh",
        "sqrt", "square", "tan", "tanh")},
    "isfinite": _math.isfinite, "isinf": _math.isinf, "isnan": _math.isnan,
    "relu": _nn.relu, "relu6": _nn.relu6, "softsign": _nn.softsign,
}


def _sparse_classes():
    from cellgraph.sparse import COOTensor, CSRTensor

    return COOTensor, CSRTensor


def _coo(op: str, fn):
    def coo_op(x):
        coo_tensor, _ = _sparse_classes()
        if not isinstance(x, coo_tensor):
            raise DTypeError(f"Expects COOTensor for coo_{op}")
        return coo_tensor(x.indices, fn(x.values), x.shape)

    coo_op.__name__ = coo_op.__qualname__ = f"coo_{op}"
    coo_op.__doc__ = f"`{op}` of the stored values of the COOTensor `x`."
    return coo_op


def _csr(op: str, fn):
    def csr_op(x):
        _, csr_tensor = _sparse_classes()
        if not isinstance(x, csr_tensor):
            raise DTypeError(f"Expects CSRTensor for csr_{op}")
        return csr_tensor(x.indptr, x.indices, fn(x.values), x.shape)

    csr_op.__name__ = csr_op.__qualname__ = f"csr_{op}"
    csr_op.__doc__ = f"`{op}` of the stored values of the CSRTensor `x`."
    return csr_op


FUNCTIONS = {f"{kind}_{op}": make(op, fn) for op, fn in UNARY_OPS.items() for kind, make in
             (("coo", _coo), ("csr", _csr))}
globals().update(FUNCTIONS)
__all__ = list(FUNCTIONS)
