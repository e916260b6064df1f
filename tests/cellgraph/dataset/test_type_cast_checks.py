"""TypeCast and vision.ToType: MindSpore 2.10's argument checks and the casts it refuses
(messages recorded from it)."""
import numpy as np
import pytest

from cellgraph.common import dtype as mstype
from cellgraph.dataset import transforms as t
from cellgraph.dataset import vision


@pytest.mark.parametrize("cls", [t.TypeCast, vision.ToType])
def test_data_type_checks(cls):
    listed = r"\[<class 'numpy.float32'>\]"
    for bad, shown in [("JUNK", "JUNK"), (None, "None"), ([np.float32], listed)]:
        with pytest.raises(TypeError, match=f"Argument data_type with value {shown} is not of "
                                            f"type"):
            cls(bad)
    with pytest.raises(TypeError, match="missing a required argument: 'data_type'"):
        cls(output_type="int32")
    with pytest.raises(TypeError, match="missing a required argument: 'data_type'"):
        cls()
    assert cls(np.float32)(np.array([1.5])).dtype == np.float32
    assert cls("int8")(np.array([1.5, 2.5])).tolist() == [1, 2]
    assert cls(mstype.int32)(np.array([1.5, 2.5])).dtype == np.int32


def test_casts_to_and_from_strings():
    with pytest.raises(RuntimeError, match="TypeCast does not support cast from string to bool"):
        t.TypeCast(mstype.bool_)(np.array(["aaaa"]))
    with pytest.raises(RuntimeError, match="TypeCast does not support cast from bytes to int32"):
        t.TypeCast(mstype.int32)(np.array([b"a"]))
    with pytest.raises(RuntimeError, match="number of elements should be 0 when data type is "
                                           "string"):
        t.TypeCast(mstype.string)([1, 2, 3, 4])
    assert t.TypeCast(mstype.string)("test_strings") == "test_strings"
