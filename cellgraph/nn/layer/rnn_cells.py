"""Recurrent cells (one time step): RNNCell, LSTMCell, GRUCell, and the step functions the
multi-layer RNN, LSTM and GRU run, composed from matmul, sigmoid and tanh (gradients come from
those ops).

Parameters carry MindSpore's names, so checkpoints line up: `weight_ih`, `weight_hh`,
`bias_ih`, `bias_hh`. Gate blocks are stacked along the first axis in MindSpore's order: LSTM
(input, forget, cell, output), GRU (reset, update, new).
"""
from __future__ import annotations

import math

import numpy as np

import cellgraph.ops as F
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import nn_functional as NF
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.runtime.tensor import Parameter, Tensor

from ..cell import Cell
from ._checks import positive_int

__all__ = ["GRUCell", "LSTMCell", "RNNCell"]


def _linear(x, weight, bias):
    out = F.matmul(x, F.transpose(weight, (1, 0)))
    return out if bias is None else out + bias


def _rnn_step(activation):
    def step(xw, h, w_hh, b_hh):
        return activation(xw + _linear(h, w_hh, b_hh))

    return step


def _lstm_step(xw, state, w_hh, b_hh):
    h, c = state
    gates = xw + _linear(h, w_hh, b_hh)
    i, f, g, o = NF.split_equal(gates, -1, 4)
    c_new = F.sigmoid(f) * c + F.sigmoid(i) * F.tanh(g)
    return F.sigmoid(o) * F.tanh(c_new), c_new


def _gru_step(xw, h, w_hh, b_hh):
    i_r, i_z, i_n = NF.split_equal(xw, -1, 3)
    h_r, h_z, h_n = NF.split_equal(_linear(h, w_hh, b_hh), -1, 3)
    reset = F.sigmoid(i_r + h_r)
    update = F.sigmoid(i_z + h_z)
    new = F.tanh(i_n + reset * h_n)
    return new + update * (h - new)


# mode: (gate blocks, step function over (x @ w_ih.T + b_ih, state, w_hh, b_hh))
_MODES = {"RNN_TANH": (1, _rnn_step(F.tanh)), "RNN_RELU": (1, _rnn_step(F.relu)),
          "LSTM": (4, _lstm_step), "GRU": (3, _gru_step)}


def _uniform(shape, bound: float, dtype=dt.float32) -> Tensor:
    """Initial weights as MindSpore draws them: from NumPy's global generator, so after the
    same `set_seed` they are MindSpore's values and NumPy's state after them is MindSpore's."""
    return Tensor(np.random.uniform(-bound, bound, shape).astype(np.float32), dtype)


def _cell_uniform(shapes: list, bound: float, dtype=dt.float32) -> list:
    """An RNN cell's initial weights, drawing from NumPy's global generator what MindSpore's
    cells draw: a normal sample of each shape (which MindSpore then overwrites), then one
    Uniform initialization each."""
    from cellgraph.common.initializer import Uniform, initializer

    for shape in shapes:
        np.random.randn(*shape)
    return [initializer(Uniform(bound), shape, dtype) for shape in shapes]


def _check_bool(value, op: str, name: str) -> bool:
    if not isinstance(value, bool):
        raise DTypeError(f"{op}: `{name}` must be a bool, got {type(value).__name__} {value!r}")
    return value


def _is_lstm_state(mode: str) -> bool:
    return mode == "LSTM"


class _RNNCellBase(Cell):
    mode = "RNN_TANH"

    def __init__(self, input_size, hidden_size, has_bias=True, dtype=dt.float32):
        super().__init__()
        op = type(self).__name__
        dtype = dt.as_dtype(dtype)
        self.input_size = positive_int(input_size, op, "input_size")
        self.hidden_size = positive_int(hidden_size, op, "hidden_size")
        self.has_bias = _check_bool(has_bias, op, "has_bias")
        gate_size = _MODES[self.mode][0] * self.hidden_size
        bound = 1 / math.sqrt(self.hidden_size)
        shapes = [(gate_size, self.input_size), (gate_size, self.hidden_size)]
        values = _cell_uniform(shapes + [(gate_size,)] * 2 * self.has_bias, bound, dtype)
        self.weight_ih = Parameter(values[0], "weight_ih")
        self.weight_hh = Parameter(values[1], "weight_hh")
        self.bias_ih = self.bias_hh = None
        if self.has_bias:
            self.bias_ih = Parameter(values[2], "bias_ih")
            self.bias_hh = Parameter(values[3], "bias_hh")

    def construct(self, x, hx):
        if len(x.shape) != 2 or x.shape[1] != self.input_size:
            raise ShapeError(f"{type(self).__name__}: expected an input of shape (batch, "
                             f"{self.input_size}), got {tuple(x.shape)}")
        xw = _linear(x, self.weight_ih, self.bias_ih)
        state = tuple(hx) if _is_lstm_state(self.mode) else hx
        return _MODES[self.mode][1](xw, state, self.weight_hh, self.bias_hh)


class RNNCell(_RNNCellBase):
    """One Elman RNN step: `cell(x, h) -> h'`."""

    def __init__(self, input_size, hidden_size, has_bias=True, nonlinearity="tanh",
                 dtype=dt.float32):
        if nonlinearity not in ("tanh", "relu"):
            raise ArgumentValueError(f"RNNCell: `nonlinearity` must be 'tanh' or 'relu', got "
                                     f"{nonlinearity!r}")
        self.mode = "RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU"
        super().__init__(input_size, hidden_size, has_bias, dtype)


class LSTMCell(_RNNCellBase):
    """One LSTM step: `cell(x, (h, c)) -> (h', c')`."""

    mode = "LSTM"


class GRUCell(_RNNCellBase):
    """One GRU step: `cell(x, h) -> h'`."""

    mode = "GRU"
