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

import numbers
from dataclasses import dataclass

import numpy as np

from cellgraph.primitives import functional as F
from cellgraph.primitives.core import Primitive, abstract_of, broadcast_shapes, fmt_shape, is_value
from cellgraph.primitives.errors import CellgraphError, DTypeError, ShapeError

from . import codegen
from .builder import AttributeSlot, Tracer, current_builder, is_parameter, is_tensor_like
from .print_op import RuntimeString


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


def checked_assign_value(op: str, variable, value):
    """`value` with the shape and dtype of `variable` (a Parameter, or a Tensor that an
    in-place operation updates), or an error naming both."""
    if not is_parameter(variable) and not _is_tensor(variable):
        raise DTypeError(f"{op}: expected a Parameter or a Tensor as `variable`, got "
                         f"{type(variable).__name__} {variable!r:.60}")
    if not is_value(value):
        raise DTypeError(f"{op}: expected a Tensor or a number as `value`, got "
                         f"{type(value).__name__} {value!r:.60}")
    target, given = variable.aval, abstract_of(value)
    name = (variable.name or "Parameter") if is_parameter(variable) else "Tensor"
    if given.shape == (1,) and target.shape == ():  # MindSpore's Assign takes [1] for a scalar
        value = F.reshape(value, ())
        given = abstract_of(value)
    try:
        fits = broadcast_shapes(given.shape, target.shape) == target.shape
    except CellgraphError:
        fits = False
    if not fits:
        raise ShapeError(f"{op}: cannot assign a value of shape {fmt_shape(given.shape)} to "
                         f"{_described(variable, name)} of shape {fmt_shape(target.shape)}")
    if given.dtype.is_float and not target.dtype.is_float:
        raise DTypeError(f"{op}: cannot assign a {given.dtype} value to {_described(variable, name)} of "
                         f"dtype {target.dtype}")
    if isinstance(value, numbers.Number):
        return F.fill(target.dtype, target.shape, value)
    value = F.cast(value, target.dtype)
    if given.shape != target.shape:
        value = F.broadcast_to(value, target.shape)
    return value


def _is_tensor(x) -> bool:
    return isinstance(x, Tracer) or hasattr(x, "_data") and hasattr(x, "aval")


def _described(variable, name: str) -> str:
    return f"Parameter '{name}'" if is_parameter(variable) else "a Tensor"


def assign_in_graph(variable, value):
    """Record `variable = value` in the graph being built; returns the new value. A Parameter's
    new value is a leaf (no gradient flows through an update); a Tensor that an in-place
    operation updates (`ops.AssignAdd()(x, y)`, `x.add_(y)`) is rebound: every later read of it
    in the graph sees the new value, and the result is the Tensor itself, as MindSpore's in-place
    operations return their input."""
    if not is_parameter(variable) and not isinstance(variable, Tracer):
        raise DTypeError("Assign: a Tensor that is a constant of the graph (built outside it) "
                         "cannot be updated in place inside it; make it a Parameter, or pass "
                         "it as an argument")
    new = checked_assign_value("Assign", variable, value)
    if isinstance(variable, Tracer) and not is_parameter(variable):
        current_builder().record_update(variable, new)
        return variable
    new = F.stop_gradient(new)
    current_builder().record_update(variable, new)
    return new


def update_in_place(variable, value):
    """`variable` given the data of `value` (cast and broadcast to its type), in place: a
    Parameter or Tensor at once when eager, recorded in the graph being built (`assign_in_graph`)
    otherwise. Returns `variable` (inside a graph, as assign_in_graph returns it)."""
    if current_builder() is not None:
        return assign_in_graph(variable, value)
    new = checked_assign_value("Assign", variable, value)
    data = np.asarray(new.asnumpy())
    if is_parameter(variable):
        variable.set_data(data)
    else:
        variable.assign_value(data)
    return variable


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
        return "".join(p if isinstance(p, str) else str(np.asarray(values[p]))
                       for p in self.parts)


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
            if isinstance(part, Tracer) or is_tensor_like(part):
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
