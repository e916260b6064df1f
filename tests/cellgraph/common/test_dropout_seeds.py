"""nn.Dropout's masks are MindSpore's once a global seed is set: each layer takes a (global, op)
seed pair when it is made, and its ops.Dropout draws from the generator MindSpore's CPU kernel
seeds from that pair. The values here were recorded from MindSpore 2.10 (CPU) running the same
program."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops
from cellgraph.common import seed as seeds
from cellgraph.runtime.rng import MinstdStream, kernel_seed

# masks ("1" kept) of three runs of Net below after set_seed(3), and the first run's values
MS_MASKS = ['110100110011110010011011', '010011101110110110101011', '111001110110101011010010']
MS_FIRST = [0.3174603581428528, 0.44168391823768616, 0.0, 0.6901311278343201, 0.0, 0.0,
            1.0628019571304321, 1.1870256662368774, 0.0, 0.0, 1.5596964359283447,
            1.6839200258255005, 1.8081437349319458, 1.932367205619812, 0.0, 0.0,
            2.3050379753112793, 0.0, 0.0, 2.677708864212036, 2.8019325733184814, 0.0,
            3.050379514694214, 3.1746034622192383]
# then a float16 input of (2, 7) filled with 0.3
MS_HALF = [0.95263671875, 0.95263671875, 0.0, 0.95263671875, 0.0, 0.0, 0.95263671875,
           0.95263671875, 0.0, 0.0, 0.95263671875, 0.95263671875, 0.95263671875,
           0.95263671875]


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.d1 = nn.Dropout(p=0.3)
        self.d2 = nn.Dropout(keep_prob=0.9)

    def construct(self, x):
        return self.d2(self.d1(x) * 2)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_dropout_masks_are_mindspores_run_after_run(mode):
    ms.set_context(mode=mode)
    try:
        ms.set_seed(3)
        net = Net()
        net.set_train()
        x = Tensor(np.linspace(0.1, 1, 24, dtype=np.float32).reshape(4, 6))
        runs = [net(x).asnumpy() for _ in range(3)]
        assert ["".join("1" if v else "0" for v in (r != 0).ravel()) for r in runs] == MS_MASKS
        np.testing.assert_array_equal(runs[0].ravel(), np.array(MS_FIRST, np.float32))
        half = net(Tensor(np.full((2, 7), 0.3, np.float16))).asnumpy()
        assert half.dtype == np.float16
        np.testing.assert_array_equal(half.ravel(), np.array(MS_HALF, np.float16))
    finally:
        ms.set_context(mode=ms.GRAPH_MODE)


def test_each_new_random_primitive_takes_the_next_op_seed_and_set_seed_starts_again():
    ms.set_seed(3)
    first, second = seeds._get_graph_seed(0, "dropout"), seeds._get_graph_seed(0, "dropout")
    assert first == (3, 0)
    assert second == (3, (3528531795 ^ 3449720151) % (2**31 - 1))
    assert seeds._get_graph_seed(5, "dropout") == (3, 5)  # its own seed: a stream of its own
    ms.set_seed(3)
    assert seeds._get_graph_seed(0, "dropout") == (3, 0)
    ms.set_seed(0)  # MindSpore's stand-in for a global seed of 0
    assert seeds._get_graph_seed(0, "dropout")[0] == seeds.DEFAULT_GRAPH_SEED
    with pytest.raises(ValueError, match="seed"):
        seeds._get_graph_seed(-1, "dropout")


def test_the_kernel_stream_is_minstd_seeded_through_philox():
    """std::default_random_engine (x <- 16807 x mod 2**31 - 1), seeded by MindSpore's Philox
    mix of the pair, each draw float32(x - 1) / 2**31; drawn in blocks or one by one alike."""
    stream, x = MinstdStream(7, 11), kernel_seed(7, 11) % (2**31 - 1)
    expected = []
    for _ in range(50):
        x = x * 16807 % (2**31 - 1)
        expected.append(np.float32(x - 1) / np.float32(2.0**31))
    drawn = np.concatenate([stream.random((20,)), stream.random((3, 10)).ravel()])
    np.testing.assert_array_equal(drawn.ravel(), np.array(expected, np.float32))


def test_without_a_seed_pair_the_masks_come_from_the_global_generator():
    op = ops.Dropout(keep_prob=0.5)
    x = Tensor(np.ones((50, 40), np.float32))
    ms.set_seed(1)
    first = op(x)[1].asnumpy()
    ms.set_seed(1)
    np.testing.assert_array_equal(op(x)[1].asnumpy(), first)
    assert 0.4 < first.mean() < 0.6


def test_a_copied_layer_carries_on_eagerly_and_compiles_afresh():
    """Eagerly the copy holds the layer's generators as they were; a compiled copy is a new
    graph, whose nodes start their generators again, as MindSpore's new kernels do."""
    import copy

    x = Tensor(np.ones((3, 8), np.float32))
    ms.set_context(mode=ms.PYNATIVE_MODE)
    try:
        ms.set_seed(4)
        layer = nn.Dropout(p=0.5)
        layer.set_train()
        layer(x)
        twin = copy.deepcopy(layer)
        np.testing.assert_array_equal(twin(x).asnumpy(), layer(x).asnumpy())
    finally:
        ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(4)
    layer = nn.Dropout(p=0.5)
    layer.set_train()
    first = layer(x).asnumpy()
    twin = copy.deepcopy(layer)
    np.testing.assert_array_equal(twin(x).asnumpy(), first)
    assert not np.array_equal(layer(x).asnumpy(), first)


def test_two_calls_of_one_layer_in_a_graph_draw_alike_and_eagerly_in_turn():
    """MindSpore 2.10: in a compiled graph each call is a kernel of its own (the same seed pair,
    the same masks); eagerly the layer's one kernel draws the next masks."""
    class Twice(nn.Cell):
        def __init__(self):
            super().__init__()
            self.d = nn.Dropout(p=0.5)

        def construct(self, x):
            return self.d(x), self.d(x)

    x = Tensor(np.ones((2, 6), np.float32))

    def bits(t):
        return "".join("1" if v else "0" for v in t.asnumpy().ravel())

    expected = {ms.GRAPH_MODE: (["001001101010", "001001101010"],
                                ["001100011110", "001100011110"]),
                ms.PYNATIVE_MODE: (["001001101010", "001100011110"],
                                   ["110111000001", "111111011101"])}
    for mode, (first, second) in expected.items():
        ms.set_context(mode=mode)
        try:
            ms.set_seed(2)
            net = Twice()
            net.set_train()
            assert [bits(t) for t in net(x)] == first
            assert [bits(t) for t in net(x)] == second
        finally:
            ms.set_context(mode=ms.GRAPH_MODE)


def test_ops_dropout_takes_the_next_seed_pair_on_every_call():
    """MindSpore 2.10, eagerly: with `seed` and no global seed, and two calls after set_seed."""
    x = Tensor(np.ones((2, 4), np.float32))

    def bits(t):
        return [int(v) for v in t.asnumpy().ravel()]

    ms.set_context(mode=ms.PYNATIVE_MODE)
    try:
        ms.set_seed(3)
        assert [bits(ops.dropout(x, p=0.5)) for _ in range(2)] == [
            [2, 0, 0, 2, 0, 0, 2, 2], [2, 0, 2, 0, 0, 2, 0, 0]]
        assert bits(ops.dropout(x, p=0.0)) == [1] * 8
        with pytest.raises(TypeError, match="'training' must be a bool"):
            ops.dropout(x, training=1)
        with pytest.raises(TypeError, match="must be a float"):
            ops.dropout(x, p=0)
    finally:
        ms.set_context(mode=ms.GRAPH_MODE)


def test_kernel_streams_are_restored_by_their_seeds_and_order():
    """What a resumed run needs: each stream, known by its seed pair and how many of that pair
    came before it, gets back the state it had, whether it is made before or after."""
    from cellgraph.runtime import rng

    first, second = MinstdStream(91, 92), MinstdStream(91, 92)
    first.random((5,))
    second.random((2,))
    states = rng.kernel_stream_states()
    expected = [first.random((4,)), second.random((4,))]
    rng.restore_kernel_stream_states(states)  # the live ones, now
    np.testing.assert_array_equal(first.random((4,)), expected[0])
    rng.restore_kernel_stream_states({k.replace("91,92,", "93,94,"): v
                                      for k, v in states.items() if k.startswith("91,92,")})
    later = [MinstdStream(93, 94), MinstdStream(93, 94)]  # made after: (93, 94, 0) and (.., 1)
    np.testing.assert_array_equal(later[0].random((4,)), expected[0])
    np.testing.assert_array_equal(later[1].random((4,)), expected[1])
