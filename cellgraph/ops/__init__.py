"""cellgraph.ops: MindSpore's `mindspore.ops`, the API layer over the op core.

The functional ops, MindSpore's primitive classes (ops/operations/*_ops.py), the compositions
(ops/function/*_func) and the transforms (`GradOperation`, `grad`, `jvp`, `vjp`, `vmap`, ...).
The primitives themselves are the core's (cellgraph.primitives), which never imports this
package.
"""
from cellgraph._lazy import lazy_names as _lazy_names

# Names composed of other operations come first, so that a primitive of the same name imported
# below replaces the composition.
from .function.array_func import *
from .function.clip_func import *
from .function.image_func import *
from .function.math_func import *
from .function.math_func import all, any  # noqa: F401  (shadow builtins on purpose, as MindSpore)
from .function.nn_func import *
from .function.random_func import *

# isort: split
from cellgraph.primitives import (  # noqa: F401  (the core's modules, as attributes of ops)
    array_ops,
    check_ops,
    comm_ops,
    complex_ops,
    conv_ops,
    core,
    dtype,
    dynamic_ops,
    errors,
    gamma_ops,
    linalg_ops,
    math_ops,
    nn_functional,
    nn_ops,
    norm_ops,
    random_ops,
    rounding_ops,
    scatter_ops,
    shape_ops,
    sort_ops,
    special_ops,
)
from cellgraph.primitives.core import PRIMITIVES, TensorType, bind  # noqa: F401
from cellgraph.primitives.tensor_methods import TensorMethods as _TensorMethods

from . import derive, functional, inplace, operations, tensor_extras

derive.install(functional, operations)  # the classes; the compositions' wrappers
tensor_extras.install(_TensorMethods)
inplace.install(_TensorMethods)

from cellgraph.primitives.floor_division import *
from cellgraph.primitives.nn_functional import *
from cellgraph.primitives.random_ops import (  # noqa: F401
    Randperm,
    UniformReal,
    rand,
    rand_like,
    randperm,
    shuffle,
)

from .functional import *
from .functional import abs, pow, sum  # noqa: F401  (shadow builtins, as MindSpore does)
from .operations import *
from .operations import PrimitiveClass  # noqa: F401

# MindSpore's base classes for primitives defined in Python (the core's declarations are
# cellgraph.primitives.core.Primitive)
from .primitive import (  # noqa: F401
    Primitive,
    PrimitiveWithCheck,
    PrimitiveWithInfer,
    prim_attr_register,
)

# isort: split
# The transforms and the operations that need the compiler (it sits on the core, below this
# package): MindSpore's `ops` holds them too.
from cellgraph.autograd import GradOperation, get_grad  # noqa: F401
from cellgraph.common import apply_ops as _apply_ops
from cellgraph.common import assign as _assign
from cellgraph.gradient_hooks import HookBackward, InsertGradientOf  # noqa: F401
from cellgraph.loops import ForiLoop, Scan, WhileLoop  # noqa: F401
from cellgraph.runtime.tensor import Tensor  # noqa: F401  (MindSpore's ops re-exports it)

for _name in _assign.__all__:  # Parameter updates: ops.assign, ops.Assign, ...
    globals()[_name] = getattr(_assign, _name)
    setattr(functional, _name, getattr(_assign, _name))
for _name in _apply_ops.__all__:  # the in-place update classes: ops.ApplyMomentum(), ...
    globals()[_name] = getattr(_apply_ops, _name)
del _name

# ops.composite, ops.function and the composite functional names (HyperMap, partial, ...)
from cellgraph.ops import surface as _ops_surface

_ops_surface.mount()
# MindSpore's `ops.operations` (`P.Assign()`, `P.AddN()`) holds every primitive class `ops` has,
# wherever it is defined (declarations, composites, the state and loop operations above).
for _name, _value in list(globals().items()):
    if _name[:1].isupper() and isinstance(_value, type) and not hasattr(operations, _name) \
            and _name != "Tensor":
        setattr(operations, _name, _value)
del _name, _value



# the Tensor methods that are functional ops of the same name, now that ops has them all
tensor_extras.install_functional_methods(_TensorMethods)

# the summary operations, loaded on first use (they load train)
__getattr__ = _lazy_names(globals(), operations.LAZY_OPERATIONS)[0]
