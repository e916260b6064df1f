"""nn layers and losses against MindSpore 2.10: each case of tests/data/nn_mindspore.json
(recorded by tools/oracle/make_nn_fixtures.py) builds the same Cell with the same arguments,
runs it on the recorded inputs and compares values, dtypes and shapes, or the exception type
where MindSpore raises."""
import json
from pathlib import Path

import numpy as np
import pytest

import cellgraph as cg
from cellgraph import nn

FIXTURE = json.loads((Path(__file__).parents[1] / "data" / "nn_mindspore.json").read_text())
CASES, OPTIMIZERS = FIXTURE["cases"], FIXTURE["optimizers"]
TENSOR_KWARGS = ("weight", "weights", "_random_samples")  # lists: float32 Tensors


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_matches_mindspore(case):
    def run():
        kwargs = {k: cg.Tensor(np.array(v, np.float32)) if k in TENSOR_KWARGS else
                  tuple(v) if isinstance(v, list) else v  # JSON keeps tuples as lists
                  for k, v in case["kwargs"].items()}
        args = [tuple(a) if isinstance(a, list) else a for a in case["args"]]  # as kwargs
        cell = getattr(nn, case["cls"])(*args, **kwargs)
        return cell(*(cg.Tensor(np.array(i["values"], i["dtype"])) for i in case["inputs"]))

    if "raises" in case:
        with pytest.raises(Exception) as info:
            run()
        assert case["raises"] in {k.__name__ for k in type(info.value).__mro__}
        return
    out = run()
    assert isinstance(out, tuple) == case["tuple"]
    for got, want in zip(out if case["tuple"] else (out,), case["outputs"]):
        assert got.shape == tuple(want["shape"]) and str(got.dtype).lower() == want["dtype"]
        np.testing.assert_allclose(got.asnumpy(), np.array(want["values"], want["dtype"]),
                                   rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("case", OPTIMIZERS, ids=[c["name"] for c in OPTIMIZERS])
def test_optimizer_steps_match_mindspore(case):
    params = [cg.Parameter(cg.Tensor(np.array(v, np.float32)), name=f"w{i}")
              for i, v in enumerate(case["initial"])]
    kwargs = {k: tuple(v) if isinstance(v, list) else v for k, v in case["kwargs"].items()}
    opt = getattr(nn, case["cls"])(params, **kwargs)  # JSON keeps tuples as lists
    for grads in case["steps"]:
        opt(tuple(cg.Tensor(np.array(g, np.float32)) for g in grads))
    for got, want in zip(params, case["params"]):
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5, atol=1e-6)
    state = {p.name: p for p in opt.get_parameters()}
    for name, want in case["state"].items():
        np.testing.assert_allclose(state[name].asnumpy(), want, rtol=1e-5, atol=1e-6,
                                   err_msg=name)


def test_windowed_max_pool_gradient_goes_to_the_maximum():
    x = cg.Tensor(np.array([[[1.0, 3.0, 2.0, 5.0, 4.0]]], np.float32))
    pool = nn.MaxPool1d(2, 2, pad_mode="pad", padding=1, ceil_mode=True)
    grad = cg.grad(lambda v: pool(v).sum())(x)
    np.testing.assert_array_equal(grad.asnumpy(), [[[1.0, 1.0, 0.0, 1.0, 0.0]]])


def test_layers_mindspore_cpu_cannot_run():
    """Roll, MatDet and MatInverse raise RuntimeError on MindSpore 2.10's CPU (their kernels
    are GPU/Ascend only); here they compute, checked against NumPy."""
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    np.testing.assert_array_equal(nn.Roll((1, -2), (0, 1))(cg.Tensor(x)).asnumpy(),
                                  np.roll(x, (1, -2), (0, 1)))
    spd = np.array([[4.0, 1.0, 0.0], [1.0, 3.0, 0.5], [0.0, 0.5, 2.0]], np.float32)
    np.testing.assert_allclose(nn.MatDet()(cg.Tensor(spd)).asnumpy(), np.linalg.det(spd),
                               rtol=1e-5)
    np.testing.assert_allclose(nn.MatInverse()(cg.Tensor(spd)).asnumpy(), np.linalg.inv(spd),
                               rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="one length"):
        nn.Roll((1, 2), 0)
