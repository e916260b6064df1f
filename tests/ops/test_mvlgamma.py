"""ops.mvlgamma and Tensor.mvlgamma against MindSpore 2.10's CPU kernel: values recorded from it
(to lgamma's accuracy), its gradient, and its checks of p, the dtype and the domain."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops

X = [[3, 4, 5], [4, 2, 6], [1.5, 1.25, 7.5]]
# MindSpore 2.10, float64
EXPECTED = {
    1: [[0.6931471805599453, 1.791759469228055, 3.1780538303479458],
        [1.791759469228055, 0.0, 4.787491742782046],
        [-0.12078223763524522, -0.09827183642181316, 7.534364236758734]],
    2: [[1.5501949939575645, 3.565098014499829, 6.2041553441150885],
        [3.565098014499829, 0.4515827052894549, 9.317670653325463],
        [0.4515827052894549, 0.6773740579341823, 14.685980391693535]],
    3: [[2.694924879806965, 5.402975080909175, 9.140644699192544],
        [5.402975080909175, 1.5963125911388552, 13.640454369522807],
        [2.1686775340635553, 3.11012646848166, 21.49327233740008]],
}


@pytest.mark.parametrize("p", [1, 2, 3])
@pytest.mark.parametrize("dtype, rtol", [(np.float32, 2e-5), (np.float64, 1e-12)])
def test_values_as_mindspore(p, dtype, rtol):
    x = Tensor(np.array(X, dtype))
    for out in (ops.mvlgamma(x, p), x.mvlgamma(p=p)):
        assert out.asnumpy().dtype == dtype
        np.testing.assert_allclose(out.asnumpy(), EXPECTED[p], rtol=rtol, atol=rtol)


class _Net(nn.Cell):
    def construct(self, x):
        return ops.mvlgamma(x, 2)


def test_in_a_graph_and_its_gradient():
    x = Tensor(np.array(X, np.float64))
    np.testing.assert_allclose(_Net()(x).asnumpy(), EXPECTED[2], rtol=1e-12)
    grad = ms.grad(lambda t: ops.mvlgamma(t, 2).sum())(Tensor(np.array([[3., 4.], [5., 2.5]])))
    # MindSpore 2.10: digamma(x) + digamma(x - 0.5)
    np.testing.assert_allclose(grad.asnumpy(), [[1.6259409918758214, 2.3592743293039766],
                                                [2.8949886360922252, 1.1259409921727372]],
                               rtol=1e-7)


def test_checks_as_mindspore():
    x = Tensor(np.array(X, np.float32))
    with pytest.raises(ValueError, match="the 'p' must be int and must > 0, but got '0'"):
        ops.mvlgamma(x, 0)
    with pytest.raises(TypeError, match="the type of 'p' should be 'int', but got type 'float'"):
        ops.mvlgamma(x, 1.5)
    with pytest.raises(TypeError, match=r"must be a type of \{Tensor\[Float32\], "
                                        r"Tensor\[Float64\]\}, but got Tensor\[Float16\]"):
        ops.mvlgamma(Tensor(np.array(X, np.float16)), 1)
    with pytest.raises(ValueError, match=r"all elements of 'x' must be greater than \(p-1\)/2"):
        ops.mvlgamma(x, 4)
    with pytest.raises(ValueError, match=r"all elements of 'x' must be greater than \(p-1\)/2"):
        _Net()(Tensor(np.array([[3.0, 0.25]], np.float32)))


def test_the_primitive_class():
    from cellgraph.ops import operations as P

    out = P.Mvlgamma(3)(Tensor(np.array(X, np.float64)))
    np.testing.assert_allclose(out.asnumpy(), EXPECTED[3], rtol=1e-12)
    with pytest.raises(ValueError, match="the 'p' must be int and must > 0, but got '0'"):
        P.Mvlgamma(0)
