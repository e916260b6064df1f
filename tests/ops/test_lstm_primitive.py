"""ops.LSTM, the primitive over a packed weight: MindSpore 2.10 CPU's outputs for a stacked,
a bidirectional and a projected LSTM (the weight layout its kernel reads: input weights, then
recurrent weights, then projections, then the first of its two bias blocks), gradients through
it, and its attribute checks."""
from __future__ import annotations

import numpy as np
import pytest

from cellgraph import Tensor, ops


def _inputs(input_size, hidden, layers, directions, proj, steps=3, batch=2):
    state = proj or hidden
    x = np.sin(np.arange(steps * batch * input_size)).reshape(steps, batch, input_size)
    h = np.cos(np.arange(layers * directions * batch * state)).reshape(-1, batch, state)
    c = np.sin(np.arange(layers * directions * batch * hidden) + 1).reshape(-1, batch, hidden)
    size = sum(4 * hidden * (input_size if k == 0 else state * directions)
               for k in range(layers)) * directions
    size += (4 * hidden * state + hidden * proj + 8 * hidden) * layers * directions
    w = (np.sin(np.arange(size) * 0.7) * 0.5).reshape(-1, 1, 1)
    return [Tensor(a.astype(np.float32)) for a in (x, h, c, w)]


# MindSpore 2.10 CPU: (output, h_n, c_n), flattened
CASES = {
    (2, 2, 2, False, 0): ([-0.28817498683929443, -0.17382200062274933, 0.1399880051612854,
                            0.16137300431728363, -0.2127230018377304,
                            -0.15096800029277802, 0.18316499888896942,
                            0.07323399931192398, -0.148717001080513,
                            -0.1324079930782318, 0.15881499648094177,
                            0.0007099999929778278],
                          [-0.06832899898290634, -0.0012000000569969416, -0.04772299900650978,
                            -0.20926199853420258, -0.148717001080513,
                            -0.1324079930782318, 0.15881499648094177,
                            0.0007099999929778278],
                          [-0.1384260058403015, -0.003536999924108386, -0.16047100722789764,
                            -0.3933430016040802, -0.3691740036010742,
                            -0.35496899485588074, 0.5228310227394104,
                            0.0019650000613182783]),
    (3, 3, 1, True, 0): ([0.5069149732589722, 0.3821040093898773, -0.07688300311565399,
                          0.6777920126914978, 0.2384909987449646,
                          -0.0248780008405447, -0.15859299898147583,
                          -0.3211430013179779, 0.3838140070438385,
                          -0.10808899998664856, 0.1731880009174347,
                          0.33463001251220703, 0.531466007232666,
                          0.04586699977517128, -0.1455339938402176,
                          0.6528139710426331, 0.20536300539970398,
                          -0.020184999331831932, -0.19199900329113007,
                          -0.3361530005931854, 0.33403000235557556,
                          -0.11488399654626846, 0.1385270059108734,
                          0.24392500519752502, 0.4321179986000061,
                          -0.1443610042333603, -0.19745700061321259,
                          0.6099690198898315, 0.2841089963912964,
                          -0.0007270000060088933, -0.20358499884605408,
                          -0.29232001304626465, 0.21529600024223328,
                          -0.11141800135374069, -0.08815000206232071,
                          0.140064999461174],
                         [0.4321179986000061, -0.1443610042333603, -0.19745700061321259,
                          -0.20358499884605408, -0.29232001304626465,
                          0.21529600024223328, 0.6777920126914978,
                          0.2384909987449646, -0.0248780008405447,
                          -0.10808899998664856, 0.1731880009174347,
                          0.33463001251220703],
                         [0.749671995639801, -0.2570579946041107, -0.41723600029945374,
                          -0.558568000793457, -0.47767600417137146,
                          0.32307401299476624, 1.3390610218048096,
                          0.47660699486732483, -0.12202200293540955,
                          -0.2515209913253784, 0.3414889872074127,
                          0.7121549844741821]),
    (3, 3, 1, False, 2): ([-0.3313399851322174, 0.06404799968004227, 0.019152000546455383,
                           0.11016800254583359, -0.2987529933452606,
                           0.0599219985306263, -0.09106700122356415,
                           0.1977829933166504, -0.2780289947986603,
                           0.06625399738550186, -0.14619700610637665,
                           0.22132299840450287],
                          [-0.2780289947986603, 0.06625399738550186, -0.14619700610637665,
                           0.22132299840450287],
                          [0.9602630138397217, 0.07459300011396408, 0.12654399871826172,
                           -0.3120029866695404, 0.5264350175857544,
                           0.5654900074005127]),
}


@pytest.mark.parametrize("case", list(CASES))
def test_as_mindspore(case):
    input_size, hidden, layers, bidirectional, proj = case
    op = ops.LSTM(input_size, hidden, layers, True, bidirectional, 0.0, proj)
    out = op(*_inputs(input_size, hidden, layers, 2 if bidirectional else 1, proj))
    assert len(out) == 5
    for got, want in zip(out[:3], CASES[case]):
        np.testing.assert_allclose(got.asnumpy().ravel(), want, atol=2e-6)


def test_mindspore_example():
    net = ops.LSTM(10, 2, 1, True, False, 0.0)
    out, h_n, c_n, _, _ = net(Tensor(np.ones([5, 2, 10], np.float32)),
                              Tensor(np.ones([1, 2, 2], np.float32)),
                              Tensor(np.ones([1, 2, 2], np.float32)),
                              Tensor(np.ones([112, 1, 1], np.float32)))
    np.testing.assert_allclose(out.asnumpy()[:, 0, 0], [0.9640251, 0.99505216, 0.999327,
                                                        0.99990696, 0.9999854], rtol=1e-6)
    assert h_n.shape == c_n.shape == (1, 2, 2)


def test_gradient_matches_finite_differences():
    op = ops.LSTM(3, 2, 1, True, True, 0.0)
    x, h, c, w = _inputs(3, 2, 1, 2, 0)
    weights = Tensor(np.cos(np.arange(3 * 2 * 4)).reshape(3, 2, 4).astype(np.float32))

    def f(w):
        return (op(x, h, c, w)[0] * weights).sum()

    grad = ops.grad(f)(w).asnumpy().ravel()
    base, eps = w.asnumpy().astype(np.float64), 1e-3
    for i in (0, 7, 30, 50, 75, 90):
        bump = np.zeros_like(base)
        bump.ravel()[i] = eps
        plus = f(Tensor((base + bump).astype(np.float32))).asnumpy()
        minus = f(Tensor((base - bump).astype(np.float32))).asnumpy()
        np.testing.assert_allclose(grad[i], (plus - minus) / (2 * eps), atol=2e-3)


@pytest.mark.parametrize("proj", [0, 1])
def test_in_a_graph_one_scan_per_direction_with_the_eager_numbers(proj):
    # compiled, the time loop is a scan (the graph does not grow with the sequence), and it
    # gives what the eager step loop gives
    from cellgraph import jit
    from cellgraph.compiler.pipeline import compile_callable

    op = ops.LSTM(3, 2, 2, True, True, 0.0, proj_size=proj)
    nodes = []
    for steps in (3, 40):
        x, h, c, w = _inputs(3, 2, 2, 2, proj, steps=steps)
        graph = compile_callable(lambda *a: op(*a)[:3], (x, h, c, w)).graph
        nodes.append([n.callee.name for n in graph.nodes])
    assert nodes[0] == nodes[1] and nodes[0].count("scan") == 4
    eager = op(x, h, c, w)[:3]
    compiled = jit(lambda *a: op(*a)[:3])(x, h, c, w)
    for e, g in zip(eager, compiled):
        np.testing.assert_allclose(g.asnumpy(), e.asnumpy(), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("args, error, message", [
    ((0, 2, 1, True, False, 0.0), ValueError, "'input_size' must be int and must > 0"),
    ((3, 2, 1, True, False, 0.0, 2), ValueError, "proj_size"),
    ((3, 2, 1, 1, False, 0.0), TypeError, "the type of 'has_bias' should be 'bool'"),
    ((3, 2, 1, True, False, 0), TypeError, "the type of 'dropout' should be 'float'"),
    ((3, 2, 1, True, False, 1.5), ValueError, "dropout"),
])
def test_attribute_errors_as_mindspore(args, error, message):
    with pytest.raises(error, match=message):
        ops.LSTM(*args)


def test_a_short_weight_is_an_error():
    x, h, c, _ = _inputs(3, 2, 1, 1, 0)
    with pytest.raises(ValueError, match="the weight must hold at least"):
        ops.LSTM(3, 2, 1, True, False, 0.0)(x, h, c, Tensor(np.ones((10, 1, 1), np.float32)))
