"""`_c_expression.amp` (the amp strategies and their stack) and level "auto" of
auto_mixed_precision, which runs a Cell or a function under one. Expected values are
MindSpore 2.10's."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, Tensor, nn, ops
from cellgraph._c_expression.amp import (
    AmpLevel,
    AmpStrategy,
    AutoPromoteList,
    PrimCastStrategy,
    create_amp_strategy,
    get_curr_amp_strategy,
    get_prim_cast_strategy_info,
    pop_amp_strategy,
    push_amp_strategy,
)
from cellgraph.train.amp import auto_mixed_precision

WHITE = [("Abs", [0]), ("Conv2D", [0, 1])]
BLACK = [("LayerNorm", [0]), ("Log", [])]


def _info(strategy, name):
    info = get_prim_cast_strategy_info(strategy, name)
    return info.strategy, info.dtype, info.arg_pos


def test_levels_and_strategies_are_numbered_as_mindspores():
    assert [(m.name, int(m)) for m in AmpLevel] == [
        ("AmpO0", 0), ("AmpO1", 1), ("AmpO2", 2), ("AmpO3", 3), ("AmpAuto", 4)]
    assert [(m.name, int(m)) for m in PrimCastStrategy] == [
        ("AmpIgnore", 0), ("AmpDoCast", 1), ("AmpSetDtype", 2), ("AmpSetDtypeOpt", 3),
        ("AmpAutoPromote", 4)]
    assert ("BiasAdd", []) in AutoPromoteList and ("Concat", []) in AutoPromoteList


def test_a_strategy_keeps_its_level_dtype_and_lists():
    strategy = create_amp_strategy(AmpLevel.AmpAuto, ms.float16, WHITE, BLACK)
    assert isinstance(strategy, AmpStrategy)
    assert strategy.get_amp_level() == AmpLevel.AmpAuto
    assert strategy.get_amp_dtype() == ms.float16
    assert strategy.get_white_list() == WHITE and strategy.get_black_list() == BLACK


@pytest.mark.parametrize("level, expected", [
    # (Abs, Log, BiasAdd, SumExt) under each level, as MindSpore 2.10 answers
    (AmpLevel.AmpO0, ["ignore", "ignore", "ignore", "ignore"]),
    (AmpLevel.AmpO1, ["f16", "ignore", "ignore", "ignore"]),
    (AmpLevel.AmpO2, ["f16", "f32", "f16", "f16"]),
    (AmpLevel.AmpO3, ["f16", "f16", "f16", "f16"]),
    (AmpLevel.AmpAuto, ["f16", "f32", "promote", "ignore"]),
])
def test_which_primitives_each_level_casts(level, expected):
    strategy = create_amp_strategy(level, ms.float16, [("Abs", [])], [("Log", [])])
    names = {(PrimCastStrategy.AmpIgnore, ms.float32): "ignore",
             (PrimCastStrategy.AmpDoCast, ms.float16): "f16",
             (PrimCastStrategy.AmpDoCast, ms.float32): "f32",
             (PrimCastStrategy.AmpAutoPromote, ms.float32): "promote"}
    got = [names[_info(strategy, n)[:2]] for n in ("Abs", "Log", "BiasAdd", "SumExt")]
    assert got == expected


def test_the_listed_argument_positions_are_reported():
    strategy = create_amp_strategy(AmpLevel.AmpAuto, ms.bfloat16, WHITE, BLACK)
    assert _info(strategy, "Conv2D") == (PrimCastStrategy.AmpDoCast, ms.bfloat16, [0, 1])
    assert _info(strategy, "LayerNorm") == (PrimCastStrategy.AmpDoCast, ms.float32, [0])
    assert _info(strategy, "Pad")[0] == PrimCastStrategy.AmpIgnore
    assert _info(None, "Abs")[0] == PrimCastStrategy.AmpIgnore


def test_push_and_pop_keep_a_stack():
    assert get_curr_amp_strategy() is None
    push_amp_strategy(AmpLevel.AmpAuto, ms.float16, WHITE, BLACK)
    push_amp_strategy(AmpLevel.AmpO1, ms.bfloat16, [("ReLU", [])], [])
    assert get_curr_amp_strategy().get_amp_dtype() == ms.bfloat16
    pop_amp_strategy()
    assert get_curr_amp_strategy().get_white_list() == WHITE
    pop_amp_strategy()
    assert get_curr_amp_strategy() is None
    with pytest.warns(UserWarning, match="empty"):
        pop_amp_strategy()
    assert get_curr_amp_strategy() is None


def test_malformed_arguments_are_type_errors():
    with pytest.raises(TypeError, match="incompatible function arguments"):
        create_amp_strategy("x", ms.float16, [], [])
    with pytest.raises(TypeError, match="incompatible function arguments"):
        push_amp_strategy(AmpLevel.AmpO1, ms.float16, [("a",)], [])
    assert get_curr_amp_strategy() is None


def test_primitives_cast_their_inputs_under_a_pushed_strategy():
    x16 = Tensor(np.array([[2.0, 3.0]], np.float16))
    push_amp_strategy(AmpLevel.AmpO3, ms.float16, [], [])
    try:
        out = ops.Add()(Tensor(np.array([[1.0, 2.0]], np.float32)), x16)
        assert out.dtype == ms.float16
        np.testing.assert_array_equal(out.asnumpy(), [[3.0, 5.0]])
    finally:
        pop_amp_strategy()
    assert ops.Add()(Tensor(np.array([[1.0, 2.0]], np.float32)), x16).dtype == ms.float32


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([[0.1, 0.2], [0.3, 0.4]], np.float32)))
        self.b = Parameter(Tensor(np.array([0.5, -0.25], np.float32)))
        self.matmul = ops.MatMul()
        self.bias_add = ops.BiasAdd()
        self.exp = ops.Exp()
        self.concat = ops.Concat()

    def construct(self, x):
        y = self.matmul(x, self.w)
        z = self.bias_add(y, self.b)
        e = self.exp(ops.cast(y, ms.float16))
        return y, z, e, self.concat((y, z))


X = np.array([[1.1, 2.3], [0.7, -1.9]], np.float32)
# MindSpore 2.10's results of _Net under "auto", in both modes
Y = [[0.80029296875, 1.1396484375], [-0.5, -0.6201171875]]
Z = [[1.30029296875, 0.8896484375], [0.0, -0.8701171875]]
E = [[2.226193428039551, 3.125669240951538], [0.606530487537384, 0.5378813147544861]]


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_auto_casts_white_black_and_promoted_primitives(mode):
    ms.set_context(mode=mode)
    try:
        net = auto_mixed_precision(_Net(), "auto")
        y, z, e, c = net(Tensor(X))
        assert [t.dtype for t in (y, z, e, c)] == [ms.float16, ms.float32, ms.float32,
                                                   ms.float32]
        np.testing.assert_array_equal(y.asnumpy(), Y)
        np.testing.assert_array_equal(z.asnumpy(), Z)
        np.testing.assert_allclose(e.asnumpy(), E, rtol=1e-6)
        np.testing.assert_array_equal(c.asnumpy(), Y + Z)
        assert net._amp_level == "auto" and isinstance(net.amp_strategy, AmpStrategy)
        assert get_curr_amp_strategy() is None  # only during the call
        assert _Net()(Tensor(X))[0].dtype == ms.float32  # other instances untouched
    finally:
        ms.set_context(mode=ms.GRAPH_MODE)


def test_auto_takes_a_function():
    def fn(a, b):
        return (ops.MatMul()(a, b), ops.Concat()((a, ops.cast(b, ms.float16))),
                ops.Log()(ops.cast(a, ms.float16) + 3))

    wrapped = auto_mixed_precision(fn, "auto")
    assert wrapped.__name__ == "fn" and wrapped._amp_level == "auto"
    mm, cat, log = wrapped(Tensor(X), Tensor(X))
    assert (mm.dtype, cat.dtype, log.dtype) == (ms.float16, ms.float32, ms.float32)
    np.testing.assert_array_equal(mm.asnumpy(), [[2.8203125, -1.8427734375],
                                                 [-0.560546875, 5.22265625]])
    np.testing.assert_allclose(log.asnumpy(), [[1.411367654800415, 1.667853832244873],
                                               [1.3081214427947998, 0.09495499730110168]],
                               rtol=1e-6)
    assert fn(Tensor(X), Tensor(X))[0].dtype == ms.float32


def test_auto_argument_errors_are_mindspores():
    with pytest.raises(TypeError, match="For amp_level 'O1', the network type should be Cell"):
        auto_mixed_precision(lambda x: x, "O1")
    with pytest.raises(TypeError, match="should be Cell or function"):
        auto_mixed_precision(3, "auto")
    with pytest.raises(ValueError, match="The amp level O5 is not supported"):
        auto_mixed_precision(_Net(), "O5")
    with pytest.raises(ValueError, match="The dtype should be one of"):
        auto_mixed_precision(_Net(), "auto", ms.float32)


def test_float16_with_bfloat16_promotes_to_float32():
    pytest.importorskip("ml_dtypes")  # bfloat16 data needs it
    out = Tensor([1.5], ms.float16) + Tensor([2.25], ms.bfloat16)
    assert out.dtype == ms.float32
    np.testing.assert_array_equal(out.asnumpy(), [3.75])
