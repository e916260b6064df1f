"""Each primitive's ONNX form: `CONVERT_MAP[name](builder, node, inputs) -> output name(s)`.

`inputs` are the ONNX names of the node's operands; the rule reads the node's static params
and the abstract values of its operands and results (shapes are static), and emits ONNX nodes
through the builder (`converter.ModelBuilder`). Each rule computes what the primitive's NumPy
kernel computes (runtime/kernels.py), in the result dtype of the node.
"""
from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from cellgraph.primitives.core import Slice

from .converter import ONNXExportError, tensor_type

CONVERT_MAP: dict[str, Callable] = {}


def converts(*names: str):
    def deco(fn):
        for name in names:
            CONVERT_MAP[name] = fn
        return fn
    return deco


def out_dtype(node, i: int = 0):
    return node.outputs[i].aval.dtype.np


def in_dtype(node, i: int):
    return node.inputs[i].aval.dtype.np


def as_dtype(b, node, inputs, dtype) -> list[str]:
    """The operands cast to `dtype` where theirs differs (weak scalars take the result's)."""
    return [b.cast(name, in_dtype(node, i), dtype) for i, name in enumerate(inputs)]


def reject(node, why: str):
    raise ONNXExportError(f"export(file_format='ONNX'): {node.callee.name} {why}",
                          primitive=node.callee.name)


# ----- elementwise ------------------------------------------------------------------------------

UNARY = {"abs": "Abs", "neg": "Neg", "exp": "Exp", "log": "Log", "sqrt": "Sqrt", "sin": "Sin",
         "cos": "Cos", "tan": "Tan", "asin": "Asin", "acos": "Acos", "atan": "Atan",
         "sinh": "Sinh", "cosh": "Cosh", "asinh": "Asinh", "acosh": "Acosh", "atanh": "Atanh",
         "tanh": "Tanh", "sigmoid": "Sigmoid", "relu": "Relu", "erf": "Erf", "floor": "Floor",
         "ceil": "Ceil", "sign": "Sign", "reciprocal": "Reciprocal", "softplus": "Softplus",
         "logical_not": "Not", "stop_gradient": "Identity"}

BINARY = {"add": "Add", "sub": "Sub", "mul": "Mul", "div": "Div", "pow": "Pow",
          "maximum": "Max", "minimum": "Min", "logical_and": "And", "logical_or": "Or"}

COMPARE = {"equal": "Equal", "greater": "Greater", "greater_equal": "GreaterOrEqual",
           "less": "Less", "less_equal": "LessOrEqual"}


def _unary(op_type):
    return lambda b, node, inputs: b.op(op_type, as_dtype(b, node, inputs, out_dtype(node)))


def _binary(op_type):
    def rule(b, node, inputs):
        dtype = out_dtype(node)
        if node.callee.name == "div" and dtype.kind in "iu":
            reject(node, "of integers (ONNX's Div truncates, cellgraph's floors)")
        return b.op(op_type, as_dtype(b, node, inputs, dtype))
    return rule


def _operand_dtype(node):
    """The dtype both sides of a comparison meet in: a strong operand's."""
    strong = [a.aval.dtype.np for a in node.inputs if not a.aval.weak]
    return strong[0] if strong else np.result_type(*[a.aval.dtype.np for a in node.inputs])


def _compare(op_type):
    def rule(b, node, inputs):
        return b.op(op_type, as_dtype(b, node, inputs, _operand_dtype(node)))
    return rule


for _name, _op in UNARY.items():
    CONVERT_MAP[_name] = _unary(_op)
for _name, _op in BINARY.items():
    CONVERT_MAP[_name] = _binary(_op)
for _name, _op in COMPARE.items():
    CONVERT_MAP[_name] = _compare(_op)


@converts("not_equal")
def _not_equal(b, node, inputs):
    return b.op("Not", [b.op("Equal", as_dtype(b, node, inputs, _operand_dtype(node)))])


def _float_rule(fn):
    """A rule written over float operands of the result dtype (`c(v)` makes a constant)."""
    def rule(b, node, inputs):
        dtype = out_dtype(node)
        return fn(b, lambda v: b.const(v, dtype), *as_dtype(b, node, inputs, dtype))
    return rule


CONVERT_MAP.update({
    "rsqrt": _float_rule(lambda b, c, x: b.op("Reciprocal", [b.op("Sqrt", [x])])),
    "square": _float_rule(lambda b, c, x: b.op("Mul", [x, x])),
    "expm1": _float_rule(lambda b, c, x: b.op("Sub", [b.op("Exp", [x]), c(1)])),
    "log1p": _float_rule(lambda b, c, x: b.op("Log", [b.op("Add", [x, c(1)])])),
    "log2": _float_rule(lambda b, c, x: b.op("Div", [b.op("Log", [x]), c(math.log(2))])),
    "log10": _float_rule(lambda b, c, x: b.op("Div", [b.op("Log", [x]), c(math.log(10))])),
    "erfc": _float_rule(lambda b, c, x: b.op("Sub", [c(1), b.op("Erf", [x])])),
    "trunc": _float_rule(lambda b, c, x: b.op("Where", [
        b.op("Less", [x, c(0)]), b.op("Ceil", [x]), b.op("Floor", [x])])),
})


def _normal_cdf(b, c, x):
    """0.5 * (1 + erf(x / sqrt(2))), as the kernel computes Phi."""
    scaled = b.op("Mul", [x, c(math.sqrt(0.5))])
    return b.op("Mul", [c(0.5), b.op("Add", [c(1), b.op("Erf", [scaled])])])


def _gelu_tanh(b, c, x):
    """0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))."""
    cube = b.op("Mul", [b.op("Mul", [x, x]), x])
    inner = b.op("Mul", [c(math.sqrt(2 / math.pi)), b.op("Add", [x, b.op("Mul", [c(0.044715),
                                                                                 cube])])])
    half_x = b.op("Mul", [c(0.5), x])
    return b.op("Mul", [half_x, b.op("Add", [c(1), b.op("Tanh", [inner])])])


CONVERT_MAP.update({
    "normal_cdf": _float_rule(_normal_cdf),
    "gelu": _float_rule(lambda b, c, x: b.op("Mul", [x, _normal_cdf(b, c, x)])),
    "gelu_tanh": _float_rule(_gelu_tanh),
})


@converts("round")
def _round(b, node, inputs):
    (x,) = as_dtype(b, node, inputs, out_dtype(node))
    decimals = node.params.get("decimals", 0)
    if decimals == 0:
        return b.op("Round", [x])  # half to even, as NumPy
    scale = b.const(10.0 ** decimals, out_dtype(node))
    return b.op("Div", [b.op("Round", [b.op("Mul", [x, scale])]), scale])


@converts("floor_div", "floor_mod")
def _floor_division(b, node, inputs):
    """Floats: floor(x / y) and x - floor(x / y) * y. Integers: ONNX's Mod (fmod=0) takes the
    divisor's sign, as Python's %; the quotient (x - x % y) / y is then exact. A zero integer
    divisor is left to the runtime (cellgraph's kernel gives MindSpore's values for it)."""
    dtype = out_dtype(node)
    x, y = as_dtype(b, node, inputs, dtype)
    if dtype.kind in "iu":
        rest = b.op("Mod", [x, y], fmod=0)
        if node.callee.name == "floor_mod":
            return rest
        return b.op("Div", [b.op("Sub", [x, rest]), y])
    if dtype.kind != "f":
        reject(node, f"of {dtype} operands")
    quotient = b.op("Floor", [b.op("Div", [x, y])])
    if node.callee.name == "floor_div":
        return quotient
    return b.op("Sub", [x, b.op("Mul", [quotient, y])])


@converts("select")
def _select(b, node, inputs):
    cond, x, y = inputs
    cond = b.cast(cond, in_dtype(node, 0), np.bool_)
    dtype = out_dtype(node)
    return b.op("Where", [cond, b.cast(x, in_dtype(node, 1), dtype),
                          b.cast(y, in_dtype(node, 2), dtype)])


@converts("clip_by_value")
def _clip(b, node, inputs):
    x, lo, hi = as_dtype(b, node, inputs, out_dtype(node))
    return b.op("Min", [b.op("Max", [x, lo]), hi])


@converts("cast")
def _cast(b, node, inputs):
    if in_dtype(node, 0) == out_dtype(node):
        return b.op("Identity", inputs)  # a node of its own: the output needs its own name
    return b.cast(inputs[0], in_dtype(node, 0), out_dtype(node))


@converts("matmul")
def _matmul(b, node, inputs):
    x, y = as_dtype(b, node, inputs, out_dtype(node))
    for flag, i in (("transpose_a", 0), ("transpose_b", 1)):
        if node.params.get(flag):
            rank = node.inputs[i].aval.ndim
            perm = list(range(rank - 2)) + [rank - 1, rank - 2]
            if i == 0:
                x = b.op("Transpose", [x], perm=perm)
            else:
                y = b.op("Transpose", [y], perm=perm)
    return b.op("MatMul", [x, y])


@converts("bias_add")
def _bias_add(b, node, inputs):
    x, bias = as_dtype(b, node, inputs, out_dtype(node))
    rank = node.inputs[0].aval.ndim
    axis = node.params.get("axis", 1) % rank
    shaped = b.op("Reshape", [bias, b.ints([-1] + [1] * (rank - 1 - axis))])
    return b.op("Add", [x, shaped])


# ----- reductions and the softmax family -------------------------------------------------------

REDUCE = {"reduce_sum": "ReduceSum", "reduce_mean": "ReduceMean", "reduce_max": "ReduceMax",
          "reduce_min": "ReduceMin", "reduce_prod": "ReduceProd"}


def reduce(b, op_type: str, x: str, axes, keepdims: bool) -> str:
    """`op_type` over `axes` (every axis when empty), in opset 17's spelling (ReduceSum takes
    its axes as an input, the others as an attribute)."""
    keep = int(bool(keepdims))
    if not axes:
        return b.op(op_type, [x], keepdims=keep)
    if op_type == "ReduceSum":
        return b.op(op_type, [x, b.ints(axes)], keepdims=keep)
    return b.op(op_type, [x], axes=list(axes), keepdims=keep)


def _reduction(op_type):
    def rule(b, node, inputs):
        (x,) = as_dtype(b, node, inputs, out_dtype(node))
        axis = node.params.get("axis", ())
        axes = [axis] if isinstance(axis, int) else list(axis)
        return reduce(b, op_type, x, axes, node.params.get("keep_dims", False))
    return rule


for _name, _op in REDUCE.items():
    CONVERT_MAP[_name] = _reduction(_op)


@converts("argmax", "argmin")
def _arg_extremum(b, node, inputs):
    op_type = "ArgMax" if node.callee.name == "argmax" else "ArgMin"
    found = b.op(op_type, inputs, axis=node.params["axis"],
                 keepdims=int(bool(node.params.get("keep_dims", False))))
    return b.cast(found, np.int64, out_dtype(node))  # the first of equals, as NumPy's


@converts("softmax", "log_softmax")
def _softmax(b, node, inputs):
    op_type = "Softmax" if node.callee.name == "softmax" else "LogSoftmax"
    return b.op(op_type, as_dtype(b, node, inputs, out_dtype(node)),
                axis=node.params.get("axis", -1))


@converts("softmax_cross_entropy")
def _softmax_cross_entropy(b, node, inputs):
    logits, labels = as_dtype(b, node, inputs, out_dtype(node))
    log_p = b.op("LogSoftmax", [logits], axis=-1)
    loss = b.op("Neg", [reduce(b, "ReduceSum", b.op("Mul", [labels, log_p]), [-1], False)])
    return loss, b.op("Sub", [b.op("Exp", [log_p]), labels])


@converts("cumsum")
def _cumsum(b, node, inputs):
    (x,) = as_dtype(b, node, inputs, out_dtype(node))
    return b.op("CumSum", [x, b.ints([node.params["axis"]])],
                exclusive=int(bool(node.params.get("exclusive", False))),
                reverse=int(bool(node.params.get("reverse", False))))


# ----- shapes and indexing ----------------------------------------------------------------------

@converts("reshape", "expand_dims", "squeeze")
def _reshape(b, node, inputs):
    shape = node.outputs[0].aval.shape
    return b.op("Reshape", [inputs[0], b.ints(shape)], allowzero=int(0 in shape))


@converts("broadcast_to")
def _broadcast_to(b, node, inputs):
    return b.op("Expand", [inputs[0], b.ints(node.outputs[0].aval.shape)])


@converts("transpose")
def _transpose(b, node, inputs):
    return b.op("Transpose", inputs, perm=list(node.params["perm"]))


@converts("concat")
def _concat(b, node, inputs):
    return b.op("Concat", as_dtype(b, node, inputs, out_dtype(node)),
                axis=node.params.get("axis", 0))


@converts("stack")
def _stack(b, node, inputs):
    axis = node.params.get("axis", 0) % node.outputs[0].aval.ndim
    parts = [b.op("Unsqueeze", [x, b.ints([axis])])
             for x in as_dtype(b, node, inputs, out_dtype(node))]
    return b.op("Concat", parts, axis=axis)


@converts("split")
def _split(b, node, inputs):
    sizes = node.params["sizes"]
    outs = b.op("Split", [inputs[0], b.ints(sizes)], n_out=len(sizes), axis=node.params["axis"])
    return [outs] if len(sizes) == 1 else outs


@converts("tile")
def _tile(b, node, inputs):
    multiples = list(node.params["multiples"])
    x, shape = inputs[0], node.inputs[0].aval.shape
    if len(multiples) > len(shape):  # NumPy's tile puts new axes in front
        x = b.op("Reshape", [x, b.ints((1,) * (len(multiples) - len(shape)) + shape)])
    return b.op("Tile", [x, b.ints(multiples)])


@converts("pad")
def _pad(b, node, inputs):
    paddings = node.params["paddings"]
    pads = [p[0] for p in paddings] + [p[1] for p in paddings]
    value = b.const(node.params.get("value", 0), out_dtype(node))
    return b.op("Pad", [inputs[0], b.ints(pads), value], mode="constant")


@converts("getitem")
def _getitem(b, node, inputs):
    """A static index: one Slice over the sliced and integer-indexed axes, then a Reshape to
    the result's shape (which drops the integer axes and adds the None ones)."""
    shape = node.inputs[0].aval.shape
    index = node.params["index"]
    consumed = sum(1 for i in index if i is not None and i is not Ellipsis)
    starts, ends, axes, steps = [], [], [], []
    dim = 0
    for item in index:
        if item is Ellipsis:
            dim += len(shape) - consumed
        elif item is None:
            continue
        elif isinstance(item, Slice):
            start, stop, step = item.to_slice().indices(shape[dim])
            if (start, stop, step) != (0, shape[dim], 1):
                if step < 0 and stop < 0:
                    stop = -shape[dim] - 1  # before the first element, in ONNX's reading
                starts, ends = starts + [start], ends + [stop]
                axes, steps = axes + [dim], steps + [step]
            dim += 1
        elif isinstance(item, (int, np.integer)) and not isinstance(item, bool):
            at = int(item) % shape[dim]
            starts, ends, axes, steps = starts + [at], ends + [at + 1], axes + [dim], steps + [1]
            dim += 1
        else:
            reject(node, f"with the index item {item!r}")
    x = inputs[0]
    if axes:
        x = b.op("Slice", [x, b.ints(starts), b.ints(ends), b.ints(axes), b.ints(steps)])
    return b.op("Reshape", [x, b.ints(node.outputs[0].aval.shape)],
                allowzero=int(0 in node.outputs[0].aval.shape))


@converts("gather")
def _gather(b, node, inputs):
    return b.op("Gather", inputs, axis=node.params.get("axis", 0))


@converts("gather_nd")
def _gather_nd(b, node, inputs):
    x, indices = inputs
    return b.op("GatherND", [x, b.cast(indices, in_dtype(node, 1), np.int64)])


@converts("take_along_axis")
def _take_along_axis(b, node, inputs):
    if node.inputs[0].aval.ndim != node.inputs[1].aval.ndim:
        reject(node, "with indices of another rank than the input")
    return b.op("GatherElements", inputs, axis=node.params["axis"])


@converts("one_hot")
def _one_hot(b, node, inputs):
    """Where(indices == positions, on, off), as the kernel (onnxruntime's OneHot serves only a
    few dtype combinations)."""
    indices, on_value, off_value = inputs
    rank = node.inputs[0].aval.ndim
    axis = node.params.get("axis", -1) % (rank + 1)
    depth = node.params["depth"]
    positions = np.arange(depth, dtype=in_dtype(node, 0)).reshape((-1,) + (1,) * (rank - axis))
    hit = b.op("Equal", [b.op("Unsqueeze", [indices, b.ints([axis])]), b.const(positions)])
    dtype = out_dtype(node)
    return b.op("Where", [hit, b.cast(on_value, in_dtype(node, 1), dtype),
                          b.cast(off_value, in_dtype(node, 2), dtype)])


@converts("sort", "topk")
def _sort(b, node, inputs):
    x_shape = node.inputs[0].aval.shape
    axis = node.params.get("axis", -1) % len(x_shape)
    if node.callee.name == "sort":
        k, largest, is_sorted = x_shape[axis], node.params.get("descending", False), True
    else:
        k, largest = node.params["k"], node.params.get("largest", True)
        is_sorted = node.params.get("sorted", True)
    values, indices = b.op("TopK", [inputs[0], b.ints([k])], n_out=2, axis=axis,
                           largest=int(bool(largest)), sorted=int(bool(is_sorted)))
    return values, b.cast(indices, np.int64, out_dtype(node, 1))


@converts("zeros_like", "ones_like", "fill")
def _constant_fill(b, node, inputs):
    aval = node.outputs[0].aval
    value = {"zeros_like": 0, "ones_like": 1}.get(node.callee.name)
    if value is None:
        value = node.params["value"]
    from onnx import helper

    filler = helper.make_tensor("value", tensor_type(aval.dtype.np), [1],
                                np.asarray([value], dtype=aval.dtype.np).tolist())
    return b.op("ConstantOfShape", [b.ints(aval.shape)], value=filler)


@converts("tensor_scatter_update", "tensor_scatter_add", "tensor_scatter_mul",
          "tensor_scatter_max", "tensor_scatter_min")
def _scatter_nd(b, node, inputs):
    reduction = {"tensor_scatter_update": "none", "tensor_scatter_add": "add",
                 "tensor_scatter_mul": "mul"}.get(node.callee.name)
    if reduction is None:
        reject(node, "needs opset 18's ScatterND max/min; cellgraph writes opset 17")
    x, indices, updates = inputs
    return b.op("ScatterND", [x, b.cast(indices, in_dtype(node, 1), np.int64), updates],
                reduction=reduction)


@converts("tensor_scatter_elements")
def _scatter_elements(b, node, inputs):
    reduction = node.params.get("reduction", "none")
    if reduction not in ("none", "add"):
        reject(node, f"with reduction={reduction!r}")
    x, indices, updates = inputs
    return b.op("ScatterElements", [x, b.cast(indices, in_dtype(node, 1), np.int64), updates],
                axis=node.params.get("axis", 0), reduction=reduction)



@converts("set_dims")
def _set_dims(b, node, inputs):
    """A value retyped for the compiler (a number known at run time): the value itself."""
    if None in tuple(node.outputs[0].aval.shape):
        reject(node, "leaves a size to run time, which ONNX models here do not hold")
    return b.op("Identity", inputs[:1])
