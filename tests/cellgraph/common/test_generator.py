"""`cellgraph.common.generator`: MindSpore's Generator (a seed and an offset), its 16-byte state
and the default generator's module functions. Expected values are MindSpore 2.10's."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import nn
from cellgraph.common.generator import (
    Generator,
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    set_rng_state,
)


class _Run(nn.Cell):
    def construct(self, generator, step):
        return generator._step(step)


def _pair(pair):
    return int(pair[0]), int(pair[1])


def test_state_packs_seed_then_offset_as_little_endian_int64():
    generator = Generator()
    state = generator.get_state()
    assert state.dtype == ms.uint8 and state.shape == (16,)
    np.testing.assert_array_equal(state.asnumpy(), np.zeros(16, np.uint8))
    assert generator.manual_seed(5) is generator
    generator._step(ms.Tensor(3, ms.int64))
    generator._step(ms.Tensor(3, ms.int64))
    # MindSpore: [5 0 0 0 0 0 0 0 6 0 0 0 0 0 0 0]
    np.testing.assert_array_equal(generator.get_state().asnumpy(),
                                  [5, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0])
    assert generator.initial_seed() == 5
    generator.manual_seed(-1)  # any int, as MindSpore
    np.testing.assert_array_equal(generator.get_state().asnumpy(), [255] * 8 + [0] * 8)


def test_step_returns_the_pair_then_moves_the_offset_eagerly_and_in_a_graph():
    generator = Generator().manual_seed(1)
    assert _pair(generator._step(ms.Tensor(3, ms.int64))) == (1, 0)
    assert _pair(generator._step(ms.Tensor(3, ms.int64))) == (1, 3)
    ms.set_context(mode=ms.GRAPH_MODE)
    run = _Run()
    assert _pair(run(generator, ms.Tensor(1, ms.int64))) == (1, 6)
    assert _pair(run(generator, ms.Tensor(1, ms.int64))) == (1, 7)


def test_set_state_restores_another_generators_pair():
    first = Generator().manual_seed(5)
    first._step(ms.Tensor(2, ms.int64))
    state = first.get_state()
    expected = _pair(first._step(ms.Tensor(1, ms.int64)))
    second = Generator()
    second.set_state(state)
    assert _pair(second._step(ms.Tensor(1, ms.int64))) == expected == (5, 2)


def test_seed_draws_a_new_seed_and_resets_the_offset():
    generator = Generator().manual_seed(4)
    generator._step(ms.Tensor(9, ms.int64))
    value = generator.seed()
    assert isinstance(value, int) and generator.initial_seed() == value
    assert _pair(generator._step(ms.Tensor(1, ms.int64))) == (value, 0)


def test_bad_seeds_and_states_raise_as_mindspore():
    generator = Generator()
    with pytest.raises(TypeError, match="Seed must be an integer."):
        generator.manual_seed(1.5)
    with pytest.raises(RuntimeError, match="Invalid tensor input: State"):
        generator.set_state([1] * 16)
    with pytest.raises(RuntimeError, match="State data type must be UInt8, but got Int64"):
        generator.set_state(ms.Tensor([1, 2], ms.int64))
    with pytest.raises(RuntimeError, match="State data size must be 16, but got 3"):
        generator.set_state(ms.Tensor([1, 2, 3], ms.uint8))


def test_module_functions_act_on_the_default_generator():
    assert ms.manual_seed is manual_seed and ms.Generator is Generator
    assert manual_seed(3) is default_generator and initial_seed() == 3
    state = get_rng_state()
    first = _pair(default_generator._step(ms.Tensor(5, ms.int64)))
    set_rng_state(state)
    assert _pair(default_generator._step(ms.Tensor(5, ms.int64))) == first == (3, 0)


def test_manual_seed_repeats_random_draws_but_leaves_numpy_and_get_seed():
    np.random.seed(1)
    expected = np.random.rand()
    np.random.seed(1)
    seed_before = ms.get_seed()
    manual_seed(7)
    assert np.random.rand() == expected and ms.get_seed() == seed_before
    first = ms.mint.rand(3).asnumpy()
    manual_seed(7)
    np.testing.assert_array_equal(ms.mint.rand(3).asnumpy(), first)


def test_a_new_generator_starts_at_seed_0_offset_0_as_mindsporess():
    generator = Generator()
    assert generator.initial_seed() == 0  # MindSpore 2.10's, and its default generator's
    np.testing.assert_array_equal(generator.get_state().asnumpy(), np.zeros(16, np.uint8))


def test_mint_draws_are_keyed_by_their_generators_seed_and_offset():
    generator = Generator().manual_seed(7)
    first = ms.mint.rand(3, generator=generator).asnumpy()
    state = generator.get_state()
    expected = np.zeros(16, np.uint8)
    expected[0], expected[8] = 7, 12  # each draw moves the offset on by 12, as MindSpore's
    np.testing.assert_array_equal(state.asnumpy(), expected)
    second = ms.mint.rand(3, generator=generator).asnumpy()
    assert not np.array_equal(first, second)
    generator.set_state(state)
    np.testing.assert_array_equal(ms.mint.rand(3, generator=generator).asnumpy(), second)
    generator.manual_seed(7)
    np.testing.assert_array_equal(ms.mint.randn(3, generator=generator).asnumpy(),
                                  ms.mint.randn(3, generator=Generator().manual_seed(7)).asnumpy())
    x = ms.ops.ones((4, 2))
    out = ms.ops.function.random_func.uniform_(x, 1.0, 2.0, generator=generator)
    assert out.shape == (4, 2) and ((out.asnumpy() >= 1) & (out.asnumpy() < 2)).all()
    with pytest.raises(AttributeError):  # MindSpore's, from generator._step
        ms.mint.rand(3, generator=5)


def test_get_rng_state_is_the_default_generators():
    manual_seed(3)
    ms.mint.rand(2)
    state = ms.get_rng_state()
    assert state.dtype == ms.uint8 and state.asnumpy()[0] == 3 and state.asnumpy()[8] == 12
    first = ms.mint.rand(2).asnumpy()
    ms.set_rng_state(state)
    np.testing.assert_array_equal(ms.mint.rand(2).asnumpy(), first)
