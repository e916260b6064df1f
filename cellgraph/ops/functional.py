"""MindSpore's `ops.functional` (`F`): every functional op.

Its names are made when it is imported, or answered by its module `__getattr__`; nothing is
added to it from outside: the core's functional ops (the primitives under each of their `ops`
spellings and the core's argument-normalising wrappers, cellgraph/primitives/functional.py),
the transforms, the Parameter updates and the scalar operations `F` alone has; then, when first
read, the compositions' registered wrappers (derive.functional_names) and any other functional
op of `ops` (the compositions of ops/function/, ...)."""
import builtins as _builtins
import importlib as _importlib
import types as _types

# The transforms (they need the compiler, which sits on the core alone)
from cellgraph.autograd import grad, value_and_grad  # noqa: F401
from cellgraph.common.assign import *  # Parameter updates: F.assign, F.Depend, ...
from cellgraph.compiler.builder import Tracer as _Tracer
from cellgraph.compiler.choice import switch  # noqa: F401
from cellgraph.forward import jvp, linearize, vjp  # noqa: F401
from cellgraph.primitives.functional import *
from cellgraph.primitives.functional import __all__ as _core_names
from cellgraph.primitives.functional import abs, pow, sum  # noqa: F401  (shadow builtins)
from cellgraph.taylor import derivative, jet  # noqa: F401
from cellgraph.vectorize import hessian, jacfwd, jacrev, vmap  # noqa: F401

from . import derive as _derive

# F.dtype(x), F.make_range(5), F.scalar_add(2, 3): ops.functional's alone (`ops.dtype` is
# the dtype module)
from .function.array_func.attributes import dtype  # noqa: F401
from .surface import SCALAR_OPS as _SCALAR_OPS
from .surface import make_range  # noqa: F401


def is_sequence_value_unknown(x) -> bool:
    """`F.is_sequence_value_unknown(seq)` (MindSpore's IsShapeUnKnown): whether an element of
    the tuple or list is known only when the graph runs (a shape's dimension read from a
    Tensor's values); the shapes of cellgraph's Tensors are always known."""
    return isinstance(x, (tuple, list)) and _builtins.any(isinstance(e, _Tracer) for e in x)


def is_sequence_shape_unknown(x) -> bool:
    """`F.is_sequence_shape_unknown(seq)` (MindSpore's IsDimUnKnown): whether the length of the
    tuple or list is known only when the graph runs; cellgraph's sequences always have their
    length when the graph is built."""
    return False


_TRANSFORMS = ["derivative", "grad", "hessian", "jacfwd", "jacrev", "jet", "jvp", "linearize",
               "switch", "value_and_grad", "vjp", "vmap"]
globals().update(_SCALAR_OPS)

# the modules whose compositions register functional wrappers (`derive.export`)
_COMPOSITIONS = ("array_func", "clip_func", "image_func", "math_func", "nn_func", "random_func")


def _registered() -> dict:
    """The compositions' registered wrappers that F lacks (crop_and_resize, ctc_loss, ...)."""
    for module in _COMPOSITIONS:
        _importlib.import_module(f"{__package__}.function.{module}")
    return _derive.functional_names(globals())


def _from_ops(name: str):
    """`ops.<name>` where it is a functional op F answers for: a callable whose name starts in
    lower case, neither a module, nor a builtin's name (module attributes are the module's
    globals: a builtin's name, slice or min, must not be shadowed under F's code), nor one of
    the decorators that define custom operations (`ops.kernel`)."""
    from cellgraph import ops

    value = vars(ops).get(name)
    if name[:1].islower() and callable(value) and not isinstance(value, _types.ModuleType) \
            and not hasattr(_builtins, name) \
            and getattr(value, "__module__", None) != "cellgraph.ops.custom_ops":
        return value
    return None


def __getattr__(name: str):
    if name == "__all__":  # the core's names, the transforms, the registered wrappers
        names = [*_core_names, *_TRANSFORMS]
        return names + [n for n in _registered() if n not in names]
    if name.startswith("_"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    registered = _registered()
    value = registered[name] if name in registered else _from_ops(name)
    if value is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value  # found once: a plain attribute from now on
    return value


def __dir__():
    from cellgraph import ops

    names = {n for n in vars(ops) if _from_ops(n) is not None}
    return sorted(set(globals()) | set(_registered()) | names)
