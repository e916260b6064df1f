"""The names of `ops.functional` and of `ops`, gathered from the modules that define them.

MindSpore's `ops.functional` answers for every functional operation of `ops`, `ops.operations`
for every primitive class of `ops`, and `ops.function` with its packages for every functional
operation. This module holds what they read, below all three and below `ops` itself, so that
none reaches up into a module that imports it:

* FUNCTIONAL: the names `ops.functional` defines (the core's functional operations, the
  transforms, the Parameter updates, `dtype`, `make_range` and the scalar operations), which
  it imports from here;
* `ops_names()`: the names `ops` takes from the modules that define them, in the order `ops`
  imports them (a later module's name replaces an earlier one's);
* `functional_value(name)`: what `ops.functional.<name>` is beyond FUNCTIONAL: a composition's
  registered wrapper, or a functional operation of `ops`.
"""
from __future__ import annotations

import functools
import importlib
import inspect
import sys
import types

import cellgraph.ops.function.array_func.attributes as _array_func_attributes
import cellgraph.ops.function.array_func.creation as _array_func_creation
import cellgraph.ops.function.array_func.indexing as _indexing
import cellgraph.ops.function.array_func.matrix as _matrix
import cellgraph.ops.function.array_func.padding  # noqa: F401  (loads the module)
import cellgraph.ops.function.array_func.segment as _segment
import cellgraph.ops.function.array_func.shape as _shape
import cellgraph.ops.function.array_func.stacking as _stacking
import cellgraph.ops.function.clip_func as _clip_func
import cellgraph.ops.function.debug_func as _debug_func
import cellgraph.ops.function.fft_func as _fft_func
import cellgraph.ops.function.image_func as _image_func
import cellgraph.ops.function.inplace_func as _inplace_func
import cellgraph.ops.function.math_func.creation as _math_func_creation
import cellgraph.ops.function.math_func.elementwise as _elementwise
import cellgraph.ops.function.math_func.linalg as _linalg
import cellgraph.ops.function.math_func.matrices as _matrices
import cellgraph.ops.function.math_func.reduction as _reduction
import cellgraph.ops.function.math_func.spectral as _spectral
import cellgraph.ops.function.math_func.statistics as _statistics
import cellgraph.ops.function.method_forms as _method_forms
import cellgraph.ops.function.nn_func.activation as _activation
import cellgraph.ops.function.nn_func.attention as _attention
import cellgraph.ops.function.nn_func.basic as _basic
import cellgraph.ops.function.nn_func.conv as _conv
import cellgraph.ops.function.nn_func.image as _nn_func_image
import cellgraph.ops.function.nn_func.loss as _loss
import cellgraph.ops.function.nn_func.margin_loss as _margin_loss
import cellgraph.ops.function.nn_func.normalization as _normalization
import cellgraph.ops.function.nn_func.pooling as _pooling
import cellgraph.ops.function.nn_func.resize as _nn_func_resize
import cellgraph.ops.function.nn_func.window_pool as _window_pool
import cellgraph.ops.function.other_func as _other_func
import cellgraph.ops.function.random_func as _random_func
import cellgraph.ops.function.sequence_func as _sequence_func
import cellgraph.ops.function.sparse_func as _sparse_func
import cellgraph.ops.function.sparse_unary_func as _sparse_unary_func
from cellgraph import autograd as _autograd
from cellgraph import gradient_hooks as _gradient_hooks
from cellgraph import loops as _loops
from cellgraph.autograd import grad, value_and_grad  # noqa: F401  (the transforms)
from cellgraph.common import apply_ops as _apply_ops
from cellgraph.common import assign as _assign
from cellgraph.common import sparse_apply_ops as _sparse_apply_ops
from cellgraph.common.assign import *  # Parameter updates: F.assign, F.Depend, ...
from cellgraph.common.assign import __all__ as _assign_names
from cellgraph.compiler.choice import switch  # noqa: F401
from cellgraph.forward import jvp, linearize, vjp  # noqa: F401
from cellgraph.ops import composite as _composite
from cellgraph.ops import custom_ops as _custom_ops
from cellgraph.ops import primitive as _primitive
from cellgraph.ops import vm_impl_registry as _vm_impl_registry
from cellgraph.primitives import core as _core
from cellgraph.primitives import exports as _exports
from cellgraph.primitives import floor_division as _floor_division
from cellgraph.primitives import nn_functional as _nn_functional
from cellgraph.primitives import random_ops as _random_ops
from cellgraph.primitives.functional import *
from cellgraph.primitives.functional import __all__ as CORE_NAMES
from cellgraph.primitives.functional import abs, pow, sum
from cellgraph.taylor import derivative, jet  # noqa: F401
from cellgraph.vectorize import hessian, jacfwd, jacrev, vmap  # noqa: F401

from ..primitive_class import from_core as _from_core
from .array_func.attributes import dtype

# F.dtype(x) (also ops.dtype), F.make_range(5), F.scalar_add(2, 3): ops.functional's
from .other_func import SCALAR_OPS as _SCALAR_OPS
from .other_func import VALUE_OPS as _VALUE_OPS

# the module (its package's attribute `padding` is the function of that name)
_padding = sys.modules["cellgraph.ops.function.array_func.padding"]

from .other_func import (
    is_dynamic_sequence_element_unknown,
    is_sequence_shape_unknown,
    is_sequence_value_unknown,
    isconstant,
    make_range,
    mixed_precision_cast,
    switch_layer,
    tuple_div,
    typeof,
)
from .sequence_func import *

# the names ops.functional defines that ops takes from it, as MindSpore's ops takes every name of
# its functional: the operations on Python values of a graph (numbers, strings, sequences, dicts)
OPS_FROM_FUNCTIONAL = ("make_range", "isconstant", "is_sequence_shape_unknown",
                       "is_sequence_value_unknown", "is_dynamic_sequence_element_unknown",
                       *_SCALAR_OPS, *_VALUE_OPS, *_sequence_func.__all__)

# the names `ops` takes from ops.composite that MindSpore's ops.functional does not hold
COMPOSITE_ONLY = ("add_flags", "augassign_add", "augassign_div", "augassign_floordiv",
                  "augassign_mod", "augassign_mul", "augassign_sub", "hyper_add", "tail",
                  "zip_operation")

# (module, the names `ops` takes from it, or None: the names a star import takes)
SOURCES = (
    (_array_func_attributes, None),
    (_array_func_creation, None),
    (_indexing, None),
    (_matrix, None),
    (_padding, None),
    (_segment, None),
    (_shape, None),
    (_stacking, None),
    (_clip_func, None),
    (_debug_func, None),
    (_fft_func, None),
    (_image_func, None),
    (_math_func_creation, None),
    (_elementwise, None),
    (_linalg, None),
    (_reduction, None),
    (_spectral, None),
    (_matrices, None),
    (_statistics, None),
    (_activation, None),
    (_attention, None),
    (_basic, None),
    (_conv, None),
    (_nn_func_image, None),
    (_nn_func_resize, None),
    (_loss, None),
    (_margin_loss, None),
    (_normalization, None),
    (_pooling, None),
    (_window_pool, None),
    (_random_func, None),
    (_sparse_func, None),
    (_sparse_unary_func, None),
    (_method_forms, None),
    (_core, ("PRIMITIVES", "TensorType", "bind")),
    (_floor_division, None),
    (_nn_functional, None),
    (_random_ops,
     ("Randperm", "randperm")),
    (_primitive,
     ("Primitive", "PrimitiveWithCheck", "PrimitiveWithInfer", "prim_arg_register",
      "prim_attr_register")),
    (_autograd, ("GradOperation", "get_grad")),
    (_apply_ops, None),
    (_sparse_apply_ops, None),
    (_assign, None),
    (_gradient_hooks, ("HookBackward", "InsertGradientOf")),
    (_loops, ("ForiLoop", "Scan", "WhileLoop")),
    (_composite, ("HyperMap", "Map", "MultitypeFuncGraph", "Partial",
                                 "clip_by_global_norm", "partial")),
    (_composite, COMPOSITE_ONLY),
    (_custom_ops, ("Custom", "kernel", "ms_kernel")),
    (_inplace_func, tuple(_inplace_func.OPS_FUNCTIONS)),
    (_array_func_attributes, ("identity", "shape")),
    (_primitive, ("constexpr",)),
    (_vm_impl_registry, ("get_vm_impl_fn", "vm_impl_registry")),
    (_other_func, ("mixed_precision_cast", "switch_layer", "tuple_div", "tuple_len",
                   "typeof")),
    (sys.modules[__name__], OPS_FROM_FUNCTIONAL),
)


def _exported(module, names) -> dict:
    if names is None:
        names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n in vars(module) if not n.startswith("_")]
    return {n: getattr(module, n) for n in names}


@functools.cache
def ops_names() -> dict:
    """name -> value, for the names `ops` takes from the modules of SOURCES (read once)."""
    names: dict = {}
    for module_name, wanted in SOURCES:
        names.update(_exported(module_name, wanted))
    return names


TRANSFORMS = ["derivative", "grad", "hessian", "jacfwd", "jacrev", "jet", "jvp", "linearize",
              "switch", "value_and_grad", "vjp", "vmap"]
globals().update(_SCALAR_OPS)
globals().update(_VALUE_OPS)
# MindSpore's parameters over the core's functional ops of the same names: the core's reductions
# take keep_dims (MindSpore's ops.reduce_sum leaves it to ReduceSum's init), its div, sub, relu,
# ones_like and matrix_solve are the primitives (no rounding_mode, alpha, inplace, dtype; adjoint
# keyword-only); MindSpore's zeta casts a number operand and broadcasts, its primitive does not
MINDSPORE_PARAMETERS = {fn.__name__: fn for fn in (
    _array_func_creation.ones_like, _array_func_creation.zeros_like, _elementwise.div,
    _elementwise.divide, _elementwise.subtract, _linalg.matrix_solve, _reduction.reduce_max,
    _reduction.reduce_mean, _reduction.reduce_min, _reduction.reduce_sum, _activation.relu,
    _other_func.stop_gradient, _elementwise.zeta)}
globals().update(MINDSPORE_PARAMETERS)

# the names ops.functional defines (it imports them from here)
__all__ = [*CORE_NAMES, "abs", "pow", "sum", *TRANSFORMS, *_assign_names, "dtype",  # noqa: PLE0604
           "make_range", "is_sequence_shape_unknown", "is_sequence_value_unknown", "isconstant",
           "is_dynamic_sequence_element_unknown", "mixed_precision_cast", "switch_layer",
           "tuple_div", "typeof", *_SCALAR_OPS, *_VALUE_OPS, *_sequence_func.__all__]
FUNCTIONAL = __all__


def registered(namespace) -> dict:
    """The compositions' registered wrappers (crop_and_resize, ctc_loss, ...: their `export`s)
    that `namespace` (ops.functional's names) lacks, the first registration of a name winning:
    the compositions (ops/function/) have registered them when this module imported them. A
    wrapper never takes the place of a core name: the core's declarations and wrappers are what
    `ops.functional` starts from."""
    names = {}
    for kind, name, value, method in _exports.EXPORTS:
        if kind == "function" and not _from_core((kind, name, value, method)) \
                and name not in namespace and name not in names:
            names[name] = value  # the first registration of a name wins
    return names


def ops_function(name: str):
    """`ops.<name>` where it is a functional op F answers for: a callable whose name starts in
    lower case, neither a module nor one of the decorators that define custom operations
    (`ops.kernel`). Builtins' names are among them, as in MindSpore's F (`F.slice`, `F.min`,
    `F.all`): ops/functional.py, which keeps what it found as its globals, calls none of them."""
    value = ops_names().get(name)
    if name in COMPOSITE_ONLY:
        return None
    if name[:1].islower() and callable(value) and not isinstance(value, types.ModuleType) \
            and getattr(value, "__module__", None) != "cellgraph.ops.custom_ops":
        return value
    return None


# MindSpore's functional spellings that are primitive instances (`tensor_add = P.Add()` in its
# ops/function/math_func.py): the module of the class, the class, the parameters its call shows;
# read when first asked for (the operations modules import the packages this module sits below)
_TWO = ("input", "other")
PRIMITIVE_INSTANCES = {
    "tensor_add": ("math_ops", "Add", _TWO), "tensor_sub": ("math_ops", "Sub", ("*args",)),
    "tensor_mul": ("math_ops", "Mul", _TWO), "tensor_div": ("math_ops", "RealDiv", ("x", "y")),
    "tensor_pow": ("math_ops", "Pow", ("input", "exponent")),
    "tensor_mod": ("math_ops", "FloorMod", ("x", "y")),
    "tensor_floordiv": ("math_ops", "FloorDiv", _TWO), "tensor_exp": ("math_ops", "Exp", ("input",)),
    "tensor_le": ("math_ops", "LessEqual", _TWO), "tensor_ge": ("math_ops", "GreaterEqual", _TWO),
    "tensor_slice": ("array_ops", "Slice", ("input", "begin", "size")),
    "shape_": ("array_ops", "Shape", ("x",)), "reshape_": ("array_ops", "Reshape", ("input", "shape"))}
# ... and those that are its functions under another name
ALIASES = {"tensor_lt": "less", "tensor_gt": "greater"}


@functools.cache
def primitive_instance(name: str):
    module, cls, params = PRIMITIVE_INSTANCES[name]
    instance = getattr(importlib.import_module(f"cellgraph.ops.operations.{module}"), cls)()
    instance.__signature__ = inspect.Signature([
        inspect.Parameter(p.lstrip("*"), inspect.Parameter.VAR_POSITIONAL if p.startswith("*")
                          else inspect.Parameter.POSITIONAL_OR_KEYWORD) for p in params])
    return instance


def functional_value(name: str, namespace):
    """`ops.functional.<name>` for a name `namespace` (its names so far) lacks, or None."""
    if name in PRIMITIVE_INSTANCES:
        return primitive_instance(name)
    if name in ALIASES:
        target = ALIASES[name]
        return namespace[target] if target in namespace else functional_value(target, namespace)
    found = registered(namespace)
    return found[name] if name in found else ops_function(name)


def functional_names(namespace) -> set:
    """Every name `ops.functional` answers for, `namespace` holding its names so far."""
    return set(namespace) | set(registered(namespace)) | set(PRIMITIVE_INSTANCES) | set(
        ALIASES) | {n for n in ops_names() if ops_function(n) is not None}


@functools.cache
def functional_namespace() -> dict:
    """ops.functional's names and values, for the packages of ops.function that answer for
    every functional operation as MindSpore's do."""
    static = {n: globals()[n] for n in FUNCTIONAL}
    return {**{n: functional_value(n, static) for n in functional_names(static)
               if n not in static}, **static}
