"""The protobuf wire format as the files cellgraph reads and writes hold it (MindSpore's
checkpoints and strategy files, TFRecord's tf.train.Example records): varints, field keys and a
message's fields, written by hand so that no protobuf package is needed."""
from __future__ import annotations


def varint(value: int) -> bytes:
    """`value` as a varint; a negative int64 or int32 takes ten bytes (two's complement)."""
    value &= (1 << 64) - 1
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def key(number: int, wire: int) -> bytes:
    return varint(number << 3 | wire)


def read_varint(buf, pos: int) -> tuple[int, int]:
    """(the varint at `pos`, the position after it)."""
    value = shift = 0
    try:
        while True:
            byte = buf[pos]
            pos += 1
            value |= (byte & 0x7F) << shift
            if byte < 0x80:
                return value, pos
            shift += 7
    except IndexError:
        raise ValueError("truncated message: a varint runs past its end") from None


def fields(buf):
    """(field number, wire type, value) of each field of a message: an int for a varint, the
    bytes of a length-delimited field, the raw 4 or 8 bytes of a fixed-width one. Other wire
    types (groups) raise ValueError."""
    pos = 0
    while pos < len(buf):
        tag, pos = read_varint(buf, pos)
        number, wire = tag >> 3, tag & 7
        if wire == 0:
            value, pos = read_varint(buf, pos)
        elif wire in (1, 2, 5):
            if wire == 2:
                size, pos = read_varint(buf, pos)
            else:
                size = 8 if wire == 1 else 4
            value, pos = bytes(buf[pos:pos + size]), pos + size
            if len(value) != size:
                raise ValueError("truncated message: a field runs past its end")
        else:
            raise ValueError(f"protobuf wire type {wire} (a group) is not read")
        yield number, wire, value
