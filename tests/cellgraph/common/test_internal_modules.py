"""The internal names MindSpore's own tests import from `mindspore.common`: the graph
executor they compile networks with, and the dtype conversions."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import nn
from cellgraph.common import dtype as mstype
from cellgraph.common.api import _cell_graph_executor


class _Double(nn.Cell):
    def construct(self, x):
        return x * 2


def test_compile_returns_the_phase_and_whether_it_compiled_now():
    net = _Double()
    x = ms.Tensor(np.ones((2, 3), np.float32))
    phase, compiled = _cell_graph_executor.compile(net, x)
    assert phase.startswith("predict.") and compiled
    assert _cell_graph_executor.has_compiled(phase)
    again, compiled = _cell_graph_executor.compile(net, x)
    assert again == phase and not compiled
    other, compiled = _cell_graph_executor.compile(net, ms.Tensor(np.ones((3, 3), np.float32)))
    assert other != phase and compiled
    train, compiled = _cell_graph_executor.compile(net, x, phase="train")
    assert train.startswith("train.") and compiled
    assert not _cell_graph_executor.has_compiled("predict")
    assert not _cell_graph_executor.has_compiled("nope")


def test_compile_does_not_run_and_the_executor_runs_the_compiled_graph():
    net = _Double()
    x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    _cell_graph_executor.compile(net, x)
    np.testing.assert_array_equal(_cell_graph_executor(net, x).asnumpy(), x.asnumpy() * 2)
    with pytest.raises(KeyError, match="graph is not exist"):
        _cell_graph_executor(net, ms.Tensor(np.ones((5,), np.float32)))


def test_the_function_executor_names_each_specialisation():
    """MindSpore's phases for these calls (the definition's line and file replaced):
    __main__.construct.<file>.<line>.0.0, ....0.1, ....0.2, ....0.2, ....0.3"""
    from cellgraph.common.api import _JitExecutor

    class Net(nn.Cell):
        def construct(self, x, y):
            return x + y

    net = Net()
    executor = _JitExecutor(net.construct, 0)
    phases = [executor.compile("construct", *args) for args in (
        (ms.Tensor([1.0]), 2), (ms.Tensor([2.0]), 3), (ms.Tensor([2.0]), ms.mutable(2)),
        (ms.Tensor([5.0]), ms.mutable(3)), (ms.Tensor([5.0, 1.0]), ms.mutable(3)))]
    line = Net.construct.__code__.co_firstlineno
    assert [p.rsplit(".", 3)[1:] for p in phases] == [
        [str(line), "0", n] for n in ("0", "1", "2", "2", "3")]
    assert phases[0].startswith(f"{__name__}.construct.")
    with pytest.raises(NotImplementedError, match="input_signature"):
        _JitExecutor(net.construct, 0, input_signature=(ms.Tensor([1.0]),))


def test_compile_checks_the_network_as_a_graph():
    class Mismatch(nn.Cell):
        def construct(self, x, y):
            return ms.ops.matmul(x, y)

    x = ms.Tensor(np.ones((2, 3), np.float32))
    with pytest.raises(ValueError):
        _cell_graph_executor.compile(Mismatch(), x, x)


def test_compile_takes_tensors_of_unknown_sizes():
    """`Tensor(shape=[None, 3], dtype=...)`, as MindSpore compiles a dynamic-shape graph for it:
    the graph is built with that size unknown and checked (MindSpore 2.10 raises ValueError
    for the mismatch below too); calls compile for their own shapes."""
    class Mismatch(nn.Cell):
        def construct(self, x):
            return x.reshape(2, 3) + ms.ops.ones((4, 3), ms.float32)

    dynamic = ms.Tensor(shape=[None, 3], dtype=ms.float32)
    net = _Double()
    phase, compiled = _cell_graph_executor.compile(net, dynamic)
    assert compiled and _cell_graph_executor.has_compiled(phase)
    np.testing.assert_array_equal(net(ms.Tensor(np.ones((4, 3), np.float32))).asnumpy(),
                                  np.full((4, 3), 2.0))
    with pytest.raises(ValueError):
        _cell_graph_executor.compile(Mismatch(), dynamic)


def test_compile_needs_a_construct():
    with pytest.raises(AttributeError, match="does not have method construct"):
        _cell_graph_executor.compile(lambda x: x, ms.Tensor(np.ones(2, np.float32)))


def test_dtype_conversions_at_mindspore_paths():
    from cellgraph.common import dtype_to_nptype, dtype_to_pytype

    assert ms.dtype_to_nptype(ms.int32) is np.int32
    assert dtype_to_nptype(mstype.float16) is np.float16
    assert mstype.dtype_to_nptype(ms.float64) is np.float64
    assert dtype_to_pytype(ms.float32) is float
    assert ms.pytype_to_dtype(int) == ms.int64
    assert ms.get_py_obj_dtype(1) == ms.int64
    target = np.ones((2, 2), ms.dtype_to_nptype(nn.Dense(2, 2).weight.dtype))
    assert target.dtype == np.float32


def test_common_holds_the_jit_config_and_the_type_objects():
    from cellgraph.common import JitConfig, TensorType, lazy_inline, tensor_type

    assert JitConfig is ms.JitConfig and lazy_inline is ms.lazy_inline
    assert isinstance(tensor_type, TensorType) and tensor_type is ms.tensor_type


def test_depend_on_a_monad_returns_the_value():
    """`ops.depend(x, monad.U)` (mindspore.common._monad) orders x after the side effects
    before it and returns x, in a graph and eagerly."""
    import cellgraph.common._monad as monad
    from cellgraph.ops import functional as F

    @ms.jit
    def after_effects(x, y):
        return F.depend(x * y, monad.U), F.depend(x + y, monad.IO)

    x, y = ms.Tensor(2.0, mstype.float32), ms.Tensor(3.0, mstype.float32)
    product, total = after_effects(x, y)
    assert float(product.asnumpy()) == 6.0 and float(total.asnumpy()) == 5.0
    assert float(F.depend(x, monad.U).asnumpy()) == 2.0
    assert repr(monad.U) == "U" and repr(monad.IO) == "IO"


def test_c_expression_names_programs_reach():
    """mindspore._c_expression: every Tensor and Parameter is a TensorPy; no security build."""
    from cellgraph import _c_expression

    assert isinstance(ms.Tensor(1), _c_expression.TensorPy)
    assert isinstance(ms.Parameter(ms.Tensor(1.0), name="p"), _c_expression.TensorPy)
    assert not isinstance(np.ones(2), _c_expression.TensorPy)
    assert _c_expression.security.enable_security() is False


def test_c_expression_creation_type_as_mindspore():
    """MindSpore 2.10: CreationType members DEFAULT 0, NO_GRAD_MODE 1, MULTI_OUTPUT 2,
    CUSTOM_BPROP 3."""
    from cellgraph._c_expression import CreationType

    assert [(m.name, int(m)) for m in CreationType] == [
        ("DEFAULT", 0), ("NO_GRAD_MODE", 1), ("MULTI_OUTPUT", 2), ("CUSTOM_BPROP", 3)]


def test_no_recursive_flags_a_function_or_cell_class_as_mindspore():
    """MindSpore's `_no_recursive` adds {'no_recursive': True} to `_func_graph_flags` and
    refuses anything but a function, a method or a Cell class; the calls run unchanged."""
    from cellgraph.common.api import _no_recursive

    def double(x):
        return x * 2

    @_no_recursive
    class Net(nn.Cell):
        def construct(self, x):
            return double(x) + 1

    @ms.jit
    @_no_recursive
    def twice(x):
        return double(double(x))

    assert Net._func_graph_flags == {"no_recursive": True}
    assert Net()(ms.Tensor([2.0])).asnumpy().tolist() == [5.0]
    assert twice(ms.Tensor([2.0])).asnumpy().tolist() == [8.0]
    with pytest.raises(TypeError, match="Decorator no_recursive is used for callable object, "
                                        "but got 3."):
        _no_recursive(3)


def test_standard_method_functions_in_a_graph_and_eagerly():
    from cellgraph._extends.parse.standard_method import ms_len, uadd, usub

    @ms.jit
    def lengths(x):
        return ms_len([1, 2, 3]), ms_len(x), usub(x), uadd(x)

    x = ms.Tensor(np.arange(4, dtype=np.float32).reshape(2, 2))
    n_list, n_rows, negated, same = lengths(x)
    assert (n_list, n_rows) == (3, 2)
    np.testing.assert_array_equal(negated.asnumpy(), -x.asnumpy())
    np.testing.assert_array_equal(same.asnumpy(), x.asnumpy())
    assert ms_len((1, 2)) == 2


def test_standard_method_tensor_methods_as_mindspore():
    # MindSpore 2.10's values, each called from a graph and eagerly
    from cellgraph._extends.parse import standard_method as S

    class Call(nn.Cell):
        def __init__(self, fn):
            super().__init__()
            self.fn = fn

        def construct(self, *args):
            return self.fn(*args)

    a = ms.Tensor(np.arange(10, 16).reshape(2, 3).astype(np.float32))
    assert Call(S.argmax)(a, None).asnumpy() == 5
    assert Call(S.argmax)(a, 1).asnumpy().tolist() == [2, 2]
    assert S.argmax(a, 1, True).asnumpy().tolist() == [[2], [2]]
    assert Call(S.unsqueeze)(ms.Tensor([[4.0, 9.0]]), 0).shape == (1, 1, 2)
    assert Call(S.tensor_bool)(ms.Tensor([4.0])).asnumpy().tolist() == [True]
    assert S.tensor_bool(ms.Tensor([0.0])) is False
    values, indices = Call(S.topk)(ms.Tensor([4.0, 9.0, 2.0, 10.0]), 3)
    assert values.asnumpy().tolist() == [10, 9, 4] and indices.asnumpy().tolist() == [3, 1, 0]
    assert Call(S.view)(a, (3, 2)).shape == (3, 2) and S.reshape(a, 3, 2).shape == (3, 2)
    ones = ms.Tensor(np.ones((2, 3, 4), np.float32))
    assert Call(S.swapaxes)(ones, 0, 2).shape == (4, 3, 2)
    assert Call(S.squeeze)(ms.Tensor(np.ones((1, 2, 2, 1), np.float32)), (0, 3)).shape == (2, 2)
    assert Call(S.diagonal)(ms.Tensor(np.arange(4).reshape(2, 2))).asnumpy().tolist() == [0, 3]
    taken = Call(S.take)(ms.Tensor(np.array([4, 3, 5, 7, 6, 8])), ms.Tensor(np.array([0, 1, 4])))
    assert taken.asnumpy().tolist() == [4, 3, 6]
    assert S.take(ms.Tensor(np.arange(6).reshape(2, 3)), ms.Tensor(np.array([5, 7])), None,
                  "wrap").asnumpy().tolist() == [5, 1]
    chosen = Call(S.choose)(ms.Tensor(np.array([2, 3, 1, 0])),
                            [[0, 1, 2, 3], [10, 11, 12, 13], [20, 21, 22, 23], [30, 31, 32, 33]])
    assert chosen.asnumpy().tolist() == [20, 31, 12, 3]
    assert Call(S.var)(ms.Tensor(np.array([1.0, 2.0, 3.0, 4.0]))).asnumpy() == 1.25
    assert S.var(ms.Tensor(np.arange(6.0).reshape(2, 3)), 1, 1, True).asnumpy().tolist() == [
        [1.0], [1.0]]
    found = Call(S.searchsorted)(ms.Tensor(np.array([1.0, 2.0, 3.0, 4.0, 5.0])),
                                 ms.Tensor(3.0, ms.float64))
    assert found.asnumpy() == 2


def test_python_types_and_their_mindspore_types():
    # MindSpore 2.10: pytype_to_dtype(float) Float64; list, tuple, str, None map both ways
    assert mstype.get_py_obj_dtype(1.5) == ms.float64
    assert mstype.get_py_obj_dtype(float) == ms.float64
    assert mstype.get_py_obj_dtype(0.1 + 3j) == ms.complex128
    assert mstype.get_py_obj_dtype([1]) == mstype.list_ == mstype.get_py_obj_dtype(list)
    assert mstype.get_py_obj_dtype((1,)) == mstype.tuple_
    for ms_type, py_type in ((mstype.list_, list), (mstype.tuple_, tuple), (mstype.string, str),
                             (mstype.type_none, type(None)), (ms.float32, float)):
        assert mstype.dtype_to_pytype(ms_type) is py_type


def test_a_python_type_without_a_mindspore_type():
    for kind in (type, dict):
        with pytest.raises(NotImplementedError, match=f"The python type {kind} cannot be "
                                                      f"converted to MindSpore type."):
            mstype.pytype_to_dtype(kind)
    assert mstype.pytype_to_dtype(np.float16) == ms.float16
