"""Mixed precision: which Cells compute in low precision, loss scaling, overflow skipping,
float16 and bfloat16 through kernels, graphs and checkpoints."""
import functools

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, amp, nn
from cellgraph.primitives.core import PRIMITIVES, abstract_of


@pytest.fixture(autouse=True)
def _seeded():
    ms.set_seed(0)


def _net():
    return nn.SequentialCell([nn.Dense(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Dense(8, 2)])


X = Tensor(np.random.default_rng(0).normal(size=(3, 4)).astype(np.float32))


def _types(net, *args) -> str:
    return ms.dump_ir(net, *args, stage="parse")


# ----- levels ----------------------------------------------------------------------------------

def test_o0_changes_nothing():
    net = amp.auto_mixed_precision(_net(), "O0")
    assert "f16" not in _types(net, X) and net(X).dtype == ms.float32


def test_o1_runs_the_white_list_in_float16_and_casts_back():
    net = amp.auto_mixed_precision(_net(), "O1")
    ir = _types(net, X)
    assert "matmul(" in ir and ": f16[3,8]" in ir  # Dense computes in float16
    assert "batch_norm" in ir and "f16[3,8], f16[8]" not in ir  # BatchNorm stays float32
    assert net(X).dtype == ms.float32


def test_o2_keeps_the_black_list_in_float32():
    net = _net()
    amp.auto_mixed_precision(net, "O2")
    ir = _types(net, X)
    bn = next(line for line in ir.splitlines() if "batch_norm(" in line)
    assert ": f32[3,8]" in bn or "f32[3,8]" in bn
    relu = next(line for line in ir.splitlines() if "relu(" in line)
    assert "f16[3,8]" in relu  # the black list's output is cast back to float16
    assert net(X).dtype == ms.float32  # the network's output is cast to float32
    assert all(p.dtype == ms.float32 for p in net.trainable_params())


@pytest.mark.parametrize("low", ["float16", "bfloat16"])
def test_o3_runs_everything_in_the_low_dtype(low):
    if low == "bfloat16":
        pytest.importorskip("ml_dtypes")
    net = amp.auto_mixed_precision(_net(), "O3", dtype=getattr(ms, low))
    bn = next(line for line in _types(net, X).splitlines() if "batch_norm(" in line)
    assert f"{getattr(ms, low).short}[3,8]" in bn
    assert net(X).dtype == ms.float32


def test_levels_are_checked():
    with pytest.raises(ValueError, match="O4"):
        amp.auto_mixed_precision(_net(), "O4")
    with pytest.raises(ValueError, match=r"one of \(mstype.float16, mstype.bfloat16\)"):
        amp.auto_mixed_precision(_net(), "O2", dtype=ms.float64)
    with pytest.raises(TypeError, match="Cell"):
        amp.auto_mixed_precision(lambda x: x, "O2")


def test_white_and_black_lists_are_mindspores():
    assert {nn.Dense, nn.Conv2d, ms.ops.MatMul, ms.ops.ReLU} <= set(amp.get_white_list())
    assert set(amp.get_black_list()) >= {nn.BatchNorm1d, nn.BatchNorm2d, nn.LayerNorm}


class _PrimitiveNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(Tensor(np.linspace(-1, 1, 8).reshape(4, 2).astype(np.float32)),
                              name="w")
        self.matmul = ms.ops.MatMul()
        self.exp = ms.ops.Exp()

    def construct(self, x):
        return self.exp(self.matmul(x, self.w))


def test_o1_casts_around_white_list_primitives():
    net = amp.auto_mixed_precision(_PrimitiveNet(), "O1")
    lines = _types(net, X).splitlines()
    assert ": f16[3,2]" in next(line for line in lines if " = matmul(" in line)
    assert ": f32[3,2]" in next(line for line in lines if " = exp(" in line)  # not white-listed
    out = net(X)
    assert out.dtype == ms.float32
    x16, w16 = X.asnumpy().astype(np.float16), net.w.asnumpy().astype(np.float16)
    np.testing.assert_allclose(out.asnumpy(), np.exp((x16 @ w16).astype(np.float32)),
                               rtol=1e-6)
    grads = ms.grad(net, grad_position=None, weights=net.trainable_params())(X)
    assert grads[0].dtype == ms.float32
    assert "MatMul" in repr(net.matmul) and net.matmul.transpose_a is False


def test_custom_mixed_precision():
    net = amp.custom_mixed_precision(_net(), white_list=[nn.ReLU])
    relu = next(line for line in _types(net, X).splitlines() if "relu(" in line)
    assert "f16[3,8]" in relu
    with pytest.raises(ValueError, match="exactly one"):
        amp.custom_mixed_precision(_net())


def test_to_float_recompiles_when_changed():
    net = nn.Dense(4, 2)
    assert net(X).dtype == ms.float32
    net.to_float(ms.float16)
    out = net(X)
    assert out.dtype == ms.float16
    reference = X.asnumpy().astype(np.float16) @ net.weight.asnumpy().astype(np.float16).T
    np.testing.assert_allclose(out.asnumpy(), reference + net.bias.asnumpy().astype(np.float16),
                               rtol=2e-3, atol=2e-3)
    net.to_float(ms.float32)
    assert net(X).dtype == ms.float32


def test_gradients_reach_the_float32_master_weights():
    net = nn.Dense(4, 2).to_float(ms.float16)
    grads = ms.grad(net, grad_position=None, weights=net.trainable_params())(X)
    assert [g.dtype for g in grads] == [ms.float32, ms.float32]
    np.testing.assert_allclose(grads[1].asnumpy(), [3.0, 3.0])
    np.testing.assert_allclose(grads[0].asnumpy(), np.tile(X.asnumpy().sum(0), (2, 1)),
                               rtol=2e-3, atol=2e-3)


# ----- loss scalers and overflow --------------------------------------------------------------

def test_all_finite():
    finite = (Tensor(np.ones(3, np.float32)), Tensor(np.zeros((2, 2), np.float16)))
    assert bool(amp.all_finite(finite).asnumpy())
    for bad in (np.inf, -np.inf, np.nan):
        values = finite + (Tensor(np.array([1.0, bad], np.float32)),)
        assert not bool(amp.all_finite(values).asnumpy())


def test_static_loss_scaler():
    scaler = amp.StaticLossScaler(1024)
    np.testing.assert_allclose(scaler.scale(Tensor(np.array(0.5, np.float32))).asnumpy(), 512)
    grads = scaler.unscale((Tensor(np.array([2048.0], np.float32)),))
    np.testing.assert_allclose(grads[0].asnumpy(), [2.0])
    assert scaler.adjust(Tensor(np.array(False))) is False


def test_dynamic_loss_scaler_halves_on_overflow_and_grows_after_the_window():
    scaler = amp.DynamicLossScaler(scale_value=2 ** 10, scale_factor=2, scale_window=3)

    def scale():
        return float(scaler.scale_value.asnumpy())

    scaler.adjust(Tensor(np.array(False)))
    assert scale() == 2 ** 9
    for _ in range(2):
        scaler.adjust(Tensor(np.array(True)))
    assert scale() == 2 ** 9
    scaler.adjust(Tensor(np.array(True)))
    assert scale() == 2 ** 10
    for _ in range(20):
        scaler.adjust(Tensor(np.array(False)))
    assert scale() == 1.0  # never below one


def test_dynamic_loss_scaler_in_a_graph():
    scaler = amp.DynamicLossScaler(scale_value=2 ** 8, scale_factor=2, scale_window=2)
    net = nn.Dense(4, 1)
    loss_fn = nn.WithLossCell(net, nn.MSELoss())
    grad_fn = ms.value_and_grad(lambda x, y: scaler.scale(loss_fn(x, y)), None,
                                net.trainable_params())

    @ms.jit
    def step(x, y):
        loss, grads = grad_fn(x, y)
        grads = scaler.unscale(grads)
        finite = amp.all_finite(grads)
        scaler.adjust(finite)
        return scaler.unscale(loss), finite

    y = Tensor(np.zeros((3, 1), np.float32))
    _, finite = step(X, y)
    assert bool(finite.asnumpy())
    step(X, y)
    assert float(scaler.scale_value.asnumpy()) == 2 ** 9


def _loss_scale_step(scale_sense, lr=0.1):
    net = nn.Dense(4, 1)
    opt = nn.Momentum(net.trainable_params(), lr, 0.9)
    return net, opt, nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()), opt,
                                                      scale_sense)


def _state(net, opt):
    return [p.asnumpy().copy() for p in list(net.get_parameters()) + list(
        opt.get_parameters())]


def test_overflow_check_methods_for_subclasses_that_write_construct():
    manager = nn.DynamicLossScaleUpdateCell(loss_scale_value=8.0, scale_factor=2,
                                            scale_window=1000)
    _, _, step = _loss_scale_step(manager)
    loss = Tensor(np.float32(1.0))
    status, passed = step.start_overflow_check(loss, step.scale_sense)
    assert status.shape == (8,) and float(passed.asnumpy()) == 8.0
    finite = (Tensor(np.ones(2, np.float32)), Tensor(np.zeros((2, 2), np.float32)))
    assert not bool(step.get_overflow_status(status, finite).asnumpy())
    poisoned = (finite[0], Tensor(np.array([[0.0, np.nan], [1.0, 2.0]], np.float32)))
    overflow = step.get_overflow_status(status, poisoned)
    assert bool(overflow.asnumpy())

    class Verdict(nn.Cell):  # as a subclass's construct calls it
        def construct(self, overflow):
            return step.process_loss_scale(overflow)

    assert bool(Verdict()(overflow).asnumpy())
    assert float(step.scale_sense.asnumpy()) == 4.0  # the update Cell halved the scale


def test_injected_overflow_skips_the_update_and_lowers_the_scale():
    manager = nn.DynamicLossScaleUpdateCell(loss_scale_value=2 ** 12, scale_factor=2,
                                            scale_window=1000)
    net, opt, step = _loss_scale_step(manager)
    y = Tensor(np.zeros((3, 1), np.float32))
    before = _state(net, opt)
    poisoned = X.asnumpy().copy()
    poisoned[0, 0] = np.inf
    _, overflow, _ = step(Tensor(poisoned), y)
    assert bool(overflow.asnumpy())
    for old, new in zip(before, _state(net, opt)):  # weights, moments and step counter
        np.testing.assert_array_equal(old, new)
    assert float(step.scale_sense.asnumpy()) == 2 ** 11
    _, overflow, _ = step(X, y)
    assert not bool(overflow.asnumpy())
    assert not np.array_equal(before[0], net.weight.asnumpy())
    assert opt.global_step.asnumpy().item() == 1


def test_loss_scaled_step_matches_the_unscaled_step():
    net, _, step = _loss_scale_step(Tensor(np.array(64.0, np.float32)))
    reference = nn.Dense(4, 1)
    for p, q in zip(reference.get_parameters(), net.get_parameters()):
        p.set_data(q.asnumpy())
    plain = nn.TrainOneStepCell(nn.WithLossCell(reference, nn.MSELoss()),
                                nn.Momentum(reference.trainable_params(), 0.1, 0.9))
    y = Tensor(np.ones((3, 1), np.float32))
    for _ in range(3):
        step(X, y)
        plain(X, y)
    np.testing.assert_allclose(net.weight.asnumpy(), reference.weight.asnumpy(), rtol=1e-5)
    step.set_sense_scale(Tensor(np.array(8.0, np.float32)))
    assert float(step.scale_sense.asnumpy()) == 8.0


def test_dynamic_update_cell_raises_the_scale_after_its_window():
    manager = nn.DynamicLossScaleUpdateCell(loss_scale_value=4, scale_factor=2, scale_window=2)
    _, _, step = _loss_scale_step(manager, lr=0.01)
    y = Tensor(np.zeros((3, 1), np.float32))
    scales = []
    for _ in range(4):
        step(X, y)
        scales.append(float(step.scale_sense.asnumpy()))
    assert scales == [4, 8, 8, 16]


def test_loss_scale_managers():
    fixed = ms.FixedLossScaleManager(128, drop_overflow_update=False)
    assert fixed.get_loss_scale() == 128 and fixed.get_update_cell() is None
    assert isinstance(ms.FixedLossScaleManager(16).get_update_cell(),
                      nn.FixedLossScaleUpdateCell)
    dynamic = ms.DynamicLossScaleManager(init_loss_scale=16, scale_factor=2, scale_window=2)
    dynamic.update_loss_scale(True)
    assert dynamic.get_loss_scale() == 8
    dynamic.update_loss_scale(False)
    dynamic.update_loss_scale(False)
    assert dynamic.get_loss_scale() == 16
    cell = dynamic.get_update_cell()
    assert isinstance(cell, nn.DynamicLossScaleUpdateCell) and cell.get_loss_scale() == 16
    with pytest.raises(ValueError, match="scale_window"):
        ms.DynamicLossScaleManager(scale_window=0)


def test_build_train_network_levels_and_managers():
    net = _net()
    opt = nn.SGD(net.trainable_params(), 0.01)
    step = amp.build_train_network(net, opt, nn.MSELoss(), level="O2")
    assert isinstance(step, nn.TrainOneStepWithLossScaleCell)  # O2 scales dynamically
    assert float(step.scale_sense.asnumpy()) == 2 ** 24
    net = _net()
    fixed = amp.build_train_network(net, nn.SGD(net.trainable_params(), 0.01), nn.MSELoss(),
                                    level="O2", loss_scale_manager=ms.FixedLossScaleManager(
                                        64, drop_overflow_update=False))
    assert type(fixed) is nn.TrainOneStepCell and fixed.sens == 64
    with pytest.raises(ValueError, match="keyword"):
        amp.build_train_network(net, opt, level="O2", keep_bn_fp32=True)


# ----- low-precision kernels and checkpoints --------------------------------------------------

# Operations on an operand's bytes, not its value (a bitcast): a float16 operand's bytes are
# not a float32 one's, so no float32 reference stands for them
BYTE_LEVEL = {"view_dtype"}


def _low_precision_cases(np_dtype):
    from tests.ops.test_kernels import CASES, _call

    for name, cases in CASES.items():
        if name in BYTE_LEVEL:
            continue
        for case in cases:
            operands = tuple(o.astype(np_dtype) if isinstance(o, np.ndarray) and
                             o.dtype == np.float32 else o for o in case.operands)
            if any(isinstance(o, np.ndarray) and o.dtype == np_dtype for o in operands):
                yield name, case, operands, _call(name, case)


@pytest.mark.parametrize("low", ["float16", "bfloat16"])
def test_every_kernel_keeps_the_low_precision_dtype_in_a_graph(low):
    dtype = getattr(ms, low)
    if low == "bfloat16":
        pytest.importorskip("ml_dtypes")
    np_dtype = dtype.np
    checked = 0
    for name, case, operands, fn in _low_precision_cases(np_dtype):
        prim = PRIMITIVES[name]
        try:
            rule = prim.abstract_eval([abstract_of(o) for o in operands], case.params)
        except (TypeError, ValueError):
            continue  # an op that takes no low-precision operands
        rules = rule if prim.multiple_results else (rule,)
        with np.errstate(all="ignore"):
            out = ms.jit(functools.partial(lambda f, *xs: f(*xs), fn))(
                *[Tensor(o) if isinstance(o, np.ndarray) else o for o in operands])
        outs = out if isinstance(out, tuple) else (out,)
        widened = [Tensor(x.astype(np.float32)) if isinstance(x, np.ndarray) and
                   x.dtype == np_dtype else x for x in operands]
        reference = fn(*widened)
        references = reference if isinstance(reference, tuple) else (reference,)
        if case.call is not None:  # a case's own call may cast (ops.bincount's float32)
            eager = fn(*[Tensor(o) if isinstance(o, np.ndarray) else o for o in operands])
            eager = eager if isinstance(eager, tuple) else (eager,)
            rules = tuple(type(r)(r.shape, e.dtype) for r, e in zip(rules, eager))
        for o, r, ref in zip(outs, rules, references):
            assert o._data.dtype == r.dtype.np, f"{name}: {o._data.dtype}, rule {r}"
            if r.dtype == dtype:  # the low-precision result is near the float32 one
                np.testing.assert_allclose(o.asnumpy().astype(np.float32), ref.asnumpy(),
                                           rtol=5e-2, atol=5e-2, err_msg=name)
        checked += 1
    assert checked > 50


class _Weights(nn.Cell):
    def __init__(self, weight, bias):
        super().__init__()
        self.weight = ms.Parameter(Tensor(weight), name="weight")
        self.bias = ms.Parameter(Tensor(bias), name="bias")

    def construct(self, x):
        return ms.ops.matmul(x, self.weight) + self.bias


def test_bfloat16_round_trips_through_a_checkpoint(tmp_path):
    pytest.importorskip("ml_dtypes")
    bf16 = ms.bfloat16.np
    weight = np.array([[1.0, -2.5, 3.125], [0.1, 0.2, 0.3]]).astype(bf16)
    net = _Weights(weight, np.array([1e-3, 3e38]).astype(bf16))
    assert net.weight.dtype == ms.bfloat16
    path = str(tmp_path / "bf16.ckpt")
    ms.save_checkpoint(net, path)
    loaded = ms.load_checkpoint(path)
    assert loaded["weight"].dtype == ms.bfloat16 and loaded["bias"].dtype == ms.bfloat16
    np.testing.assert_array_equal(loaded["weight"].asnumpy(), weight)
    np.testing.assert_array_equal(loaded["bias"].asnumpy(), net.bias.asnumpy())
    into_bf16 = _Weights(np.zeros((2, 3), bf16), np.zeros(2, bf16))
    ms.load_param_into_net(into_bf16, loaded, strict_load=True)
    np.testing.assert_array_equal(into_bf16.weight.asnumpy(), weight)
    into_f32 = _Weights(np.zeros((2, 3), np.float32), np.zeros(2, np.float32))
    ms.load_param_into_net(into_f32, loaded)
    np.testing.assert_array_equal(into_f32.weight.asnumpy(), weight.astype(np.float32))
    with pytest.raises(TypeError, match="dtype"):
        ms.load_param_into_net(into_f32, loaded, strict_load=True)


def test_float16_round_trips_through_a_checkpoint(tmp_path):
    weight = np.array([[1.0, -2.5, 65504.0], [0.1, 6e-5, 0.3]], np.float16)
    net = _Weights(weight, np.zeros(3, np.float16))
    ms.save_checkpoint(net, str(tmp_path / "f16.ckpt"))
    loaded = ms.load_checkpoint(str(tmp_path / "f16.ckpt"))
    assert loaded["weight"].dtype == ms.float16
    np.testing.assert_array_equal(loaded["weight"].asnumpy(), weight)


def test_the_functional_mixed_precision_tutorial_loop():
    """MindSpore 2.x's own pattern: scale, unscale, `if is_finite:` around the optimizer."""
    from cellgraph import ops
    from cellgraph.amp import DynamicLossScaler, all_finite, auto_mixed_precision

    model = nn.SequentialCell([nn.Dense(4, 16), nn.ReLU(), nn.Dense(16, 3)])
    model = auto_mixed_precision(model, "O2")
    loss_fn = nn.CrossEntropyLoss()
    optimizer = nn.SGD(model.trainable_params(), 1e-1)
    loss_scaler = DynamicLossScaler(scale_value=2 ** 40, scale_factor=2, scale_window=50)

    def forward_fn(data, label):
        logits = model(data)
        loss = loss_fn(logits, label)
        loss = loss_scaler.scale(loss)
        return loss, logits

    grad_fn = ms.value_and_grad(forward_fn, None, model.trainable_params(), has_aux=True)

    @ms.jit
    def train_step(data, label):
        (loss, _), grads = grad_fn(data, label)
        loss = loss_scaler.unscale(loss)
        is_finite = all_finite(grads)
        if is_finite:
            grads = loss_scaler.unscale(grads)
            loss = ops.depend(loss, optimizer(grads))
        loss_scaler.adjust(is_finite)
        return loss

    x = np.random.default_rng(0).normal(size=(32, 4)).astype(np.float32)
    y = Tensor(x[:, :3].argmax(1).astype(np.int32))
    first = model[0].weight.asnumpy().copy()
    losses, scales, steps = [], [], []
    for _ in range(40):
        losses.append(float(train_step(Tensor(x), y).asnumpy()))
        scales.append(float(loss_scaler.scale_value.asnumpy()))
        steps.append(optimizer.global_step.asnumpy().item())
    # 2**40 overflows float16: those steps are skipped (no update, no step counted) and the
    # scale halves each time until the gradients fit
    assert steps[0] == 0 and scales[0] == 2 ** 39
    skipped = steps.count(0)
    assert not np.array_equal(model[0].weight.asnumpy(), first)
    assert scales[skipped - 1] == 2 ** (40 - skipped) and steps[-1] == 40 - skipped > 0
    assert losses[-1] < losses[skipped]


def test_mixed_precision_in_pynative_mode():
    net = amp.auto_mixed_precision(_net(), "O2")
    graph_out = net(X).asnumpy()
    ms.set_context(mode=ms.PYNATIVE_MODE)
    try:
        assert net[0](X).dtype == ms.float16  # Dense computes in float16
        assert net[1](net[0](X)).dtype == ms.float16  # BatchNorm in float32, cast back
        out = net(X)
        assert out.dtype == ms.float32
        np.testing.assert_allclose(out.asnumpy(), graph_out, rtol=1e-3, atol=1e-3)
        assert all(p.dtype == ms.float32 for p in net.trainable_params())
    finally:
        ms.set_context(mode=ms.GRAPH_MODE)
