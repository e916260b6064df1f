"""MindSpore's `mindspore.ops.function`: every functional operation, filed as MindSpore files
them.

The compositions of existing operations are defined in the module MindSpore keeps their twin
in: the packages `array_func` (creation, shape, indexing, padding, segments), `math_func`
(arithmetic, reductions, statistics, products, `einsum`, `stft`) and `nn_func` (activations,
convolution, pooling, resizing, sampling, attention, losses), one module a topic, and
`random_func`, `clip_func` and `image_func`.
The primitives' functional spellings are generated from their declarations
(cellgraph/primitives). `ops.function.<name>` is `ops.functional.<name>` (the gradient
functions included, as MindSpore's `ops.function` holds them), and each `*_func` module also
answers for the functional operations it does not define, as MindSpore's modules re-export what
they import.
"""
from ._fallback import functional_fallback as _functional_fallback

# the `grad` package of the differentiation functions, then `grad` the function over its name,
# as MindSpore binds them
from . import grad as _grad_package  # noqa: F401  # isort: skip
from .grad.grad_func import grad  # noqa: F401  # isort: skip


def _functional_namespace() -> dict:
    """ops.functional's names (gathered below this package's modules), for this package and
    its `*_func` packages to answer for."""
    from ._namespace import functional_namespace

    return functional_namespace()


__getattr__, __dir__ = _functional_fallback(globals(), grad=True, functional=_functional_namespace)
