"""Each cellgraph primitive's MindIR form: `EXPORT_MAP[name](writer, node) -> value name(s)`.

A rule writes MindSpore 2.10's operation in the encoding MindSpore writes for it (checked by
tools/oracle/make_mindir_fixtures.py `check`: MindSpore runs what cellgraph exported): the
operations with an op definition as PRIMITIVE_FUNCTION nodes (operands, then the `__init__`
arguments as value nodes, enums as MindSpore's numbers), the older ones (Conv2D, MaxPool) as
PRIMITIVE nodes with attributes. A node parameter the operation cannot express is rejected.
"""
from __future__ import annotations

import numpy as np

from .mindir_export import NodeWriter, _reject, exports, out_dtype
from .mindir_graph import ENUM_CODES

NCHW = ENUM_CODES["data_format"]["nchw"]
NHWC = ENUM_CODES["data_format"]["nhwc"]
VALID = ENUM_CODES["pad_mode"]["valid"]


def _operands(w: NodeWriter, node) -> list[str]:
    """The node's operands; a constant takes the dtype of the tensor operands (MindSpore's
    scalars join a tensor's dtype)."""
    tensor_dtypes = [a.aval.dtype.np for a in node.inputs if not hasattr(a, "value")]
    dtype = tensor_dtypes[0] if tensor_dtypes else None
    return [w.name_of(a, dtype) for a in node.inputs]


def _plain(op_type: str):
    def rule(w, node):
        if node.params:
            _reject(node, f"with parameters {node.params} has no MindSpore {op_type} form")
        return w.writer.call(op_type, _operands(w, node))
    return rule


UNARY = {"neg": "Neg", "exp": "Exp", "log": "Log", "sqrt": "Sqrt", "rsqrt": "Rsqrt",
         "tanh": "Tanh", "sigmoid": "Sigmoid", "relu": "ReLU", "abs": "Abs", "square": "Square",
         "sin": "Sin", "cos": "Cos", "floor": "Floor", "ceil": "Ceil",
         "reciprocal": "Reciprocal", "erf": "Erf", "sign": "Sign", "logical_not": "LogicalNot"}
BINARY = {"add": "Add", "sub": "Sub", "mul": "Mul", "div": "Div", "maximum": "Maximum",
          "minimum": "Minimum", "pow": "Pow", "equal": "Equal", "not_equal": "NotEqual",
          "less": "Less", "less_equal": "LessEqual", "greater": "Greater",
          "greater_equal": "GreaterEqual", "logical_and": "LogicalAnd",
          "logical_or": "LogicalOr"}
for _name, _op in {**UNARY, **BINARY}.items():
    exports(_name)(_plain(_op))


@exports("reshape", "squeeze", "expand_dims")
def _reshape(w, node):
    return w.writer.call("Reshape", [w.name_of(node.inputs[0])],
                         tuple(node.outputs[0].aval.shape))


@exports("transpose")
def _transpose(w, node):
    return w.writer.call("Transpose", [w.name_of(node.inputs[0])],
                         tuple(int(p) for p in node.params["perm"]))


@exports("matmul")
def _matmul(w, node):
    unknown = set(node.params) - {"transpose_a", "transpose_b"}
    if unknown:
        _reject(node, f"with parameters {sorted(unknown)} has no MindSpore MatMul form")
    x, y = node.inputs
    ta, tb = bool(node.params.get("transpose_a", False)), bool(node.params.get("transpose_b",
                                                                               False))
    if x.aval.ndim < 2 or y.aval.ndim < 2:
        _reject(node, "of a vector has no MindSpore MatMul form")
    operands = _operands(w, node)
    if x.aval.ndim == y.aval.ndim:
        op = "MatMul" if x.aval.ndim == 2 else "BatchMatMul"
        return w.writer.call(op, operands, ta, tb)
    if y.aval.ndim == 2 and not ta:
        # (..., M, K) @ (K, N): one MatMul over the rows, shaped back
        flat = w.writer.call("Reshape", [operands[0]], (-1, x.aval.shape[-1]))
        product = w.writer.call("MatMul", [flat, operands[1]], False, tb)
        return w.writer.call("Reshape", [product], tuple(node.outputs[0].aval.shape))
    _reject(node, f"of ranks {x.aval.ndim} and {y.aval.ndim} has no MindSpore MatMul form here")


@exports("bias_add")
def _bias_add(w, node):
    rank = node.inputs[0].aval.ndim
    axis = node.params.get("axis", 1) % rank
    if axis == 1:
        data_format = NCHW
    elif axis == rank - 1 and rank == 4:
        data_format = NHWC
    else:
        _reject(node, f"on axis {axis} of a rank-{rank} tensor has no MindSpore BiasAdd form")
    return w.writer.call("BiasAdd", _operands(w, node), data_format)


@exports("softmax")
def _softmax(w, node):
    axis = node.params.get("axis", -1)
    return w.writer.call("Softmax", _operands(w, node),
                         tuple(axis) if isinstance(axis, tuple) else (axis,))


@exports("log_softmax")
def _log_softmax(w, node):
    return w.writer.call("LogSoftmax", _operands(w, node), node.params.get("axis", -1))


def _axes(node) -> tuple:
    axis = node.params.get("axis", ())
    return (axis,) if isinstance(axis, int) else tuple(axis)


@exports("reduce_sum")
def _reduce_sum(w, node):
    return w.writer.call("ReduceSum", _operands(w, node), _axes(node),
                         bool(node.params.get("keep_dims", False)), False)


def _reduction(op_type: str):
    def rule(w, node):
        return w.writer.call(op_type, _operands(w, node), _axes(node),
                             bool(node.params.get("keep_dims", False)))
    return rule


for _name, _op in {"reduce_mean": "ReduceMean", "reduce_max": "ReduceMax",
                   "reduce_min": "ReduceMin", "reduce_prod": "ReduceProd"}.items():
    exports(_name)(_reduction(_op))


@exports("concat")
def _concat(w, node):
    parts = w.writer.call("MakeTuple", _operands(w, node), attrs={})
    return w.writer.call("Concat", [parts], node.params.get("axis", 0))


@exports("conv2d")
def _conv2d(w, node):
    unknown = set(node.params) - {"stride", "pad", "dilation", "group"}
    if unknown:
        _reject(node, f"with parameters {sorted(unknown)} has no MindSpore Conv2D form here")
    weight = node.inputs[1].aval.shape
    stride, dilation = node.params["stride"], node.params["dilation"]
    pad = tuple(int(p) for p in node.params["pad"])
    attrs = {"kernel_size": tuple(weight[2:]), "mode": 1, "out_channel": int(weight[0]),
             "input_names": ["x", "w"], "pad": pad, "pad_mode": "pad", "format": "NCHW",
             "pad_list": pad, "groups": int(node.params["group"]),
             "stride": (1, 1, *stride), "group": int(node.params["group"]),
             "dilation": (1, 1, *dilation), "output_names": ["output"]}
    return w.writer.call("Conv2D", _operands(w, node), attrs=attrs)


def _pad_mode(node) -> str:
    """"VALID" for no padding, "SAME" where the padding is MindSpore's same padding."""
    pad = tuple(node.params["pad"])
    if not any(pad):
        return "VALID"
    size, kernel, stride = node.inputs[0].aval.shape[2:], node.params["kernel"], \
        node.params["stride"]
    same = []
    for n, k, s in zip(size, kernel, stride):
        total = max((-(-n // s) - 1) * s + k - n, 0)
        same += [total // 2, total - total // 2]
    if pad != (same[0], same[1], same[2], same[3]):
        _reject(node, f"with the explicit padding {pad} has no MindSpore pooling form (its "
                      f"pad_mode is 'valid' or 'same')")
    return "SAME"


@exports("max_pool2d")
def _max_pool2d(w, node):
    unknown = set(node.params) - {"kernel", "stride", "pad"}
    if unknown:
        _reject(node, f"with parameters {sorted(unknown)} has no MindSpore MaxPool form here")
    attrs = {"pad_mode": _pad_mode(node), "output_names": ["output"],
             "kernel_size": (1, 1, *node.params["kernel"]), "format": "NCHW",
             "strides": (1, 1, *node.params["stride"]), "input_names": ["x"]}
    return w.writer.call("MaxPool", _operands(w, node), attrs=attrs)


@exports("avg_pool2d")
def _avg_pool2d(w, node):
    """AvgPool, whose 'same' padding MindSpore leaves out of the average (count_include_pad
    False), as cellgraph's nn.AvgPool2d(pad_mode='same') does."""
    unknown = set(node.params) - {"kernel", "stride", "pad", "count_include_pad"}
    mode = _pad_mode(node)
    if unknown or (mode == "SAME" and node.params.get("count_include_pad", False)):
        _reject(node, "with padding counted in the average has no MindSpore AvgPool form here")
    return w.writer.call("AvgPool", _operands(w, node), tuple(node.params["kernel"]),
                         tuple(node.params["stride"]),
                         ENUM_CODES["pad_mode"][mode.lower()], NCHW)


@exports("batch_norm")
def _batch_norm(w, node):
    if node.params.get("is_training", False):
        _reject(node, "in training mode is not exported (export compiles inference)")
    out = w.writer.call("BatchNorm", _operands(w, node), False,
                        float(node.params.get("epsilon", 1e-5)), 0.1, NCHW)
    return [w.writer.item(out, i) for i in range(len(node.outputs))]


__all__ = ["BINARY", "UNARY"]


@exports("cast")
def _cast(w, node):
    from .mindir_graph import TYPE_ID_CODES

    dtype_name = np.dtype(out_dtype(node)).name
    code = TYPE_ID_CODES.get("bool_" if dtype_name == "bool" else dtype_name)
    if code is None:
        _reject(node, f"to {dtype_name} has no MindSpore type id here")
    return w.writer.call("Cast", [w.name_of(node.inputs[0])], code)


@exports("getitem")
def _getitem(w, node):
    """Basic indexing (ints, slices, one Ellipsis) as MindSpore's StridedSlice with masks."""
    from cellgraph.primitives.core import Slice

    index = node.params["index"]
    shape = node.inputs[0].aval.shape
    if sum(part is Ellipsis for part in index) > 1 or not all(
            part is Ellipsis or isinstance(part, Slice | int) for part in index):
        _reject(node, f"with the index {index} has no MindSpore StridedSlice form here")
    if Ellipsis in index:
        at = index.index(Ellipsis)
        index = index[:at] + (Slice(None, None, None),) * (len(shape) - len(index) + 1) \
            + index[at + 1:]
    begin, end, strides, masks = [], [], [], {"begin": 0, "end": 0, "shrink": 0}
    for axis, part in enumerate(index):
        if isinstance(part, int):
            start = part + shape[axis] if part < 0 else part
            begin, end, strides = begin + [start], end + [start + 1], strides + [1]
            masks["shrink"] |= 1 << axis
            continue
        begin.append(0 if part.start is None else part.start)
        end.append(0 if part.stop is None else part.stop)
        strides.append(1 if part.step is None else part.step)
        masks["begin"] |= (part.start is None) << axis
        masks["end"] |= (part.stop is None) << axis
    return w.writer.call("StridedSlice", [w.name_of(node.inputs[0])], tuple(begin), tuple(end),
                         tuple(strides), masks["begin"], masks["end"], 0, 0, masks["shrink"])


@exports("gather")
def _gather(w, node):
    if set(node.params) - {"axis"}:
        _reject(node, f"with parameters {node.params} has no MindSpore Gather form here")
    x, indices = node.inputs
    return w.writer.call("Gather", [w.name_of(x), w.name_of(indices)],
                         int(node.params.get("axis", 0)), 0)


@exports("layer_norm")
def _layer_norm(w, node):
    out = w.writer.call("LayerNorm", _operands(w, node), int(node.params["begin_norm_axis"]),
                        int(node.params["begin_params_axis"]), float(node.params["epsilon"]))
    return [w.writer.item(out, i) for i in range(len(node.outputs))]


@exports("gelu_tanh")
def _gelu_tanh(w, node):
    return w.writer.call("GeLU", _operands(w, node))  # MindSpore's GeLU is the tanh form


@exports("select")
def _select(w, node):
    cond, *values = node.inputs
    dtype = out_dtype(node)
    return w.writer.call("Select", [w.name_of(cond)] + [w.name_of(v, dtype) for v in values])


@exports("stack")
def _stack(w, node):
    parts = w.writer.call("MakeTuple", _operands(w, node), attrs={})
    count = len(node.inputs)
    return w.writer.call("Stack", [parts], attrs={"num": count, "axis": node.params["axis"],
                                                  "N": count})


@exports("split")
def _split(w, node):
    """Each piece as a StridedSlice along the axis."""
    shape = node.inputs[0].aval.shape
    axis = node.params["axis"] % len(shape)
    source, start, outs = w.name_of(node.inputs[0]), 0, []
    for out in node.outputs:
        size = out.aval.shape[axis]
        begin = tuple(start if i == axis else 0 for i in range(len(shape)))
        end = tuple(start + size if i == axis else n for i, n in enumerate(shape))
        outs.append(w.writer.call("StridedSlice", [source], begin, end, (1,) * len(shape),
                                  0, 0, 0, 0, 0))
        start += size
    return outs


@exports("argmax")
def _argmax(w, node):
    from .mindir_graph import TYPE_ID_CODES

    if node.params.get("keep_dims"):
        _reject(node, "with keep_dims has no MindSpore Argmax form here")
    code = TYPE_ID_CODES.get(np.dtype(out_dtype(node)).name)
    return w.writer.call("Argmax", _operands(w, node), int(node.params["axis"]), code)


@exports("clip_by_value")
def _clip_by_value(w, node):
    x, low, high = node.inputs
    if not all(hasattr(bound, "value") for bound in (low, high)):
        _reject(node, "with Tensor bounds has no MindSpore ClampScalar form here")
    bounds = [np.asarray(getattr(b.value, "asnumpy", lambda v=b.value: v)()).item()
              for b in (low, high)]
    return w.writer.call("ClampScalar", [w.name_of(x)], *bounds)


@exports("cumsum")
def _cumsum(w, node):
    return w.writer.call("CumSum", _operands(w, node), int(node.params["axis"]),
                         bool(node.params.get("exclusive", False)),
                         bool(node.params.get("reverse", False)))


@exports("set_dims")
def _set_dims(w, node):
    """A value retyped for the compiler (a number known at run time): the value itself."""
    if None in tuple(node.outputs[0].aval.shape):
        _reject(node, "leaves a size to run time, which cellgraph does not write into MindIR")
    return w.name_of(node.inputs[0])
