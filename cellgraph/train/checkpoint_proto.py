"""MindSpore's `.ckpt` file: the protobuf messages of its `checkpoint.proto`, coded by hand.

    message Checkpoint { message Value { required string tag = 1;
                                         oneof value { TensorProto tensor = 2;
                                                       MapTensorProto maptensor = 3; } }
                         repeated Value value = 1; }
    message TensorProto { repeated int64 dims = 1; required string tensor_type = 2;
                          required bytes tensor_content = 3; }

MindSpore writes each Value as its own one-entry `Checkpoint` message, one after another (the
concatenation of messages is the message with all the repeated entries). A tensor larger than
`SLICE_BYTES` is split over consecutive entries with the same tag and the full dims; the
reader joins them. A `str` entry (an `append_dict` string) holds NumPy's UTF-32 bytes with dims
[0]. `save_checkpoint(crc_check=True)` appends b"crc_num" and the CRC32 of the protobuf bytes
as 10 big-endian bytes.
"""
from __future__ import annotations

import binascii
from collections.abc import Iterator

import numpy as np

from cellgraph._protowire import varint
from cellgraph.primitives import dtype as dt

# MindSpore's dtype strings (str(mstype.X)) -> cellgraph dtype names
TYPE_NAMES = {"Int8": "int8", "UInt8": "uint8", "Int16": "int16", "UInt16": "uint16",
              "Int32": "int32", "UInt32": "uint32", "Int64": "int64", "UInt64": "uint64",
              "Float16": "float16", "BFloat16": "bfloat16", "Float32": "float32",
              "Float64": "float64", "Bool": "bool_",
              # MindSpore 2.10 writes these (its type names) but its loader has no entry for them
              "Float8E4M3FN": "float8_e4m3fn", "Float8E5M2": "float8_e5m2"}
STRING_TYPE = "str"
SLICE_BYTES = 512 * 1024 * 1024  # MindSpore's chunk of a tensor's bytes per entry
CRC_MARK = b"crc_num"
CRC_TRAILER = len(CRC_MARK) + 10


class ProtoError(ValueError):
    """Bytes that are not a well-formed checkpoint message."""


# ----- writing -----------------------------------------------------------------------------------

def _key(number: int, length: int) -> bytes:
    return varint(number << 3 | 2) + varint(length)


def _field(number: int, payload: bytes) -> bytes:
    return _key(number, len(payload)) + payload


def entry_head(tag: str, dims, tensor_type: str, content_length: int) -> bytes:
    """The bytes of one entry's `Checkpoint` message before its tensor_content, which is the
    message's last field: the message is this head followed by the content."""
    tensor = b"".join(varint(1 << 3) + varint(int(d)) for d in dims)
    tensor += _field(2, tensor_type.encode()) + _key(3, content_length)
    tensor_length = len(tensor) + content_length
    value = _field(1, tag.encode()) + _key(2, tensor_length)
    value_length = len(value) + tensor_length
    return _key(1, value_length) + value + tensor


def encode_entry(tag: str, dims, tensor_type: str, content) -> bytes:
    """One `Checkpoint` message holding one tensor entry (as MindSpore serialises it)."""
    return entry_head(tag, dims, tensor_type, len(content)) + bytes(content)


def entries_of(tag: str, dims, tensor_type: str, content: bytes,
               slice_bytes: int | None = None) -> Iterator[tuple[bytes, memoryview]]:
    """(head, content) of each message of one tensor, its bytes split in `slice_bytes` pieces
    as MindSpore does; written one after the other they are the file's bytes."""
    size = slice_bytes or SLICE_BYTES
    view = memoryview(content)
    for start in range(0, max(len(content), 1), size):
        piece = view[start:start + size]
        yield entry_head(tag, dims, tensor_type, len(piece)), piece


def crc_trailer(crc: int) -> bytes:
    return CRC_MARK + crc.to_bytes(10, "big")


# ----- reading -----------------------------------------------------------------------------------

def _read_varint(buf, pos: int, end: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        if pos >= end or shift > 63:
            raise ProtoError(f"a varint runs past its message at byte {pos}")
        byte = buf[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result & ((1 << 64) - 1), pos
        shift += 7


def _fields(buf, pos: int, end: int) -> Iterator[tuple[int, int, object]]:
    """(field number, wire type, value) of a message in buf[pos:end]; a length-delimited
    value is a (start, stop) pair into buf."""
    while pos < end:
        key, pos = _read_varint(buf, pos, end)
        number, wire = key >> 3, key & 7
        if number == 0:
            raise ProtoError(f"field number 0 at byte {pos}")
        if wire == 0:
            value, pos = _read_varint(buf, pos, end)
        elif wire == 2:
            length, pos = _read_varint(buf, pos, end)
            if length > end - pos:
                raise ProtoError(f"a field of {length} bytes at byte {pos} runs past the end "
                                 f"({end - pos} bytes left): the file is truncated or corrupt")
            value, pos = (pos, pos + length), pos + length
        elif wire == 1 or wire == 5:
            width = 8 if wire == 1 else 4
            if pos + width > end:
                raise ProtoError(f"a fixed field at byte {pos} runs past the end")
            value, pos = None, pos + width
        else:
            raise ProtoError(f"wire type {wire} at byte {pos} is not one a checkpoint has")
        yield number, wire, value


def _text(buf, span, what: str) -> str:
    try:
        return bytes(buf[span[0]:span[1]]).decode("utf-8")
    except UnicodeDecodeError:
        raise ProtoError(f"the {what} is not UTF-8 text") from None


def _tensor(buf, start: int, stop: int) -> tuple[list[int], str | None, tuple[int, int] | None]:
    dims, tensor_type, content = [], None, None
    for number, wire, value in _fields(buf, start, stop):
        if number == 1 and wire == 0:
            dims.append(value - (1 << 64) if value >> 63 else value)
        elif number == 1 and wire == 2:  # packed dims, which a proto3 writer may produce
            pos, end = value
            while pos < end:
                dim, pos = _read_varint(buf, pos, end)
                dims.append(dim - (1 << 64) if dim >> 63 else dim)
        elif number == 2 and wire == 2:
            tensor_type = _text(buf, value, "tensor_type")
        elif number == 3 and wire == 2:
            content = value
    return dims, tensor_type, content


def iter_entries(buf) -> Iterator[tuple[str, list[int], str, memoryview]]:
    """(tag, dims, tensor_type, content) for every tensor entry of the message in `buf`."""
    view = memoryview(buf)
    for number, wire, value in _fields(view, 0, len(view)):
        if number != 1 or wire != 2:
            continue
        tag, tensor, is_map = None, None, False
        for vnumber, vwire, vvalue in _fields(view, *value):
            if vnumber == 1 and vwire == 2:
                tag = _text(view, vvalue, "entry's tag")
            elif vnumber == 2 and vwire == 2:
                tensor = vvalue
            elif vnumber == 3 and vwire == 2:
                is_map = True
        if tag is None:
            raise ProtoError(f"an entry at byte {value[0]} has no tag")
        if is_map:
            raise ProtoError(f"entry {tag!r} is a MapParameter (a hash table of embeddings), "
                             f"which cellgraph does not have")
        if tensor is None:
            raise ProtoError(f"entry {tag!r} has no tensor")
        dims, tensor_type, content = _tensor(view, *tensor)
        if tensor_type is None or content is None:
            raise ProtoError(f"entry {tag!r} lacks its tensor_type or tensor_content")
        yield tag, dims, tensor_type, view[content[0]:content[1]]


def split_crc(blob: bytes) -> tuple[bytes, int | None]:
    """(protobuf bytes, the CRC32 stored after them or None)."""
    if len(blob) >= CRC_TRAILER and blob[-CRC_TRAILER:-10] == CRC_MARK:
        return blob[:-CRC_TRAILER], int.from_bytes(blob[-10:], "big")
    return blob, None


def crc32(data, crc: int = 0) -> int:
    return binascii.crc32(data, crc)


# ----- bfloat16 without ml_dtypes -------------------------------------------------------------

class BF16Array(np.ndarray):
    """float32 values read from bfloat16 data while ml_dtypes is not installed: exact, and
    marked so that writers store them back as bfloat16."""


def float32_to_bfloat16_bits(array) -> np.ndarray:
    """bfloat16 bit patterns of float32 values, rounded to nearest even (exact for values
    that came from bfloat16); NaN stays NaN."""
    bits = np.require(array, np.float32, "C").view(np.uint32)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    nan = np.isnan(np.asarray(array, np.float32))
    return np.where(nan, (bits >> 16) | 0x40, rounded).astype(np.uint16)


def has_ml_dtypes() -> bool:
    """Whether ml_dtypes is installed, so bfloat16 entries load as bfloat16."""
    try:
        dt.bfloat16.np  # noqa: B018  (imports ml_dtypes)
        return True
    except TypeError:
        return False


def bfloat16_bits_to_float32(bits) -> BF16Array:
    return (np.asarray(bits).astype(np.uint32) << 16).view(np.float32).view(BF16Array)
