"""Effects inside a graph: Parameter (and Tensor attribute) updates and `raise` under a Tensor
condition.

A Parameter update is state threaded through the program: the builder records the new value
(later reads see it), a Tensor `if` or `while` that updates a Parameter carries it as one more
output or loop-carried value (control_flow.py), and the outermost graph returns it for the
executor to write back. So updates happen in program order inside branches and loops, and a
gradient never flows through them (a Parameter is a leaf).

`raise` where the front end cannot decide the condition (inside the branch of a Tensor `if`, or
in a Tensor loop's body) becomes a `raise` node, an effectful node that raises when the graph
reaches it, as MindSpore raises at run time there:

    if x > 3:                         %1 = greater(%x, 3)
        raise ValueError("big")  ->   switch(%1, ...) {then_graph=@f_if2_then, ...}
                                      graph @f_if2_then(...) { raise() {exc_type=ValueError,
                                                                        args=('big',)} ... }
"""
from __future__ import annotations

import contextvars
from dataclasses import dataclass

import numpy as np

from cellgraph.primitives import functional as F
from cellgraph.primitives.core import Primitive
from cellgraph.primitives.errors import LeafInplaceError

from . import codegen, pynative_indexing
from .builder import (
    AttributeSlot,
    ParameterArgument,
    Tracer,
    assign_in_graph,
    checked_assign_value,
    current_builder,
    is_parameter,
    is_tensor_like,
)
from .pytree import ReprPart, RuntimeString


def assign_attribute(owner, attr: str, value) -> bool:
    """`owner.attr = value` in construct for an attribute that is no Parameter, with a Tensor
    value: recorded as an update of an `AttributeSlot`, so later reads in the graph see the
    value and the executor sets the attribute after the run. MindSpore runs such an assignment
    as Python (PyExecute), which has no gradient: the value is read through stop_gradient.
    Refused (False) under a Tensor condition or where nothing writes updates back."""
    builder = current_builder()
    if (builder is None or not builder.accepts_updates or builder.runs_conditionally
            or not is_tensor_like(value)):
        return False
    builder.record_update(AttributeSlot(owner, attr), F.stop_gradient(value))
    return True


# Set while a gradient called from Python in PyNative mode traces its function (transform.py):
# MindSpore's PyNative autograd then records every operation on the Tensors passed in and on
# the Parameters, which are the leaves of the gradient.
PYNATIVE_GRAD: contextvars.ContextVar = contextvars.ContextVar("pynative_grad", default=False)


def _is_grad_leaf(variable) -> bool:
    """Whether `variable` is a leaf that requires grad in PyNative's autograd: a Parameter
    (unless `requires_grad=False`) or a Tensor the caller passed in."""
    if is_parameter(variable) or isinstance(variable, ParameterArgument):
        return bool(getattr(variable, "requires_grad", True))
    return isinstance(variable, Tracer) and variable.builder.is_input_leaf(variable)


def update_in_place(variable, value, op: str | None = None):
    """`variable` given the data of `value` (cast and broadcast to its type), in place, by
    MindSpore's in-place primitive `op` (None: an assignment): a Parameter or Tensor at once
    when eager, recorded in the graph being built (`assign_in_graph`) otherwise. Returns the
    new value: eagerly a Tensor of its own (a copy, as MindSpore's Assign and the Apply/Scatter
    updates return, never the Parameter itself); inside a graph what assign_in_graph returns.

    While PyNative mode's autograd records (`PYNATIVE_GRAD`), an in-place primitive on a leaf
    raises RuntimeError, as MindSpore's does; graph mode differentiates through the update."""
    builder = current_builder()
    if builder is not None:
        if op is not None and PYNATIVE_GRAD.get() and _is_grad_leaf(variable):
            raise LeafInplaceError(f"A leaf tensor that requires grad is being used in an "
                                   f"inplace operator, {op}, which is forbidden!")
        result = assign_in_graph(variable, value, converting=True)
        # PyNative's Tensor read from another (`z = y[0]`) shares its elements: the update
        # reaches `y` too (recorded only while a PyNative gradient traces)
        pynative_indexing.write_back_in_place(variable, result)
        return result
    new = checked_assign_value("Assign", variable, value, converting=True)
    data = np.asarray(new.asnumpy())
    if is_parameter(variable):
        variable.set_data(data)
    else:
        variable.assign_value(data)
        return variable   # a Tensor updated in place is itself the result
    from cellgraph.runtime.tensor import Tensor

    return Tensor(data.copy(), variable.dtype)


# ----- raise -----------------------------------------------------------------------------------

raise_p = Primitive("raise", lambda *avals, exc_type, args: (), label="Raise",
                    multiple_results=True, nondifferentiable=True, effectful=True,
                    structural=True)  # generated as a `raise` statement, no kernel


class RaiseSignal(Exception):
    """The front end reached a `raise` that happens at run time: the rest of the block is dead."""


@dataclass(frozen=True)
class RuntimeText:
    """An exception argument known only at run time (an f-string with Tensor parts, or a
    Tensor): strings, and the positions of the raise node's inputs whose values go there."""

    parts: tuple

    def render(self, values) -> str:
        return "".join(p if isinstance(p, str) else _text(p, values) for p in self.parts)


def _text(part, values) -> str:
    """A value's text in a message: `index` as print writes it, `("repr", index)` as repr
    (a Tensor inside a formatted tuple or list)."""
    if isinstance(part, int):
        return str(np.asarray(values[part]))
    from cellgraph.runtime.tensor import Tensor  # the runtime sits beside the compiler

    return repr(Tensor(np.asarray(values[part[1]])))


def holds_graph_values(exc: BaseException) -> bool:
    """Whether the message of `exc` holds values known only when the graph runs."""
    return any(isinstance(arg, RuntimeString | Tracer) for arg in exc.args)


def emit_raise(exc: BaseException) -> None:
    """A `raise` node for `exc`. Its message is the one known while compiling, but for the
    Tensors in it (a Tensor argument, or one formatted into an f-string), which are the node's
    inputs and are written with their values when it runs, as MindSpore does:

        raise ValueError(f"bad {x}")   ->   raise(%x) {args=(RuntimeText(('bad ', 0)),)}
    """
    values = []

    def runtime_text(parts) -> RuntimeText:
        template = []
        for part in parts:
            if isinstance(part, ReprPart):
                value = part.repr_value
                scalar = getattr(value, "python_type", None) is not None  # reads as a number
                template.append(len(values) if scalar else ("repr", len(values)))
                values.append(value)
            elif isinstance(part, Tracer) or is_tensor_like(part):
                template.append(len(values))
                values.append(part)
            else:
                template.append(str(part))
        return RuntimeText(tuple(template))

    args = []
    for arg in exc.args:
        if isinstance(arg, RuntimeString):
            args.append(runtime_text(arg.parts))
        elif isinstance(arg, Tracer):
            args.append(runtime_text([arg]))
        else:
            args.append(arg if isinstance(arg, str | int | float | bool) else str(arg))
    raise_p(*values, exc_type=type(exc), args=tuple(args))


def exception_args(args: tuple, values: tuple) -> tuple:
    """A raise node's exception arguments, its runtime texts written with `values`."""
    return tuple(a.render(values) if isinstance(a, RuntimeText) else a for a in args)


def _raise_code(ctx, node, args, outs):
    exc = ctx.literal(node.params["exc_type"])
    params = node.params["args"]
    if not args:
        return [f"raise {exc}(*{ctx.literal(params)})"]
    values = "".join(f"{a}, " for a in args)
    return [f"raise {exc}(*{ctx.literal(exception_args)}({ctx.literal(params)}, ({values})))"]


codegen.CODEGEN_RULES["raise"] = _raise_code
