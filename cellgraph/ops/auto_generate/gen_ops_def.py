"""`ops.auto_generate.gen_ops_def`: the functional operations, those of `ops.function`."""
from cellgraph.ops import function as _function


def _functional_operations() -> dict:
    names = {name: getattr(_function, name) for name in dir(_function)
             if not name.startswith("_")}
    return {name: value for name, value in names.items() if callable(value)}


def _tensor_operations() -> dict:
    """MindSpore's `copy` and `contiguous`: a copy of the input, and the input itself."""
    from .gen_ops_prim import _clone, _contiguous

    return {"copy": _clone, "contiguous": _contiguous}


globals().update(_functional_operations(), **_tensor_operations())
__all__ = sorted({**_functional_operations(), **_tensor_operations()})  # noqa: PLE0605
