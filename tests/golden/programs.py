"""Programs whose IR is kept as golden text (`tests/golden/<program>.<stage>.ir`).

The printed IR names this file and its line numbers, so edits here change every golden file
below the edit: append new programs at the end, then run `make golden` and review the diff.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import cellgraph
from cellgraph import Parameter, ParameterTuple, Tensor, nn, ops
from cellgraph import dtype as mstype

FORWARD_STAGES = ("parse", "optimize")
GRAD_STAGES = ("parse", "expand_grad", "optimize")


@dataclass(frozen=True)
class Program:
    """A callable (function, Cell or gradient function), its example inputs and the stages
    whose IR is kept."""

    name: str
    build: object  # () -> (callable, args); built fresh for each use
    stages: tuple = FORWARD_STAGES


def tensor(shape, start=0.1, step=0.1, dtype=np.float32) -> Tensor:
    """A deterministic example input: start, start + step, ... in `shape`."""
    count = int(np.prod(shape))
    return Tensor((start + step * np.arange(count)).reshape(shape).astype(dtype))


# ----- a Cell containing a Cell with Parameters ------------------------------------------------

class Affine(nn.Cell):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.weight = Parameter(tensor((n_in, n_out), 0.01, 0.01), name="weight")
        self.bias = Parameter(tensor((n_out,), 0.5, 0.0), name="bias")

    def construct(self, x):
        return ops.matmul(x, self.weight) + self.bias


class Scaled(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = Affine(3, 2)
        self.scale = Parameter(Tensor(np.array([2.0], np.float32)), name="scale")

    def construct(self, x):
        return self.inner(x) * self.scale


# ----- a helper function called from construct -----------------------------------------------

def squash(x, shift):
    return ops.tanh(x - shift)


class WithHelper(nn.Cell):
    def construct(self, x, y):
        a = squash(x, 1.0)
        return squash(a * y, 0.5)


# ----- a tuple return ---------------------------------------------------------------------------

class SumAndDiff(nn.Cell):
    def construct(self, x, y):
        return x + y, x - y, x * y


# ----- indexing and slicing -------------------------------------------------------------------

def indexing(x, idx):
    row = x[1]
    middle = x[1:3]
    column = x[..., 2]
    expanded = x[None, :, 0]
    gathered = x[idx]
    return row, middle, column, expanded, gathered


# ----- functional ops ---------------------------------------------------------------------------

def functional(x):
    e = ops.exp(x)
    total = ops.reduce_sum(e, 1)
    mean = ops.reduce_mean(ops.square(x), (0, 1))
    return ops.log(total) - mean


# ----- the seed MatMul net (seed_examples/s01_grad_wrt_input.py) ---------------------------------

class SeedNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.matmul = ops.MatMul()
        self.z = Parameter(Tensor(np.array([1.0], np.float32)), name="z")

    def construct(self, x, y):
        x = x * self.z
        out = self.matmul(x, y)
        return out


class GradNetWrtX(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.grad_op = ops.GradOperation()

    def construct(self, x, y):
        gradient_function = self.grad_op(self.net)
        return gradient_function(x, y)


def seed_inputs():
    x = Tensor([[0.8, 0.6, 0.2], [1.8, 1.3, 1.1]], dtype=mstype.float32)
    y = Tensor([[0.11, 3.3, 1.1], [1.1, 0.2, 1.4], [1.1, 2.2, 0.3]], dtype=mstype.float32)
    return x, y


# ----- a two-layer MLP ----------------------------------------------------------------------------

class MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w1 = Parameter(tensor((4, 8), -0.3, 0.02), name="w1")
        self.b1 = Parameter(tensor((8,), 0.0, 0.01), name="b1")
        self.w2 = Parameter(tensor((8, 2), 0.2, -0.02), name="w2")
        self.b2 = Parameter(tensor((2,), 0.1, 0.0), name="b2")

    def construct(self, x):
        hidden = ops.tanh(ops.matmul(x, self.w1) + self.b1)
        return ops.tanh(ops.matmul(hidden, self.w2) + self.b2)


def mlp_weight_grad():
    net = MLP()
    weights = ParameterTuple(net.trainable_params())
    return cellgraph.grad(net, grad_position=None, weights=weights), (tensor((3, 4)),)


# ----- control flow on Tensors ---------------------------------------------------------------------

class TensorIf(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:
            y = x * x
        else:
            y = -x
        return y


class TensorWhile(nn.Cell):
    def construct(self, x):
        while x.sum() < 10:
            x = x * 2
        return x


def scalar(value) -> Tensor:
    return Tensor(np.array([value], np.float32))


PROGRAMS = (
    Program("sub_cell_params", lambda: (Scaled(), (tensor((4, 3)),))),
    Program("helper_function", lambda: (WithHelper(), (tensor((2, 3)), tensor((2, 3), 1.0)))),
    Program("tuple_return", lambda: (SumAndDiff(), (tensor((2, 2)), tensor((2, 2), 2.0)))),
    Program("indexing", lambda: (indexing, (tensor((4, 3)),
                                            Tensor(np.array([3, 0], np.int32))))),
    Program("functional_ops", lambda: (functional, (tensor((2, 3)),))),
    Program("seed_matmul", lambda: (SeedNet(), seed_inputs())),
    Program("seed_matmul_grad_x", lambda: (GradNetWrtX(SeedNet()), seed_inputs()), GRAD_STAGES),
    Program("mlp", lambda: (MLP(), (tensor((3, 4)),))),
    Program("mlp_grad_weights", mlp_weight_grad, GRAD_STAGES),
    Program("tensor_if", lambda: (TensorIf(), (scalar(1.5),))),
    Program("tensor_if_grad", lambda: (cellgraph.grad(TensorIf()), (scalar(1.5),)), GRAD_STAGES),
    Program("tensor_while", lambda: (TensorWhile(), (scalar(1.5),))),
    Program("tensor_while_grad", lambda: (cellgraph.grad(TensorWhile()), (scalar(1.5),)),
            GRAD_STAGES),
)



# ----- programs compiled under a context setting ------------------------------------------------

@dataclass(frozen=True)
class ProgramInContext(Program):
    """A program compiled with `context` ((key, value) pairs) set by cellgraph.set_context."""

    context: tuple = ()


# ----- loops that leave early: break and return inside a Tensor while --------------------------

class WhileWithBreak(nn.Cell):
    def construct(self, x, limit):
        n = x * 0
        while n < 10:
            x = x * 1.5
            if x > limit:
                break
            n = n + 1
        return x + n


class ReturnFromWhile(nn.Cell):
    def construct(self, x):
        k = x * 0
        while k < 4:
            x = x * x
            if x > 50:
                return x - 1
            k = k + 1
        return x + 1


# ----- the loop tape: a while loop whose body keeps values for its reverse scan ----------------

class TapedWhile(nn.Cell):
    def construct(self, x, y):
        while x.sum() < 10:
            x = ops.sin(x) * y + x * 2
        return x * y


# ----- a Parameter assigned in a Tensor branch ------------------------------------------------

class CountsCalls(nn.Cell):
    def __init__(self):
        super().__init__()
        self.count = Parameter(Tensor(np.array([0.0], np.float32)), name="count")

    def construct(self, x):
        if x > 0:
            self.count = self.count + 1
            y = x * self.count
        else:
            y = -x
        return y


# ----- complex numbers ------------------------------------------------------------------------

def complex_magnitude(re, im):
    z = ops.Complex()(re, im)
    w = z * z + z
    return ops.reduce_sum(ops.real(w) * ops.imag(w))


# ----- mixed precision: auto_mixed_precision's casts ----------------------------------------------

class Dense(nn.Cell):
    def __init__(self):
        super().__init__()
        self.weight = Parameter(tensor((3, 2), -0.2, 0.05), name="weight")
        self.bias = Parameter(tensor((2,), 0.1, 0.0), name="bias")

    def construct(self, x):
        return ops.tanh(ops.matmul(x, self.weight) + self.bias)


def amp_grad():
    from cellgraph import amp

    net = amp.auto_mixed_precision(Dense(), "O2")
    return cellgraph.grad(net), (tensor((2, 3)),)


# ----- a fused kernel: GeLU and its slope in one node -----------------------------------------

def gelu_times_x(x):
    return ops.reduce_sum(ops.gelu(x) * x)


PROGRAMS += (
    Program("while_break_grad", lambda: (cellgraph.grad(WhileWithBreak()),
                                          (scalar(1.5), scalar(20.0))), GRAD_STAGES),
    Program("while_return_grad", lambda: (cellgraph.grad(ReturnFromWhile()), (scalar(1.5),)),
            GRAD_STAGES),
    Program("loop_tape_grad", lambda: (cellgraph.grad(TapedWhile(), grad_position=(0, 1)),
                                        (scalar(0.5), scalar(1.5))), GRAD_STAGES),
    ProgramInContext("loop_checkpoint_grad",
                     lambda: (cellgraph.grad(TapedWhile(), grad_position=(0, 1)),
                              (scalar(0.5), scalar(1.5))), GRAD_STAGES,
            context=(("loop_checkpoint", 2),)),
    Program("parameter_in_branch_grad", lambda: (ops.GradOperation()(CountsCalls()),
                                                  (scalar(1.5),)), GRAD_STAGES),
    Program("complex_grad", lambda: (cellgraph.grad(complex_magnitude, grad_position=(0, 1)),
                                      (tensor((2,)), tensor((2,), 0.5))), GRAD_STAGES),
    Program("amp_o2_grad", amp_grad, GRAD_STAGES),
    Program("gelu_fused_grad", lambda: (cellgraph.grad(gelu_times_x), (tensor((2, 3), -0.5),)),
            GRAD_STAGES),
)


def golden_cases():
    """(program, stage) for every golden file."""
    return [(program, stage) for program in PROGRAMS for stage in program.stages]
