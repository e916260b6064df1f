"""MindSpore's in-place optimizer updates (ops.ApplyAdaMax ... ops.ApplyAddSign): the returned
values and the Parameters after the update, as MindSpore 2.10 (CPU) gives them for the same
operands (recorded below, rounded to 6 places), except where its kernel departs from the
published update (FTRL's l1 sign, AdagradDA's l1 shrinkage, Adagrad's update_slots=False), tested on their
own against the published updates."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph.ops import operations as P


def from_np(a):
    return ms.Tensor(np.asarray(a, np.float32))


base = {"var": [[0.6, 0.4], [0.1, 0.5]], "a": [[0.6, 0.5], [0.2, 0.6]], "b": [[0.3, 0.1], [0.7, 0.2]],
        "c": [[0.4, 0.9], [0.3, 0.8]]}
g = from_np([[0.3, -0.7], [0.1, 0.8]])


def S(v):
    return ms.Tensor(np.float32(v))


cases = {
 "ApplyAdaMax": (lambda: P.ApplyAdaMax(), ["var", "a", "b"], lambda op, p: op(p[0], p[1], p[2], S(0.9), S(0.001), S(0.9), S(0.99), S(1e-10), g)),
 "ApplyAdadelta": (lambda: P.ApplyAdadelta(), ["var", "a", "b"], lambda op, p: op(p[0], p[1], p[2], S(0.001), S(0.9), S(1e-6), g)),
 "ApplyAdagrad": (lambda: P.ApplyAdagrad(), ["var", "a"], lambda op, p: op(p[0], p[1], S(0.001), g)),
 "ApplyAdagradNoSlots": (lambda: P.ApplyAdagrad(update_slots=False), ["var", "a"], lambda op, p: op(p[0], p[1], S(0.001), g)),
 "ApplyAdagradV2": (lambda: P.ApplyAdagradV2(epsilon=1e-6), ["var", "a"], lambda op, p: op(p[0], p[1], S(0.001), g)),
 "ApplyAdagradDA": (lambda: P.ApplyAdagradDA(), ["var", "a", "b"], lambda op, p: op(p[0], p[1], p[2], g, S(0.001), S(0.001), S(0.001), ms.Tensor(np.int32(2)))),
 "ApplyFtrl": (lambda: P.ApplyFtrl(), ["var", "a", "b"], lambda op, p: op(p[0], p[1], p[2], g, S(0.001), S(0.0), S(0.0), S(-0.5))),
 "ApplyFtrlL1": (lambda: P.ApplyFtrl(), ["var", "a", "b"], lambda op, p: op(p[0], p[1], p[2], g, S(0.01), S(0.1), S(0.2), S(-0.5))),
 "ApplyProximalAdagrad": (lambda: P.ApplyProximalAdagrad(), ["var", "a"], lambda op, p: op(p[0], p[1], S(0.01), S(0.1), S(0.2), g)),
 "ApplyProximalGradientDescent": (lambda: P.ApplyProximalGradientDescent(), ["var"], lambda op, p: op(p[0], S(0.01), S(0.1), S(0.2), g)),
 "ApplyAdamWithAmsgrad": (lambda: P.ApplyAdamWithAmsgrad(), ["var", "a", "b", "c"], lambda op, p: op(p[0], p[1], p[2], p[3], S(0.3), S(0.2), S(0.01), g)),
 "ApplyPowerSign": (lambda: P.ApplyPowerSign(), ["var", "a"], lambda op, p: op(p[0], p[1], S(0.001), S(np.e), S(0.99), S(0.9), g)),
 "ApplyAddSign": (lambda: P.ApplyAddSign(), ["var", "a"], lambda op, p: op(p[0], p[1], S(0.001), S(1.0), S(0.99), S(0.9), g)),
}

EXPECTED = {
    'ApplyAdaMax': {'ret': [[[0.581, 0.394571], [0.097258, 0.49225]], [[0.57, 0.38], [0.19, 0.62]], [[0.3, 0.7], [0.693, 0.8]]], 'params': [[[0.581, 0.394571], [0.097258, 0.49225]], [[0.57, 0.38], [0.19, 0.62]], [[0.3, 0.7], [0.693, 0.8]]]},
    'ApplyAdadelta': {'ret': [[[0.599778, 0.400313], [0.099803, 0.49954]], [[0.549, 0.499], [0.181, 0.604]], [[0.274918, 0.09982], [0.633867, 0.201192]]], 'params': [[[0.599778, 0.400313], [0.099803, 0.49954]], [[0.549, 0.499], [0.181, 0.604]], [[0.274918, 0.09982], [0.633867, 0.201192]]]},
    'ApplyAdagrad': {'ret': [[[0.599639, 0.400704], [0.099782, 0.499282]], [[0.69, 0.99], [0.21, 1.24]]], 'params': [[[0.599639, 0.400704], [0.099782, 0.499282]], [[0.69, 0.99], [0.21, 1.24]]]},
    'ApplyAdagradV2': {'ret': [[[0.599639, 0.400704], [0.099782, 0.499282]], [[0.69, 0.99], [0.21, 1.24]]], 'params': [[[0.599639, 0.400704], [0.099782, 0.499282]], [[0.69, 0.99], [0.21, 1.24]]]},
    'ApplyFtrl': {'ret': [[[0.039775, 0.116335], [0.000664, 0.151298]]], 'params': [[[0.039775, 0.116335], [0.000664, 0.151298]], [[0.69, 0.99], [0.21, 1.24]], [[-33.039444, -115.752258], [-0.3044, -168.478104]]]},
    'ApplyProximalAdagrad': {'ret': [[[0.593755, 0.405216], [0.09522, 0.491036]], [[0.69, 0.99], [0.21, 1.24]]], 'params': [[[0.593755, 0.405216], [0.09522, 0.491036]], [[0.69, 0.99], [0.21, 1.24]]]},
    'ApplyProximalGradientDescent': {'ret': [[[0.59481, 0.40519], [0.097804, 0.49002]]], 'params': [[[0.59481, 0.40519], [0.097804, 0.49002]]]},
    'ApplyAdamWithAmsgrad': {'ret': [[[0.588484, 0.394882], [0.097097, 0.491143]], [[0.57, 0.38], [0.19, 0.62]], [[0.29979, 0.10039], [0.69931, 0.20044]], [[0.4, 0.9], [0.69931, 0.8]]], 'params': [[[0.588484, 0.394882], [0.097097, 0.491143]], [[0.57, 0.38], [0.19, 0.62]], [[0.29979, 0.10039], [0.69931, 0.20044]], [[0.4, 0.9], [0.69931, 0.8]]]},
    'ApplyPowerSign': {'ret': [[[0.595576, 0.400047], [0.098525, 0.488202]], [[0.57, 0.38], [0.19, 0.62]]], 'params': [[[0.595576, 0.400047], [0.098525, 0.488202]], [[0.57, 0.38], [0.19, 0.62]]]},
    'ApplyAddSign': {'ret': [[[0.599403, 0.400007], [0.099801, 0.498408]], [[0.57, 0.38], [0.19, 0.62]]], 'params': [[[0.599403, 0.400007], [0.099801, 0.498408]], [[0.57, 0.38], [0.19, 0.62]]]},
}


def _run(name):
    make, params, call = cases[name]
    ps = [ms.Parameter(from_np(base[k]), name=f"p{i}") for i, k in enumerate(params)]
    out = call(make(), ps)
    return (out if isinstance(out, tuple) else (out,)), ps


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_update_as_mindspore(name):
    ret, params = _run(name)
    for got, want in zip(ret, EXPECTED[name]["ret"], strict=True):
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-4, atol=1e-6)
    for got, want in zip(params, EXPECTED[name]["params"], strict=True):
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-4, atol=1e-6)


def test_ftrl_shrinks_by_sign_of_linear_times_l1():
    (var,), (_, _, linear) = _run("ApplyFtrlL1")
    lin = linear.asnumpy()
    accum_new = np.asarray(base["a"]) + g.asnumpy() ** 2
    denominator = np.sqrt(accum_new) / 0.01 + 2 * 0.2
    expected = np.where(np.abs(lin) > 0.1, (np.sign(lin) * 0.1 - lin) / denominator, 0.0)
    np.testing.assert_allclose(var.asnumpy(), expected, rtol=1e-5)


def test_adagrad_without_update_slots_leaves_accum():
    (var, accum), _ = _run("ApplyAdagradNoSlots")
    np.testing.assert_allclose(accum.asnumpy(), base["a"])
    np.testing.assert_allclose(var.asnumpy(), np.asarray(base["var"]) - 0.001 * g.asnumpy() /
                               np.sqrt(np.asarray(base["a"])), rtol=1e-5)


def test_the_updated_must_be_parameters_or_tensors():
    var = from_np(base["var"])   # a plain Tensor is updated in place, as in MindSpore
    P.ApplyAdaMax()(var, from_np(base["a"]), from_np(base["b"]), S(0.9), S(0.001), S(0.9),
                    S(0.99), S(1e-10), g)
    assert not np.allclose(var.asnumpy(), base["var"])
    with pytest.raises(TypeError, match="ApplyAdaMax: `var` must be a Parameter or Tensor"):
        P.ApplyAdaMax()(np.asarray(base["var"]), from_np(base["a"]), from_np(base["b"]), S(0.9),
                        S(0.001), S(0.9), S(0.99), S(1e-10), g)


def test_adagrad_da_shrinks_the_accumulated_gradient_by_l1_steps():
    (var,), (_, total, squares) = _run("ApplyAdagradDA")
    ga = total.asnumpy()
    shrunk = np.sign(ga) * np.maximum(np.abs(ga) - 0.001 * 2, 0.0)
    np.testing.assert_allclose(var.asnumpy(), -0.001 * shrunk /
                               (0.001 * 2 * 0.001 + np.sqrt(squares.asnumpy())), rtol=1e-5)
