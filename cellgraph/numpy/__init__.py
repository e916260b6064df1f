"""`cellgraph.numpy`, MindSpore's `mindspore.numpy`: NumPy-style functions on Tensors.

Laid out as MindSpore's package: `array_creations` (asarray, zeros, arange, eye, tril, pad, ...),
`array_ops` (reshape, concatenate, split, take, where, ...), `logic_ops` (comparisons, isnan,
isclose, ...), `math_ops` (arithmetic, elementwise math, reductions, products, statistics) and
`dtypes`; `utils` holds what they share. Everything is written with the functional ops, so one
function serves both worlds: called from Python it runs kernels eagerly; called inside
`construct` it emits graph nodes. Creation functions whose result depends only on Python values
(`zeros`, `arange`, `eye`, ...) build the Tensor on the host; inside a graph that Tensor is a
constant.

Dtype defaults follow MindSpore's numpy module, not NumPy's: floats are float32 and Python or
NumPy ints become int32 (`asarray([1, 2])`, `arange(5)`), unless `dtype` says otherwise.
"""
from .array_creations import *
from .array_creations import __all__ as _array_creations
from .array_ops import *
from .array_ops import __all__ as _array_ops
from .dtypes import *
from .dtypes import __all__ as _dtypes
from .logic_ops import *
from .logic_ops import __all__ as _logic_ops
from .math_ops import *
from .math_ops import __all__ as _math_ops

# the other spellings mindspore.numpy gives (shadowing the builtins, as it does)
abs = absolute
max, min = amax, amin
mod = remainder

__all__ = ["abs", "max", "min", "mod"]
__all__ += _array_creations + _array_ops + _dtypes + _logic_ops + _math_ops  # noqa: PLE0605
