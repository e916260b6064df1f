"""MindSpore's `ops.function.grad`: the differentiation functions (`grad_func`). As in
MindSpore, the attribute `grad` of `ops.function` is the grad function, bound over this
package's name; the package is reached by `import` and `from ... import`."""
from . import grad_func  # noqa: F401  (the module)
from .grad_func import *
from .grad_func import __all__  # noqa: F401
