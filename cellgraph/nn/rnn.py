"""Recurrent layers, composed from matmul, sigmoid and tanh (gradients come from those ops).

Parameters carry MindSpore's names, so checkpoints line up: the layers have
`weight_ih_l{k}[_reverse]`, `weight_hh_l{k}[_reverse]`, `bias_ih_l{k}[_reverse]`,
`bias_hh_l{k}[_reverse]` (all input weights first, then the hidden weights, then the biases),
the cells `weight_ih`, `weight_hh`, `bias_ih`, `bias_hh`. Gate blocks are stacked along the
first axis in MindSpore's order: LSTM (input, forget, cell, output), GRU (reset, update, new).

The time loop is unrolled over the static sequence length. `seq_length` (one length per batch
element) freezes each element's state after its last step and zeroes its later outputs; the
reverse direction runs from the last step down and starts each element at its own last step.
"""
from __future__ import annotations

import math

import numpy as np

import cellgraph.ops as F
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.runtime.tensor import Parameter, ParameterTuple, Tensor

from .cell import Cell
from .layers import Dropout, guarded, positive_int

__all__ = ["GRU", "LSTM", "RNN", "GRUCell", "LSTMCell", "RNNCell"]


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
    i, f, g, o = F.split(gates, axis=-1, output_num=4)
    c_new = F.sigmoid(f) * c + F.sigmoid(i) * F.tanh(g)
    return F.sigmoid(o) * F.tanh(c_new), c_new


def _gru_step(xw, h, w_hh, b_hh):
    i_r, i_z, i_n = F.split(xw, axis=-1, output_num=3)
    h_r, h_z, h_n = F.split(_linear(h, w_hh, b_hh), axis=-1, output_num=3)
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


def _select_state(mask, new, old):
    """`new` where mask (B, 1; 1.0 or 0.0) is set, else `old`."""
    if isinstance(new, tuple):
        return tuple(_select_state(mask, n, o) for n, o in zip(new, old))
    return old + mask * (new - old)


def _output_of(state):
    return state[0] if isinstance(state, tuple) else state


def _run_direction(step, xw, state, w_hh, b_hh, masks, reverse: bool):
    """Run `step` over the time axis of xw (T, B, G); returns (outputs (T, B, H), state)."""
    steps = range(len(xw) - 1, -1, -1) if reverse else range(len(xw))
    outputs = [None] * len(xw)
    for t in steps:
        new = step(xw[t], state, w_hh, b_hh)
        if masks is not None:
            new = _select_state(masks[t], new, state)
            outputs[t] = _output_of(new) * masks[t]
        else:
            outputs[t] = _output_of(new)
        state = new
    return F.stack(outputs, 0), state


class _RNNBase(Cell):
    """Stacked, optionally bidirectional recurrent layers over (T, B, input) or batch_first."""

    mode = "RNN_TANH"

    def __init__(self, input_size, hidden_size, num_layers=1, has_bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, dtype=None):
        super().__init__()
        op = type(self).__name__
        self.input_size = positive_int(input_size, op, "input_size")
        self.hidden_size = positive_int(hidden_size, op, "hidden_size")
        self.num_layers = positive_int(num_layers, op, "num_layers")
        self.has_bias = _check_bool(has_bias, op, "has_bias")
        self.batch_first = _check_bool(batch_first, op, "batch_first")
        self.bidirectional = _check_bool(bidirectional, op, "bidirectional")
        if isinstance(dropout, bool) or not isinstance(dropout, (int, float)) \
                or not 0 <= dropout < 1:
            raise ArgumentValueError(f"{op}: `dropout` must be a number in [0, 1), got "
                                     f"{dropout!r}")
        self.dropout = float(dropout)
        self.dropout_op = Dropout(p=self.dropout) if self.dropout > 0 else None
        self.num_directions = 2 if bidirectional else 1
        self._make_parameters(_MODES[self.mode][0] * self.hidden_size,
                              dt.float32 if dtype is None else dt.as_dtype(dtype))

    def _make_parameters(self, gate_size: int, dtype=dt.float32) -> None:
        bound = 1 / math.sqrt(self.hidden_size)
        names = [(layer, "_reverse" if d else "") for layer in range(self.num_layers)
                 for d in range(self.num_directions)]
        in_sizes = [self.input_size if layer == 0 else self.hidden_size * self.num_directions
                    for layer, _ in names]
        kinds = [("weight_ih", lambda n: (gate_size, in_sizes[n])),
                 ("weight_hh", lambda n: (gate_size, self.hidden_size))]
        if self.has_bias:
            kinds += [("bias_ih", lambda n: (gate_size,)), ("bias_hh", lambda n: (gate_size,))]
        # drawn layer by layer, each layer's w_ih, w_hh, b_ih, b_hh, as MindSpore draws them
        values = {(kind, n): _uniform(shape_of(n), bound, dtype)
                  for n in range(len(names)) for kind, shape_of in kinds}
        for kind, _ in kinds:  # MindSpore's order: every w_ih, then every w_hh, ...
            for n, (layer, suffix) in enumerate(names):
                name = f"{kind}_l{layer}{suffix}"
                setattr(self, name, Parameter(values[(kind, n)], name=name))

    def _list(self, kind: str) -> ParameterTuple:
        if kind.startswith("bias") and not self.has_bias:
            return ParameterTuple(())
        return ParameterTuple(getattr(self, f"{kind}_l{layer}{'_reverse' if d else ''}")
                              for layer in range(self.num_layers)
                              for d in range(self.num_directions))

    @property
    def w_ih_list(self):
        return self._list("weight_ih")

    @property
    def w_hh_list(self):
        return self._list("weight_hh")

    @property
    def b_ih_list(self):
        return self._list("bias_ih")

    @property
    def b_hh_list(self):
        return self._list("bias_hh")

    def _initial_state(self, x, hx):
        lstm = _is_lstm_state(self.mode)
        shape = (self.num_layers * self.num_directions, x.shape[1], self.hidden_size)
        if hx is None:
            zero = F.zeros(shape, x.dtype)
            return (zero, zero) if lstm else zero
        parts = hx if lstm else (hx,)
        if lstm and (not isinstance(hx, (tuple, list)) or len(hx) != 2):
            raise DTypeError(f"{type(self).__name__}: `hx` must be a tuple (h_0, c_0), got "
                             f"{type(hx).__name__}")
        for part in parts:
            if tuple(part.shape) != shape:
                raise ShapeError(f"{type(self).__name__}: expected an initial state of shape "
                                 f"{shape}, got {tuple(part.shape)}")
        return tuple(hx) if lstm else hx

    def _masks(self, seq_length, steps: int, dtype):
        if seq_length is None:
            return None
        if seq_length.dtype.name not in ("int32", "int64"):
            raise DTypeError(f"{type(self).__name__}: `seq_length` must be int32 or int64, got "
                             f"{seq_length.dtype}")
        return [F.expand_dims(F.cast(F.greater(seq_length, t), dtype), 1) for t in range(steps)]

    def construct(self, x, hx=None, seq_length=None):
        op = type(self).__name__
        if len(x.shape) != 3 or x.shape[-1] != self.input_size:
            raise ShapeError(f"{op}: expected an input of shape (seq, batch, {self.input_size})"
                             f"{' with batch first' if self.batch_first else ''}, got "
                             f"{tuple(x.shape)}")
        if x.shape[1 if self.batch_first else 0] == 0:
            # MindSpore: RuntimeError from its LSTM kernel, ValueError from GRU's Stack
            raise ShapeError(f"{op}: the input's sequence length is 0 (input of shape "
                             f"{tuple(x.shape)}); a recurrent layer needs at least one step")
        if self.batch_first:
            x = F.transpose(x, (1, 0, 2))
        state = self._initial_state(x, hx)
        masks = self._masks(seq_length, x.shape[0], x.dtype)
        step = _MODES[self.mode][1]
        w_ih, w_hh, b_ih, b_hh = self.w_ih_list, self.w_hh_list, self.b_ih_list, self.b_hh_list
        finals, layer_in = [], x
        for layer in range(self.num_layers):
            outs = []
            for d in range(self.num_directions):
                k = layer * self.num_directions + d
                xw = _linear(layer_in, w_ih[k], b_ih[k] if self.has_bias else None)
                init = tuple(s[k] for s in state) if isinstance(state, tuple) else state[k]
                out, final = _run_direction(step, xw, init, w_hh[k],
                                            b_hh[k] if self.has_bias else None, masks, d == 1)
                outs.append(out)
                finals.append(final)
            layer_in = outs[0] if len(outs) == 1 else F.concat(outs, 2)
            if self.dropout_op is not None and layer < self.num_layers - 1 \
                    and guarded(self, "training"):
                layer_in = self.dropout_op(layer_in)
        output = F.transpose(layer_in, (1, 0, 2)) if self.batch_first else layer_in
        if isinstance(state, tuple):
            return output, (F.stack([f[0] for f in finals], 0),
                            F.stack([f[1] for f in finals], 0))
        return output, F.stack(finals, 0)

    def extend_repr(self) -> str:
        return (f"input_size={self.input_size}, hidden_size={self.hidden_size}, "
                f"num_layers={self.num_layers}, has_bias={self.has_bias}, "
                f"batch_first={self.batch_first}, dropout={self.dropout}, "
                f"bidirectional={self.bidirectional}")


class RNN(_RNNBase):
    """Elman RNN: h' = nonlinearity(x W_ih^T + b_ih + h W_hh^T + b_hh)."""

    def __init__(self, *args, nonlinearity="tanh", **kwargs):
        if nonlinearity not in ("tanh", "relu"):
            raise ArgumentValueError(f"RNN: `nonlinearity` must be 'tanh' or 'relu', got "
                                     f"{nonlinearity!r}")
        self.mode = "RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU"
        super().__init__(*args, **kwargs)


class LSTM(_RNNBase):
    """Long short-term memory; returns (output, (h_n, c_n))."""

    mode = "LSTM"


class GRU(_RNNBase):
    """Gated recurrent unit; returns (output, h_n)."""

    mode = "GRU"


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

    def extend_repr(self) -> str:
        return f"input_size={self.input_size}, hidden_size={self.hidden_size}, " \
               f"has_bias={self.has_bias}"


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
