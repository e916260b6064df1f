"""A Tensor condition computed from constants alone, known while the graph is built.

MindSpore's graphs infer the value of an operation on constants (a Tensor attribute that is not a
Parameter, numbers) as they compile, so an `if` on it takes one branch at compile time: the
other is never compiled, and a `raise` in the taken one is raised then.

    self.flag = Tensor(1)           # in __init__
    if self.flag == 1:              # known: 1 == 1
        raise ValueError("...")     # raised while compiling; the rest is never parsed

A condition that reads a graph input, a Parameter or an effect (a random draw) stays a switch.
"""
from __future__ import annotations

import numpy as np

from cellgraph.primitives.core import evaluate

from .builder import Tracer
from .ir import Constant, has_effects
from .optimize import FOLD_LIMIT

MAX_DEPTH = 32  # the operations followed back from the condition


def known_condition(test: Tracer):
    """The one-element value of `test` as a NumPy array when only constants compute it, else
    None."""
    producers = {id(out): node for node in test.builder.graph.nodes for out in node.outputs}
    value = _value_of(test.ir_var, producers, MAX_DEPTH)
    return value if value is not None and value.size == 1 else None


def _value_of(atom, producers, depth):
    if isinstance(atom, Constant):
        return np.asarray(atom.value)
    node = producers.get(id(atom))
    if node is None or depth == 0 or node.subgraphs() or node.callee.multiple_results or \
            has_effects(node):
        return None
    size = atom.aval.size
    if size is None or size > FOLD_LIMIT:
        return None
    operands = []
    for operand in node.inputs:
        if isinstance(operand, Constant):
            operands.append(operand.value)
            continue
        value = _value_of(operand, producers, depth - 1)
        if value is None:
            return None
        operands.append(value)
    return evaluate(node.callee, *operands, **node.params).asnumpy()
