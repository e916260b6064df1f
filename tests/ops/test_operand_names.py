"""Primitive classes take their operands by MindSpore 2.10's names (`MatMul()(input=, mat2=)`),
aliases are classes of their own name (`RealDiv`), and the generated classes of
ops.auto_generate.gen_ops_prim take MindSpore's required arguments and their meaning."""
import inspect

import numpy as np
import pytest

from cellgraph import Tensor, nn, set_seed
from cellgraph.ops import operations as P
from cellgraph.ops.auto_generate import gen_ops_prim as G


def _t(values, dtype=np.float32):
    return Tensor(np.array(values, dtype))


def test_operands_by_mindspores_names():
    a, b = _t(np.ones((2, 3))), _t(np.full((3, 1), 2.0))
    assert P.MatMul()(input=a, mat2=b).asnumpy().tolist() == [[6.0], [6.0]]
    assert P.MatMul()(a, mat2=b).shape == (2, 1)
    np.testing.assert_allclose(P.Addcdiv()(input=_t([1.0]), tensor1=_t([4.0]),
                                           tensor2=_t([2.0]), value=_t([0.5])).asnumpy(), [2.0])
    assert P.ReLU()(input=_t([-1.0, 2.0])).asnumpy().tolist() == [0.0, 2.0]
    # a gradient class names its operands (out, dout) as MindSpore's, positions unchanged
    np.testing.assert_allclose(G.SqrtGrad()(dy=_t([0.5, 2.0]), y=_t([3.0, 5.0])).asnumpy(),
                               [3.0, 1.25])


def test_a_wrong_operand_name_or_count_is_a_type_error():
    with pytest.raises(TypeError, match="MatMul"):
        P.MatMul()(x=_t([[1.0]]), y=_t([[1.0]]))
    with pytest.raises(TypeError, match="missing a required argument: 'seed'"):
        G.BernoulliExt()(_t([0.5]))


def test_too_few_operands_in_a_graph_stay_mindspores_runtime_error():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.matmul = P.MatMul()

        def construct(self, x):
            return self.matmul(x)

    with pytest.raises(RuntimeError, match="For 'S_Prim_MatMul', the size of input should be 2"):
        Net()(_t([[1.0]]))


def test_an_alias_is_a_class_of_its_own_name():
    assert P.RealDiv().name == "RealDiv" and issubclass(P.RealDiv, P.Div)
    assert P.RealDiv()(x=_t([1.0, 2.0]), y=_t([2.0, 4.0])).asnumpy().tolist() == [0.5, 0.5]


def test_search_sorted_with_a_sorter():
    seq, order = _t([3.0, 1.0, 2.0]), Tensor(np.array([1, 2, 0], np.int64))
    got = P.SearchSorted()(seq, _t([1.5, 3.5]), sorter=order)
    assert got.asnumpy().tolist() == [1, 3]


def test_generated_classes_take_mindspores_construction():
    assert "head_num" in inspect.signature(P.FlashAttentionScore).parameters
    with pytest.raises(TypeError, match="head_num"):
        P.FlashAttentionScore()
    data = _t([[1.0, 2.0], [3.0, 4.0]])
    idx = Tensor(np.array([[1, 0]], np.int64))
    got = G.TensorScatterElements(axis=0, reduce="add")(data, idx, _t([[10.0, 20.0]]))
    assert got.asnumpy().tolist() == [[1.0, 22.0], [13.0, 4.0]]
    with pytest.raises(ValueError, match="output_mask"):
        G.GridSampler2DGrad(output_mask=(2, 1))(_t(np.ones((1, 1, 2, 2))),
                                                _t(np.ones((1, 1, 3, 3))),
                                                _t(np.zeros((1, 2, 2, 2))))


def test_a_generator_state_keys_the_draws():
    def draws(offset):
        set_seed(5)
        seed = Tensor(7, dtype=None)
        ints = G.RandInt()(0, 1000, (8,), seed, Tensor(offset))
        bits = G.BernoulliExt()(_t([0.5] * 16), seed, offset)
        return ints.asnumpy().tolist() + bits.asnumpy().tolist()

    assert draws(3) == draws(3)
    assert draws(3) != draws(4)
    with pytest.raises(RuntimeError, match="not available"):
        G.RandInt()(0, 5, (2,), 1, 0, device="Ascend")
