"""`Primitive.shard` and `parallel.Layout`, checked as MindSpore 2.10 checks them (its messages,
recorded), and the strategy a graph node carries: visible in dump_ir, read back by the IR
parser, without effect on one process (as in MindSpore outside the parallel modes)."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops
from cellgraph.compiler.ir import print_graph
from cellgraph.compiler.ir_parser import parse_ir
from cellgraph.ops.primitive import Primitive
from cellgraph.parallel import Layout


def test_shard_records_the_strategy_as_mindspore_does():
    add = ops.Add()
    assert add.shard(((1, 1), (1, 1))) is add
    assert add.in_strategy == ((1, 1), (1, 1)) and "in_strategy=((1, 1), (1, 1))" in repr(add)
    matmul = ops.MatMul().shard(((1, 2), (2, 1)), ((1, 1),))
    assert (matmul.in_strategy, matmul.out_strategy) == (((1, 2), (2, 1)), ((1, 1),))
    assert ops.MatMul().shard(()).in_strategy == ()
    assert not hasattr(ops.MatMul().shard(), "in_strategy")  # nothing given: nothing set
    assert ops.ReLU().shard(((True, 2),)).in_strategy == ((True, 2),)  # bools are ints


def test_shard_with_layouts_records_in_layout():
    layout = Layout((2, 2, 2), ("dp", "sp", "mp"))
    matmul = ops.MatMul().shard((layout("dp", "sp"), layout("sp", "None")))
    assert matmul.in_layout == (
        {"device_matrix": (2, 2, 2), "tensor_map": (2, 1), "interleaved_parallel": False,
         "alias_name": ("dp", "sp", "mp")},
        {"device_matrix": (2, 2, 2), "tensor_map": (1, -1), "interleaved_parallel": False,
         "alias_name": ("dp", "sp", "mp")})
    assert matmul._strategy == (((2, 2), (2, 1)), None)  # as split counts, for the compiler


@pytest.mark.parametrize("call, error, message", [
    (lambda: ops.MatMul().shard([(1, 1)]), TypeError,
     "in_strategy must be tuple type, but got:<class 'list'>"),
    (lambda: ops.MatMul().shard(((1, 1), [1, 1])), TypeError,
     "The element of strategy must be tuple/Layout type, but got:<class 'list'>"),
    (lambda: ops.MatMul().shard(((1.0, 1),)), TypeError,
     ("The in_strategy: ((1.0, 1),) of MatMul is not valid, the value of strategy must be int "
     "type, but got:<class 'float'>")),
    (lambda: ops.MatMul().shard(None, ((1, 1),)), ValueError,
     "The out_strategy of MatMul is ((1, 1),), need to set in_strategy, but got none"),
    (lambda: ops.MatMul().shard(((1, 2), (2, 1)), (Layout((2,), ("a",))("a"),)), ValueError,
     ("The in_strategy type must equal to the out_strategy type, one using tuple(tuple) and "
     "the other using tuple(Layout) is not allowed.")),
    (lambda: ops.MatMul().shard((Layout((2,), ("a",))("a"), (1, 2))), TypeError,
     "The in_strategy item should be a object of class Layout."),
])
def test_shard_rejects_what_mindspore_rejects(call, error, message):
    with pytest.raises(error) as caught:
        call()
    assert str(caught.value).startswith(message)


def test_a_primitive_subclass_records_its_strategy():
    class Scale(Primitive):
        def __init__(self):
            super().__init__("Scale")

    prim = Scale().shard(((2, 1),))
    assert prim.attrs == {"in_strategy": ((2, 1),)}
    assert repr(prim) == "Prim[Scale]<in_strategy=((2, 1),)>"


@pytest.mark.parametrize("call, error, message", [
    (lambda: Layout([2, 2], ("a", "b")), TypeError,
     "device_matrix must be tuple type, but got:<class 'list'>"),
    (lambda: Layout((2, 2), ("a",)), ValueError,
     "device_matrix length should be equal to alias_name length"),
    (lambda: Layout((2, 2.0), ("a", "b")), TypeError,
     "The element of device_matrix must be int type, but got:<class 'float'>"),
    (lambda: Layout((2, 2), ("a", "None")), ValueError,
     "The element of alias_name can not set 'None', because 'None' means no sharding."),
    (lambda: Layout((2, 2), ("a", "")), ValueError, "The element of alias_name can not be empty."),
    (lambda: Layout((2, 2), ("a", "a")), ValueError,
     "Each element of alias_name ('a', 'a') should be different"),
    (lambda: Layout((2, 2), ("a", "b"), rank_list=[0, 1]), ValueError,
     ("The length of rank_list should be equal to the product of device_matrix, but got 2 and "
     "4.")),
    (lambda: Layout((2, 2), ("a", "b"), rank_list=(0, 1, 2, 3)), TypeError,
     "The rank_list should be a list, but got tuple."),
    (lambda: Layout((2, 2), ("dp", "mp"))("dp", "dp"), ValueError,
     "The axis dp has been set more than one in ('dp', 'mp')"),
    (lambda: Layout((2, 2), ("dp", "mp"))("xx"), ValueError,
     "The axis xx is not found in ('dp', 'mp')"),
    (lambda: Layout((2, 2), ("a", "b")).to_dict(), ValueError, "The tensor_map of layout is None"),
])
def test_layout_rejects_what_mindspore_rejects(call, error, message):
    with pytest.raises(error) as caught:
        call()
    assert str(caught.value) == message


def test_layout_maps_names_to_device_axes_from_the_right():
    layout = Layout((2, 2), ("dp", "mp"))
    assert layout("dp", "mp").to_dict() == {
        "device_matrix": (2, 2), "tensor_map": (1, 0), "interleaved_parallel": False,
        "alias_name": ("dp", "mp"), "rank_list": [0, 1, 2, 3]}
    assert layout(("dp", "mp"), "None").to_dict()["tensor_map"] == ((1, 0), -1)
    assert layout(("dp", "mp"), "None").split_counts() == (4, 1)
    assert ms.Layout is Layout


def test_dense_holds_the_primitives_mindspore_programs_shard():
    dense = nn.Dense(3, 2)
    assert isinstance(dense.matmul, ops.MatMul) and dense.matmul.transpose_b is True
    assert isinstance(dense.bias_add, ops.BiasAdd)
    assert not hasattr(nn.Dense(3, 2, has_bias=False), "bias_add")


def sharded_dense():
    ms.set_seed(0)
    dense = nn.Dense(4, 6)
    dense.matmul.shard(((1, 1), (2, 1)))
    dense.bias_add.shard(((1, 2), (2,)))
    return dense


def test_the_strategy_reaches_the_graph_node_and_the_dump():
    dense = sharded_dense()
    x = Tensor(np.ones((2, 4), np.float32))
    text = ms.dump_ir(dense, x, stage="parse")
    assert "matmul(%x, %weight) {transpose_b=True} <in_strategy=((1, 1), (2, 1))>  : " \
           "f32[2,6]" in text
    assert "bias_add(%1, %bias) {axis=1} <in_strategy=((1, 2), (2,))>" in text
    assert print_graph(parse_ir(text)) == text  # the strategy prints and parses back
    # one process, stand-alone: the graph is the user's
    assert ms.dump_ir(dense, x, stage="shard_operators") == text


def test_strategies_have_no_effect_on_one_process():
    x = np.arange(8, dtype=np.float32).reshape(2, 4)
    dense = sharded_dense()
    expected = x @ dense.weight.asnumpy().T + dense.bias.asnumpy()
    np.testing.assert_allclose(dense(Tensor(x)).asnumpy(), expected, rtol=1e-6)
    ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel")
    try:  # no communication initialised: one rank, nothing split
        np.testing.assert_allclose(dense(Tensor(x)).asnumpy(), expected, rtol=1e-6)
        assert not dense.weight.sliced
    finally:
        ms.reset_auto_parallel_context()


def test_a_parameter_held_as_slices_is_not_an_argument_of_a_compiled_function():
    weight = ms.Parameter(Tensor(np.ones((2, 3), np.float32)), name="fc.weight")
    weight._split = (0, 2, "hccl_world_group", (4, 3))  # what a sharded graph leaves it with
    assert weight.sliced and weight.aval.shape == (4, 3) and weight.shape == (2, 3)

    @ms.jit
    def scale(w, x):
        return w * x

    with pytest.raises(NotImplementedError, match=r"'fc.weight' is held as slices .* "
                                                  r"\(self.weight\)"):
        scale(weight, Tensor(np.ones((4, 3), np.float32)))


def test_tuple_inputs_take_a_strategy_per_tensor_on_the_operators_that_allow_it():
    """MindSpore's SUPPORTED_TUPLE_IN_TUPLE_STRATEGY operators (and any primitive with the
    attribute self_define_shard) take, for a tuple input, a tuple of strategies or Layouts."""
    from cellgraph.ops.auto_generate import Index

    index = Index().shard(((2, 4), ((1,), (1,))))
    assert index.attrs["in_strategy"] == ((2, 4), ((1,), (1,)))
    layout = Layout((2, 4), ("dp", "mp"))
    index = Index().shard((layout("dp", "mp"), (layout("dp"), layout("mp"))))
    first, items = index.attrs["in_layout"]
    assert first["tensor_map"] == (1, 0)
    assert [item["tensor_map"] for item in items] == [(1,), (0,)]
    # the kinds of in_strategy and out_strategy may differ there
    index = Index().shard(((2, 4), ((1,), (1,))), out_strategy=(layout("dp", "mp"),))
    assert index.attrs["in_strategy"] == ((2, 4), ((1,), (1,)))
    add = ops.Add()
    add.add_prim_attr("self_define_shard", True)
    assert add.shard(((2, 4), ((1,), (1,)))).attrs["in_strategy"] == ((2, 4), ((1,), (1,)))
    with pytest.raises(TypeError, match="The in_strategy item should be a object of class Layout"):
        Index().shard(((layout("dp"), layout("mp")), (2, 4)))
    with pytest.raises(TypeError, match=r"of Add is not valid, the value of strategy must be "
                                        r"int type, but got:<class 'tuple'>"):
        ops.Add().shard(((2, 4), ((1,), (1,))))
