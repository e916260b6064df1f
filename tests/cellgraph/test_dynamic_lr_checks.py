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
