"""The MessagePack subset MindRecord's raw pages hold: one map per row of the scalar fields
(str keys; int, float, str values), encoded as MindSpore's writer (nlohmann::json::to_msgpack)
encodes it: the smallest integer format, a float as float32 when that is exact."""
from __future__ import annotations

import math
import struct


class MsgpackError(ValueError):
    """Bytes that are not the MessagePack a MindRecord raw page holds."""


def _str(value: str, out: bytearray) -> None:
    raw = value.encode("utf-8")
    n = len(raw)
    if n <= 31:
        out.append(0xA0 | n)
    elif n <= 0xFF:
        out += bytes((0xD9, n))
    elif n <= 0xFFFF:
        out += b"\xda" + struct.pack(">H", n)
    else:
        out += b"\xdb" + struct.pack(">I", n)
    out += raw


def _int(value: int, out: bytearray) -> None:
    if value >= 0:
        if value < 128:
            out.append(value)
        elif value <= 0xFF:
            out += bytes((0xCC, value))
        elif value <= 0xFFFF:
            out += b"\xcd" + struct.pack(">H", value)
        elif value <= 0xFFFFFFFF:
            out += b"\xce" + struct.pack(">I", value)
        else:
            out += b"\xcf" + struct.pack(">Q", value)
    elif value >= -32:
        out += struct.pack(">b", value)
    elif value >= -128:
        out += b"\xd0" + struct.pack(">b", value)
    elif value >= -(1 << 15):
        out += b"\xd1" + struct.pack(">h", value)
    elif value >= -(1 << 31):
        out += b"\xd2" + struct.pack(">i", value)
    else:
        out += b"\xd3" + struct.pack(">q", value)


def _float(value: float, out: bytearray) -> None:
    if math.isfinite(value) and abs(value) <= 3.4028234663852886e38:
        single = struct.unpack(">f", struct.pack(">f", value))[0]
        if single == value:
            out += b"\xca" + struct.pack(">f", value)
            return
    out += b"\xcb" + struct.pack(">d", value)


def _encode(value, out: bytearray) -> None:
    if value is None:
        out.append(0xC0)
    elif isinstance(value, bool):
        out.append(0xC3 if value else 0xC2)
    elif isinstance(value, int):
        if not -(1 << 63) <= value < (1 << 64):
            raise MsgpackError(f"the integer {value} does not fit in 64 bits")
        _int(value, out)
    elif isinstance(value, float):
        _float(value, out)
    elif isinstance(value, str):
        _str(value, out)
    elif isinstance(value, dict):
        n = len(value)
        out += bytes((0x80 | n,)) if n <= 15 else (
            b"\xde" + struct.pack(">H", n) if n <= 0xFFFF else b"\xdf" + struct.pack(">I", n))
        for key in sorted(value):  # nlohmann's objects are ordered by key
            _str(key, out)
            _encode(value[key], out)
    else:
        raise MsgpackError(f"cannot encode a {type(value).__name__}")


def packb(value) -> bytes:
    out = bytearray()
    _encode(value, out)
    return bytes(out)


_FIXED = {0xCC: ">B", 0xCD: ">H", 0xCE: ">I", 0xCF: ">Q", 0xD0: ">b", 0xD1: ">h", 0xD2: ">i",
          0xD3: ">q", 0xCA: ">f", 0xCB: ">d"}


class _Reader:
    def __init__(self, data: bytes):
        self.data, self.pos = data, 0

    def take(self, n: int) -> bytes:
        if n < 0 or self.pos + n > len(self.data):
            raise MsgpackError(f"truncated MessagePack (needs {n} bytes at {self.pos}, "
                               f"{len(self.data)} in all)")
        chunk = self.data[self.pos:self.pos + n]
        self.pos += n
        return chunk

    def number(self, fmt: str):
        return struct.unpack(fmt, self.take(struct.calcsize(fmt)))[0]

    def value(self, depth: int = 0):
        if depth > 32:
            raise MsgpackError("MessagePack nested too deeply")
        tag = self.take(1)[0]
        if tag < 0x80:
            return tag
        if tag >= 0xE0:
            return tag - 0x100
        if 0x80 <= tag <= 0x8F:
            return self.map(tag & 0x0F, depth)
        if 0x90 <= tag <= 0x9F:
            return [self.value(depth + 1) for _ in range(tag & 0x0F)]
        if 0xA0 <= tag <= 0xBF:
            return self.text(tag & 0x1F)
        if tag in _FIXED:
            return self.number(_FIXED[tag])
        simple = {0xC0: None, 0xC2: False, 0xC3: True}
        if tag in simple:
            return simple[tag]
        sizes = {0xD9: ">B", 0xDA: ">H", 0xDB: ">I", 0xC4: ">B", 0xC5: ">H", 0xC6: ">I",
                 0xDC: ">H", 0xDD: ">I", 0xDE: ">H", 0xDF: ">I"}
        if tag not in sizes:
            raise MsgpackError(f"unsupported MessagePack tag 0x{tag:02x} at {self.pos - 1}")
        n = self.number(sizes[tag])
        if tag in (0xD9, 0xDA, 0xDB):
            return self.text(n)
        if tag in (0xC4, 0xC5, 0xC6):
            return self.take(n)
        if tag in (0xDC, 0xDD):
            return [self.value(depth + 1) for _ in range(n)]
        return self.map(n, depth)

    def text(self, n: int) -> str:
        try:
            return self.take(n).decode("utf-8")
        except UnicodeDecodeError as e:
            raise MsgpackError(f"a MessagePack string is not UTF-8: {e}") from None

    def map(self, n: int, depth: int) -> dict:
        out = {}
        for _ in range(n):
            key = self.value(depth + 1)
            if not isinstance(key, str):
                raise MsgpackError(f"a MessagePack map key is a {type(key).__name__}, not a str")
            out[key] = self.value(depth + 1)
        return out


def unpackb(data: bytes):
    reader = _Reader(bytes(data))
    value = reader.value()
    if reader.pos != len(reader.data):
        raise MsgpackError(f"{len(reader.data) - reader.pos} bytes left after the MessagePack "
                           f"value")
    return value
