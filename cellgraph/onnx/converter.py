"""An optimised cellgraph graph as an ONNX model.

The graph that `compile_callable` gives (parse, inline, unroll, optimise; Cells in inference
mode) is walked once, node by node; each primitive's rule in `convert_map.CONVERT_MAP` emits the
ONNX nodes that compute it. The graph's inputs become the model's inputs, its weights
(Parameters) and constants become initializers, its flat outputs the model's outputs:

    %1 = conv2d(%x, %conv1_weight) {stride=(1, 1), pad=(0, 0, 0, 0), ...}
    %2 = relu(%1)                          ->   Conv(x, conv1.weight) -> v1; Relu(v1) -> v2
    %3 = reshape(%2) {shape=(2, 400)}      ->   Reshape(v2, [2, 400]) -> v3

Shapes are static (the graph is specialised to the example inputs), so shape parameters
become constant inputs. A primitive without a rule, or a graph with control flow the walk
does not lower, raises `ONNXExportError` naming the primitive and the user's source line.
"""
from __future__ import annotations

import numpy as np

from cellgraph.compiler.ir import Constant, Graph
from cellgraph.primitives.errors import UnsupportedError

OPSET = 17


class ONNXExportError(UnsupportedError):
    """An operation of the network that has no ONNX form here (MindSpore raises RuntimeError
    for it: NotImplementedError is one)."""

    def __init__(self, message, loc=None, primitive: str | None = None):
        self.primitive = primitive
        super().__init__(message, loc)


def tensor_type(dtype) -> int:
    """The ONNX element type of a NumPy dtype."""
    from onnx import helper

    try:
        return helper.np_dtype_to_tensor_dtype(np.dtype(dtype))
    except (KeyError, TypeError, ValueError):
        raise ONNXExportError(f"export(file_format='ONNX'): no ONNX element type for the "
                              f"dtype {dtype}") from None


class ModelBuilder:
    """The nodes of one ONNX graph, with fresh value names. A branch or loop body is a child
    builder: its own nodes, the model's initializers and names (a subgraph reads the outer
    graph's values, constants included, by name)."""

    def __init__(self, parent: ModelBuilder | None = None):
        self.nodes: list = []
        self.initializers: list = [] if parent is None else parent.initializers
        # (dtype, shape, bytes) -> name: equal constants share one initializer
        self._constants: dict = {} if parent is None else parent._constants
        self._counter: list = [0] if parent is None else parent._counter
        # the model's input, weight and output names, which no made-up name may take
        self.reserved: set = set() if parent is None else parent.reserved

    def child(self) -> ModelBuilder:
        return ModelBuilder(self)

    def fresh(self, hint: str = "v") -> str:
        while True:
            self._counter[0] += 1
            name = f"{hint}_{self._counter[0]}"
            if name not in self.reserved:
                return name

    def op(self, op_type: str, inputs: list, n_out: int = 1, **attrs):
        """Emit `op_type(*inputs)`; its output name, or a list of `n_out` names."""
        from onnx import helper

        outputs = [self.fresh(op_type.lower()) for _ in range(n_out)]
        self.nodes.append(helper.make_node(op_type, list(inputs), outputs,
                                           name=self.fresh(op_type), **attrs))
        return outputs[0] if n_out == 1 else outputs

    def const(self, value, dtype=None) -> str:
        """An initializer holding `value` (as `dtype` when given)."""
        from onnx import numpy_helper

        array = np.ascontiguousarray(np.asarray(value, dtype=dtype))
        key = (array.dtype.str, array.shape, array.tobytes())
        if key not in self._constants:
            name = self.fresh("const")
            self.initializers.append(numpy_helper.from_array(array, name))
            self._constants[key] = name
        return self._constants[key]

    def ints(self, values) -> str:
        """An int64 vector initializer (shapes, axes, pads, indices of Slice)."""
        return self.const(np.asarray(list(values), dtype=np.int64).reshape(-1))

    def cast(self, name: str, from_dtype, to_dtype) -> str:
        if np.dtype(from_dtype) == np.dtype(to_dtype):
            return name
        return self.op("Cast", [name], to=tensor_type(to_dtype))


class GraphConverter:
    """Lowers one graph's nodes into a ModelBuilder; `values` maps IR values to ONNX names."""

    def __init__(self, builder: ModelBuilder):
        self.builder = builder
        self.values: dict[int, str] = {}

    def name_of(self, atom) -> str:
        if isinstance(atom, Constant):
            return self.builder.const(atom.value, atom.aval.dtype.np)
        return self.values[id(atom)]

    def run(self, graph: Graph) -> None:
        from . import control_flow, nn_convert_map  # noqa: F401  their rules join the table
        from .convert_map import CONVERT_MAP

        for node in graph.nodes:
            rule = CONVERT_MAP.get(node.callee.name)
            if rule is None:
                raise ONNXExportError(
                    f"export(file_format='ONNX'): the operation {node.callee.name} "
                    f"({node.callee.label}) has no ONNX form", node.loc, node.callee.name)
            try:
                outs = rule(self.builder, node, [self.name_of(a) for a in node.inputs])
            except ONNXExportError as e:
                raise e.with_loc(node.loc) from None
            outs = [outs] if isinstance(outs, str) else list(outs)
            assert len(outs) == len(node.outputs), node.callee.name
            for var, name in zip(node.outputs, outs):
                self.values[id(var)] = name


def inline_graph(builder: ModelBuilder, graph: Graph, inputs: list[str]) -> list[str]:
    """`graph`'s nodes emitted into `builder` with its parameters bound to `inputs`; the
    names of its outputs."""
    converter = GraphConverter(builder)
    for param, name in zip(graph.params, inputs):
        converter.values[id(param)] = name
    converter.run(graph)
    return [converter.name_of(o) for o in graph.outputs]


def build_model(graph: Graph, weights: list, input_names: list, output_names: list,
                export_params: bool, keep_initializers_as_inputs: bool, producer: str):
    """The onnx.ModelProto of `graph`; `weights[i]` is the array of the i-th graph weight,
    named by its Parameter's name."""
    import onnx
    from onnx import helper, numpy_helper

    builder = ModelBuilder()
    builder.reserved.update(input_names, output_names, (name for name, _ in weights))
    converter = GraphConverter(builder)
    inputs, weight_inputs = [], []
    n_inputs = graph.n_inputs
    for i, param in enumerate(graph.params):
        if i < n_inputs:
            name = input_names[i]
        else:
            name = weights[i - n_inputs][0]
        converter.values[id(param)] = name
        info = helper.make_tensor_value_info(name, tensor_type(param.aval.dtype.np),
                                             list(param.aval.shape))
        if i < n_inputs:
            inputs.append(info)
        else:
            weight_inputs.append(info)
    converter.run(graph)
    weight_inits = []
    for (name, array), param in zip(weights, graph.params[n_inputs:]):
        weight_inits.append(numpy_helper.from_array(
            np.ascontiguousarray(np.asarray(array, dtype=param.aval.dtype.np)), name))
    outputs = []
    for atom, name in zip(graph.outputs, output_names):
        source = converter.name_of(atom)
        builder.nodes.append(helper.make_node("Identity", [source], [name], name=f"out_{name}"))
        outputs.append(helper.make_tensor_value_info(name, tensor_type(atom.aval.dtype.np),
                                                     list(atom.aval.shape)))
    if not export_params:
        initializers, graph_inputs = builder.initializers, inputs + weight_inputs
    elif keep_initializers_as_inputs:
        initializers, graph_inputs = weight_inits + builder.initializers, inputs + weight_inputs
    else:
        initializers, graph_inputs = weight_inits + builder.initializers, inputs
    onnx_graph = helper.make_graph(builder.nodes, graph.name, graph_inputs, outputs,
                                   initializer=initializers)
    model = helper.make_model(onnx_graph, producer_name=producer,
                              opset_imports=[helper.make_opsetid("", OPSET)])
    model.ir_version = min(model.ir_version, 8)  # what opset 17's runtimes read
    onnx.checker.check_model(model)
    return model
