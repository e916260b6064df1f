"""cellgraph.ops: primitives, the functional API and MindSpore's primitive classes.

The differentiation APIs (`GradOperation`, `grad`, `jvp`, `vjp`, `vmap`, ...) live in the
`cellgraph` package, which adds them to this namespace when it is imported (they need the
compiler, which sits above this package).
"""
# Names composed of other operations come first, so that a primitive of the same name imported
# below replaces the composition.
from .composite_classes import *
from .composite_classes import all, any  # noqa: F401  (shadow builtins on purpose, as MindSpore)
from .composite_conv import *
from .composite_einsum import *
from .composite_gather import *
from .composite_losses import *
from .composite_matrix import *
from .composite_more import *
from .composite_named import *
from .composite_ops import *
from .composite_pad import *
from .composite_pool import *
from .composite_resize import *
from .composite_scatter import *

# isort: split
from . import (  # noqa: F401  (each module declares its primitives)
    array_ops,
    check_ops,
    comm_ops,
    complex_ops,
    composite_crop,
    conv_ops,
    core,
    derive,
    dtype,
    dynamic_ops,
    errors,
    functional,
    gamma_ops,
    linalg_ops,
    math_ops,
    nn_ops,
    norm_ops,
    operations,
    random_ops,
    rounding_ops,
    scatter_ops,
    shape_ops,
    sort_ops,
    special_ops,
)
from .core import PRIMITIVES, Primitive, TensorType, bind  # noqa: F401

derive.install_exports()  # hand-written wrappers first: they win over derived names
for _prim in list(PRIMITIVES.values()):
    derive.install(_prim)  # ops.exp, ops.Exp, Tensor.exp from the declarations

from .floor_division import *
from .functional import *
from .functional import abs, pow, sum  # noqa: F401  (shadow builtins, as MindSpore does)
from .nn_functional import *
from .operations import *
from .operations import PrimitiveClass  # noqa: F401
from .random_ops import Randperm, UniformReal, rand, rand_like, randperm, shuffle  # noqa: F401
