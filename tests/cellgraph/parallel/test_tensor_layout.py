"""`parallel._tensor`: a parameter put back together from the slices every device holds, by its
device matrix and tensor map; layouts for transforming checkpoints (optimizer sharding, two
layouts over one number of devices) and the transform operators on NumPy slices. Expected values
recorded from MindSpore 2.10 (the highest rank's copy of a slice held by several devices is the
one kept)."""
from __future__ import annotations

import re

import numpy as np
import pytest

from cellgraph import Tensor
from cellgraph.parallel._tensor import (
    _apply_operator,
    _apply_tensor_transform_operators,
    _construct_from_to_tensor_layout,
    _construct_tensor_layout_for_opt_shard,
    _expand_layout,
    _generate_transform_operator_stack,
    _get_tensor_strategy,
    _reshape_param_data,
)

CASES = [
    ([2, 2], [0, 1], [[1, 2], [5, 6], [3, 4], [7, 8]], [2, 2], [[1, 2, 3, 4], [5, 6, 7, 8]]),
    ([2, 2], [1, -1], [[1, 2, 3, 4], [1, 2, 3, 4], [5, 6, 7, 8], [5, 6, 7, 8]], [2, 1],
     [[1, 2, 3, 4], [5, 6, 7, 8]]),
    ([2, 2], [1, 0], np.arange(16).reshape(8, 2).tolist(), [2, 2],
     [[0, 1, 4, 5], [2, 3, 6, 7], [8, 9, 12, 13], [10, 11, 14, 15]]),
    ([4], [-1, -1], np.arange(8).reshape(8, 1).tolist(), [1, 1], [[6], [7]]),
    ([2, 2], [-1, 0], [[1, 2], [3, 4], [9, 9], [8, 8]], [1, 2], [[9, 9, 8, 8]]),
]


@pytest.mark.parametrize("dev_mat, tensor_map, stacked, strategy, whole", CASES)
def test_reshape_param_data_as_mindspore(dev_mat, tensor_map, stacked, strategy, whole):
    assert _get_tensor_strategy(dev_mat, tensor_map) == strategy
    out = _reshape_param_data(Tensor(np.array(stacked)), dev_mat, tensor_map)
    assert out.dtype == Tensor(np.array(stacked)).dtype
    assert out.asnumpy().tolist() == whole


# ----- layouts for checkpoint transformation (values recorded from MindSpore 2.10) --------------

@pytest.mark.parametrize("args, expected", [
    (((4, 2), (0, -1), 2, 4, (16, 8)), ([4, 2, 1], [1, 2, -1], [2, 8, 8])),
    (((2, 4, 2), (-1, 1, -1), 2, 2, (8, 8, 4)), ([2, 4, 2], [-1, 0, 1, -1], [1, 8, 8, 4])),
    (((8,), (-1, -1), 1, 8, (16, 4)), ([8, 1, 1], [-1, 2, -1], [1, 16, 4])),
    (((2, 2, 4), (0, -1), 4, -1, (8, 32)), ([2, 2, 4], [0, 2, 1, -1], [4, 2, 1, 32])),
    (((4, 2, 2), (1, -1), 2, 4, (8, 6)), ([2, 2, 2, 2], [1, 2, 0, -1], [2, 2, 2, 6])),
    (((2, 8), (-1, 0), 8, 2, (8, 16)), ([2, 1, 8], [-1, 2, 0], [1, 8, 16])),
    (((2, 2), ([1, 0], -1), 4, 0, (8, 2)), ((2, 2), [1, 0, -1], [2, 4, 2])),
    (((4, 2, 2), ([1, 0], -1), 4, 4, (16, 8)), ([4, 2, 2], [1, 0, 2, -1], [2, 2, 4, 8])),
])
def test_layout_for_optimizer_shard(args, expected):
    assert _construct_tensor_layout_for_opt_shard(*args) == expected


@pytest.mark.parametrize("args, message", [
    (((8, 2), (0, -1), 3, 2, (16, 8)),
     "The optimizer sharding step 3 is not equal to the model parallel sharding size 2."),
    (((2, 2), (1, 0), 1, 2, (8, 8)),
     "The device_matrix (2, 2) and tensor_map (1, 0) cannot sharding opt_shard"),
])
def test_layout_for_optimizer_shard_errors(args, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        _construct_tensor_layout_for_opt_shard(*args)


def test_layouts_over_the_same_number_of_devices():
    assert _construct_from_to_tensor_layout((8, 16), (2, 2), (1, -1), (8, 16), (4,), (0, -1)) == \
        (([2, 2], [1, -1], [8, 16]), ([4], [0, -1], [8, 16]))
    assert _construct_from_to_tensor_layout((8, 16), (4,), (0, -1), (8, 16), (2, 4), (-1, 1)) == \
        (([2, 4], [0, -1], [8, 16]), ([2, 4], [-1, 1], [8, 16]))
    with pytest.raises(ValueError, match="Cannot transform device_num from 4 to 3"):
        _construct_from_to_tensor_layout((8, 16), (4,), (0, -1), (8, 16), (3,), (0, -1))
    with pytest.raises(ValueError, match="For param 'w', the tensor map dimensions must match"):
        _construct_from_to_tensor_layout((8, 16), (4,), (0,), (8, 16), (4,), (0, -1), "w")
    assert _expand_layout([4, 2, 2], [[2, 1], 0], [8, 8]) == ([4, 2, 2], [2, 1, 0], [4, 2, 8])
    assert _expand_layout([2, 4], [-1, [0, 1]], [8, 16]) == ([2, 4], [-1, 0, 1], [8, 4, 4])


@pytest.mark.parametrize("operator, data, error, message", [
    (("Reshape", (2, 2)), np.ones(4), TypeError, "The operator[1] should be list."),
    (["Reshape", [2, 2]], np.ones(4), TypeError, "The operator should be a list."),
    (("Reshape", [2, 2], 1), np.ones(4), TypeError, "The operator should contains 2 item."),
    (("Reshape", [2, 2]), [1, 2, 3, 4], TypeError, "The data should be a numpy.ndarray."),
    (("StridedSlice", [0, 1, 1, 3]), np.ones((4, 4)), ValueError,
     "The slice operator information is wrong."),
    (("AllConcat", [0, 1, 0]), [np.ones(2)], ValueError,
     "The length of data_list 1 should be equal to concat_group size 2"),
    (("AllConcat", [0, 1, 0]), np.ones(2), TypeError, "The data_list should be a list."),
])
def test_transform_operators_check_their_arguments(operator, data, error, message):
    with pytest.raises(error, match=re.escape(message)):
        _apply_operator(operator[0])(data, operator)


def test_transform_operators_on_numpy_slices():
    data = np.arange(24).reshape(4, 6)
    np.testing.assert_array_equal(
        _apply_operator("StridedSlice")(data, ("StridedSlice", [1, 0, 3, 6, 1, 2])),
        data[1:3, 0:6:2])
    np.testing.assert_array_equal(
        _apply_operator("AllConcat")([data, data + 1], ("AllConcat", [0, 1, 1])),
        np.concatenate([data, data + 1], 1))
    assert _apply_operator("Split") is None
    assert _generate_transform_operator_stack({0: []}, 0) == []
    with pytest.raises(ValueError, match="The transform operators of rank id 1 is required."):
        _generate_transform_operator_stack({0: []}, 1)
    with pytest.raises(ValueError, match="The checkpoint file of rank 3 is missing."):
        _apply_tensor_transform_operators([(0, 0, ("AllConcat", [0, 3, 0]))], {0: data}, 4)
