"""`ops.auto_generate.gen_ops_def`: the functional operations, those of `ops.function`, the
`_ext` functions (mint's functions under the names MindSpore generates for them: `add_ext`,
`bmm_ext`, `sum_ext`, ...) and, as in MindSpore, the primitive classes of `gen_ops_prim`."""
from cellgraph.ops import function as _function
from cellgraph.ops.function import array_func as _array_func
from cellgraph.ops.function import math_func as _math_func
from cellgraph.ops.function import nn_func as _nn_func
from cellgraph.ops.function import random_func as _random_func
from cellgraph.ops.function._mint_ext import ext_functions as _ext_functions

from . import gen_ops_prim as _gen_ops_prim


def _functional_operations() -> dict:
    names = {name: getattr(_function, name) for name in dir(_function)
             if not name.startswith("_")}
    return {name: value for name, value in names.items() if callable(value)}


def _ext_operations() -> dict:
    """The `_ext` functions the function modules define, and those MindSpore generates only
    here, each calling mint's function of its base name."""
    found = {name: getattr(module, name) for module in (
        _math_func, _nn_func, _array_func, _random_func) for name in dir(module)
        if name.endswith("_ext") and not name.startswith("_")}
    generated = {
        **_ext_functions("cellgraph.mint",
                         "argmin argsort cummin cumsum diag index_select isneginf log10 log2 "
                         "logaddexp logsumexp matmul mm outer prod stack sum t topk trace"),
        **_ext_functions("cellgraph.mint.nn.functional",
                         "adaptive_avg_pool3d avg_pool1d elu fold unfold leaky_relu "
                         "max_unpool2d mish selu softplus"),
    }
    generated["matrix_inverse_ext"] = _ext_functions("cellgraph.mint", "inverse")["inverse_ext"]
    generated["matrix_inverse_ext"].__name__ = "matrix_inverse_ext"
    return {**generated, **found}


def _tensor_operations() -> dict:
    """MindSpore's `copy` and `contiguous`: a copy of the input, and the input itself."""
    from .gen_ops_prim import _clone, _contiguous

    return {"copy": _clone, "contiguous": _contiguous}


def _primitive_classes() -> dict:
    return {name: getattr(_gen_ops_prim, name) for name in _gen_ops_prim.__all__
            if name[:1].isupper()}


_NAMES = {**_primitive_classes(), **_functional_operations(), **_ext_operations(),
          **_tensor_operations()}
globals().update(_NAMES)
__all__ = sorted(_NAMES)  # noqa: PLE0605
