"""`NodeType`: what a rewrite node stands for."""
from enum import Enum


class NodeType(Enum):
    """The kind of a node: a call of a Cell, a primitive, a function or a method, an
    operator (MathOps), a statement kept as it is (Python), an input or output of the forward
    method, a call of a user-defined sub-network (Tree), of a SequentialCell (CellContainer),
    or an `if`/`for`/`while` branch (ControlFlow)."""

    Unknown = 0
    CallCell = 1
    CallPrimitive = 2
    CallModule = 3
    CallFunction = 4
    CallMethod = 5
    Python = 6
    Input = 7
    Output = 8
    Tree = 9
    CellContainer = 10
    MathOps = 11
    ControlFlow = 12
