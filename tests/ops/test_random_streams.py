"""MindSpore's CPU random kernels' streams, bit for bit: UniformReal and UniformInt
(std::mt19937, runtime/mt19937.py) and StandardNormal (std::default_random_engine and
libstdc++'s polar method, runtime/rng.MinstdStream.normal), seeded by the (global, op) seed
pairs the functions take from `_get_graph_seed`. Every literal below is MindSpore 2.10 CPU's
output for the same program."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, ops
from cellgraph.primitives import dtype as dt
from cellgraph.runtime.mt19937 import Mt19937Stream
from cellgraph.runtime.rng import MinstdStream, _standard_normal, _uniform_int

F32 = np.float32
STEP = (3528531795 ^ 3449720151) % (2**31 - 1)  # how far each call moves a kernel's op seed


def test_uniform_real_stream():
    np.testing.assert_array_equal(Mt19937Stream(1, 0).random((4,)),
                                  F32([0.542962015, 0.805786252, 0.367500991, 0.746574819]))
    np.testing.assert_array_equal(Mt19937Stream(1, STEP).random((4,)),
                                  F32([0.552572608, 0.0529002957, 0.708081961, 0.438685685]))
    stream = Mt19937Stream(2, 3)  # carried on from draw to draw
    np.testing.assert_array_equal(stream.random((3,)), F32([0.396490216, 0.354150116, 0.983663321]))
    np.testing.assert_array_equal(stream.random((3,)), F32([0.411600709, 0.664226115, 0.332766145]))


def test_uniform_int_stream_skips_the_words_past_the_last_whole_range():
    stream = Mt19937Stream(2, 0)
    np.testing.assert_array_equal(stream.integers(0, 10, (5,)), [0, 3, 1, 7, 4])
    np.testing.assert_array_equal(stream.integers(0, 1000000, (5,)),
                                  [307566, 1313, 52332, 573916, 906023])
    out = _uniform_int((2, 2), -3, 2, seed=Mt19937Stream(1, 0))
    assert out.dtype == np.int32 and out.shape == (2, 2)


def test_uniform_int_stream_over_many_rejections_is_the_same_draw_by_draw():
    """A range just over half the words rejects almost half of them: drawn at once, or a few
    at a time, the values and the stream's position are the same."""
    high = 2**31 + 5
    whole, parts = Mt19937Stream(4, 4), Mt19937Stream(4, 4)
    np.testing.assert_array_equal(
        whole.integers(0, high, (300,)).astype(np.int64),
        np.concatenate([parts.integers(0, high, (n,)) for n in (1, 7, 92, 200)]).astype(np.int64))
    np.testing.assert_array_equal(whole.random((5,)), parts.random((5,)))


def test_standard_normal_stream():
    np.testing.assert_array_equal(MinstdStream(1, 0).normal((3,)),
                                  F32([0.227979973, -0.959947646, 0.531462252]))
    np.testing.assert_array_equal(
        MinstdStream(1, STEP).normal((5,)),
        F32([-1.0079329, -0.493810117, -0.197238386, 1.1559366, -0.550050676]))
    stream = MinstdStream(2, 0)  # an odd count drops the last pair's second value
    np.testing.assert_array_equal(stream.normal((3,)), F32([0.61242485, 0.865331531, 1.01712561]))
    np.testing.assert_array_equal(stream.normal((3,)),
                                  F32([0.411936581, -2.05382824, 0.259088784]))
    out = _standard_normal((2, 3), dt.float64, seed=MinstdStream(1, 0))
    assert out.dtype == np.float64 and out.shape == (2, 3)


def test_functions_take_the_kernel_seeds_of_each_call():
    ms.set_seed(1)
    np.testing.assert_array_equal(ops.rand(4).asnumpy(),
                                  F32([0.542962015, 0.805786252, 0.367500991, 0.746574819]))
    np.testing.assert_array_equal(ops.rand(4).asnumpy(),
                                  F32([0.552572608, 0.0529002957, 0.708081961, 0.438685685]))
    np.testing.assert_array_equal(ops.randn(3).asnumpy(),
                                  F32([0.227979973, -0.959947646, 0.531462252]))
    np.testing.assert_array_equal(
        ops.randn(5).asnumpy(), F32([-1.0079329, -0.493810117, -0.197238386, 1.1559366, -0.550050676]))
    # each function has its own op seeds: uniform and normal start where rand and randn did
    np.testing.assert_array_equal(ops.uniform((3,), Tensor(0.0), Tensor(1.0)).asnumpy(),
                                  F32([0.542962015, 0.805786252, 0.367500991]))
    np.testing.assert_array_equal(ops.normal((3,), Tensor(0.0), Tensor(1.0)).asnumpy(),
                                  F32([0.227979973, -0.959947646, 0.531462252]))
    out = ops.randint(0, 10, (4,))
    assert out.dtype == ms.int64
    np.testing.assert_array_equal(out.asnumpy(), [8, 5, 9, 8])


def test_uniform_of_ints_draws_as_uniform_int():
    ms.set_seed(1)
    out = ops.uniform((4,), Tensor(1, ms.int32), Tensor(7, ms.int32), dtype=ms.int32)
    assert out.dtype == ms.int32
    np.testing.assert_array_equal(out.asnumpy(), [6, 4, 6, 5])


def test_functions_with_an_op_seed():
    ms.set_seed(1)
    np.testing.assert_array_equal(
        ops.normal((3,), Tensor(1.0), Tensor(2.0), seed=3).asnumpy(),
        F32([0.261633992, 4.24872494, 2.21528339]))
    np.testing.assert_array_equal(
        ops.rand_like(Tensor(np.ones((2, 2), F32)), seed=5).asnumpy(),
        F32([[0.819751799, 0.118153825], [0.805100501, 0.159804031]]))
    with pytest.raises(ValueError):
        ops.rand(2, seed=-1)


def test_classes_keep_a_kernel_per_input_shape():
    ms.set_seed(1)
    normal = ops.StandardNormal(seed=2)
    np.testing.assert_array_equal(normal((3,)).asnumpy(),
                                  F32([0.61242485, 0.865331531, 1.01712561]))
    np.testing.assert_array_equal(normal((3,)).asnumpy(),
                                  F32([0.411936581, -2.05382824, 0.259088784]))
    np.testing.assert_array_equal(normal((2,)).asnumpy(), F32([0.61242485, 0.865331531]))
    uniform = ops.UniformReal(seed=2, seed2=3)
    np.testing.assert_array_equal(uniform((3,)).asnumpy(),
                                  F32([0.396490216, 0.354150116, 0.983663321]))
    np.testing.assert_array_equal(uniform((3,)).asnumpy(),
                                  F32([0.411600709, 0.664226115, 0.332766145]))
    ints = ops.UniformInt(seed=2)
    low = Tensor(0, ms.int32)
    np.testing.assert_array_equal(ints((5,), low, Tensor(10, ms.int32)).asnumpy(), [0, 3, 1, 7, 4])


def test_a_draw_in_a_graph_keeps_its_kernel_from_run_to_run():
    ms.set_seed(1)
    ops.rand(4)
    ops.rand(4)

    @ms.jit
    def noisy(x):
        return ops.rand(3) + x

    zero = Tensor(0.0)
    np.testing.assert_array_equal(noisy(zero).asnumpy(),
                                  F32([0.48339361, 0.0813519806, 0.706049681]))
    np.testing.assert_array_equal(noisy(zero).asnumpy(),
                                  F32([0.310028344, 0.376832515, 0.671280265]))


def test_two_draws_in_a_graph_and_set_seed_again():
    @ms.jit
    def two_draws(x):
        return ops.rand_like(x), ops.rand_like(x)

    x = Tensor(np.zeros((2,), F32))
    ms.set_seed(7)
    first, second = (t.asnumpy() for t in two_draws(x))
    np.testing.assert_array_equal(first, F32([0.7238217, 0.914742529]))
    np.testing.assert_array_equal(second, F32([0.606185913, 0.0586269312]))
    np.testing.assert_array_equal(two_draws(x)[0].asnumpy(), F32([0.123841152, 0.178211406]))
    ms.set_seed(7)  # the compiled graph's kernels go on
    np.testing.assert_array_equal(two_draws(x)[0].asnumpy(), F32([0.469132423, 0.394839495]))


def test_numpy_draws_take_the_global_seed_as_their_op_seed():
    ms.set_seed(1)
    np.testing.assert_array_equal(
        ms.numpy.rand((2, 3)).asnumpy(),
        F32([[0.510830581, 0.755661666, 0.568398416],
             [0.85721916, 0.305337399, 0.943789721]]))
    np.testing.assert_array_equal(
        ms.numpy.randn(2, 3).asnumpy(),
        F32([[-0.386250615, 0.195242018, 0.326399744],
             [0.251106709, 0.957622409, 0.0763678402]]))
    np.testing.assert_array_equal(ms.numpy.randint(1, 10, (2, 3)).asnumpy(),
                                  [[7, 5, 2], [7, 8, 6]])
    np.testing.assert_array_equal(ms.numpy.rand(2, 2, dtype=ms.float64).asnumpy(),
                                  np.float64(F32([[0.740738451, 0.101132289],
                                                  [0.643005252, 0.129401505]])))
    ms.set_seed(0)  # the default graph seed stands in for 0
    np.testing.assert_array_equal(ms.numpy.rand(3).asnumpy(),
                                  F32([0.29337725, 0.116698146, 0.293237537]))


def test_shuffle_takes_the_random_shuffle_kernels_order():
    ms.set_seed(1)
    np.testing.assert_array_equal(ops.shuffle(Tensor([1, 2, 3, 4], ms.float32), seed=1).asnumpy(),
                                  F32([4, 1, 2, 3]))
    np.testing.assert_array_equal(ops.shuffle(Tensor(np.arange(6))).asnumpy(), [5, 2, 0, 3, 4, 1])
    np.testing.assert_array_equal(ops.shuffle(Tensor(np.arange(12).reshape(4, 3))).asnumpy(),
                                  [[6, 7, 8], [0, 1, 2], [9, 10, 11], [3, 4, 5]])
    np.testing.assert_array_equal(ops.shuffle(Tensor(np.arange(300))).asnumpy()[:8],
                                  [17, 244, 115, 4, 94, 284, 158, 170])
    shuffle = ops.RandomShuffle(seed=2, seed2=3)  # one kernel, carried on
    x = Tensor(np.arange(5))
    np.testing.assert_array_equal(shuffle(x).asnumpy(), [0, 1, 3, 2, 4])
    np.testing.assert_array_equal(shuffle(x).asnumpy(), [3, 2, 0, 4, 1])

    @ms.jit
    def shuffled(x):
        return ops.shuffle(x)

    np.testing.assert_array_equal(shuffled(x).asnumpy(), [1, 3, 4, 2, 0])
    np.testing.assert_array_equal(shuffled(x).asnumpy(), [0, 3, 4, 2, 1])


def test_randperm_seeds_an_mt19937_afresh_from_offset_or_seed():
    np.testing.assert_array_equal(ops.randperm(4, 0, 0).asnumpy(), [0, 2, 1, 3])
    np.testing.assert_array_equal(ops.randperm(5).asnumpy(), [2, 4, 3, 0, 1])
    np.testing.assert_array_equal(ops.randperm(5).asnumpy(), [2, 4, 3, 0, 1])
    np.testing.assert_array_equal(ops.randperm(7, seed=3).asnumpy(), [3, 6, 0, 2, 5, 1, 4])
    out = ops.randperm(6, 0, 9, dtype=ms.float16)
    assert out.dtype == ms.float16
    np.testing.assert_array_equal(out.asnumpy(), [3, 2, 4, 5, 0, 1])
    assert sorted(ops.randperm(6, -1).asnumpy().tolist()) == list(range(6))
    with pytest.raises(ValueError):
        ops.randperm(3, -2)


def test_multinomial_draws_as_the_multinomial_kernel():
    x = Tensor([[0.0, 9.0, 4.0, 0.0]], ms.float32)
    multinomial = ops.Multinomial(seed=10)  # a kernel per input shape and sample count
    np.testing.assert_array_equal(multinomial(x, 2).asnumpy(), [[2, 2]])
    np.testing.assert_array_equal(multinomial(x, 2).asnumpy(), [[1, 1]])
    out = multinomial(x, 5)
    assert out.dtype == ms.int32
    np.testing.assert_array_equal(out.asnumpy(), [[2, 2, 1, 1, 2]])
    ms.set_seed(1)
    np.testing.assert_array_equal(ops.multinomial(Tensor(F32([0.2, 0.3, 0.5])), 4).asnumpy(),
                                  [0, 2, 2, 2])
    w = Tensor(F32([[90, 10, 0], [10, 90, 0]]))
    np.testing.assert_array_equal(ops.multinomial(w, 10).asnumpy(),
                                  [[0] * 10, [1, 1, 1, 0, 1, 1, 1, 1, 1, 1]])
    # without replacement: the top-k of log(u) / (w + 1e-6), u from a UniformReal kernel
    np.testing.assert_array_equal(ops.multinomial(w, 2, replacement=False).asnumpy(),
                                  [[0, 1], [1, 0]])
    np.testing.assert_array_equal(
        ops.multinomial(Tensor(F32([0.9, 0.1, 0.0])), 2, replacement=False).asnumpy(), [0, 1])
    many = Tensor(np.random.RandomState(0).rand(3, 50).astype(F32))
    np.testing.assert_array_equal(ops.multinomial(many, 30).asnumpy()[0, :10],
                                  [45, 31, 8, 13, 0, 7, 3, 4, 20, 13])


def test_rrelu_slopes_are_ops_uniform_draws():
    ms.set_seed(1)
    out = ops.rrelu(Tensor(F32([-1.0, -4.0, -2.0, 0.0, 3.0])))
    np.testing.assert_array_equal(out.asnumpy(),
                                  F32([-0.238117099, -1.17148852, -0.403125405, 0.0, 3.0]))
    out = ops.rrelu(Tensor(np.float64([-1.0, -4.0])), 0.1, 0.7)
    assert out.dtype == ms.float64
    np.testing.assert_array_equal(out.asnumpy(), np.float64(F32([-0.431543529, -0.526960731])))
    # a Cell's construct is compiled once, its draw a node keeping its kernel from call to
    # call: MindSpore's numbers in GRAPH_MODE
    ms.set_seed(1)
    rrelu = ms.nn.RReLU()
    x = Tensor(F32([[-1.0, 4.0], [-2.0, -3.0]]))
    np.testing.assert_array_equal(rrelu(x).asnumpy(),
                                  F32([[-0.238117099, 4.0], [-0.403125405, -0.84160924]]))
    np.testing.assert_array_equal(rrelu(x).asnumpy(),
                                  F32([[-0.295118153, 4.0], [-0.44308275, -0.741448522]]))


def test_laplace_draws_as_the_standard_laplace_kernel():
    ms.set_seed(1)
    np.testing.assert_array_equal(
        ops.standard_laplace((5,)).asnumpy(),
        F32([-1.43871081, 0.1998557, 0.928326607, 0.993297577, 0.633992851]))
    np.testing.assert_array_equal(ops.standard_laplace((3,), seed=4).asnumpy(),
                                  F32([-2.14227057, -0.0620380007, -4.53209066]))
    np.testing.assert_array_equal(ops.laplace((3,), Tensor(1.0), Tensor(2.0)).asnumpy(),
                                  F32([-1.87742162, 1.39971137, 2.85665321]))
    out = ops.laplace((2, 2), Tensor([1.0, 0.0]), Tensor(2.0))  # draws of `shape`, broadcast
    np.testing.assert_array_equal(out.asnumpy(),
                                  F32([[0.225449979, -2.13073945], [3.40120649, -0.254005432]]))
    laplace = ops.StandardLaplace(seed=3, seed2=1)
    np.testing.assert_array_equal(laplace((3,)).asnumpy(),
                                  F32([-0.635380924, 0.264896899, -1.43292129]))
    np.testing.assert_array_equal(laplace((3,)).asnumpy(),
                                  F32([-1.10232151, 0.891008556, 0.0672858879]))
    many = ops.standard_laplace((100000,), seed=9).asnumpy()
    np.testing.assert_array_equal(many[:3], F32([0.3888813853263855, 3.4615352153778076,
                                                 -0.5622507929801941]))
    assert float(np.abs(many).max()) == 15.536919593811035


def test_choice_with_mask_shuffles_the_true_positions_as_its_kernel():
    ms.set_seed(1)
    index, mask = ops.choice_with_mask(Tensor(np.ones(6, np.bool_)), 3)
    np.testing.assert_array_equal(index.asnumpy().ravel(), [5, 2, 0])
    x = Tensor(np.array([[1, 0, 1, 1], [0, 1, 1, 0], [1, 1, 0, 1]], np.bool_))
    index, mask = ops.choice_with_mask(x, 10)  # two rows past the 8 True elements
    np.testing.assert_array_equal(index.asnumpy(), [[2, 3], [2, 0], [1, 1], [2, 1], [1, 2],
                                                    [0, 0], [0, 2], [0, 3], [0, 0], [0, 0]])
    np.testing.assert_array_equal(mask.asnumpy(), [True] * 8 + [False] * 2)
    choose = ops.RandomChoiceWithMask(count=4, seed=3, seed2=2)  # its kernel, carried on
    np.testing.assert_array_equal(choose(x)[0].asnumpy(), [[2, 1], [0, 3], [0, 0], [0, 2]])
    np.testing.assert_array_equal(choose(x)[0].asnumpy(), [[1, 2], [2, 0], [0, 2], [0, 0]])
    flags = Tensor(np.random.RandomState(0).rand(300) > 0.3)
    np.testing.assert_array_equal(ops.choice_with_mask(flags, 5, seed=4)[0].asnumpy().ravel(),
                                  [279, 48, 130, 98, 217])


def test_bernoulli_with_a_seed_draws_as_its_philox_kernel():
    """Philox keyed by the seed, re-made at every run, the last block's unused words carried
    on; one kernel per seed, input and kind of p."""
    x = Tensor(np.full(6, 0.5, F32))
    np.testing.assert_array_equal(ops.bernoulli(x, 0.5, seed=90001).asnumpy(), [0, 0, 1, 0, 0, 1])
    np.testing.assert_array_equal(ops.bernoulli(x, 0.5, seed=90001).asnumpy(), [0, 1, 0, 0, 1, 0])
    np.testing.assert_array_equal(ops.bernoulli(x, x, seed=90001).asnumpy(), [0, 0, 1, 0, 0, 1])
    out = ops.bernoulli(Tensor(np.zeros((2, 3), np.int32)), 0.3, seed=90002)
    assert out.dtype == ms.int32
    np.testing.assert_array_equal(out.asnumpy(), [[0, 0, 1], [0, 0, 1]])
    np.testing.assert_array_equal(ops.bernoulli(x, 0.5, seed=90001).asnumpy(), [0, 0, 1, 0, 0, 1])
    out = ops.bernoulli(Tensor(np.zeros(9)), Tensor(np.linspace(0, 1, 9)), seed=90003)
    np.testing.assert_array_equal(out.asnumpy(), [0, 0, 1, 1, 1, 1, 0, 1, 1])


def test_random_poisson_draws_as_its_kernel():
    """std::mt19937 seeded with a PCG step of the pair's seed; Knuth's method below a rate of
    10, transformed rejection above; all of one rate's counts before the next rate's."""
    ms.set_seed(1)
    out = ops.random_poisson(Tensor(np.array([3], np.int32)), Tensor(F32([1.0])))
    np.testing.assert_array_equal(out.asnumpy().ravel(), [1, 0, 2])
    out = ops.random_poisson(Tensor(np.array([2, 3], np.int32)), Tensor(F32([0.5, 4, 25, 300])),
                             dtype=ms.int32)
    assert out.dtype == ms.int32 and out.shape == (2, 3, 4)
    np.testing.assert_array_equal(out.asnumpy().ravel(), [
        1, 8, 25, 299, 1, 2, 28, 306, 0, 6, 20, 303, 0, 8, 29, 287, 0, 2, 33, 298, 0, 4, 26, 298])
    out = ops.random_poisson(Tensor(np.array([4], np.int64)),
                             Tensor(np.float64([[2.0, 12.0], [0.0, 7.5]])), seed=3,
                             dtype=ms.float64)
    np.testing.assert_array_equal(out.asnumpy().ravel(),
                                  [0, 13, 0, 6, 0, 16, 0, 5, 0, 14, 0, 8, 3, 8, 0, 6])
    out = ops.random_poisson(Tensor(np.array([1000], np.int32)), Tensor(F32([50.0])), seed=8)
    np.testing.assert_array_equal(out.asnumpy()[:20, 0], [46, 51, 49, 47, 46, 46, 48, 45, 54, 63,
                                                       48, 66, 43, 51, 61, 46, 40, 55, 68, 51])
    poisson = ops.RandomPoisson(seed=2, seed2=1)  # its kernel, carried on
    shape, rate = Tensor(np.array([3], np.int32)), Tensor(F32([5.0]))
    np.testing.assert_array_equal(poisson(shape, rate).asnumpy().ravel(), [2, 5, 5])
    np.testing.assert_array_equal(poisson(shape, rate).asnumpy().ravel(), [6, 4, 6])
