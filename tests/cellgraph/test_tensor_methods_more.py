"""Tensor methods MindSpore's Tensor has: fill, new_full, new_empty, allclose,
argmax_with_value, argmin_with_value, stride, storage_offset, resize, index_put, choose,
bitwise_not, uniform, bernoulli, value, itemset, set_ (MindSpore 2.10's values)."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Tensor

X = np.array([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]], np.float32)


def test_values_as_mindspore():
    x = Tensor(X)
    values, indices = x.argmin_with_value(1, True)
    np.testing.assert_array_equal(values.asnumpy(), [[1.0], [2.0]])
    np.testing.assert_array_equal(indices.asnumpy(), [[0], [1]])
    values, indices = x.argmax_with_value(1)
    np.testing.assert_array_equal(values.asnumpy(), [5.0, 6.0])
    np.testing.assert_array_equal(indices.asnumpy(), [1, 2])
    np.testing.assert_array_equal(x.fill(2).asnumpy(), np.full((2, 3), 2.0))
    assert bool(Tensor(np.array([1.0, 2.0])).allclose(Tensor(np.array([1.0, 2.1])), rtol=0.1))
    out = x.index_put((Tensor(np.array([0, 0])), Tensor(np.array([1, 1]))),
                      Tensor(np.array([9.0], np.float32)), True)
    np.testing.assert_array_equal(out.asnumpy(), [[1, 23, 3], [4, 2, 6]])
    np.testing.assert_array_equal(x.resize(2, 2).asnumpy(), [[1, 5], [3, 4]])
    np.testing.assert_array_equal(x.resize((3, 3)).asnumpy()[2], [0, 0, 0])
    assert x.stride() == [3, 1] and x.stride(0) == 3 and x.storage_offset() == 0
    assert x.new_empty((2, 2), dtype=cg.int32).dtype == cg.int32
    np.testing.assert_array_equal(x.new_full((2,), 7).asnumpy(), [7.0, 7.0])
    choices = (Tensor(np.array([1, 2, 3])), Tensor(np.array([7, 8, 9])))
    np.testing.assert_array_equal(Tensor(np.array([0, 1, 0])).choose(choices).asnumpy(), [1, 8, 3])
    np.testing.assert_array_equal(Tensor(np.array([0, 3, 0])).choose(choices, "wrap").asnumpy(),
                                  [1, 8, 3])
    np.testing.assert_array_equal(Tensor(np.array([1, 2])).bitwise_not().asnumpy(), [-2, -3])
    assert x.value() is x


def test_random_draws_have_the_shape_and_range():
    out = Tensor(X).uniform(2.0, 3.0).asnumpy()
    assert out.shape == (2, 3) and out.min() >= 2 and out.max() < 3
    np.testing.assert_array_equal(Tensor(np.array([0.0, 1.0], np.float32)).bernoulli().asnumpy(),
                                  [0.0, 1.0])


def test_itemset_copies_and_set_writes_in_place():
    x = Tensor(X.copy())
    y = x.itemset((0, 0), 9.0).itemset(5, 0.5)   # MindSpore's itemset leaves x unchanged
    np.testing.assert_array_equal(y.asnumpy(), [[9, 5, 3], [4, 2, 0.5]])
    np.testing.assert_array_equal(x.asnumpy(), X)
    x.set_(Tensor(np.array([1], np.int32)))
    assert x.shape == (1,) and x.dtype == cg.int32
    with pytest.raises(ValueError):
        Tensor(X).itemset(1.0)


def test_nn_names_of_the_metrics_and_mints_classes():
    from cellgraph import mint, nn
    from cellgraph.train import metrics

    assert nn.ROC is metrics.ROC and nn.auc is metrics.auc and nn.Dice is metrics.Dice
    assert nn.DropoutExt is mint.nn.Dropout and nn.LayerNormExt is mint.nn.LayerNorm


def test_swapaxes_checks_its_axes_in_a_graph():
    class Net(cg.nn.Cell):
        def construct(self, x, axis0, axis1):
            return x.swapaxes(axis0, axis1)

    net, x = Net(), Tensor(X)
    with pytest.raises(TypeError, match="the axis argument must be integer"):
        net(x, 0, (1,))
    with pytest.raises(ValueError, match=r"must be in the range of \[-2, 2\), but got 3"):
        net(x, 0, 3)
    assert net(x, 0, 1).shape == (3, 2)


def test_augmented_assignment_methods_give_new_tensors():
    a = Tensor(np.array([1.0, 2.0], np.float32))
    ones = Tensor(np.array([1.0, 1.0], np.float32))
    np.testing.assert_array_equal(a.__iadd__(ones, alpha=2).asnumpy(), [3, 4])
    np.testing.assert_array_equal(a.__isub__(ones, alpha=2).asnumpy(), [-1, 0])
    np.testing.assert_array_equal(a.__imod__(2).asnumpy(), [1, 0])
    b = a
    a -= 1
    np.testing.assert_array_equal(b.asnumpy(), [1, 2])  # as MindSpore's: b is unchanged
    np.testing.assert_array_equal(a.asnumpy(), [0, 1])
    with pytest.raises(TypeError, match="For 'mm', the 'mat2' must be a Tensor"):
        Tensor(X).mm(3)


def test_new_empty_arguments_as_mindspore():
    """Tensor.new_empty's size, dtype and device, with MindSpore 2.10's errors (types,
    messages), its CPU names for the device and its refusal of a device inside a graph."""
    x = Tensor(np.array([[1, 2, 3], [4, 5, 6]]))
    for size in ((2, 3), [2, 3]):
        y = x.new_empty(size)
        assert y.shape == (2, 3) and y.dtype == cg.int64
    assert x.new_empty(3).shape == (3,)
    assert x.new_empty((2, 3), dtype=cg.float16, device="CPU").dtype == cg.float16
    assert x.new_empty((2,), device="cpu").shape == (2,)
    for size, message in (((2.0, 3), "must be tuple of int but found type of tuple at pos 0"),
                          ((True, 2), "must be tuple of int but found type of tuple at pos 0"),
                          ("a", "must be tuple of int, not str"),
                          (True, "must be tuple of int, not bool"),
                          (Tensor([2, 3]), "must be tuple of int, not Tensor")):
        with pytest.raises(TypeError, match=message):
            x.new_empty(size)
    with pytest.raises(TypeError, match="argument 'dtype' must be mstype but got str"):
        x.new_empty((2, 3), dtype="float32")
    with pytest.raises(TypeError, match="argument 'device' must be string but got int"):
        x.new_empty((2, 3), device=1)
    with pytest.raises(ValueError, match='Failed to convert the value "GPU" of input'):
        x.new_empty((2, 3), device="GPU")
    with pytest.raises(RuntimeError, match="Ascend"):
        x.new_empty((2, 3), device="npu")

    @cg.jit
    def in_graph(t):
        return t.new_empty((2, 3), dtype=cg.float32) * 0

    np.testing.assert_array_equal(in_graph(x).asnumpy(), np.zeros((2, 3), np.float32))

    @cg.jit
    def on_cpu(t):
        return t.new_empty((2, 3), device="CPU") * 0

    with pytest.raises(RuntimeError, match=r"NewEmpty kbk mode support \['Ascend', 'npu'\]"):
        on_cpu(x)


def test_flush_from_cache_returns_none():
    """No Tensor here has a device cache: nothing is written back, None returned (MindSpore
    2.10's example prints None)."""
    x = Tensor(X)
    assert x.flush_from_cache() is None
    np.testing.assert_array_equal(x.asnumpy(), X)
