"""MindSpore's LSTM primitive (`ops.LSTM`) over its packed weight: a stacked, optionally
bidirectional LSTM with an optional projection of the hidden state, the weight one flat tensor
laid out as MindSpore's CPU kernel reads it.

The packed weight holds, each block row-major: every layer's and direction's input weight
(4 * hidden, layer input), gates in the order input, forget, cell, output (layer 0's input is
`input_size`, a later layer's the previous layer's output, projection size (or hidden size)
times the directions); then every recurrent weight (4 * hidden, projection or hidden size); then
every projection (projection size, hidden) when `proj_size` > 0; then one bias (4 * hidden) per
layer and direction. MindSpore's weight is sized for two biases; its CPU kernel adds only the
first, and so does this. (Its CPU kernel also describes every layer's input weight with
`input_size` columns, so a stacked bidirectional LSTM, whose later layers take twice the
hidden size, reads those weights misaligned there; this reads the layout above.)"""
from __future__ import annotations

import numpy as np

from cellgraph.compiler.builder import current_builder
from cellgraph.loops import scan_steps
from cellgraph.primitives import functional as F
from cellgraph.primitives.core import abstract_of
from cellgraph.primitives.errors import ArgumentValueError, ShapeError
from cellgraph.primitives.nn_functional import dropout, split, split_equal


def packed_lstm_sizes(input_size, hidden_size, num_layers, directions, proj_size):
    """[(name, layer, direction, shape)] of the packed weight's blocks, in order."""
    state = proj_size or hidden_size
    blocks = []
    for layer in range(num_layers):
        width = input_size if layer == 0 else state * directions
        blocks += [("w_ih", layer, d, (4 * hidden_size, width)) for d in range(directions)]
    for layer in range(num_layers):
        blocks += [("w_hh", layer, d, (4 * hidden_size, state)) for d in range(directions)]
    if proj_size:
        for layer in range(num_layers):
            blocks += [("w_hr", layer, d, (proj_size, hidden_size)) for d in range(directions)]
    return blocks


def _unpack(w, blocks, has_bias, hidden_size, num_layers, directions):
    flat = F.reshape(w, (-1,))
    total = abstract_of(flat).shape[0]
    needed = sum(int(np.prod(shape)) for *_, shape in blocks)
    needed_bias = 4 * hidden_size * num_layers * directions if has_bias else 0
    if total < needed + needed_bias:
        raise ShapeError(f"For 'LSTM', the weight must hold at least {needed + needed_bias} "
                         f"values for these sizes, but got {total}.")
    parts, start = {}, 0
    for name, layer, d, shape in blocks:
        size = int(np.prod(shape))
        parts[name, layer, d] = F.reshape(flat[start:start + size], shape)
        start += size
    for layer in range(num_layers):
        for d in range(directions):
            parts["b", layer, d] = flat[start:start + 4 * hidden_size] if has_bias else None
            start += 4 * hidden_size
    return parts


def _lstm_step(gates_in, h, c, w_hh, w_hr):
    """One time step from the step's input gates: (h, c)."""
    gates = F.add(gates_in, F.matmul(h, F.transpose(w_hh, (1, 0))))
    i, f, g, o = split_equal(gates, -1, 4)
    c = F.add(F.mul(F.sigmoid(f), c), F.mul(F.sigmoid(i), F.tanh(g)))
    h = F.mul(F.sigmoid(o), F.tanh(c))
    if w_hr is not None:
        h = F.matmul(h, F.transpose(w_hr, (1, 0)))
    return h, c


def _direction(xs, h, c, w_ih, w_hh, w_hr, bias, reverse: bool):
    """One layer's one direction over the time steps xs: (outputs (T, B, state), h, c). In a
    graph, one scan node over the steps (its size does not grow with T); eagerly, a loop."""
    gates_in = F.matmul(xs, F.transpose(w_ih, (1, 0)))
    if bias is not None:
        gates_in = F.add(gates_in, bias)
    if current_builder() is not None:
        def body(h_t, c_t, gates_t):
            h_new, c_new = _lstm_step(gates_t, h_t, c_t, w_hh, w_hr)
            return [h_new, c_new, h_new]

        h, c, outputs = scan_steps("lstm_step", body, [h, c], [gates_in], reverse)
        return outputs, h, c
    gates_in = [F.squeeze(piece, 0) for piece in split(gates_in, 1, 0)]
    steps = range(len(xs) - 1, -1, -1) if reverse else range(len(xs))
    outputs = [None] * len(xs)
    for t in steps:
        h, c = _lstm_step(gates_in[t], h, c, w_hh, w_hr)
        outputs[t] = h
    return F.stack(outputs, 0), h, c


def packed_lstm(x, h, c, w, input_size, hidden_size, num_layers, has_bias, bidirectional,
                dropout_p=0.0, proj_size=0, training=False):
    """(output (T, B, D * state), h_n (L * D, B, state), c_n (L * D, B, hidden)) of the LSTM
    of the packed weight `w` over x (T, B, input_size) from h (L * D, B, state) and c
    (L * D, B, hidden); `dropout_p` drops each layer's output but the last's when training."""
    directions = 2 if bidirectional else 1
    state = proj_size or hidden_size
    x_shape = tuple(abstract_of(x).shape)
    if len(x_shape) != 3 or x_shape[2] != input_size:
        raise ShapeError(f"For 'LSTM', 'x' must have shape (seq_len, batch, {input_size}), but got "
                         f"{x_shape}.")
    for name, t, size in (("h", h, state), ("c", c, hidden_size)):
        want = (num_layers * directions, x_shape[1], size)
        if tuple(abstract_of(t).shape) != want:
            raise ShapeError(f"For 'LSTM', '{name}' must have shape {want}, but got "
                             f"{tuple(abstract_of(t).shape)}.")
    if not 0.0 <= dropout_p <= 1.0:
        raise ArgumentValueError(f"For 'LSTM', 'dropout' must be in [0, 1], but got {dropout_p}.")
    parts = _unpack(w, packed_lstm_sizes(input_size, hidden_size, num_layers, directions,
                                         proj_size), has_bias, hidden_size, num_layers,
                    directions)
    layer_in, h_n, c_n = x, [], []
    for layer in range(num_layers):
        outs = []
        for d in range(directions):
            k = layer * directions + d
            out, h_last, c_last = _direction(layer_in, h[k], c[k], parts["w_ih", layer, d],
                                             parts["w_hh", layer, d],
                                             parts.get(("w_hr", layer, d)), parts["b", layer, d],
                                             d == 1)
            outs.append(out)
            h_n.append(h_last)
            c_n.append(c_last)
        layer_in = outs[0] if directions == 1 else F.concat(outs, 2)
        if dropout_p and training and layer < num_layers - 1:
            layer_in = dropout(layer_in, p=dropout_p)
    return layer_in, F.stack(h_n, 0), F.stack(c_n, 0)
