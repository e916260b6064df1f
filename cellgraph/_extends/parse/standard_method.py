"""`mindspore._extends.parse.standard_method`: the functions MindSpore's graph compiler maps
Python's operators, builtins and Tensor methods onto, for programs and tests that call them by
name. Each is the operation it stands for, with MindSpore's parameters (NumPy's for the
NumPy-style ones), so it works in construct and eagerly alike."""
from __future__ import annotations

__all__ = ["argmax", "choose", "diagonal", "ms_len", "reshape", "searchsorted", "squeeze",
           "swapaxes", "take", "tensor_bool", "topk", "uadd", "unsqueeze", "usub", "var", "view"]


def _numpy():
    from cellgraph import numpy  # the API layer, loaded when first called

    return numpy


def ms_len(data):
    """`len(data)`."""
    return len(data)


def uadd(x):
    """`+x`."""
    return +x


def usub(x):
    """`-x`."""
    return -x


def argmax(x, axis=None, keepdims=False):
    """The index of the maximum (of the flattened Tensor without `axis`)."""
    return x.argmax(axis, keepdims)


def choose(x, choices, mode="clip"):
    """NumPy's choose: element i from choices[x[i]]."""
    return _numpy().choose(x, choices, mode=mode)


def diagonal(x, offset=0, axis1=0, axis2=1):
    """The diagonal `offset` above the main one of the (axis1, axis2) planes."""
    return x.diagonal(offset, axis1, axis2)


def reshape(x, *shape):
    """x in `shape` (given as one tuple or as separate ints)."""
    return x.reshape(*shape)


def searchsorted(x, v, side="left", sorter=None):
    """NumPy's searchsorted: where `v` would be inserted into the sorted `x`."""
    return _numpy().searchsorted(x, v, side=side, sorter=sorter)


def squeeze(x, axis=None):
    """x without its size-1 axes (those of `axis`, or all)."""
    return x.squeeze(axis)


def swapaxes(input, axis0, axis1):
    """input with axes `axis0` and `axis1` exchanged."""
    return input.swapaxes(axis0, axis1)


def take(x, indices, axis=None, mode="clip"):
    """NumPy's take: the elements at `indices` (of the flattened Tensor without `axis`)."""
    return _numpy().take(x, indices, axis=axis, mode=mode)


def tensor_bool(x):
    """`bool(x)` of a one-element Tensor: a Python bool eagerly, a bool Tensor in a graph."""
    from cellgraph.primitives import dtype as dt
    from cellgraph.primitives import functional as F
    from cellgraph.primitives.core import running_eagerly

    return bool(x) if running_eagerly() else F.cast(x, dt.bool_)


def topk(input_x, k, dim=None, largest=True, sorted=True):
    """The `k` largest (or smallest) elements along `dim` (the last axis) and their indices."""
    return input_x.topk(k, -1 if dim is None else dim, largest, sorted)


def unsqueeze(input, dim):
    """input with a new axis of size 1 at `dim`."""
    return input.unsqueeze(dim)


def var(x, axis=None, ddof=0, keepdims=False):
    """NumPy's var: the mean squared deviation, divided by N - ddof."""
    return _numpy().var(x, axis=axis, ddof=ddof, keepdims=keepdims)


def view(x, *shape):
    """x in `shape` (given as one tuple or as separate ints)."""
    return x.view(*shape)
