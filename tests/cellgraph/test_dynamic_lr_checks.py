"""nn.dynamic_lr checks its arguments as MindSpore does: ints where it takes ints (a float or a
bool is a TypeError), floats where it takes floats, and milestones that never decrease."""
import pytest

from cellgraph import nn


@pytest.mark.parametrize("call, error", [
    (lambda: nn.piecewise_constant_lr([1, 3, 5], [1, 2, 1]), TypeError),
    (lambda: nn.piecewise_constant_lr([1.0, 3, 5], [0.1, 0.2, 0.1]), TypeError),
    (lambda: nn.piecewise_constant_lr([3, 1], [0.1, 0.2]), ValueError),
    (lambda: nn.piecewise_constant_lr([1, 3], [0.1]), ValueError),
    (lambda: nn.exponential_decay_lr(0.1, 0.9, 2.0, 1, 1), TypeError),
    (lambda: nn.exponential_decay_lr(0.1, 0.9, 10, True, 1), TypeError),
    (lambda: nn.exponential_decay_lr(0.1, 0.9, 10, 1, "m"), TypeError),
    (lambda: nn.exponential_decay_lr(1, 0.9, 10, 1, 1), TypeError),
    (lambda: nn.exponential_decay_lr(0.1, 0.9, 10, 1, 1, is_stair=1), TypeError),
    (lambda: nn.polynomial_decay_lr(0.1, -1.0, 10, 1, 2, 0.5), ValueError),
    (lambda: nn.polynomial_decay_lr(0.1, 0, 10, 1, 2, 0.5), TypeError),
    (lambda: nn.polynomial_decay_lr(0.1, 0.01, 10, 1, 2, 0.5, 1), TypeError),
    (lambda: nn.cosine_decay_lr(0, 0.1, 10, 1, 2), TypeError),
    (lambda: nn.cosine_decay_lr(0.2, 0.1, 10, 1, 2), ValueError),
    (lambda: nn.warmup_lr(1, 10, 1, 2), TypeError),
])
def test_argument_checks(call, error):
    with pytest.raises(error):
        call()


def test_values_and_repeated_milestones():
    # a milestone equal to the one before adds no step, as in MindSpore
    assert nn.piecewise_constant_lr([2, 2, 3], [0.1, 0.2, 0.3]) == [0.1, 0.1, 0.3]
    assert nn.polynomial_decay_lr(0.1, 0.01, 4, 1, 2, 0.5, True)[-1] == pytest.approx(
        0.09 * (1 - 3 / 4) ** 0.5 + 0.01)
    assert nn.warmup_lr(0.1, 3, 1, 2) == [0.0, 0.05, 0.1]


@pytest.mark.parametrize("call, error", [
    (lambda: nn.ExponentialDecayLR(0.1, 0.9, "m"), TypeError),
    (lambda: nn.ExponentialDecayLR(0.1, 0.9, 2, is_stair=1), TypeError),
    (lambda: nn.InverseDecayLR(1, 0.9, 2), TypeError),
    (lambda: nn.PolynomialDecayLR(0.1, -1.0, 3, 0.5), ValueError),
    (lambda: nn.PolynomialDecayLR(0.1, 0, 3, 0.5), TypeError),
    (lambda: nn.PolynomialDecayLR(0.1, 0.01, 3, 0.5, update_decay_steps=1), TypeError),
    (lambda: nn.CosineDecayLR(0, 0.1, 2), TypeError),
    (lambda: nn.CosineDecayLR(0.2, 0.1, 2), ValueError),
    (lambda: nn.WarmUpLR(1, 2), TypeError),
])
def test_schedule_argument_checks(call, error):
    with pytest.raises(error):
        call()


def test_polynomial_decay_with_update_decay_steps_matches_mindspore():
    import numpy as np

    from cellgraph import Tensor

    schedule = nn.PolynomialDecayLR(0.1, 0.01, 3, 0.5, update_decay_steps=True)
    rates = [float(schedule(Tensor(np.array([i], np.int32))).asnumpy().reshape(-1)[0])
             for i in range(8)]
    # MindSpore 2.10's values: decay_steps grows to the next multiple of 3 past the step
    np.testing.assert_allclose(rates, [0.10000000149011612, 0.08348468691110611,
                                       0.061961524188518524, 0.009999999776482582,
                                       0.061961524188518524, 0.04674234986305237,
                                       0.009999999776482582, 0.052426405251026154], rtol=1e-6)
