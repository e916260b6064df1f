"""mindspore.dataset.core.datatypes: a NumPy or MindSpore dtype as the data engine's column
type (`cellgraph._c_dataengine.DataType`)."""
from __future__ import annotations

import numpy as np

from cellgraph import _c_dataengine as cde
from cellgraph.common import dtype as mstype

__all__ = ["mstype_to_detype", "mstypelist_to_detypelist", "nptype_to_detype"]

_NUMERIC = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
            "float16", "float32", "float64")


def nptype_to_detype(type_):
    """The column type of a NumPy dtype (or anything np.dtype takes); None for a dtype the
    engine has no type for."""
    if not isinstance(type_, np.dtype):
        type_ = np.dtype(type_)
    if type_ == np.dtype("str"):
        return cde.DataType("string")
    return cde.DataType(type_.name) if type_.name in _NUMERIC else None


def mstype_to_detype(type_):
    """The column type of a MindSpore dtype; NotImplementedError for anything else, KeyError
    for a dtype the engine has no type for."""
    if not isinstance(type_, mstype.Type):
        raise NotImplementedError()
    names = {mstype.bool_: "bool", mstype.string: "string"}
    names.update({getattr(mstype, name): name for name in _NUMERIC if name != "bool"})
    return cde.DataType(names[type_])


def mstypelist_to_detypelist(type_list):
    """Each MindSpore dtype of the list as its column type, in place (None as the unknown
    type); the list is returned."""
    for index, type_ in enumerate(type_list):
        type_list[index] = cde.DataType("") if type_ is None else mstype_to_detype(type_)
    return type_list
