"""The op core: primitives with their type rules, derivatives, batch rules and kernel names,
and the functional ops that normalise arguments in front of them.

Importing this package loads every declaring module and then gives each public primitive its
functional op and Tensor method (exports.py). It never imports the API layer (`cellgraph.ops`,
`cellgraph.nn`, ...): the compiler and the runtime sit on this package alone.
"""
from . import (  # noqa: F401  (each module declares its primitives)
    advanced_index,
    array_ops,
    batching,
    bessel_ops,
    check_ops,
    comm_ops,
    complex_ops,
    composite_setitem,
    conv_ops,
    core,
    dtype,
    dynamic_ops,
    errors,
    exports,
    floor_division,
    functional,
    gamma_ops,
    linalg_ops,
    math_ops,
    nn_functional,
    nn_ops,
    norm_ops,
    random_ops,
    redistribution_ops,
    rounding_ops,
    scatter_ops,
    shape_ops,
    slicing,
    sort_ops,
    special_ops,
    tensor_methods,
)

exports.install(functional, tensor_methods.TensorMethods)
