"""MindSpore's MindIR file: the protobuf messages of its `mind_ir.proto`, decoded and encoded by
hand (no protobuf package), as plain dicts.

A message decodes to a dict keyed by field name; a repeated field is a list (absent: []), an
absent optional field is missing from the dict. `encode(name, message)` writes such a dict
back, fields in number order, repeated numbers packed where proto2 writes them unpacked is
equally valid. Only the fields a MindIR file holds for a graph are in the schema below; an
unknown field is skipped when reading, as protobuf does.

The enums used as numbers: AttributeProto.AttributeType (`ATTR`), TensorProto.DataType
(`DATA_TYPES`), PrimitiveProto.PrimType (1 PRIMITIVE: attributes on the primitive, the node's
inputs the tensors; 2 PRIMITIVE_FUNCTION: no attributes, the node's inputs every argument of
the operation in MindSpore's order, its call's operands then its `__init__` arguments).
"""
from __future__ import annotations

import struct

import numpy as np

from cellgraph._protowire import fields, key, read_varint, varint

# field number -> (name, kind, repeated); a kind is a scalar kind below or a message name
SCHEMA = {
    "ModelProto": {1: ("ir_version", "string", False), 2: ("producer_name", "string", False),
                   3: ("producer_version", "string", False), 4: ("domain", "string", False),
                   5: ("model_version", "string", False), 6: ("doc_string", "string", False),
                   7: ("graph", "GraphProto", False), 8: ("functions", "GraphProto", True),
                   10: ("little_endian", "bool", False),
                   12: ("primitives", "PrimitiveProto", True),
                   13: ("mind_ir_version", "int64", False),
                   14: ("user_info", "StringMapEntry", True)},
    "StringMapEntry": {1: ("key", "string", False), 2: ("value", "string", False)},
    "GraphProto": {1: ("node", "NodeProto", True), 2: ("name", "string", False),
                   3: ("parameter", "TensorProto", True), 4: ("doc_string", "string", False),
                   5: ("input", "ValueInfoProto", True), 6: ("output", "ValueInfoProto", True),
                   7: ("bprop_hash", "string", False), 8: ("attribute", "AttributeProto", True),
                   9: ("bprop_filepath", "string", False)},
    "NodeProto": {1: ("input", "string", True), 2: ("output", "string", True),
                  3: ("name", "string", False), 4: ("op_type", "string", False),
                  5: ("attribute", "AttributeProto", True), 6: ("doc_string", "string", False),
                  7: ("domain", "string", False), 8: ("node_attr", "AttributeProto", True),
                  9: ("primal_attr", "AttributeProto", True)},
    "ValueInfoProto": {1: ("name", "string", False), 2: ("tensor", "TensorProto", True),
                       3: ("doc_string", "string", False), 4: ("denotation", "string", False),
                       5: ("attr_info", "AttributeProto", False)},
    "AttributeProto": {1: ("name", "string", False), 2: ("f", "float", False),
                       3: ("i", "int64", False), 4: ("d", "double", False),
                       5: ("s", "bytes", False), 6: ("t", "TensorProto", False),
                       7: ("g", "GraphProto", False), 8: ("floats", "float", True),
                       9: ("doubles", "double", True), 10: ("ints", "int64", True),
                       11: ("strings", "bytes", True), 12: ("tensors", "TensorProto", True),
                       13: ("graphs", "GraphProto", True), 14: ("doc_string", "string", False),
                       15: ("ref_attr_name", "string", False), 16: ("type", "int64", False),
                       17: ("values", "AttributeProto", True),
                       18: ("seq_info", "SeqInfoProto", False)},
    "SeqInfoProto": {1: ("is_dyn_len", "bool", False),
                     2: ("tuple_elem_item", "AttributeProto", False)},
    "TensorProto": {1: ("dims", "int64", True), 2: ("data_type", "int64", False),
                    3: ("float_data", "float", True), 4: ("int32_data", "int64", True),
                    5: ("string_data", "bytes", True), 6: ("int64_data", "int64", True),
                    7: ("name", "string", False), 8: ("doc_string", "string", False),
                    9: ("raw_data", "bytes", False), 10: ("double_data", "double", True),
                    11: ("uint64_data", "uint64", True),
                    12: ("external_data", "ExternalDataProto", False),
                    13: ("ref_key", "string", False), 16: ("compression_type", "int64", False)},
    "ExternalDataProto": {1: ("location", "string", False), 2: ("offset", "int64", False),
                          3: ("length", "int64", False)},
    "PrimitiveProto": {1: ("name", "string", False), 2: ("op_type", "string", False),
                       3: ("attribute", "AttributeProto", True),
                       4: ("instance_name", "string", False), 5: ("prim_type", "int64", False)},
}

# AttributeProto.AttributeType, by name
ATTR = {"UNDEFINED": 0, "FLOAT": 1, "UINT8": 2, "INT8": 3, "UINT16": 4, "INT16": 5, "INT32": 6,
        "INT64": 7, "STRING": 8, "BOOL": 9, "FLOAT16": 10, "DOUBLE": 11, "UINT32": 12,
        "UINT64": 13, "COMPLEX64": 14, "COMPLEX128": 15, "BFLOAT16": 16, "TENSOR": 17,
        "GRAPH": 18, "TENSORS": 19, "TUPLE": 20, "LIST": 21, "DICT": 22, "UMONAD": 23,
        "IOMONAD": 24, "NONE": 25, "PRIMITIVECLOSURE": 26, "FUNCGRAPHCLOSURE": 27,
        "PARTIALCLOSURE": 28, "UNIONFUNCCLOSURE": 29, "CSR_TENSOR": 30, "COO_TENSOR": 31,
        "ROW_TENSOR": 32, "CLASS_TYPE": 33, "NAME_SPACE": 34, "SYMBOL": 35, "TYPE_NULL": 36,
        "MAP_TENSOR": 37, "FUNCTOR": 38, "SCALAR": 39, "SCALAR_GRAPH_HOLDER": 40}
ATTR_NAMES = {number: name for name, number in ATTR.items()}

# TensorProto.DataType -> NumPy dtype name (bfloat16 through ml_dtypes, where installed)
DATA_TYPES = {1: "float32", 2: "uint8", 3: "int8", 4: "uint16", 5: "int16", 6: "int32",
              7: "int64", 9: "bool", 10: "float16", 11: "float64", 12: "uint32", 13: "uint64",
              14: "complex64", 15: "complex128", 16: "bfloat16", 17: "float64"}
DATA_TYPE_CODES = {name: code for code, name in DATA_TYPES.items() if code != 17}

PRIMITIVE, PRIMITIVE_FUNCTION = 1, 2

_SIGNED = {"int64"}


class MindIRError(ValueError):
    """Bytes that are not a well-formed MindIR message."""


def _scalar(kind: str, wire: int, value):
    """The values of one occurrence of a scalar field (a packed one gives several)."""
    if kind in ("string", "bytes"):
        return [value.decode("utf-8") if kind == "string" else value]
    if kind in ("float", "double"):
        fmt, size = ("<f", 4) if kind == "float" else ("<d", 8)
        if wire == 2:
            return [v for (v,) in struct.iter_unpack(fmt, value)] if len(value) % size == 0 \
                else _bad(f"a packed {kind} field of {len(value)} bytes")
        return [struct.unpack(fmt, value)[0]]
    if wire == 2:  # packed varints
        out, pos = [], 0
        while pos < len(value):
            number, pos = read_varint(value, pos)
            out.append(number)
        return [_int(kind, number) for number in out]
    return [_int(kind, value)]


def _int(kind: str, number: int):
    if kind == "bool":
        return bool(number)
    if kind in _SIGNED and number >= 1 << 63:
        return number - (1 << 64)
    return number


def _bad(what: str):
    raise MindIRError(f"not a MindIR file: {what}")


def decode(message: str, data: bytes) -> dict:
    """The dict of the `message` held in `data`."""
    schema, out = SCHEMA[message], {}
    try:
        for number, wire, value in fields(data):
            if number not in schema:
                continue
            name, kind, repeated = schema[number]
            if kind in SCHEMA:
                if wire != 2:
                    _bad(f"field {message}.{name} has wire type {wire}")
                values = [decode(kind, value)]
            else:
                values = _scalar(kind, wire, value)
            if repeated:
                out.setdefault(name, []).extend(values)
            else:
                out[name] = values[-1]
    except (ValueError, UnicodeDecodeError, struct.error) as error:
        if isinstance(error, MindIRError):
            raise
        raise MindIRError(f"not a MindIR file: {error}") from None
    return out


def _encode_scalar(number: int, kind: str, value) -> bytes:
    if kind in ("string", "bytes"):
        payload = value.encode("utf-8") if kind == "string" else bytes(value)
        return key(number, 2) + varint(len(payload)) + payload
    if kind == "float":
        return key(number, 5) + struct.pack("<f", value)
    if kind == "double":
        return key(number, 1) + struct.pack("<d", value)
    return key(number, 0) + varint(int(value))


def encode(message: str, values: dict) -> bytes:
    """The bytes of `values`, a dict as `decode` gives, as the `message`."""
    schema, out = SCHEMA[message], bytearray()
    for number in sorted(schema):
        name, kind, repeated = schema[number]
        if name not in values:
            continue
        for value in (values[name] if repeated else [values[name]]):
            if kind in SCHEMA:
                payload = encode(kind, value)
                out += key(number, 2) + varint(len(payload)) + payload
            else:
                out += _encode_scalar(number, kind, value)
    return bytes(out)


def numpy_dtype(data_type: int):
    """The NumPy dtype of a TensorProto.DataType."""
    name = DATA_TYPES.get(data_type)
    if name is None:
        raise MindIRError(f"not a MindIR file: tensor data type {data_type} is unknown")
    if name == "bfloat16":  # its bits; tensor_array makes the values
        return np.dtype(np.uint16)
    return np.dtype(name)


def _bfloat16(bits: np.ndarray) -> np.ndarray:
    """BFloat16 values from their bits: ml_dtypes' bfloat16 where installed, else float32
    (exactly the same numbers)."""
    try:
        import ml_dtypes
    except ImportError:
        return (bits.astype(np.uint32) << 16).view(np.float32)
    return bits.view(ml_dtypes.bfloat16)


def tensor_array(tensor: dict, external=None) -> np.ndarray:
    """The values of a TensorProto (its raw_data, little-endian) as an array; `external`
    reads the bytes of one that keeps them in a data file (`external(external_data)`)."""
    dtype = numpy_dtype(tensor.get("data_type", 0))
    shape = tuple(tensor.get("dims", ()))
    if "external_data" in tensor:
        if external is None:
            raise MindIRError(f"tensor {tensor.get('name', '')!r} keeps its data in an external "
                              f"file ({tensor['external_data'].get('location', '')!r}), which "
                              f"only a MindIR file read from disk can reach")
        raw = external(tensor["external_data"])
    else:
        raw = tensor.get("raw_data", b"")
    count = int(np.prod(shape, dtype=np.int64))
    if len(raw) != count * dtype.itemsize:
        raise MindIRError(f"not a MindIR file: tensor {tensor.get('name', '')!r} of shape "
                          f"{list(shape)} holds {len(raw)} bytes")
    values = np.frombuffer(raw, dtype.newbyteorder("<")).astype(dtype).reshape(shape)
    return _bfloat16(values) if DATA_TYPES[tensor.get("data_type", 0)] == "bfloat16" else values


def tensor_proto(array: np.ndarray, **extra) -> dict:
    """A TensorProto dict of `array` (its raw little-endian bytes)."""
    name = "bfloat16" if array.dtype.name == "bfloat16" else array.dtype.name
    if name not in DATA_TYPE_CODES:
        raise MindIRError(f"MindIR has no tensor data type for {array.dtype}")
    data = np.ascontiguousarray(array)
    if data.dtype.byteorder == ">":
        data = data.astype(data.dtype.newbyteorder("<"))
    return {"dims": list(array.shape), "data_type": DATA_TYPE_CODES[name],
            "raw_data": data.tobytes(), **extra}
