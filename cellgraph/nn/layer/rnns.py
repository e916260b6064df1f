"""Recurrent layers RNN, LSTM and GRU over a sequence, built on the step functions of
rnn_cells.

Parameters carry MindSpore's names, so checkpoints line up: `weight_ih_l{k}[_reverse]`,
`weight_hh_l{k}[_reverse]`, `bias_ih_l{k}[_reverse]`, `bias_hh_l{k}[_reverse]` (all input
weights first, then the hidden weights, then the biases).

Inside a graph the time loop is one `scan` node over the steps' inputs, so a graph's size and
its compile time do not grow with the sequence length (its gradient is a scan back over the
steps); run eagerly, it is a Python loop over the steps. `seq_length` (one length
per batch element) freezes each element's state after its last step and zeroes its later
outputs; the reverse direction runs from the last step down and starts each element at its own
last step.
"""
from __future__ import annotations

import math

import cellgraph.ops as F
from cellgraph.compiler.builder import current_builder
from cellgraph.loops import scan_steps
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.runtime.tensor import Parameter, ParameterTuple

from ..cell import Cell
from ._checks import positive_int
from .basic import Dropout
from .rnn_cells import _MODES, _check_bool, _is_lstm_state, _linear, _uniform

__all__ = ["GRU", "LSTM", "RNN"]


def _select_state(mask, new, old):
    """`new` where mask (B, 1; 1.0 or 0.0) is set, else `old`."""
    if isinstance(new, tuple):
        return tuple(_select_state(mask, n, o) for n, o in zip(new, old))
    return old + mask * (new - old)


def _output_of(state):
    return state[0] if isinstance(state, tuple) else state


class _DynamicRNN(Cell):
    """One direction of one recurrent layer over the time axis: MindSpore's `rnn` child of
    RNN/LSTM/GRU (holding no Parameters; the layer passes its weights in)."""

    mode = "RNN_TANH"

    def construct(self, x, h_0, w_ih, w_hh, b_ih=None, b_hh=None, masks=None, reverse=False):
        """x (T, B, input) -> (outputs (T, B, H), final state); `masks` (T, B, 1) freeze each
        batch element after its last step (None: every step counts)."""
        step = _MODES[self.mode][1]
        if current_builder() is not None:
            return _time_scan(step, _linear(x, w_ih, b_ih), h_0, w_hh, b_hh, masks, reverse)
        # the steps' inputs as the pieces of one split, whose gradient joins the steps'
        # gradients: indexing xw[t] would give each step a gradient the size of the whole
        # sequence, T times xw's memory over a backward pass
        xw = [F.squeeze(piece, 0) for piece in F.split(_linear(x, w_ih, b_ih), 1, 0)]
        steps = range(len(xw) - 1, -1, -1) if reverse else range(len(xw))
        outputs = [None] * len(xw)
        state = h_0
        for t in steps:
            outputs[t], state = _time_step(step, xw[t], state, w_hh, b_hh,
                                           None if masks is None else masks[t])
        return F.stack(outputs, 0), state


def _time_step(step, xw_t, state, w_hh, b_hh, mask_t):
    """One step: (output, new state); a mask row of 0 keeps that element's state."""
    new = step(xw_t, state, w_hh, b_hh)
    if mask_t is None:
        return _output_of(new), new
    new = _select_state(mask_t, new, state)
    return _output_of(new) * mask_t, new


def _time_scan(step, xw, h_0, w_hh, b_hh, masks, reverse: bool):
    """The time loop over xw (T, B, gates) as one scan node carrying the state: the step's
    graph is built once, whatever T is. Returns (outputs (T, B, H), final state)."""
    lstm = isinstance(h_0, tuple)
    carry = list(h_0) if lstm else [h_0]
    n = len(carry)

    def body(*values):
        state = tuple(values[:n]) if lstm else values[0]
        mask_t = values[n + 1] if masks is not None else None
        out, new = _time_step(step, values[n], state, w_hh, b_hh, mask_t)
        return (list(new) if lstm else [new]) + [out]

    outs = scan_steps("rnn_step", body, carry, [xw] if masks is None else [xw, masks], reverse)
    return outs[n], (tuple(outs[:n]) if lstm else outs[0])


class _DynamicRNNTanh(_DynamicRNN):
    mode = "RNN_TANH"


class _DynamicRNNRelu(_DynamicRNN):
    mode = "RNN_RELU"


class _DynamicLSTMCPUGPU(_DynamicRNN):
    mode = "LSTM"


class _DynamicGRUCPUGPU(_DynamicRNN):
    mode = "GRU"


_DYNAMIC_RNNS = {cls.mode: cls for cls in (_DynamicRNNTanh, _DynamicRNNRelu, _DynamicLSTMCPUGPU,
                                           _DynamicGRUCPUGPU)}


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
        self.rnn = _DYNAMIC_RNNS[self.mode]()
        self.dropout = float(dropout)
        self.dropout_op = Dropout(p=self.dropout)
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

    def _names(self, kind: str) -> list:
        return [f"{kind}_l{layer}{'_reverse' if d else ''}" for layer in range(self.num_layers)
                for d in range(self.num_directions)]

    def _list(self, kind: str) -> ParameterTuple:
        if kind.startswith("bias") and not self.has_bias:
            return ParameterTuple(())
        return ParameterTuple(getattr(self, name) for name in self._names(kind))

    def _set_list(self, kind: str, params) -> None:
        """Replace the Parameters of `kind` (one a layer and direction, in that order), as a
        program assigning MindSpore's `w_ih_list` and its kin does."""
        params = tuple(params)
        names = [] if kind.startswith("bias") and not self.has_bias else self._names(kind)
        if len(params) != len(names):
            raise ArgumentValueError(f"{type(self).__name__}: expected {len(names)} Parameters "
                                     f"for the {kind} list, got {len(params)}")
        for name, param in zip(names, params):
            setattr(self, name, param)

    w_ih_list = property(lambda self: self._list("weight_ih"),
                         lambda self, params: self._set_list("weight_ih", params))
    w_hh_list = property(lambda self: self._list("weight_hh"),
                         lambda self, params: self._set_list("weight_hh", params))
    b_ih_list = property(lambda self: self._list("bias_ih"),
                         lambda self, params: self._set_list("bias_ih", params))
    b_hh_list = property(lambda self: self._list("bias_hh"),
                         lambda self, params: self._set_list("bias_hh", params))

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
        positions = F.reshape(F.arange(steps, dtype=seq_length.dtype), (steps, 1))
        return F.expand_dims(F.cast(F.greater(F.expand_dims(seq_length, 0), positions), dtype),
                             2)

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
        w_ih, w_hh, b_ih, b_hh = self.w_ih_list, self.w_hh_list, self.b_ih_list, self.b_hh_list
        finals, layer_in = [], x
        for layer in range(self.num_layers):
            outs = []
            for d in range(self.num_directions):
                k = layer * self.num_directions + d
                init = tuple(s[k] for s in state) if isinstance(state, tuple) else state[k]
                out, final = self.rnn(layer_in, init, w_ih[k], w_hh[k],
                                      b_ih[k] if self.has_bias else None,
                                      b_hh[k] if self.has_bias else None, masks, d == 1)
                outs.append(out)
                finals.append(final)
            layer_in = outs[0] if len(outs) == 1 else F.concat(outs, 2)
            if self.dropout > 0 and layer < self.num_layers - 1:
                layer_in = self.dropout_op(layer_in)
        output = F.transpose(layer_in, (1, 0, 2)) if self.batch_first else layer_in
        if isinstance(state, tuple):
            return output, (F.stack([f[0] for f in finals], 0),
                            F.stack([f[1] for f in finals], 0))
        return output, F.stack(finals, 0)


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
