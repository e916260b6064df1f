"""cellgraph._c_dataengine and dataset.core.datatypes: the data engine's DataType, TensorShape
and Tensor, as MindSpore 2.10's native module gives them (values recorded from it)."""
import numpy as np
import pytest

from cellgraph import _c_dataengine as cde
from cellgraph.common import dtype as mstype
from cellgraph.dataset.core.datatypes import (
    mstype_to_detype,
    mstypelist_to_detypelist,
    nptype_to_detype,
)


@pytest.mark.parametrize("name, text, is_python", [
    ("foo", "unknown", False), ("", "unknown", False), ("int", "unknown", False),
    ("string", "string", False), ("bytes", "bytes", False), ("uint8", "uint8", False),
    ("python", "python", True)])
def test_data_type_names(name, text, is_python):
    t = cde.DataType(name)
    assert (str(t), t.is_python()) == (text, is_python)
    assert t == cde.DataType(name) and t != cde.DataType("int64")


def test_tensor_shares_contiguous_memory():
    x = np.array([1, 2, 3])
    t = cde.Tensor(x)
    x[0] = 9
    assert t.as_array().tolist() == [9, 2, 3]
    assert np.array(t, copy=False).__array_interface__["data"] == \
        t.as_array().__array_interface__["data"]
    assert t.type() == cde.DataType("int64")
    assert str(t) == "Tensor (shape: <3>, Type: int64)"
    assert str(cde.Tensor(np.array(3.0, np.float32))) == "Tensor (shape: <>, Type: float32)"
    strided = np.arange(6).reshape(2, 3)[:, 1]
    assert cde.Tensor(strided).as_array().tolist() == [1, 4]


def test_tensor_strings():
    assert str(cde.Tensor(np.array(["ab", "c"])).type()) == "string"
    assert str(cde.Tensor(np.array([b"ab"])).type()) == "bytes"
    with pytest.raises(TypeError, match="incompatible constructor arguments"):
        cde.Tensor([1, 2])


def test_tensor_shape():
    s = cde.TensorShape([2, -1])
    assert (str(s), s.is_known(), s.as_list()) == ("<2,*>", False, [2, -1])
    assert cde.TensorShape([2, 3]).is_known()


def test_datatypes_conversions():
    assert nptype_to_detype(int) == cde.DataType("int64")
    assert nptype_to_detype(np.dtype("str")) == cde.DataType("string")
    assert nptype_to_detype(np.complex64) is None
    assert mstype_to_detype(mstype.bool_) == cde.DataType("bool")
    assert mstype_to_detype(mstype.float16) == cde.DataType("float16")
    with pytest.raises(NotImplementedError):
        mstype_to_detype(np.float32)
    assert [str(t) for t in mstypelist_to_detypelist([mstype.int8, None])] == ["int8", "unknown"]
