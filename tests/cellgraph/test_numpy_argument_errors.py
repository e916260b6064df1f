"""cellgraph.numpy's exception types for invalid scalar arguments (axis types and ranges, dtype
names, shapes, counts, non-Tensors where a Tensor is wanted): each case raised, with this type,
by MindSpore 2.10's mindspore.numpy (recorded)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import numpy as mnp


def _x():
    return ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))


def T(values):  # short, as the recorded sources spell it
    return ms.Tensor(np.asarray(values, np.float32))


# (source, MindSpore 2.10's exception type), recorded
CASES = [
    ("mnp.sum(x, axis='a')", TypeError),
    ('mnp.sum(x, axis=1.5)', TypeError),
    ('mnp.sum(x, axis=5)', ValueError),
    ("mnp.mean(x, axis='a')", TypeError),
    ('mnp.mean(x, axis=1.5)', TypeError),
    ('mnp.mean(x, axis=5)', ValueError),
    ("mnp.amax(x, axis='a')", TypeError),
    ('mnp.amax(x, axis=1.5)', TypeError),
    ('mnp.amax(x, axis=5)', ValueError),
    ("mnp.amin(x, axis='a')", TypeError),
    ('mnp.amin(x, axis=1.5)', TypeError),
    ('mnp.amin(x, axis=5)', ValueError),
    ("mnp.std(x, axis='a')", TypeError),
    ('mnp.std(x, axis=1.5)', TypeError),
    ('mnp.std(x, axis=5)', ValueError),
    ("mnp.var(x, axis='a')", TypeError),
    ('mnp.var(x, axis=1.5)', TypeError),
    ('mnp.var(x, axis=5)', ValueError),
    ("mnp.argmax(x, axis='a')", TypeError),
    ('mnp.argmax(x, axis=1.5)', TypeError),
    ('mnp.argmax(x, axis=5)', ValueError),
    ("mnp.argmin(x, axis='a')", TypeError),
    ('mnp.argmin(x, axis=1.5)', TypeError),
    ('mnp.argmin(x, axis=5)', ValueError),
    ("mnp.cumsum(x, axis='a')", TypeError),
    ('mnp.cumsum(x, axis=1.5)', TypeError),
    ('mnp.cumsum(x, axis=5)', ValueError),
    ("mnp.nanmean(x, axis='a')", TypeError),
    ('mnp.nanmean(x, axis=1.5)', TypeError),
    ('mnp.nanmean(x, axis=5)', ValueError),
    ("mnp.nansum(x, axis='a')", TypeError),
    ('mnp.nansum(x, axis=1.5)', TypeError),
    ('mnp.nansum(x, axis=5)', ValueError),
    ("mnp.ptp(x, axis='a')", TypeError),
    ('mnp.ptp(x, axis=1.5)', TypeError),
    ('mnp.ptp(x, axis=5)', ValueError),
    ("mnp.average(x, axis='a')", TypeError),
    ('mnp.average(x, axis=1.5)', TypeError),
    ('mnp.average(x, axis=5)', ValueError),
    ("mnp.count_nonzero(x, axis='a')", TypeError),
    ('mnp.count_nonzero(x, axis=1.5)', TypeError),
    ('mnp.count_nonzero(x, axis=5)', ValueError),
    ("mnp.flip(x, axis='a')", TypeError),
    ('mnp.flip(x, axis=1.5)', TypeError),
    ('mnp.flip(x, axis=5)', ValueError),
    ("mnp.squeeze(x, axis='a')", TypeError),
    ('mnp.squeeze(x, axis=1.5)', TypeError),
    ('mnp.squeeze(x, axis=5)', ValueError),
    ("mnp.expand_dims(x, axis='a')", TypeError),
    ('mnp.expand_dims(x, axis=1.5)', TypeError),
    ('mnp.expand_dims(x, axis=5)', ValueError),
    ("mnp.diff(x, axis='a')", TypeError),
    ('mnp.diff(x, axis=1.5)', TypeError),
    ('mnp.diff(x, axis=5)', ValueError),
    ("mnp.unique(x, axis='a')", TypeError),
    ('mnp.unique(x, axis=1.5)', TypeError),
    ('mnp.unique(x, axis=5)', TypeError),
    ("mnp.nanmax(x, axis='a')", TypeError),
    ('mnp.nanmax(x, axis=1.5)', TypeError),
    ('mnp.nanmax(x, axis=5)', ValueError),
    ("mnp.nanmin(x, axis='a')", TypeError),
    ('mnp.nanmin(x, axis=1.5)', TypeError),
    ('mnp.nanmin(x, axis=5)', ValueError),
    ("mnp.cumprod(x, axis='a')", TypeError),
    ('mnp.cumprod(x, axis=1.5)', TypeError),
    ('mnp.cumprod(x, axis=5)', ValueError),
    ("mnp.zeros('a')", TypeError),
    ('mnp.zeros((2, 1.5))', TypeError),
    ("mnp.zeros((2,), dtype='foo')", TypeError),
    ('mnp.ones((-1, 2))', ValueError),
    ("mnp.ones('a')", TypeError),
    ('mnp.empty(1.5)', TypeError),
    ("mnp.full('a', 1)", TypeError),
    ("mnp.full((2,), 1, dtype='foo')", TypeError),
    ('mnp.eye(2.5)', TypeError),
    ("mnp.eye('a')", TypeError),
    ('mnp.identity(2.5)', TypeError),
    ("mnp.arange('a')", TypeError),
    ('mnp.linspace(0, 1, 2.5)', TypeError),
    ('mnp.linspace(0, 1, -1)', ValueError),
    ("mnp.logspace(0, 1, 'a')", TypeError),
    ("mnp.reshape(x, 'a')", TypeError),
    ('mnp.reshape(x, (4, 4))', ValueError),
    ('mnp.reshape([1, 2], (2,))', TypeError),
    ('mnp.transpose(x, (0, 5))', ValueError),
    ("mnp.transpose(x, 'a')", TypeError),
    ('mnp.swapaxes(x, 0, 5)', ValueError),
    ('mnp.swapaxes(x, 0, 1.5)', TypeError),
    ('mnp.moveaxis(x, 0, 5)', ValueError),
    ("mnp.moveaxis(x, 'a', 0)", TypeError),
    ('mnp.rollaxis(x, 5)', ValueError),
    ('mnp.concatenate(1)', TypeError),
    ('mnp.concatenate((x, x), axis=5)', ValueError),
    ("mnp.concatenate((x, x), axis='a')", TypeError),
    ("mnp.stack((x, x), axis='a')", TypeError),
    ("mnp.split(x, 'a')", TypeError),
    ('mnp.split(x, 4, axis=1)', ValueError),
    ("mnp.tile(x, 'a')", TypeError),
    ('mnp.repeat(x, 1.5)', TypeError),
    ('mnp.repeat(x, 2, axis=5)', ValueError),
    ('mnp.broadcast_to(x, (4, 4))', ValueError),
    ("mnp.roll(x, 'a')", TypeError),
    ('mnp.roll(x, 1, axis=5)', ValueError),
    ('mnp.rot90(x, 1, (0, 5))', ValueError),
    ('mnp.rot90(x, 1.5)', TypeError),
    ('mnp.diagonal(x, 0, 0, 5)', ValueError),
    ('mnp.trace(x, 1.5)', TypeError),
    ('mnp.tril(x, 1.5)', TypeError),
    ("mnp.triu(x, 'a')", TypeError),
    ('mnp.take(x, T([0]).astype(ms.int32), axis=5)', ValueError),
    ('mnp.dot([1], x)', TypeError),
    ("mnp.add(x, 'a')", TypeError),
    ("mnp.add('a', 'b')", TypeError),
    ("mnp.where('a', 1, 2)", TypeError),
    ("mnp.asarray('a')", TypeError),
    ("mnp.array([1, 2], dtype='foo')", TypeError),
    ('mnp.array([1, 2], ndmin=1.5)', TypeError),
    ('mnp.asarray([1], dtype=1)', TypeError),
    ("x.astype('foo')", TypeError),
    ('mnp.ravel([1, 2])', TypeError),
    ('mnp.size(x, 5)', ValueError),
    ("mnp.atleast_2d('a')", TypeError),
    ("mnp.pad(x, 'a')", TypeError),
    ("mnp.pad(x, 1, mode='foo')", ValueError),
    ("mnp.meshgrid(x, x, indexing='a')", TypeError),
    ("mnp.tensordot(x, x, 'a')", TypeError),
    ("mnp.kron('a', x)", TypeError),
    ("mnp.outer('a', x)", TypeError),
    ('mnp.cross(x, x, axis=5)', ValueError),
    ("mnp.norm(x, ord='foo')", ValueError),
    ("mnp.interp('a', x, x)", TypeError),
    ("mnp.searchsorted(T([1, 2]), T([1]), side='foo')", ValueError),
    ('mnp.bincount(T([1, 2]))', TypeError),
    ("mnp.digitize(x, 'a')", TypeError),
    ('mnp.flip(x, (0, 5))', ValueError),
    ("mnp.sum(x, dtype='foo')", TypeError),
    ("mnp.sum(x, keepdims='a')", TypeError),
    ("mnp.mean(x, dtype='foo')", TypeError),
    ("mnp.cumsum(x, dtype='foo')", TypeError),
    ("mnp.argmax('a')", TypeError),
    ("mnp.amax('a')", TypeError),
    ("mnp.expand_dims(x, 'a')", TypeError),
    ("mnp.full_like(x, 1, dtype='foo')", TypeError),
    ("mnp.zeros_like('a')", TypeError),
    ("mnp.ones_like(x, shape='a')", TypeError),
    ('mnp.diag(x, 1.5)', TypeError),
    ('mnp.tri(2.5)', TypeError),
    ('mnp.vander(T([1, 2]), 1.5)', TypeError),
    ("mnp.indices('a')", TypeError),
    ("mnp.unravel_index(T([1]).astype(ms.int32), 'a')", TypeError),
    ("mnp.array_split(x, 'a')", TypeError),
    ("mnp.hsplit(x, 'a')", TypeError),
    ('mnp.append(x, x, axis=5)', ValueError),
    ("mnp.polyval('a', x)", TypeError),
    ("mnp.logical_not('a')", TypeError),
    ("mnp.isclose('a', x)", TypeError),
    ("mnp.result_type('foo')", TypeError),
    ("mnp.promote_types('foo', 'bar')", TypeError),
    ("mnp.cov('a')", TypeError),
    ("mnp.corrcoef(x, rowvar='a')", TypeError),
    ("mnp.select('a', 'b')", TypeError),
    ("mnp.choose('a', x)", TypeError),
    ('mnp.apply_along_axis(mnp.sum, 5, x)', ValueError),
    ("mnp.exp('a')", TypeError),
    ("mnp.power(x, 'a')", TypeError),
    ("mnp.float_power(x, 'a')", TypeError),
]


@pytest.mark.parametrize("source, error", CASES, ids=[c[0] for c in CASES])
def test_exception_type_as_mindspore(source, error):
    namespace = {"mnp": mnp, "ms": ms, "T": T, "x": _x()}
    with pytest.raises(error):
        eval(source, namespace)  # the sources above, written in this file


def test_messages_name_the_argument():
    with pytest.raises(TypeError, match=r"numpy\.tril: `k` should be an integer, but got float"):
        mnp.tril(_x(), 1.5)
    with pytest.raises(ValueError, match=r"numpy\.ones: each entry in shape should be no less "
                       r"than 0, got \(-1, 2\)"):
        mnp.ones((-1, 2))
    with pytest.raises(TypeError, match=r"numpy\.expand_dims: axis must be tuple, list or int"):
        mnp.expand_dims(_x(), "a")
    with pytest.raises(TypeError, match=r"numpy\.reshape: expect Tensor, but got list"):
        mnp.reshape([1, 2], (2,))
    with pytest.raises(TypeError, match=r"numpy\.meshgrid: valid values for `indexing`"):
        mnp.meshgrid(_x(), _x(), indexing="a")


def test_valid_arguments_still_work():
    np.testing.assert_array_equal(mnp.tril(_x(), 0).asnumpy(), np.tril(np.arange(6.).reshape(2, 3)))
    # MindSpore 2.10's shapes for a tuple or list of axes
    assert mnp.expand_dims(_x(), (0, 1)).shape == (1, 1, 2, 3)
    assert mnp.expand_dims(_x(), [0, -1]).shape == (1, 2, 3, 1)
    assert mnp.expand_dims(_x(), (2, 0)).shape == (1, 2, 1, 3)
    assert mnp.expand_dims(_x(), (-1, -2)).shape == (2, 3, 1, 1)
    with pytest.raises(ValueError, match="duplicate axes"):
        mnp.expand_dims(_x(), (0, 0))
    with pytest.raises(ValueError, match="out of bounds"):
        mnp.expand_dims(_x(), (0, 5))
    assert mnp.reshape(_x(), [3, 2]).shape == (3, 2)
    assert mnp.ones((0, 2)).shape == (0, 2)
    assert mnp.linspace(0, 1, 0).shape == (0,)
    np.testing.assert_allclose(mnp.corrcoef(_x(), rowvar=False).asnumpy(),
                               np.corrcoef(np.arange(6.).reshape(2, 3), rowvar=False), rtol=1e-5)
    assert len(mnp.array_split(_x(), [1], axis=1)) == 2
    np.testing.assert_allclose(mnp.norm(_x(), ord=1).asnumpy(), 15.0)
