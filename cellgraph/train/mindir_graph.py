"""A MindIR file's graph, read and run: what `load` returns and `nn.GraphCell` calls.

MindSpore writes a graph as nodes in execution order. A node's `op_type` is
`REF::<primitive name>` (the model's `primitives` entry: the MindSpore operation, its
attributes and its kind) or `Constant` (a value node); its inputs name graph inputs,
parameters (`graph.parameter`, the weights, with their `ref_key`), value nodes and earlier
nodes. A node is run here by MindSpore's operation name through cellgraph's primitive class of
that name (`ops.auto_generate`, then `ops.operations`), in MindSpore's argument order:

* PRIMITIVE: the class is constructed from the primitive's attributes (those its `__init__`
  names, `format` for `data_format`), and called on the node's inputs;
* PRIMITIVE_FUNCTION: the node's inputs are the call's operands followed by the `__init__`
  arguments (enums as MindSpore's numbers: `data_format`, `pad_mode`, `reduction`, ...; dtypes
  as type ids), which construct the class.

The structural nodes MindSpore threads through a graph are read for what they mean: `Load`
(a parameter's value), `UpdateState` and the monads (ordering only: the nodes run in file
order), `Depend` (its first input), `MakeTuple`/`MakeList`, `TupleGetItem`/`ListGetItem`,
`TensorMove` (a copy, which MindSpore inserts before an in-place operation on an input).

Control flow is MindSpore's: the graphs in `functions` are values (a node input naming one),
`Partial(graph, *args)` binds leading inputs, `Switch(cond, a, b)` picks one, and a node whose
op_type names a graph or a value calls it; a loop is a graph that calls itself in tail
position, run as a loop. A function graph reads its callers' values by name (MindSpore's free
variables).

Not read: an operation cellgraph has no primitive class for (UnsupportedError naming it when
the file is loaded); external weight files; the dynamic-obfuscation fields.
"""
from __future__ import annotations

import inspect

from cellgraph.primitives.errors import UnsupportedError

from .mindir_proto import ATTR_NAMES, PRIMITIVE_FUNCTION, MindIRError, decode, tensor_array

MONAD = type("Monad", (), {"__repr__": lambda self: "U"})()

# MindSpore 2.10's numbers for the string arguments of PRIMITIVE_FUNCTION nodes (its op enums,
# `str_to_enum`), by argument name
ENUMS = {
    "data_format": {0: "NCHW", 1: "NHWC", 14: "NCDHW", 17: "NDHWC", 20: "ND", 21: "NC1HWC0"},
    "format": {0: "NCHW", 1: "NHWC", 14: "NCDHW", 17: "NDHWC", 20: "ND", 21: "NC1HWC0"},
    "pad_mode": {0: "pad", 1: "same", 2: "valid"},
    "reduction": {0: "sum", 1: "mean", 2: "none"},
    "indexing": {0: "ij", 1: "xy"},
    "interpolation_mode": {0: "bilinear", 1: "nearest"},
    "padding_mode": {0: "zeros", 1: "border", 2: "reflection"},
    "rounding_mode": {1: "trunc", 2: "floor"},
}
ENUM_CODES = {arg: {name.lower(): code for code, name in table.items()}
              for arg, table in ENUMS.items()}
# MindSpore's TypeId numbers of the dtypes (`dtype_to_type_id`)
TYPE_IDS = {30: "bool_", 32: "int8", 33: "int16", 34: "int32", 35: "int64", 37: "uint8",
            38: "uint16", 39: "uint32", 40: "uint64", 42: "float16", 43: "float32",
            44: "float64", 45: "bfloat16", 48: "complex64", 49: "complex128"}
TYPE_ID_CODES = {name: code for code, name in TYPE_IDS.items()}
DTYPE_ARGS = ("dtype", "type", "dst_type", "out_type", "output_type")
# the operations whose call takes a dtype operand, by position (MindSpore writes its type id)
DTYPE_OPERANDS = {"Cast": 1}


def _first(values, single_key, many_key, default=None):
    if single_key in values:
        return values[single_key]
    many = values.get(many_key)
    return many[0] if many else default


def attribute_value(attr: dict):
    """The Python value of an AttributeProto (a value node's, or a primitive's attribute)."""
    kind = ATTR_NAMES.get(attr.get("type", 0), "UNDEFINED")
    if kind in ("TUPLE", "LIST"):
        items = [attribute_value(item) for item in attr.get("values", [])]
        return tuple(items) if kind == "TUPLE" else items
    if kind in ("INT8", "INT16", "INT32", "INT64", "UINT8", "UINT16", "UINT32", "UINT64"):
        return int(_first(attr, "i", "ints", 0))
    if kind == "BOOL":
        return bool(_first(attr, "i", "ints", 0))
    if kind == "FLOAT":
        return float(_first(attr, "f", "floats", 0.0))
    if kind == "DOUBLE":
        return float(_first(attr, "d", "doubles", 0.0))
    if kind == "STRING":
        return _first(attr, "s", "strings", b"").decode("utf-8")
    if kind in ("TENSORS", "TENSOR"):
        from cellgraph import Tensor
        tensor = attr["t"] if "t" in attr else attr.get("tensors", [{}])[0]
        return Tensor(tensor_array(tensor))
    if kind == "NONE":
        return None
    if kind in ("UMONAD", "IOMONAD"):
        return MONAD
    raise UnsupportedError(f"load: a MindIR value of kind {kind} ({attr.get('name', '')!r}) "
                           f"is not read by cellgraph")


def _structural(op_type: str):
    return {"Load": lambda args: args[0], "UpdateState": lambda args: MONAD,
            "Depend": lambda args: args[0], "MakeTuple": tuple, "MakeList": list,
            "make_tuple": tuple, "make_list": list,
            "TupleGetItem": lambda args: args[0][args[1]],
            "ListGetItem": lambda args: args[0][args[1]], "Partial": _partial,
            "TensorMove": lambda args: _tensor(args[0].asnumpy().copy()),
            "Switch": lambda args: args[1] if _truth(args[0]) else args[2]}.get(op_type)


def primitive_class(op_type: str):
    """cellgraph's primitive class of MindSpore's operation `op_type`, or None."""
    from cellgraph.ops import auto_generate, operations
    for module in (auto_generate, operations):
        cls = getattr(module, op_type, None)
        if isinstance(cls, type):
            return cls
    return None


def _init_names(cls) -> list[str]:
    return [name for name, param in inspect.signature(cls).parameters.items()
            if param.kind in (param.POSITIONAL_OR_KEYWORD, param.KEYWORD_ONLY)]


def _init_argument(name: str, value):
    """A PRIMITIVE_FUNCTION argument as the class's `__init__` takes it."""
    if name in ENUMS and isinstance(value, int) and not isinstance(value, bool):
        if value not in ENUMS[name]:
            raise UnsupportedError(f"load: MindSpore's enum {value} of argument {name!r} is not "
                                   f"known to cellgraph")
        return ENUMS[name][value]
    if name in DTYPE_ARGS and isinstance(value, int) and value in TYPE_IDS:
        from cellgraph.primitives import dtype as dt
        return getattr(dt, TYPE_IDS[value])
    return value


class _Node:
    """One operation node, ready to run: `run(values)` gives its value."""

    __slots__ = ("attrs", "cls", "init_names", "inputs", "instance", "kind", "name", "op_type",
                 "structural")

    def __init__(self, node: dict, primitive: dict):
        self.name = node["output"][0] if node.get("output") else node.get("name", "")
        self.op_type = primitive.get("op_type", "")
        self.inputs = list(node.get("input", []))
        self.structural = _structural(self.op_type)
        self.kind = primitive.get("prim_type", 1)
        self.attrs = {attr["name"]: attr for attr in primitive.get("attribute", [])}
        self.cls = None if self.structural else primitive_class(self.op_type)
        self.instance = None
        self.init_names = _init_names(self.cls) if self.cls is not None else []
        if self.structural is None and self.cls is None:
            raise UnsupportedError(f"load: the MindIR graph uses MindSpore's operation "
                                   f"{self.op_type!r} (node {self.name!r}), which cellgraph has "
                                   f"no primitive class for")
        if self.cls is not None and self.kind != PRIMITIVE_FUNCTION:
            self.instance = self.cls(**self._attribute_kwargs())

    def _attribute_kwargs(self) -> dict:
        kwargs = {}
        for name in self.init_names:
            source = name if name in self.attrs else ("format" if name == "data_format" else None)
            if source in self.attrs:
                kwargs[name] = _init_argument(name, attribute_value(self.attrs[source]))
        return kwargs

    def run(self, args: list):
        if self.structural is not None:
            return self.structural(args)
        if self.kind != PRIMITIVE_FUNCTION:
            return self.instance(*[arg for arg in args if arg is not MONAD])
        names = self.init_names
        split = len(args) - len(names)
        if split < 0:
            raise MindIRError(f"not a MindIR file: node {self.name!r} ({self.op_type}) has "
                              f"{len(args)} inputs, fewer than its {len(names)} arguments")
        init = {name: _init_argument(name, value) for name, value in zip(names, args[split:])}
        operands = [arg for arg in args[:split] if arg is not MONAD]
        at = DTYPE_OPERANDS.get(self.op_type)
        if at is not None and at < len(operands):
            operands[at] = _init_argument("dtype", operands[at])
        return self.cls(**init)(*operands)


class Closure:
    """A function graph as a value: `Partial(graph, *args)` binds its leading inputs."""

    __slots__ = ("args", "graph")

    def __init__(self, graph, args=()):
        self.graph, self.args = graph, tuple(args)


class _Call:
    """A node that calls a function graph (`REF::<graph name>`) or the closure another node
    made (`REF::<value name>`, the result of a Switch) on its inputs."""

    __slots__ = ("inputs", "name", "target")

    def __init__(self, node: dict, target: str):
        self.name = node["output"][0] if node.get("output") else node.get("name", "")
        self.inputs = list(node.get("input", []))
        self.target = target


class _FuncGraph:
    """One GraphProto: its input and output names and its nodes in order."""

    __slots__ = ("inputs", "name", "nodes", "outputs")

    def __init__(self, graph: dict, primitives: dict, graph_names: set, constants: dict):
        self.name = graph.get("name", "")
        self.inputs = [value.get("name", "") for value in graph.get("input", [])]
        self.outputs = [value.get("name", "") for value in graph.get("output", [])]
        self.nodes = []
        for node in graph.get("node", []):
            op_type = node.get("op_type", "")
            target = op_type[5:] if op_type.startswith("REF::") else None
            if op_type == "Constant":
                for output in node.get("output", []):
                    constants[output] = attribute_value(node["attribute"][0])
            elif target in primitives:
                self.nodes.append(_Node(node, primitives[target]))
            elif target is not None:
                self.nodes.append(_Call(node, target))
            else:
                raise UnsupportedError(f"load: MindIR node {node.get('name', '')!r} calls "
                                       f"{op_type!r}, which cellgraph does not read")


def _truth(value) -> bool:
    """A Switch condition: a bool (or one-element) Tensor or a Python value."""
    from cellgraph.compiler.builder import Tracer

    if isinstance(value, Tracer):
        raise UnsupportedError("nn.GraphCell: a MindIR graph with control flow (Switch) runs "
                               "only when the GraphCell is called directly, not from inside a "
                               "compiled function (jit, or a graph-mode construct)")
    if hasattr(value, "asnumpy"):
        array = value.asnumpy()
        if array.size != 1:
            raise ValueError(f"The condition of a MindIR Switch must hold one element, but got "
                             f"shape {list(array.shape)}.")
        return bool(array.reshape(-1)[0])
    return bool(value)


def _partial(args):
    head = args[0]
    if not isinstance(head, Closure):
        raise UnsupportedError(f"load: a MindIR Partial of {type(head).__name__} is not read "
                               f"by cellgraph")
    return Closure(head.graph, head.args + tuple(args[1:]))


class MindIRGraph:
    """A graph read from a MindIR file: its main graph and the function graphs it calls
    (MindSpore's control flow: Switch between Partial closures, loops as tail calls), its
    parameters (name -> array). Calling it runs the graph on its inputs with `parameters`
    (name -> Tensor); a call in tail position (a loop's next trip) does not grow the stack."""

    def __init__(self, model: dict, external=None):
        graph = model.get("graph")
        if graph is None:
            raise MindIRError("not a MindIR file: it holds no graph")
        primitives = {prim.get("name", ""): prim for prim in model.get("primitives", [])}
        protos = [graph] + list(model.get("functions", []))
        names = {proto.get("name", "") for proto in protos}
        self.constants = {}
        self.graphs = {proto.get("name", ""): _FuncGraph(proto, primitives, names,
                                                          self.constants)
                       for proto in protos}
        self.main = self.graphs[graph.get("name", "")]
        self.name, self.inputs = self.main.name, self.main.inputs
        self.parameters = {}  # node name -> (parameter name, array)
        for tensor in graph.get("parameter", []):
            name = tensor.get("name", "")
            self.parameters[name] = (tensor.get("ref_key") or name.rsplit(":", 1)[-1],
                                     tensor_array(tensor, external))
        made = {node.name for function in self.graphs.values() for node in function.nodes}
        for function in self.graphs.values():
            for node in function.nodes:
                if isinstance(node, _Call) and node.target not in made | set(self.graphs):
                    raise UnsupportedError(f"load: MindIR node {node.name!r} calls "
                                           f"{node.target!r}, which the file does not define")

    def parameter_arrays(self) -> dict:
        """The graph's parameters as MindSpore named them (their `ref_key`): name -> array."""
        return dict(self.parameters.values())

    def __call__(self, *inputs, parameters=None):
        if len(inputs) != len(self.inputs):
            raise TypeError(f"The MindIR graph {self.name!r} takes {len(self.inputs)} inputs, "
                            f"but got {len(inputs)}.")
        scope = dict(self.constants)
        scope.update({name: Closure(graph) for name, graph in self.graphs.items()})
        for node_name, (name, array) in self.parameters.items():
            scope[node_name] = parameters[name] if parameters else _tensor(array)
        return self._run(self.main, list(inputs), scope)

    def _run(self, graph: _FuncGraph, args: list, outer):
        from collections import ChainMap

        while True:
            if len(args) != len(graph.inputs):
                raise TypeError(f"The MindIR graph {graph.name!r} takes {len(graph.inputs)} "
                                f"inputs, but got {len(args)}.")
            values = dict(zip(graph.inputs, args))
            scope = ChainMap(values, outer)
            tail = None
            for node in graph.nodes:
                node_args = [_lookup(scope, name, node) for name in node.inputs]
                if not isinstance(node, _Call):
                    values[node.name] = node.run(node_args)
                    continue
                target = _lookup(scope, node.target, node)
                if not isinstance(target, Closure):
                    raise UnsupportedError(f"load: MindIR node {node.name!r} calls a "
                                           f"{type(target).__name__}, which cellgraph does not "
                                           f"read")
                if node is graph.nodes[-1] and graph.outputs == [node.name]:
                    tail = (target.graph, list(target.args) + node_args)
                else:
                    values[node.name] = self._run(target.graph, list(target.args) + node_args,
                                                  scope)
            if tail is None:
                outs = [_lookup(scope, name, graph) for name in graph.outputs]
                return outs[0] if len(outs) == 1 else tuple(outs)
            graph, args = tail


def _tensor(array):
    from cellgraph import Tensor
    return Tensor(array)


def _lookup(values, name: str, node):
    try:
        return values[name]
    except KeyError:
        raise MindIRError(f"not a MindIR file: node {node.name!r} reads {name!r}, which no "
                          f"earlier node makes") from None


def read_graph(data: bytes, external=None) -> MindIRGraph:
    """The graph of a MindIR file's bytes; `external` reads the Parameters a split file keeps
    in its data files (mindir_split.external_reader)."""
    return MindIRGraph(decode("ModelProto", data), external)


LOAD_OPTIONS = ("dec_key", "dec_mode", "obf_func")


def load(file_name, **kwargs) -> MindIRGraph:
    """MindSpore's `load(file_name, dec_key=..., dec_mode='AES-GCM')`: the graph of a MindIR
    file, decrypted with `dec_key` (AES-GCM, AES-CBC, SM4-CBC through the optional
    cryptography package, or `dec_mode(data, dec_key)` for a callable), with MindSpore's errors."""
    import os

    from . import checkpoint_crypto
    if "obf_func" in kwargs:
        raise NotImplementedError("Dynamic model structure obfuscation is no longer supported.")
    unknown = sorted(set(kwargs) - set(LOAD_OPTIONS))
    if unknown:
        raise TypeError(f"load() got unexpected keyword arguments {unknown}")
    if not isinstance(file_name, str):
        raise ValueError(f"For 'load', the argument 'file_name' must be string, but got "  # noqa: TRY004 - MindSpore's type
                         f"{type(file_name)}.")
    if not file_name.endswith(".mindir"):
        raise ValueError("For 'load', the argument 'file_name'(MindIR file) should end with "
                         "'.mindir', please input the correct 'file_name'.")
    if not os.path.exists(file_name):
        raise ValueError("For 'load', the argument 'file_name'(MindIR file) does not exist, "
                         "please check whether the 'file_name' is correct.")
    from .mindir_split import external_reader

    with open(file_name, "rb") as file:
        data = file.read()
    decrypt = None
    if "dec_key" in kwargs:
        dec_key, dec_mode = kwargs["dec_key"], kwargs.get("dec_mode", "AES-GCM")
        if not isinstance(dec_key, bytes):
            raise ValueError(f"The parameter 'dec_key' must be isinstance of {bytes}, but got "
                             f"{dec_key}.")
        if callable(dec_mode):
            decrypt = lambda blob: dec_mode(blob, dec_key)
        elif not isinstance(dec_mode, str):
            raise ValueError(f"The parameter 'dec_mode' must be isinstance of {str}, but got "
                             f"{dec_mode}.")
        else:
            decrypt = lambda blob: checkpoint_crypto.decrypt(blob, dec_key, dec_mode, file_name,
                                                             api="load")
        try:
            data = decrypt(data)
        except checkpoint_crypto.DecryptError:
            raise RuntimeError(_CIPHER_FAILED) from None
    elif checkpoint_crypto.is_cipher(data):
        raise RuntimeError(_CIPHER_FAILED)
    try:
        return read_graph(data, external_reader(file_name, decrypt))
    except (MindIRError, checkpoint_crypto.DecryptError) as error:
        raise RuntimeError(f"Load MindIR failed. {error}") from None


_CIPHER_FAILED = ("Load MindIR failed. The file may be encrypted and decrypt failed, you can check "
                  "whether the values of the arguments 'dec_key' and 'dec_mode' are the same as "
                  "when exported MindIR file, or check the file integrity.")


__all__ = ["MindIRGraph", "attribute_value", "load", "read_graph"]
