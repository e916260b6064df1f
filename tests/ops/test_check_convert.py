"""MindSpore's dtype TypeError, built in one place: the allowed Tensor types listed in the order
of their names (as MindSpore's set of names keeps them), the type got as MindSpore spells it;
and operations whose messages listed them in another order now say what MindSpore says."""
import re

import numpy as np
import pytest

from cellgraph import Tensor, ops
from cellgraph import dtype as mstype
from cellgraph.ops.operations import array_ops, image_ops, math_ops, sparse_ops
from cellgraph.primitives.check_convert import (
    check_tensor_dtype,
    check_tensor_type,
    check_tensor_types_same,
    not_tensor_error,
    tensor_dtype_error,
    value_type_name,
)


def test_the_message_lists_the_allowed_types_by_name():
    error = tensor_dtype_error("Abs", "x", (mstype.int8, mstype.float32, "Int16", mstype.uint8),
                               mstype.bool_)
    assert isinstance(error, TypeError)
    assert str(error) == ("For primitive[Abs], the input argument[x] must be a type of "
                          "{Tensor[Float32], Tensor[Int16], Tensor[Int8], Tensor[UInt8]}, but "
                          "got Tensor[Bool].")


def test_what_was_got_is_shown_as_given_when_it_is_not_a_dtype():
    error = tensor_dtype_error("SGD", "parameters", (mstype.float16,), "Ref[Tensor[Int32]]")
    assert str(error).endswith("{Tensor[Float16]}, but got Ref[Tensor[Int32]].")


def test_check_passes_an_allowed_dtype_through():
    assert check_tensor_dtype("Abs", "x", mstype.float32, (mstype.float32,)) is mstype.float32
    assert check_tensor_dtype("Abs", "x", mstype.int32, ("Int32", "Int64")) is mstype.int32
    with pytest.raises(TypeError, match=re.escape("{Tensor[Int32], Tensor[Int64]}, but got "
                                                  "Tensor[Float32].")):
        check_tensor_dtype("Abs", "x", mstype.float32, ("Int64", "Int32"))


def _raises(call, message):
    with pytest.raises(TypeError) as info:
        call()
    assert str(info.value).split("\n")[0] == message


def test_max_pool_with_argmax_lists_its_types_as_mindspore():
    _raises(lambda: ops.MaxPoolWithArgmax(kernel_size=1)(Tensor(np.zeros((1, 1, 2, 2), np.int32))),
            "For primitive[MaxPoolWithArgmax], the input argument[input] must be a type of "
            "{Tensor[Float16], Tensor[Float32], Tensor[Float64], Tensor[Int16], Tensor[Int64], "
            "Tensor[Int8], Tensor[UInt16], Tensor[UInt32], Tensor[UInt64], Tensor[UInt8]}, but "
            "got Tensor[Int32].")


def test_sparse_segment_sum_lists_its_types_as_mindspore():
    ids = Tensor(np.array([0, 1], np.int32))
    _raises(lambda: sparse_ops.SparseSegmentSum()(Tensor(np.zeros((3, 2), np.bool_)), ids, ids),
            "For primitive[SparseSegmentSum], the input argument[x] must be a type of "
            "{Tensor[Float16], Tensor[Float32], Tensor[Float64], Tensor[Int16], Tensor[Int32], "
            "Tensor[Int64], Tensor[Int8], Tensor[UInt16], Tensor[UInt8]}, but got Tensor[Bool].")


def test_resize_area_and_scale_and_translate_list_their_types_as_mindspore():
    images, size = Tensor(np.zeros((1, 2, 2, 1), np.bool_)), Tensor(np.array([1, 1], np.int32))
    _raises(lambda: image_ops.ResizeArea()(images, size),
            "For primitive[ResizeArea], the input argument[images] must be a type of "
            "{Tensor[Float16], Tensor[Float32], Tensor[Float64], Tensor[Int16], Tensor[Int32], "
            "Tensor[Int64], Tensor[Int8], Tensor[UInt16], Tensor[UInt8]}, but got Tensor[Bool].")
    pair = Tensor(np.array([1, 1], np.float32))
    _raises(lambda: image_ops.ScaleAndTranslate()(images, size, pair, pair),
            "For primitive[ScaleAndTranslate], the input argument[images] must be a type of "
            "{Tensor[Float16], Tensor[Float32], Tensor[Float64], Tensor[Int16], Tensor[Int32], "
            "Tensor[Int64], Tensor[Int8]}, but got Tensor[Bool].")



def test_a_type_rules_message_naming_its_primitive_is_not_prefixed_again():
    ints = Tensor(np.zeros(2, np.int32))
    _raises(lambda: ops.Zeta()(ints, ints),
            "For primitive[Zeta], the input argument[q] must be a type of {Tensor[Float32], "
            "Tensor[Float64]}, but got Tensor[Int32].")


def test_ctc_loss_checks_the_labels_before_its_inputs_as_mindspore():
    logits = Tensor(np.zeros((2, 1, 3), np.int32))
    indices, values = Tensor(np.array([[0, 0]], np.int64)), Tensor(np.array([1], np.int32))
    lengths = Tensor(np.array([2], np.int32))
    _raises(lambda: ops.CTCLoss()(logits, indices, values, lengths),
            "For primitive[CTCLoss], the input argument[inputs] must be a type of "
            "{Tensor[Float16], Tensor[Float32], Tensor[Float64]}, but got Tensor[Int32].")
    _raises(lambda: ops.CTCLoss()(logits, indices, Tensor(np.array([1], np.int64)), lengths),
            "For primitive[CTCLoss], the input argument[labels_values] must be a type of "
            "{Tensor[Int32]}, but got Tensor[Int64].")


@pytest.mark.parametrize("value, name", [
    (3, "Int64"), (3.0, "Float32"), (True, "Bool"), ("s", "String"), (None, "None"),
    ((1, 2), "Tuple[Int64*2]"), ([1, 2], "List[Int64*2]"), ((1.0, 2), "Tuple[Float32,Int64]"),
    ((), "Tuple[]"), ((1, (1, 2)), "Tuple[Int64,Tuple[Int64*2]]"), ((None,), "Tuple[None]"),
    (np.float32(1.0), "Float32"), (np.array([1, 2]), "External"),
    (Tensor(np.zeros(2, np.int32)), "Tensor[Int32]"),
])
def test_values_are_named_as_mindspore_names_them(value, name):
    assert value_type_name(value) == name


def test_a_value_that_is_not_a_tensor():
    error = not_tensor_error("MirrorPad", "paddings", ((1, 1), (1, 1)))
    assert isinstance(error, TypeError)
    assert str(error) == ("For Primitive[MirrorPad], the type of input argument[paddings] must "
                          "be Tensor but got Tuple[Tuple[Int64*2]*2].")


@pytest.mark.parametrize("call, got", [
    (lambda: ops.PopulationCount()(3), "Int64"),
    (lambda: ops.MirrorPad()(Tensor(np.zeros((2, 2), np.float32)), ((1, 1), (1, 1))),
     "Tuple[Tuple[Int64*2]*2]"),
    (lambda: ops.ListDiff()([1, 2], Tensor(np.array([1]))), "List[Int64*2]"),
    (lambda: ops.MaxPoolWithArgmax(kernel_size=1)("s"), "String"),
    (lambda: ops.NMSWithMask()(3.0), "Float32"),
])
def test_operations_name_what_they_got_as_mindspore(call, got):
    with pytest.raises(TypeError) as info:
        call()
    assert str(info.value).split("\n")[0].endswith(f"must be Tensor but got {got}.")


def test_check_tensor_type_refuses_what_is_not_a_tensor_then_a_wrong_dtype():
    floats = (mstype.float16, mstype.float32)
    assert check_tensor_type("Abs", "x", Tensor(np.zeros(2, np.float16)), floats) == mstype.float16
    with pytest.raises(TypeError, match=re.escape("For Primitive[Abs], the type of input "
                                                  "argument[x] must be Tensor but got Float32.")):
        check_tensor_type("Abs", "x", 1.0, floats)
    with pytest.raises(TypeError, match=re.escape("For primitive[Abs], the input argument[x] must "
                                                  "be a type of {Tensor[Float16], "
                                                  "Tensor[Float32]}, but got Tensor[Int8].")):
        check_tensor_type("Abs", "x", Tensor(np.zeros(2, np.int8)), floats)


NOT_A_TENSOR = "For Primitive[{}], the type of input argument[{}] must be Tensor but got {}."


@pytest.mark.parametrize("call, op, name, got", [
    (lambda: math_ops.ComplexAbs()((1.0, 2.0)), "ComplexAbs", "x", "Tuple[Float32*2]"),
    (lambda: ops.DataFormatVecPermute()((1, 2, 3, 4)), "DataFormatVecPermute", "x",
     "Tuple[Int64*4]"),
    (lambda: ops.DataFormatDimMap()(3), "DataFormatDimMap", "input type", "Int64"),
    (lambda: math_ops.FloatStatus()(3.0), "FloatStatus", "x", "Float32"),
    (lambda: ops.AdjustHue()(3.0, Tensor(0.1, mstype.float32)), "AdjustHue", "images", "Float32"),
])
def test_a_value_that_is_not_a_tensor_is_refused_as_mindspore_refuses_it(call, op, name, got):
    _raises(call, NOT_A_TENSOR.format(op, name, got))


def test_adjust_hue_calls_its_image_images_as_mindspore():
    _raises(lambda: ops.AdjustHue()(Tensor(np.zeros((2, 2, 3), np.int32)),
                                    Tensor(0.1, mstype.float32)),
            "For primitive[AdjustHue], the input argument[images] must be a type of "
            "{Tensor[Float16], Tensor[Float32], Tensor[Float64]}, but got Tensor[Int32].")


def test_operands_of_one_dtype_are_checked_together_first():
    floats = (mstype.float32, mstype.float64)
    assert check_tensor_types_same("Igamma", {"x": mstype.float64, "a": mstype.float64},
                                   floats) == mstype.float64
    with pytest.raises(TypeError) as info:
        check_tensor_types_same("Igamma", {"x": mstype.int32, "a": mstype.float32}, floats)
    assert str(info.value) == ("For primitive[Igamma], the input type must be same.\n"
                               "name:[a]:Tensor[Float32].\nname:[x]:Tensor[Int32].")
    # one dtype, not allowed: named as the first operand by name, as MindSpore's map orders them
    with pytest.raises(TypeError, match=re.escape("argument[a] must be a type of")):
        check_tensor_types_same("Igamma", {"x": mstype.int32, "a": mstype.int32}, floats)


def _ones(dtype, shape=(2,)):
    return Tensor(np.ones(shape, dtype))


@pytest.mark.parametrize("call, op, operands", [
    (lambda: ops.Igamma()(_ones(np.int32), _ones(np.float32)), "Igamma",
     [("a", "Int32"), ("x", "Float32")]),
    (lambda: ops.Betainc()(_ones(np.float32), _ones(np.int32), _ones(np.float32)), "Betainc",
     [("a", "Float32"), ("b", "Int32"), ("x", "Float32")]),
    (lambda: ops.LinSpace()(_ones(np.int32, ()), _ones(np.float32, ()), 3), "LinSpace",
     [("start type", "Int32"), ("stop type", "Float32")]),
    (lambda: ops.IOU()(_ones(np.float32, (2, 4)), _ones(np.int32, (2, 4))), "IOU",
     [("x", "Float32"), ("y", "Int32")]),
    (lambda: array_ops.UnravelIndex()(_ones(np.float32), _ones(np.int32)), "UnravelIndex",
     [("dims", "Int32"), ("indices", "Float32")]),
    (lambda: array_ops.ParallelConcat()((_ones(np.float32, (1, 2)), _ones(np.float64, (1, 2)))),
     "ParallelConcat", [("element0", "Float32"), ("element1", "Float64")]),
    (lambda: math_ops.MatrixSolveLs()(_ones(np.float32, (2, 2)), _ones(np.float64, (2, 2)),
                                      Tensor(0.0, mstype.float64)),
     "MatrixSolveLs", [("matrix", "Float32"), ("rhs", "Float64")]),
])
def test_operations_name_each_operand_of_another_dtype_as_mindspore(call, op, operands):
    lines = "".join(f"\nname:[{name}]:Tensor[{dtype}]." for name, dtype in operands)
    with pytest.raises(TypeError) as info:
        call()
    assert info.value.message == f"For primitive[{op}], the input type must be same.{lines}"


@pytest.mark.parametrize("call, message", [
    (lambda: ops.RandomPoisson()((2, 2), Tensor(np.ones(2, np.float32))),
     ("For primitive[RandomPoisson], the input argument[shape] must be a type of {Int32, Int64}, "
     "but got Tuple[Int64*2].")),
    (lambda: math_ops.FFTWithSize(1, True, False)(Tensor(np.ones(4, np.float32))),
     ("For primitive[FFTWithSize], the input argument[x] in fft/ifft mode must be a type of "
     "{Complex128, Complex64}, but got Float32.")),
    (lambda: math_ops.FFTWithSize(1, False, True)(Tensor(np.ones(4, np.float16))),
     ("For primitive[FFTWithSize], the input argument[x] in rfft mode must be a type of "
     "{Bool, Float32, Float64, Int16, Int32, Int64, Int8, UInt8}, but got Float16.")),
])
def test_a_type_checked_itself_is_listed_by_bare_names_as_mindspore(call, message):
    _raises(call, message)
