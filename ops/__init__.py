"""cellgraph.ops: primitives, the functional API and MindSpore's primitive classes.

The differentiation APIs (`GradOperation`, `grad`, `jvp`, `vjp`, `vmap`, ...) live in the
`cellgraph` package, which adds them to this namespace when it is imported (they need the
compiler, which sits above this package).
"""
from . import (  # noqa: F401  (each module declares its primitives)
    array_ops,
    check_ops,
    conv_ops,
    core,
    derive,
    dtype,
    errors,
    functional,
    math_ops,
    nn_ops,
    norm_ops,
    operations,
    random_ops,
    shape_ops,
    special_ops,
)
from .core import PRIMITIVES, Primitive, TensorType, bind  # noqa: F401

for _prim in list(PRIMITIVES.values()):
    derive.install(_prim)  # ops.exp, ops.Exp, Tensor.exp from the declarations

from .functional import *
from .functional import abs, pow, sum  # noqa: F401  (shadow builtins, as MindSpore does)
from .nn_functional import *
from .operations import *
from .operations import PrimitiveClass  # noqa: F401
from .random_ops import UniformReal, rand, rand_like  # noqa: F401
