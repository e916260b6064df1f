"""ops.RandomShuffle and ops.shuffle: a permutation of the first axis, a 0-d Tensor as it is,
each seeded instance a generator of its own (as each MindSpore kernel), and MindSpore 2.10's
checks of the input and the seeds."""
import numpy as np
import pytest

from cellgraph import Tensor, nn, ops
from cellgraph.ops.operations import random_ops

X = np.arange(24, dtype=np.float32).reshape(6, 4)


class ShuffleNet(nn.Cell):
    def __init__(self, seed, seed2):
        super().__init__()
        self.shuffle = random_ops.RandomShuffle(seed, seed2)

    def construct(self, x):
        return self.shuffle(x)


def _is_row_permutation(got):
    assert sorted(map(tuple, got.tolist())) == sorted(map(tuple, X.tolist()))


@pytest.mark.parametrize("dtype", [np.int8, np.uint64, np.bool_, np.complex64, np.float16])
def test_every_dtype_and_shape_kept(dtype):
    x = Tensor(np.array([1, 2, 3, 4, 5]).astype(dtype))
    out = random_ops.RandomShuffle(1, 1)(x)
    assert out.shape == (5,) and out.dtype == x.dtype
    assert random_ops.RandomShuffle(3, 1)(Tensor(np.float32(2.5))).asnumpy() == np.float32(2.5)


def test_instances_with_the_same_seeds_agree_and_each_goes_on():
    first, second = random_ops.RandomShuffle(6, 2), random_ops.RandomShuffle(6, 2)
    a, b = first(Tensor(X)).asnumpy(), second(Tensor(X)).asnumpy()
    np.testing.assert_array_equal(a, b)
    _is_row_permutation(a)
    draws = [first(Tensor(X)).asnumpy() for _ in range(5)]
    assert any(not np.array_equal(d, a) for d in draws)  # its stream goes on
    nets = ShuffleNet(6, 2), ShuffleNet(6, 2)  # in graphs: one generator per compiled node
    np.testing.assert_array_equal(nets[0](Tensor(X)).asnumpy(), nets[1](Tensor(X)).asnumpy())
    _is_row_permutation(ops.shuffle(Tensor(X), seed=3).asnumpy())


@pytest.mark.parametrize("call, error, message", [
    (lambda: ops.shuffle(2, seed=3), TypeError, r"must be Tensor but got Int64\."),
    (lambda: ops.shuffle(Tensor(X), seed=-3), ValueError, "'seed' must be int and must >= 0"),
    (lambda: ops.shuffle(Tensor(X), seed=1.6), TypeError, "'seed' must be int, but got 'float'"),
    (lambda: ops.shuffle(Tensor(X), seed=True), TypeError, "with type 'bool'"),
    (lambda: random_ops.RandomShuffle(-1, 0), ValueError, "For 'RandomShuffle'"),
    (lambda: random_ops.RandomShuffle(0, 1.5), TypeError, "'seed2' must be int"),
])
def test_checks_as_mindspore(call, error, message):
    with pytest.raises(error, match=message):
        call()
