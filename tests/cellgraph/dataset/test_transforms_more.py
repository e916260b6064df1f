"""transforms.PadEnd, transforms.Fill and transforms.Mask."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph.dataset import transforms


def test_pad_end_and_fill():
    np.testing.assert_array_equal(transforms.PadEnd([4])(np.array([1, 2])), [1, 2, 0, 0])
    np.testing.assert_array_equal(transforms.PadEnd([1, 3], -1)(np.ones((2, 2))),
                                  [[1, 1, -1]])
    assert transforms.PadEnd([3])(np.array(["a"])).tolist() == ["a", "", ""]
    filled = transforms.Fill(7)(np.zeros((2, 2), np.int32))
    assert filled.dtype == np.int32 and (filled == 7).all()


@pytest.mark.parametrize("x, value, expected", [
    (np.array([4, 5], np.uint8), -3, [253, 253]),
    (np.array([4, 5], np.uint8), 300, [44, 44]),
    (np.array([4, 5], np.int8), 2.7, [2, 2]),
    (np.array([4, 5], np.uint16), -1.7, [65535, 65535]),
    (np.array([True, False]), 3, [True, True]),
    (np.array([b"A", b"B"]), b"abc", [b"abc", b"abc"]),
])
def test_fill_casts_as_mindspore(x, value, expected):
    """MindSpore 2.10's Fill results: the value cast to the input's type (floats toward zero,
    then wrapped); bytes and strings keep their own width."""
    out = transforms.Fill(value)(x)
    assert out.tolist() == expected
    assert out.dtype == x.dtype or x.dtype.kind == "S"


@pytest.mark.parametrize("x, value, words", [
    (np.array([4, 4]), "words", "fill_value data type string and input tensor data type int64"),
    (np.array(["a"]), 3, "fill_value data type int64 and input tensor data type string"),
    (np.array([b"a"]), "x", "fill_value data type string and input tensor data type bytes"),
])
def test_fill_refuses_mixing_strings(x, value, words):
    with pytest.raises(RuntimeError, match="Fill: fill_value and the input tensor must be of the "
                                           "same data type when involving strings or bytes"):
        transforms.Fill(value)(x)
    with pytest.raises(RuntimeError, match=words):
        transforms.Fill(value)(x)


def test_mask_casts_the_constant_to_the_input_type():
    """MindSpore 2.10's Mask results: 3.5 compares with ints as 3, -1 with uint8 as 255."""
    le = transforms.Relational.LE
    assert transforms.Mask(le, 3.5)(np.array([1, 2, 3, 4, 5])).tolist() == [
        True, True, True, False, False]
    assert transforms.Mask(le, -1, ms.int32)(np.array([1, 5], np.uint8)).tolist() == [1, 1]
    assert transforms.Mask(le, "2", ms.int8)(np.array(["1", "2"])).tolist() == [1, 1]
    with pytest.raises(RuntimeError, match="input datatype does not match the value datatype"):
        transforms.Mask(le, "3.5")(np.array([1, 2]))
    with pytest.raises(RuntimeError, match="Only supports bool or numeric datatype for generated "
                                           "mask type, but got:string"):
        transforms.Mask(le, "3.5", ms.string)(np.array(["1"]))


def test_pad_end_strings_numbers_and_errors():
    """MindSpore 2.10's PadEnd results and errors for the same inputs."""
    assert transforms.PadEnd([3], "xyz")(np.array(["ab"])).tolist() == ["ab", "xyz", "xyz"]
    assert transforms.PadEnd([2])(np.array([b"a"])).tolist() == [b"a", b""]
    assert transforms.PadEnd([3], 2.7)(np.array([1])).tolist() == [1, 2, 2]
    with pytest.raises(RuntimeError, match="can not pad numeric and string tensors together, "
                                           "but got: string and int64."):
        transforms.PadEnd([3], "-1")(np.array([1, 2]))
    with pytest.raises(RuntimeError, match="can not pad string and byte tensors together, but "
                                           "got: bytes and string."):
        transforms.PadEnd([3], b"x")(np.array(["ab"]))
    with pytest.raises(TypeError, match="a value in the list is not an integer."):
        transforms.PadEnd(["2"])
    with pytest.raises(TypeError, match=r"Argument pad_shape with value \(3,\) is not of type "
                                        r"\[<class 'list'>\]"):
        transforms.PadEnd((3,))


def test_pad_end_scalar_and_rank_mismatch():
    assert transforms.PadEnd([3])(np.array("abc")).tolist() == "abc"
    assert transforms.PadEnd([2, 2])(np.array(5)).tolist() == 5
    with pytest.raises(RuntimeError, match="PadEnd: invalid pad shape, as rank of input is: 1, "
                                           "and rank of pad value: 2"):
        transforms.PadEnd([2, 3])(np.array([1, 2]))


@pytest.mark.parametrize("op, inputs, words", [
    (lambda: transforms.Concatenate(0, np.array([3, 4.0])), [np.array(["a", "b"])],
     ("Concatenate: input datatype does not match the prepend datatype, got input datatype: "
      "string, prepend datatype:float64")),
    (lambda: transforms.Concatenate(0, np.array([1, 2], np.int32)), [np.array([1, 2])],
     ("Concatenate: input datatype does not match the prepend datatype, got input datatype: "
      "int64, prepend datatype:int32")),
    (lambda: transforms.Concatenate(0, None, np.array([1.0, 2])), [np.array([1, 2])],
     ("Concatenate: input datatype does not match the append datatype, got input datatype: "
      "int64, append datatype:float64")),
    (lambda: transforms.Concatenate(0, np.array(["a", "b"])), [np.array([["a", "b"]])],
     "Concatenate: only 1D input supported, got rank of input: 2"),
    (lambda: transforms.Concatenate(0), [np.array([1, 2]), np.array([1.0, 2])],
     "Concatenate: inconsistent datatype of input."),
])
def test_concatenate_refuses_as_mindspore(op, inputs, words):
    # the words MindSpore 2.10 raises (a RuntimeError of the pipeline)
    with pytest.raises(RuntimeError) as info:
        op()(*inputs)
    assert str(info.value) == words


def test_concatenate_argument_checks_as_mindspore():
    with pytest.raises(ValueError, match="only 1D concatenation supported."):
        transforms.Concatenate(2)
    with pytest.raises(ValueError, match="can only prepend 1D arrays."):
        transforms.Concatenate(0, np.array([["a", "b"]]))
    with pytest.raises(TypeError, match="Argument append with value"):
        transforms.Concatenate(0, None, [1, 2])


def test_one_hot_drops_axes_of_length_one_as_mindspore():
    # recorded from MindSpore 2.10: (3, 1) -> (3, 5), (1, 1, 1) -> (5,), (1, 3) -> (3, 5)
    assert transforms.OneHot(5)(np.array([[1], [3], [0]])).shape == (3, 5)
    assert transforms.OneHot(5)(np.array([[[1]]])).shape == (5,)
    assert transforms.OneHot(5)(np.zeros((1, 3), int)).shape == (3, 5)
    with pytest.raises(RuntimeError, match="OneHot: Only support scalar or 1D input, got rank: 2"):
        transforms.OneHot(5)(np.zeros((2, 2, 1), int))


def test_one_hot_checks_as_mindspore():
    # MindSpore 2.10's exception types and words
    for rate in (-0.1, 1.1):
        with pytest.raises(ValueError, match=r"Input smoothing_rate is not within the required "
                                             r"interval of \[0.0, 1.0\]."):
            transforms.OneHot(10, smoothing_rate=rate)
    with pytest.raises(TypeError, match="Argument smoothing_rate with value True is not of type"):
        transforms.OneHot(10, smoothing_rate=True)
    for classes in (0, -1):
        with pytest.raises(ValueError, match="Input must be greater than 0."):
            transforms.OneHot(classes)
    with pytest.raises(TypeError, match="Argument num_classes with value 2.0 is not of type"):
        transforms.OneHot(2.0)
    for labels, name in ((np.array(1.0), "float64"), (np.array("a"), "string"),
                         (np.array(True), "bool")):
        with pytest.raises(RuntimeError, match="OneHot: Only support input of int type, but "
                                               f"got: {name}"):
            transforms.OneHot(3)(labels)
    np.testing.assert_array_equal(transforms.OneHot(3)(np.array(2, np.uint8)), [0, 0, 1])
