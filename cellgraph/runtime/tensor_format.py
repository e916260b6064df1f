"""MindSpore's text formats for Tensors.

`print(t)` shows NumPy's str of the values. `repr(t)` (and a Tensor inside a printed tuple)
follows MindSpore's C++ stringifier:

    Tensor(shape=[2], dtype=Float32, value= [ 0.00000000e+00,  6.00000000e+00])
    Tensor(shape=[2, 2], dtype=Int64, value=
    [[ 1, 20],
     [-3,  4]])
    Tensor(shape=[], dtype=Float32, value= 2.5)

Floats are `%15.8e` (float16: `%11.4e`; bfloat16 and the float8 types: `%g` aligned as
integers are), booleans are right-aligned in 5 columns, integers are right-aligned to the widest one shown; a 0-d tensor shows its value like C++'s `<<` (`%g`).
Rows are separated by `,` and a newline indented by the depth, without NumPy's blank lines;
an axis longer than 6 (1000 for a vector) shows its first and last 3 entries around `...`, and
a vector longer than 3 breaks its line every 12 floats or booleans, or every 24 integers.
"""
from __future__ import annotations

import re

import numpy as np

# print in a graph writes as MindSpore's Print operator does when "graph" is set: the context
# sets it with mode=GRAPH_MODE (MindSpore then runs construct as a graph), clears it with
# PYNATIVE_MODE (where Python's print runs); compiler/print_op.py says more.
PRINT_STYLE = {"graph": False}

EDGE = 3  # entries kept at each end of a summarised axis
SUMMARY_THRESHOLD = 6
SUMMARY_THRESHOLD_1D = 1000
LINE_ITEMS = {"f": 12, "b": 12}  # vector entries per line; integers: 24
PAD = "\0"  # marks integer padding, resolved once the widest integer is known
_PAD_RUN = re.compile(PAD + "+")


def format_print(arr: np.ndarray) -> str:
    """`print(t)`: NumPy's str of the values; bfloat16 values as MindSpore's bfloat16 NumPy
    type writes them, `%f` each (`[1.000000 2.500000]`)."""
    if _is_bfloat16(arr.dtype):
        return np.array2string(arr.astype(np.float32),
                               formatter={"float_kind": lambda v: f"{v:f}"})
    return str(arr)


def _is_bfloat16(dtype: np.dtype) -> bool:
    return dtype.name == "bfloat16"


def _is_short_float(dtype: np.dtype) -> bool:
    """bfloat16 or a float8 (ml_dtypes' types, which NumPy does not count as floats): MindSpore
    writes their elements with C++'s `<<`."""
    return dtype.name in ("bfloat16", "float8_e4m3fn", "float8_e5m2")


def format_graph_print(arr: np.ndarray, label: str) -> str:
    """A Tensor as MindSpore's Print operator writes it: its repr without the commas (and
    without the space after `value=`); a 0-d one as its value, a bool as 1 or 0."""
    if arr.ndim == 0:
        value = arr[()]
        return str(int(value)) if isinstance(value, np.bool_) else _scalar_text(value)
    return format_repr(arr, label, comma="")


def format_numpy_repr(arr: np.ndarray, label: str) -> str:
    """`repr(t)` of a Tensor over a NumPy array (`Tensor.from_numpy`, a dataset's rows): MindSpore
    writes those values as NumPy does, `[1., 1.]`, where it writes a Tensor it made itself
    as `[ 1.00000000e+00,  1.00000000e+00]`."""
    return _tensor_text(arr, label, np.array2string(arr, separator=", "))


def format_repr(arr: np.ndarray, label: str, comma: str = ",") -> str:
    """`repr(t)` for the values `arr` of a tensor whose dtype MindSpore names `label`;
    `comma` separates the entries and rows."""
    if arr.ndim == 0:
        body = _scalar_text(arr[()])
    elif arr.size == 0:
        body = ""
    else:
        parts: list[str] = []
        _append_axis(arr, 0, arr.ndim, _item_formatter(arr.dtype), parts, comma)
        body = _resolve_padding("".join(parts))
    return _tensor_text(arr, label, body, " " if comma else "")


def _tensor_text(arr: np.ndarray, label: str, body: str, space: str = " ") -> str:
    """`Tensor(shape=[...], dtype=..., value=...)` around the values' text (on a line of its
    own from two dimensions on)."""
    shape = "[" + ", ".join(str(d) for d in arr.shape) + "]"
    return f"Tensor(shape={shape}, dtype={label}, value={chr(10) if arr.ndim > 1 else space}{body})"


def _scalar_text(value) -> str:
    if isinstance(value, (bool, np.bool_)):
        return "True" if value else "False"
    if isinstance(value, (float, np.floating)) or _is_short_float(np.asarray(value).dtype):
        return f"{float(value):g}"
    if isinstance(value, (complex, np.complexfloating)):
        return _complex_text(value)
    return str(int(value))


def _complex_text(value) -> str:
    """MindSpore's spelling of a complex element: each part in the shortest digits of its own
    precision (float32 for complex64), no trailing `.0` and no parentheses: 1.3-0.4j, 0+2j."""
    part_type = np.float32 if np.asarray(value).dtype == np.complex64 else np.float64

    def part(v):
        text = str(part_type(abs(v)))
        return text.removesuffix(".0")

    real, imag = value.real, value.imag
    sign = "-" if np.signbit(imag) else "+"
    return f"{'-' if np.signbit(real) and real != 0 else ''}{part(real)}{sign}{part(imag)}j"


def _item_formatter(dtype: np.dtype):
    if _is_short_float(dtype):  # C++'s `<<` (`%g`), right-aligned to the widest as integers are
        def short_float(v):
            text = f"{float(v):g}"
            return PAD * len(text) + text

        return short_float
    if dtype.kind == "f":
        spec = "11.4e" if dtype == np.float16 else "15.8e"
        return lambda v: format(float(v), spec)
    if dtype.kind == "b":
        return lambda v: "True".rjust(5) if v else "False"
    if dtype.kind == "c":
        return _complex_text

    def integer(v):
        text = str(int(v))
        return PAD * len(text) + text

    return integer


def _append_axis(a: np.ndarray, depth: int, ndim: int, fmt, out: list, comma: str) -> None:
    out.append("[")
    n = a.shape[0]
    if depth == ndim - 1:
        if (n > SUMMARY_THRESHOLD and ndim > 1) or (n > SUMMARY_THRESHOLD_1D and ndim == 1):
            _append_items(a[:EDGE], ndim, fmt, out, comma)
            out.append(" ... ")
            _append_items(a[n - EDGE:], ndim, fmt, out, comma)
        else:
            _append_items(a, ndim, fmt, out, comma)
    else:
        newline = "\n" + " " * (depth + 1)
        for i in range(min(EDGE, n)):
            if i > 0:
                out.append(comma + newline)
            _append_axis(a[i], depth + 1, ndim, fmt, out, comma)
        if n > SUMMARY_THRESHOLD:
            out.append(comma + newline + "...")
        tail = min(n - EDGE, EDGE) if n > EDGE else 0
        for i in range(tail):
            # no comma straight after the "..." line, as MindSpore prints it
            out.append((comma if i != 0 or n <= SUMMARY_THRESHOLD else "") + newline)
            _append_axis(a[n - tail + i], depth + 1, ndim, fmt, out, comma)
    out.append("]")


def _append_items(items: np.ndarray, ndim: int, fmt, out: list, comma: str) -> None:
    # bfloat16 and float8 break every 24 entries, as integers do (MindSpore's line breaks)
    per_line = 24 if _is_short_float(items.dtype) else LINE_ITEMS.get(items.dtype.kind, 24)
    count = len(items)
    for i, v in enumerate(items):
        out.append(fmt(v))
        if i != count - 1:
            out.append(comma + " ")
        if ndim == 1 and count > EDGE and (i + 1) % per_line == 0:
            out.append("\n ")


def _resolve_padding(text: str) -> str:
    """Right-align integers: each run of PAD stands for a number of that many digits."""
    runs = _PAD_RUN.findall(text)
    if not runs:
        return text
    widest = max(len(r) for r in runs)
    return _PAD_RUN.sub(lambda m: " " * (widest - len(m.group())), text)
