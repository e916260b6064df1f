"""A network as a MindIR file MindSpore's `load` + `nn.GraphCell` runs: `export(...,
file_format='MINDIR')`.

The graph `compile_callable` gives (Cells in inference mode, specialised to the example
inputs, optimised) is walked once; each cellgraph primitive's rule in `EXPORT_MAP` writes the
MindSpore operation that computes it, in the encoding MindSpore 2.10 itself writes for that
operation (mind_ir_version 3):

    %1 = conv2d(%x, %w) {stride=(1, 1), pad=(1, 1, 1, 1), ...}
        ->  REF::Conv2D:1 (x, w)          PRIMITIVE, attributes pad_mode="pad", pad=(1, 1, 1, 1)
    %2 = reduce_mean(%1) {axis=(2, 3), keep_dims=True}
        ->  REF::ReduceMean:2 (v1, (2, 3), True)   PRIMITIVE_FUNCTION, arguments as inputs

The graph's inputs become graph inputs, its weights `graph.parameter` entries (named by their
Parameter, which `load` gives back), several outputs a MakeTuple; `print` is MindSpore's Print
ordered by its IO monad. Tensor `if` and `while` become MindSpore's control flow
(mindir_control_flow.py). Shapes are the example inputs' (static). A primitive without a rule,
Parameters the network assigns are read through Load nodes and written by Assign at the end,
ordered by MindSpore's UMonad. A primitive without a rule or a parameter of one that MindSpore's
operation cannot express raises UnsupportedError naming it: no file is written then.
"""
from __future__ import annotations

import numpy as np

from cellgraph.compiler.ir import Constant
from cellgraph.primitives.errors import UnsupportedError

from . import mindir_proto as proto

MIND_IR_VERSION = 3  # IR_VERSION_WITH_SCALAR_GRAPH_HOLDER, what MindSpore 2.10 writes
PROTOBUF_LIMIT = 2 ** 31 - 1
EXPORT_MAP: dict = {}


class MindIRExportError(UnsupportedError):
    """An operation of the network that has no MindIR form here."""


def exports(*names: str):
    def deco(rule):
        for name in names:
            EXPORT_MAP[name] = rule
        return rule
    return deco


def attribute(value, name: str | None = None) -> dict:
    """The AttributeProto of a Python value, as MindSpore writes value nodes and attributes."""
    A = proto.ATTR
    out = {} if name is None else {"name": name}
    if value is None:
        return {**out, "type": A["NONE"]}
    if isinstance(value, bool | np.bool_):
        return {**out, "type": A["BOOL"], "i": int(value)}
    if isinstance(value, int | np.integer):
        return {**out, "type": A["INT64"], "i": int(value)}
    if isinstance(value, float | np.floating):
        return {**out, "type": A["FLOAT"], "f": float(value)}
    if isinstance(value, str):
        return {**out, "type": A["STRING"], "s": value.encode("utf-8")}
    if isinstance(value, tuple | list):
        return {**out, "type": A["TUPLE" if isinstance(value, tuple) else "LIST"],
                "values": [_element(item) for item in value]}
    if isinstance(value, np.ndarray):
        return {**out, "type": A["TENSORS"], "tensors": [proto.tensor_proto(value, name="value0")]}
    raise MindIRExportError(f"export(file_format='MINDIR'): no MindIR value for {value!r}")


def _element(value) -> dict:
    """A tuple element: MindSpore writes scalars in the repeated fields (`ints: [3]`)."""
    single = attribute(value)
    for one, many in (("i", "ints"), ("f", "floats"), ("s", "strings")):
        if one in single:
            single[many] = [single.pop(one)]
    return single


class GraphWriter:
    """The nodes of one MindIR graph, with fresh value names; the model's primitives and
    function graphs are shared by the writers of all its graphs."""

    def __init__(self, name: str, shared: dict | None = None):
        self.name = name
        self.nodes: list = []
        self.inputs: list = []
        self.shared = shared if shared is not None else {"primitives": [], "functions": [],
                                                         "graphs": [0]}
        self.primitives = self.shared["primitives"]
        self.io = None  # the last UpdateState of the graph's printing, if it prints
        self.memory = None  # the last UpdateState of its Parameter reads and writes, if any
        self._count = 0

    def fresh(self, hint: str = "v") -> str:
        self._count += 1
        return f"{self.name}:{hint}_{self._count}"

    def const(self, value) -> str:
        name = self.fresh("value")
        self.nodes.append({"output": [name], "name": name, "op_type": "Constant",
                           "attribute": [value if isinstance(value, dict)
                                         else attribute(value, "value")]})
        return name

    def _node(self, op_type: str, inputs: list, hint: str) -> str:
        out = self.fresh(hint)
        self.nodes.append({"input": list(inputs), "output": [out], "name": out,
                           "op_type": op_type})
        return out

    def call(self, op_type: str, inputs: list, *arguments, attrs: dict | None = None,
             function: bool = False) -> str:
        """A node of MindSpore's operation `op_type` on the `inputs` (value names): a
        PRIMITIVE_FUNCTION whose trailing `arguments` are value nodes, or, with `attrs`, a
        PRIMITIVE holding them (a PRIMITIVE_FUNCTION with attributes where `function`)."""
        prim_name = f"{op_type}:{len(self.primitives) + 1}"
        kind = proto.PRIMITIVE if attrs is not None and not function else proto.PRIMITIVE_FUNCTION
        prim = {"name": prim_name, "op_type": op_type, "instance_name": "", "prim_type": kind}
        if attrs is not None:
            prim["attribute"] = [attribute(value, key) for key, value in attrs.items()]
        self.primitives.append(prim)
        return self._node(f"REF::{prim_name}", list(inputs) + [self.const(a) for a in arguments],
                          op_type)

    def call_graph(self, graph_name: str, inputs: list) -> str:
        """A node calling the function graph `graph_name`."""
        return self._node(f"REF::{graph_name}", inputs, "call")

    def call_value(self, value_name: str, inputs: list) -> str:
        """A node calling the closure `value_name` holds (a Switch's choice)."""
        return self._node(f"REF::{value_name}", inputs, "call")

    def item(self, source: str, index: int) -> str:
        return self.call("TupleGetItem", [source, self.const(index)], attrs={})

    def effect(self, op_type: str, inputs: list, attrs: dict) -> None:
        """An IO operation (Print) ordered after the previous one by UpdateState, as
        MindSpore threads its IO monad; the graph's output depends on the last."""
        state = self.io or self.const({"name": "value", "type": proto.ATTR["IOMONAD"]})
        done = self.call(op_type, list(inputs) + [state], attrs=attrs)
        self.io = self.call("UpdateState", [state, done], attrs={})

    def function(self, hint: str) -> GraphWriter:
        """A writer for a new function graph of this model."""
        self.shared["graphs"][0] += 1
        return GraphWriter(f"{hint}_{self.shared['graphs'][0]}", self.shared)

    def add_inputs(self, avals) -> list[str]:
        names = [f"{self.name}:input_{len(self.inputs) + i}" for i in range(len(avals))]
        self.inputs += [{"name": name, "tensor": [_type_of(aval)]}
                        for name, aval in zip(names, avals)]
        return names

    def graph_proto(self, outputs: list[str]) -> dict:
        out = outputs[0] if len(outputs) == 1 else self.call("MakeTuple", outputs, attrs={})
        for state in (self.io, self.memory):
            if state is not None:
                out = self.call("Depend", [out, state], attrs={"side_effect_propagate": 1})
        return {"node": self.nodes, "name": self.name, "input": self.inputs,
                "output": [{"name": out}]}

    def finish(self, outputs: list[str]) -> None:
        """This function graph, returning `outputs` (a tuple of several), joins the model."""
        self.shared["functions"].append(self.graph_proto(outputs))


def _reject(node, why: str):
    raise MindIRExportError(f"export(file_format='MINDIR'): {node.callee.name} {why}", node.loc)


def out_dtype(node, i: int = 0):
    return node.outputs[i].aval.dtype.np


class NodeWriter:
    """Writes one cellgraph graph's nodes; `values` maps IR values to MindIR value names."""

    def __init__(self, writer: GraphWriter):
        self.writer = writer
        self.values: dict[int, str] = {}

    def name_of(self, atom, dtype=None) -> str:
        if isinstance(atom, Constant):
            value = np.asarray(atom.value if not hasattr(atom.value, "asnumpy")
                               else atom.value.asnumpy())
            return self.writer.const(value.astype(dtype if dtype is not None
                                                  else atom.aval.dtype.np))
        return self.values[id(atom)]

    def inline(self, graph, input_names: list[str]) -> list[str]:
        """`graph`'s nodes written here with its parameters bound to `input_names`; the
        names of its outputs."""
        nested = NodeWriter(self.writer)
        for param, name in zip(graph.params, input_names):
            nested.values[id(param)] = name
        nested.run(graph)
        return [nested.name_of(atom) for atom in graph.outputs]

    def run(self, graph) -> None:
        from . import mindir_control_flow, mindir_export_rules  # noqa: F401  (rules join the map)

        for node in graph.nodes:
            rule = EXPORT_MAP.get(node.callee.name)
            if rule is None:
                raise MindIRExportError(
                    f"export(file_format='MINDIR'): the operation {node.callee.name} "
                    f"({node.callee.label}) has no MindIR form in cellgraph", node.loc)
            outs = rule(self, node)
            outs = [outs] if isinstance(outs, str) else list(outs)
            assert len(outs) == len(node.outputs), node.callee.name
            for var, name in zip(node.outputs, outs):
                self.values[id(var)] = name


def model_bytes(net, inputs) -> bytes:
    """The MindIR ModelProto bytes of `net` run on `inputs`, compiled in inference mode."""
    return model_bytes_of(model_proto(net, inputs))


def model_bytes_of(model: dict) -> bytes:
    """A ModelProto dict's bytes, within protobuf's limit for one message."""
    data = proto.encode("ModelProto", model)
    if len(data) > PROTOBUF_LIMIT:
        raise MindIRExportError("export(file_format='MINDIR'): the model is over protobuf's "
                                "2 GB limit for one file; MindSpore and cellgraph save "
                                "Parameters over train.serialization.TOTAL_SAVE kilobytes "
                                "apart from the graph")
    return data


def model_proto(net, inputs) -> dict:
    """The MindIR ModelProto (as a dict) of `net` run on `inputs`, compiled in inference
    mode."""
    from cellgraph.compiler.pipeline import compile_inference
    from cellgraph.nn import Cell
    from cellgraph.runtime.tensor import Tensor

    if not isinstance(net, Cell):
        raise MindIRExportError(f"export(file_format='MINDIR'): cellgraph exports an nn.Cell, "
                                f"got {type(net).__name__}")
    compiled = compile_inference(net, inputs)
    graph = compiled.graph
    name = "graph_construct"
    writer = GraphWriter(name)
    nodes = NodeWriter(writer)
    graph_inputs, parameters = [], []
    for i, param in enumerate(graph.params):
        if i < graph.n_inputs:
            value_name = f"{name}:{param.hint or 'input'}_{i}"
            graph_inputs.append({"name": value_name, "tensor": [_type_of(param.aval)]})
        else:
            weight = graph.weights[i - graph.n_inputs]
            value_name = f"{name}:{weight.name}"
            array = np.asarray(weight.asnumpy(), dtype=param.aval.dtype.np)
            parameters.append(proto.tensor_proto(array, name=value_name, ref_key=weight.name))
        nodes.values[id(param)] = value_name
    writer.inputs = graph_inputs
    if graph.updates:
        _load_weights(writer, nodes, graph)
    if not all(isinstance(value, Tensor) for value in inputs):
        raise MindIRExportError("export(file_format='MINDIR'): cellgraph exports networks "
                                "whose inputs are all Tensors")
    nodes.run(graph)
    names = [nodes.name_of(atom) for atom in graph.outputs]
    if graph.updates:
        names = _assign_updates(writer, graph, names)
    if graph.out_tree is not None:
        names = [_nested(writer, graph.out_tree, iter(names), graph)]
    graph_proto = writer.graph_proto(names)
    graph_proto["parameter"] = parameters
    return {"ir_version": "1.1", "producer_name": "MindSpore", "model_version": "2.10.0",
            "graph": graph_proto, "functions": writer.shared["functions"], "little_endian": True,
            "primitives": writer.primitives, "mind_ir_version": MIND_IR_VERSION}


def _load_weights(writer: GraphWriter, nodes: NodeWriter, graph) -> None:
    """A network that assigns Parameters reads each weight through a Load ordered before the
    assignments (MindSpore's UMonad), as MindSpore writes it."""
    monad = writer.const({"name": "value", "type": proto.ATTR["UMONAD"]})
    loads = []
    for param in graph.params[graph.n_inputs:]:
        loads.append(writer.call("Load", [nodes.values[id(param)], monad], attrs={}))
        nodes.values[id(param)] = loads[-1]
    reads = writer.call("MakeTuple", loads, attrs={})
    writer.memory = writer.call("UpdateState", [monad, reads], attrs={})


def _assign_updates(writer: GraphWriter, graph, names: list[str]) -> list[str]:
    """Assign each updated Parameter its new value (the graph's last outputs), in order after
    the reads; the network's own results are the outputs before them."""
    count = len(graph.updates)
    for param, value in zip(graph.updates, names[-count:]):
        done = writer.call("Assign", [f"{writer.name}:{param.name}", value, writer.memory],
                           attrs={"side_effect_mem": True}, function=True)
        writer.memory = writer.call("UpdateState", [writer.memory, done], attrs={})
    return names[:-count]


def _nested(writer: GraphWriter, tree, names, graph) -> str:
    """The network's result as it nests (MakeTuple, make_list, value nodes for the numbers and
    strings it returns), from the flat outputs `names`."""
    if tree.kind == "leaf":
        return next(names)
    if tree.kind == "static":
        return writer.const(tree.static)
    if tree.kind in ("tuple", "list") and tree.static is None:
        items = [_nested(writer, child, names, graph) for child in tree.children]
        return writer.call("MakeTuple" if tree.kind == "tuple" else "make_list", items,
                           attrs={})
    raise MindIRExportError(f"export(file_format='MINDIR'): the network returns a {tree.kind} "
                            f"value, which cellgraph does not write into MindIR", graph.loc)


def _type_of(aval) -> dict:
    dtype = np.dtype(aval.dtype.np)
    return {"dims": list(aval.shape), "data_type": proto.DATA_TYPE_CODES[dtype.name]}


def write_mindir(data: bytes, file_name) -> None:
    """`data` to `file_name` + ".mindir" (unless it ends so), atomically."""
    from cellgraph.safe_io import write_model_file

    write_model_file(data, file_name, ".mindir")


__all__ = ["EXPORT_MAP", "MindIRExportError", "model_bytes", "model_bytes_of", "model_proto",
           "write_mindir"]
