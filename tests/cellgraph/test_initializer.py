"""cellgraph.common.initializer: the distributions and their bounds, names, reproducibility
from set_seed, errors, and MindSpore's own initial values bit for bit."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

import cellgraph
import cellgraph as ms
from cellgraph import Parameter, Tensor, nn
from cellgraph.common import _random_init
from cellgraph.common import initializer as init_mod
from cellgraph.common.initializer import (
    Constant,
    HeNormal,
    HeUniform,
    Normal,
    One,
    TruncatedNormal,
    Uniform,
    XavierNormal,
    XavierUniform,
    Zero,
    initializer,
)
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError

SHAPE = (200, 300)  # fan_in 300, fan_out 200


def _values(init, shape=SHAPE, dtype=cellgraph.float32):
    t = initializer(init, shape, dtype)
    assert isinstance(t, Tensor) and t.shape == shape and t.dtype == dtype
    return t.asnumpy().astype(np.float64)


@pytest.mark.parametrize("init, low, high", [
    (Uniform(0.3), -0.3, 0.3),
    ("uniform", -0.07, 0.07),
    (XavierUniform(), -math.sqrt(6 / 500), math.sqrt(6 / 500)),
    ("xavier_uniform", -math.sqrt(6 / 500), math.sqrt(6 / 500)),
    (HeUniform(), -math.sqrt(6 / 300), math.sqrt(6 / 300)),
    (HeUniform(math.sqrt(5)), -1 / math.sqrt(300), 1 / math.sqrt(300)),
    ("he_uniform", -math.sqrt(6 / 300), math.sqrt(6 / 300)),
    (TruncatedNormal(0.5, a=-0.4, b=0.6), -0.4, 0.6),
])
def test_uniform_families_fill_their_bounds(init, low, high):
    v = _values(init)
    assert v.min() >= low - 1e-7 and v.max() <= high + 1e-7
    assert v.min() < low + 0.05 * (high - low) and v.max() > high - 0.05 * (high - low)


@pytest.mark.parametrize("init, mean, std", [
    (Normal(0.02, 1.0), 1.0, 0.02),
    ("normal", 0.0, 0.01),
    (XavierNormal(2.0), 0.0, 2 * math.sqrt(2 / 500)),
    (HeNormal(mode="fan_out", nonlinearity="relu"), 0.0, math.sqrt(2 / 200)),
])
def test_normal_families_have_their_moments(init, mean, std):
    v = _values(init)
    assert abs(v.mean() - mean) < 5 * std / math.sqrt(v.size)
    assert abs(v.std() / std - 1) < 0.02


def test_constants_tensors_and_dtypes():
    np.testing.assert_array_equal(_values("zeros", (2, 3)), np.zeros((2, 3)))
    np.testing.assert_array_equal(_values(One(), (4,)), np.ones(4))
    np.testing.assert_array_equal(_values(Zero(), (1,)), [0.0])
    np.testing.assert_array_equal(_values(Constant(2.5), (2,), cellgraph.float64), [2.5, 2.5])
    np.testing.assert_array_equal(_values(3, (2,), cellgraph.int32), [3, 3])
    given = np.arange(6.0).reshape(2, 3)
    np.testing.assert_array_equal(_values(Tensor(given, cellgraph.float32), (2, 3)), given)


def test_set_seed_makes_initialisation_reproducible():
    cellgraph.set_seed(11)
    first = nn.Dense(5, 4).weight.asnumpy()
    cellgraph.set_seed(11)
    np.testing.assert_array_equal(nn.Dense(5, 4).weight.asnumpy(), first)
    assert cellgraph.get_seed() == 11
    assert not np.array_equal(nn.Dense(5, 4).weight.asnumpy(), first)


def test_initializer_of_a_tensor_is_that_tensor_with_its_dtype():
    # MindSpore 2.10 returns the Tensor itself: an int32 one stays int32 whatever `dtype` says
    labels = Tensor(np.array([2, 1, 0], np.int32))
    assert initializer(labels, (3,)) is labels
    assert initializer(labels, (3,), cellgraph.float16).dtype == cellgraph.int32
    assert Parameter(initializer(labels, labels.shape), name="labels").dtype == cellgraph.int32


def test_initializer_errors():
    with pytest.raises(ArgumentValueError, match="unknown initializer name 'glorot'"):
        initializer("glorot", (2, 2))
    with pytest.raises(ShapeError, match=r"the 'init' shape \[2, 2\] and the 'shape' "
                                         r"\(3, 2\)"):
        initializer(Tensor(np.ones((2, 2))), (3, 2))
    deferred = initializer(XavierUniform(), (5,))  # as in MindSpore, the values come later
    with pytest.raises(ShapeError, match="fan in and fan out need a shape of rank >= 2"):
        deferred.init_data()
    with pytest.raises(DTypeError, match="`init` must be an Initializer"):
        initializer([1, 2], (2,))
    with pytest.raises(ArgumentValueError, match="set_seed: `seed` must be >= 0"):
        cellgraph.set_seed(-1)


def test_orthogonal_identity_and_variance_scaling():
    from cellgraph.common.initializer import (
        Identity,
        Orthogonal,
        VarianceScaling,
        initializer,
    )

    cellgraph.set_seed(0)
    wide = initializer(Orthogonal(), (3, 5)).asnumpy()
    np.testing.assert_allclose(wide @ wide.T, np.eye(3), atol=1e-5)
    tall = initializer(Orthogonal(gain=2.0), (6, 2, 2)).asnumpy().reshape(6, 4)
    np.testing.assert_allclose(tall.T @ tall, 4 * np.eye(4), atol=1e-4)
    np.testing.assert_array_equal(initializer(Identity(), (2, 3)).asnumpy(), np.eye(2, 3))
    for distribution in ("uniform", "untruncated_normal", "truncated_normal"):
        values = initializer(VarianceScaling(2.0, "fan_in", distribution), (200, 50)).asnumpy()
        assert abs(values.std() - np.sqrt(2 / 50)) < 0.01, distribution
    truncated = initializer(VarianceScaling(1.0, "fan_in"), (200, 50)).asnumpy()
    assert np.abs(truncated).max() <= 2 * np.sqrt(1 / 50) / 0.8796 + 1e-6


# NumPy's global state after MindSpore 2.10 builds these (recorded from it, seed 1): every
# random initialization takes one draw from NumPy's generator, an RNN draws its weights there.
_MS_NEXT_DRAW = {"dense_and_conv": 0.30233257263183977, "lstm_cell": 0.6167783570016576,
                 "lstm_2_layers_bidirectional": 0.9488362882802196}


def test_initializers_consume_numpys_generator_as_mindspore():
    cellgraph.set_seed(1)
    assert np.random.rand() == 0.417022004702574  # set_seed seeds NumPy too
    cellgraph.set_seed(1)
    nn.Dense(3, 4), nn.Conv2d(1, 2, 3)  # weight, bias; weight (no bias by default)
    assert np.random.rand() == _MS_NEXT_DRAW["dense_and_conv"]
    cellgraph.set_seed(1)
    nn.LSTMCell(3, 4)
    assert np.random.rand() == _MS_NEXT_DRAW["lstm_cell"]
    cellgraph.set_seed(1)
    lstm = nn.LSTM(3, 4, num_layers=2, bidirectional=True)
    assert np.random.rand() == _MS_NEXT_DRAW["lstm_2_layers_bidirectional"]
    # an RNN's weights are MindSpore's own values: drawn from NumPy in its order
    assert lstm.weight_ih_l1_reverse.asnumpy().ravel()[0] == np.float32(-0.4430356025695801)
    cellgraph.set_seed(1)
    initializer(Zero(), (2, 2), cellgraph.float32)  # nothing random: no draw
    assert np.random.rand() == 0.417022004702574


def test_user_initializer_fills_through_initialize_and_assignment():
    from cellgraph.common.initializer import Initializer, _assignment

    class Ramp(Initializer):
        def __init__(self, step):
            super().__init__(step=step)
            self.step = step

        def _initialize(self, arr):
            _assignment(arr, np.arange(arr.size).reshape(arr.shape) * self.step)

    np.testing.assert_array_equal(initializer(Ramp(2), (2, 2), cellgraph.float32).asnumpy(),
                                  [[0, 2], [4, 6]])
    dense = nn.Dense(2, 2, weight_init=Ramp(1.0))
    np.testing.assert_array_equal(dense.weight.asnumpy(), [[0, 1], [2, 3]])
    scalar = np.zeros(())
    assert _assignment(scalar, 5.0) == 5.0
    with pytest.raises(TypeError, match="numpy.ndarray"):
        Ramp(1)([1, 2])


# ----- MindSpore's numbers (tests/data/mindspore_random_init.npz, recorded from MindSpore 2.10 by
# tools/oracle/make_random_init_fixtures.py) ---------------------------------------------------

MS_RANDOM = np.load(Path(__file__).resolve().parents[1] / "data" / "mindspore_random_init.npz")
MS_INITIALIZERS = [("normal", lambda: init_mod.Normal(0.02, 0.1), (3, 5), ms.float32),
                   ("uniform", lambda: init_mod.Uniform(0.3), (4, 4), ms.float32),
                   ("truncated_normal", lambda: init_mod.TruncatedNormal(0.5), (7,), ms.float32),
                   ("xavier_uniform", init_mod.XavierUniform, (6, 3, 2, 2), ms.float32),
                   ("xavier_normal", lambda: init_mod.XavierNormal(2.0), (5, 8), ms.float32),
                   ("he_uniform", init_mod.HeUniform, (16, 4), ms.float32),
                   ("he_normal", lambda: init_mod.HeNormal(mode="fan_out"), (3, 9), ms.float32),
                   ("orthogonal", init_mod.Orthogonal, (3, 6), ms.float32),
                   ("variance_scaling", lambda: init_mod.VarianceScaling(
                       distribution="untruncated_normal"), (4, 5), ms.float32),
                   ("normal_float64", init_mod.Normal, (2, 3), ms.float64)]


def _same_bits(got: np.ndarray, want: np.ndarray, what: str) -> None:
    assert got.dtype == want.dtype and got.shape == want.shape, what
    assert np.array_equal(got.view(np.uint8), want.view(np.uint8)), what


@pytest.mark.parametrize("key", [k for k in MS_RANDOM.files if k.startswith("raw_")])
def test_generator_gives_mindspores_numbers_bit_for_bit(key):
    """Philox4x32-10 and MindSpore's three transforms, over sizes MindSpore splits across
    threads too."""
    _, kind, seed, n = key.split("_")
    seed, n = int(seed), int(n)
    got = {"normal": lambda: _random_init.normal(seed, (n,), 0.1, 0.02),
           "uniform": lambda: _random_init.uniform(seed, (n,), -0.3, 0.7),
           "truncated": lambda: _random_init.truncated_normal(seed, (n,), -0.05, 0.3, 0.1, 0.2),
           }[kind]()
    _same_bits(got, MS_RANDOM[key], key)


def test_initializers_and_default_layers_start_from_mindspores_values():
    """After set_seed(1): every random initializer, the default parameters of Dense, Conv2d,
    Embedding and LSTM, and NumPy's next draws, all as MindSpore 2.10 gives them."""
    ms.set_seed(1)
    for name, make, shape, dtype in MS_INITIALIZERS:
        _same_bits(init_mod.initializer(make(), shape, dtype).asnumpy(), MS_RANDOM[name], name)
    for label, cell in (("dense", nn.Dense(20, 30)), ("conv", nn.Conv2d(3, 8, 3)),
                        ("embedding", nn.Embedding(50, 8)), ("lstm", nn.LSTM(4, 6))):
        for p in cell.get_parameters():
            _same_bits(p.asnumpy(), MS_RANDOM[f"{label}.{p.name}"], f"{label}.{p.name}")
    _same_bits(np.random.rand(3), MS_RANDOM["numpy_after"], "NumPy's next draws")


def test_a_registered_initializer_is_known_by_its_names():
    # MindChemistry registers its own Uniform with MindSpore's _register; the values are
    # MindSpore 2.10's for the same seed
    from cellgraph.common.initializer import (
        Initializer,
        _assignment,
        _init_random_uniform,
        _register,
        initializer,
    )

    @_register("myalias")
    class MyUni(Initializer):
        def __init__(self, scale=1.0):
            super().__init__(scale=scale)
            self.scale = scale

        def _initialize(self, arr):
            _assignment(arr, _init_random_uniform(0.0, self.scale, arr.shape))

    np.random.seed(3)
    np.testing.assert_allclose(initializer(MyUni(), [2, 3]).asnumpy(),
                               [[0.27186325, 0.49697283, 0.38673767],
                                [0.20661362, 0.9100463, 0.16159718]], rtol=1e-6)
    np.testing.assert_allclose(initializer("myalias", [2]).asnumpy(), [0.9824928, 0.48087022],
                               rtol=1e-6)
    np.testing.assert_allclose(initializer("myuni", [2]).asnumpy(), [0.48638028, 0.782848],
                               rtol=1e-6)
    assert _init_random_uniform(-1.0, 1.0, (3,)).dtype == np.float32
    assert _register("uniform")(MyUni) is MyUni
    assert init_mod._NAMES["uniform"] is init_mod.Uniform  # a known name keeps its class


def test_sparse_and_dirac_as_mindspore():
    """MindSpore 2.10's values after np.random.seed(3): Sparse draws its normal matrix and one
    permutation per column from NumPy's generator, as MindSpore does (the next draw agrees)."""
    from cellgraph.common.initializer import Dirac, Sparse

    np.random.seed(3)
    sparse = init_mod.initializer(Sparse(sparsity=0.5, sigma=1.0), [4, 3], ms.float32)
    assert sparse.init_data().asnumpy().tolist() == [
        [-1.7227400541305542, 0.5587192177772522, 0.0],
        [-2.967068672180176, -0.026168283075094223, 0.0],
        [0.0, 0.0, 1.8434691429138184], [0.0, 0.0, -1.2346270084381104]]
    assert np.random.randint(0, 1000) == 681
    dirac = init_mod.initializer(Dirac(groups=2), [4, 2, 3], ms.float32).init_data().asnumpy()
    assert dirac.tolist() == [[[0, 1, 0], [0, 0, 0]], [[0, 0, 0], [0, 1, 0]],
                              [[0, 1, 0], [0, 0, 0]], [[0, 0, 0], [0, 1, 0]]]
    with pytest.raises(ValueError, match="dimension of 3, 4 or 5"):
        init_mod.initializer(Dirac(), [4, 2], ms.float32).init_data()
    with pytest.raises(ValueError, match="should be 2"):
        init_mod.initializer(Sparse(0.1), [4, 2, 2], ms.float32).init_data()
    with pytest.raises(ValueError, match="'scale' must be greater than 0"):
        init_mod.VarianceScaling(scale=-0.1)


def test_native_random_fills_as_mindspore():
    """mindspore._c_expression's in-place fills, MindSpore's values for seed 12345."""
    from cellgraph._c_expression import _random_normal, _random_uniform, _truncated_normal

    expected = {
        _random_normal: ((0.0, 1.0), [-0.2672114968299866, 0.20863831043243408,
                                      -0.515648603439331, 0.08299954235553741,
                                      -0.3239993155002594]),
        _random_uniform: ((-1.0, 1.0), [0.29665684700012207, -0.5883027911186218,
                                        -0.23487304151058197, -0.533302366733551,
                                        -0.16116003692150116]),
        _truncated_normal: ((-2.0, 2.0, 0.0, 1.0), [0.3626837730407715, -0.7747876048088074,
                                                    -0.2847786247730255, -0.6887778639793396,
                                                    -0.19400395452976227]),
    }
    for fill, (args, values) in expected.items():
        arr = np.ndarray((5,), np.float32)
        fill(12345, arr, *args)
        assert arr.tolist() == values
