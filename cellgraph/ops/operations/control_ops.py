"""`mindspore.ops.operations.control_ops`: GeSwitch and Merge, the dataflow switch and merge
of MindSpore's old GE graph backend. MindSpore runs neither eagerly nor on CPU (calling one
raises NotImplementedError there); cellgraph's graphs express control flow with `if` and
`while` in construct, which it compiles to its own switches. The classes exist so that
programs that construct them load; a call raises UnsupportedError (a NotImplementedError),
as MindSpore's does."""
from __future__ import annotations

from cellgraph.ops.primitive_class import PrimitiveClass
from cellgraph.primitives.errors import UnsupportedError

__all__ = ["GeSwitch", "Merge"]


class GeSwitch(PrimitiveClass):
    """`GeSwitch()(data, pred)`: (data if not pred, data if pred) on GE; see the module."""

    def __call__(self, data, pred):
        raise UnsupportedError("GeSwitch: a GE dataflow switch, which MindSpore runs neither "
                               "eagerly nor on CPU; write the condition as an `if` in "
                               "construct")


class Merge(PrimitiveClass):
    """`Merge()(inputs)`: the one input of a tuple that a GE switch activated; see the
    module."""

    def __call__(self, inputs):
        raise UnsupportedError("Merge: a GE dataflow merge, which MindSpore runs neither "
                               "eagerly nor on CPU; write the condition as an `if` in "
                               "construct")
