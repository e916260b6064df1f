"""`ops.auto_generate`: where MindSpore's generated operator definitions live, over cellgraph's
own operations.

* `gen_ops_prim`: the primitive classes (every class of `ops.operations`, the pooling classes
  that return indices, and the `...Ext` classes of the `mint` interface), and `<name>_op`, an
  instance of the class `<Name>` made with its defaults (`add_op = Add()` in MindSpore).
* `gen_ops_def`: the functional operations (`ops.function`).
* `pyboost_inner_prim`: `<name>_impl` callables taking every argument at call time, as the
  classes' generated call functions do (`softmax_impl(input, axis)`).

The package holds the functional operations and the classes by name, as MindSpore's does.
"""
from . import gen_ops_def, gen_ops_prim, pyboost_inner_prim  # noqa: F401  (the modules)
from .gen_ops_def import *
from .gen_ops_prim import *

__all__ = sorted({*gen_ops_def.__all__, *gen_ops_prim.__all__,  # noqa: PLE0605
                  "gen_ops_def", "gen_ops_prim", "pyboost_inner_prim"})


def __getattr__(name: str):
    """`<snake_name>_op`: gen_ops_prim's instance of that class (`ops.auto_generate.
    tracev2_grad_op`), as MindSpore's package exports them."""
    if name.endswith("_op"):
        return getattr(gen_ops_prim, name)
    raise AttributeError(f"module 'ops.auto_generate' has no attribute {name!r}")
