"""cellgraph.ops: primitives, the functional API and MindSpore's primitive classes.

The differentiation APIs (`GradOperation`, `grad`, `jvp`, `vjp`, `vmap`, ...) live in the
`cellgraph` package, which adds them to this namespace when it is imported (they need the
compiler, which sits above this package).
"""
# Names composed of other operations come first, so that a primitive of the same name imported
# below replaces the composition.
from .composite_attention import *
from .composite_classes import *
from .composite_classes import all, any  # noqa: F401  (shadow builtins on purpose, as MindSpore)
from .composite_conv import *
from .composite_einsum import *
from .composite_gather import *
from .composite_losses import *
from .composite_matrix import *
from .composite_more import *
from .composite_named import *
from .composite_nn_extra import *
from .composite_ops import *
from .composite_pad import *
from .composite_pool import *
from .composite_resize import *
from .composite_sampling import *
from .composite_scatter import *
from .composite_spectral import *

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
from cellgraph.primitives.core import PRIMITIVES, Primitive, TensorType, bind  # noqa: F401

from cellgraph.primitives.tensor_methods import TensorMethods as _TensorMethods  # noqa: E402

from . import composite_crop, derive, functional, operations, tensor_extras  # noqa: E402,F401

derive.install(functional, operations)  # the classes; the compositions' wrappers
tensor_extras.install(_TensorMethods)

from cellgraph.primitives.floor_division import *  # noqa: E402,F403
from cellgraph.primitives.nn_functional import *  # noqa: E402,F403
from cellgraph.primitives.random_ops import (  # noqa: E402,F401
    Randperm,
    UniformReal,
    rand,
    rand_like,
    randperm,
    shuffle,
)

from .functional import *  # noqa: E402,F403
from .functional import abs, pow, sum  # noqa: E402,F401  (shadow builtins, as MindSpore does)
from .operations import *  # noqa: E402,F403
from .operations import PrimitiveClass  # noqa: E402,F401
