"""MindSpore's module paths and small top-level APIs: cellgraph.common, tensor(), Tensor and
Parameter attributes in graph and eager mode, set_device, log, names that cannot be honoured."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, ParameterTuple, Tensor, nn, ops


def test_common_paths():
    from cellgraph.common import dtype as mstype
    from cellgraph.common.api import jit, jit_class
    from cellgraph.common.initializer import Normal, initializer
    from cellgraph.common.parameter import Parameter as P2
    from cellgraph.common.tensor import Tensor as T2

    assert mstype.float32 is ms.float32 and ms.common.float16 is ms.float16
    assert P2 is Parameter and T2 is Tensor and jit is ms.jit and jit_class is ms.jit_class
    assert mstype.dtype_to_nptype(mstype.int32) is np.int32
    assert mstype.pytype_to_dtype(float) is ms.float64 and mstype.dtype_to_pytype(ms.int8) is int
    assert initializer(Normal(0.1), (2, 2)).shape == (2, 2)
    assert ms.common.set_seed is ms.set_seed and ms.common.mutable is ms.mutable


def test_tensor_function_and_attributes():
    t = ms.tensor([[1, 2, 3], [4, 5, 6]], ms.float32)
    assert (t.itemsize, t.nbytes, t.strides) == (4, 24, (12, 4))
    assert Tensor.from_numpy(np.ones(3, np.int16)).dtype == ms.int16
    assert ms.from_numpy(np.zeros(2)).dtype == ms.float64
    with pytest.raises(TypeError):
        Tensor.from_numpy([1, 2])

    class Sizes(nn.Cell):
        def construct(self, x):
            return x * x.itemsize + x.nbytes + x.strides[0]

    out = Sizes()(Tensor(np.ones((2, 2), np.float64)))
    np.testing.assert_allclose(out.asnumpy(), 1 * 8 + 32 + 16)


def test_parameter_value_clone_and_tuple_clone():
    w = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="w")
    v = w.value()
    assert type(v) is Tensor
    np.testing.assert_array_equal(v.asnumpy(), [1.0, 2.0])
    copy = w.clone()
    copy.set_data(Tensor(np.zeros(2, np.float32)))
    np.testing.assert_array_equal(w.asnumpy(), [1.0, 2.0])  # a copy, not a view
    assert copy.name == "w"
    moments = ParameterTuple([w]).clone(prefix="moments", init="zeros")
    assert moments[0].name == "moments.w"
    np.testing.assert_array_equal(moments[0].asnumpy(), [0.0, 0.0])
    with pytest.raises(TypeError):
        ParameterTuple([w]).clone(prefix="")

    class UsesValue(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(Tensor(np.array([3.0], np.float32)), name="w")

        def construct(self, x):
            ops.assign(self.w, self.w * 2)
            return self.w.value() * x  # sees the assignment

    net = UsesValue()
    np.testing.assert_allclose(net(Tensor(np.array([1.0], np.float32))).asnumpy(), [6.0])
    g = ms.grad(lambda x: (net.w.value() * x).sum(), grad_position=None,
                weights=[net.w])(Tensor(np.array([2.0], np.float32)))
    np.testing.assert_allclose(g[0].asnumpy(), [2.0])


def test_cell_methods():
    net = nn.SequentialCell([nn.Dense(3, 2), nn.ReLU(), nn.Dense(2, 1)])
    assert list(net.parameters_dict()) == ["0.weight", "0.bias", "2.weight", "2.bias"]
    net.update_parameters_name("model.")
    assert net.trainable_params()[0].name.startswith("model.")
    assert set(net.init_parameters_data()) == set(net.trainable_params())
    seen = []
    net.apply(lambda c: seen.append(type(c).__name__))
    assert seen[-1] == "SequentialCell" and len(seen) == 4
    net.set_inputs(Tensor(shape=[None, 3], dtype=ms.float32))
    assert net.get_inputs()[0].shape == (-1, 3)  # MindSpore shows an unknown size as -1
    assert net(Tensor(np.ones((5, 3), np.float32))).shape == (5, 1)
    with pytest.raises(ValueError, match="set_inputs"):  # MindSpore: a size differs
        net(Tensor(np.ones((5, 4), np.float32)))
    net.compile(Tensor(np.ones((2, 3), np.float32)))
    assert net.cls_name == "SequentialCell" and set(net._cells) == {"0", "1", "2"}
    assert net.add_flags(defer_inline=True).get_flags() == {"defer_inline": True}


def test_cell_keyword_arguments_in_graph_mode():
    class Scale(nn.Cell):
        def construct(self, x, scale=2.0, shift=None):
            out = x * scale
            return out if shift is None else out + shift

    x = Tensor(np.ones(2, np.float32))
    np.testing.assert_allclose(Scale()(x, shift=Tensor(np.ones(2, np.float32))).asnumpy(), 3.0)
    np.testing.assert_allclose(Scale()(x=x).asnumpy(), 2.0)
    with pytest.raises(TypeError, match="unexpected keyword"):
        Scale()(x, bias=1.0)


def test_set_device_refuses_unknown_targets_as_mindspore():
    # MindSpore 2.10: ValueError for a target outside CPU/GPU/Ascend, None included (what
    # its tests' set_device() passes without DEVICE_TARGET in the environment)
    for target in (None, "TPU"):
        with pytest.raises(ValueError, match=r"The argument 'device_target' must be one of "
                                             r"\['CPU', 'GPU', 'Ascend'\], but got "):
            ms.set_device(target)
    with pytest.raises(ValueError, match="The device id must bigger than or equal to 0"):
        ms.set_device("CPU", -1)


def test_set_device_log_and_rng_state(caplog):
    ms.set_device("CPU")
    assert ms.get_context("device_target") == "CPU"
    assert ms.get_current_device() == ("CPU", 0)
    with caplog.at_level("INFO", logger="cellgraph"):
        ms.log.info("hello %d", 3)
    assert "hello 3" in caplog.text
    ms.set_seed(3)
    state = ms.get_rng_state()
    first = ms.mint.rand(3).asnumpy()  # (ops.rand's kernels keep generators of their own)
    ms.set_rng_state(state)
    np.testing.assert_array_equal(ms.mint.rand(3).asnumpy(), first)


def test_unhonourable_names_raise_clearly():
    with pytest.raises(NotImplementedError, match="AIR"):
        ms.export(nn.Dense(2, 2), Tensor(np.ones((1, 2), np.float32)), file_name="net",
                  file_format="AIR")
    assert ms.lazy_inline(len) is len  # a compile hint: the function comes back unchanged
    assert ms.JitConfig(jit_level="O1").jit_config_dict["jit_level"] == "O1"


def test_functional_namespace_and_function_module():
    from cellgraph.ops import function
    from cellgraph.ops import functional as F

    assert F.partial is ops.partial and F.shape(Tensor(np.ones((2, 3)))) == (2, 3)
    assert function.matmul is ops.matmul and F.mse_loss is ops.mse_loss
    assert ops.Identity()(3) == 3 and ops.Shape()(Tensor(np.ones((4, 1)))) == (4, 1)


def test_context_options_that_change_nothing_warn_once():
    from cellgraph import context

    context._warned.discard("max_device_memory")
    with pytest.warns(RuntimeWarning, match="max_device_memory"):
        ms.set_context(max_device_memory="4GB")
    assert ms.get_context("max_device_memory") == "4GB"
    assert ms.get_context("max_call_depth") == 1000
    context._warned.discard("Ascend")
    with pytest.warns(RuntimeWarning, match="no Ascend back end"):
        ms.set_context(device_target="Ascend")
    assert ms.get_context("backend") == "numpy"
    np.testing.assert_allclose(nn.Dense(2, 1, weight_init="ones", has_bias=False)(
        Tensor(np.ones((1, 2), np.float32))).asnumpy(), [[2.0]])


def _methods(x):
    return (x.add(2.0), x.sub(x).neg(), x.flip(1), x.roll(1, 1), x.repeat(2, 1),
            x.narrow(1, 1, 2), x.tril(), x.triu(1), x.mT, x.expand_as(ops.ones((2, 2, 3))),
            x.view_as(ops.ones(6)), x.long(), x.double(), x.to(ms.float16), x.norm(),
            x.logsumexp(1), x.lerp(x * 3, 0.5), x.index_select(1, Tensor(np.array([2, 0]))),
            x.masked_fill(x > 2, 0.0), x.chunk(3, 1)[2], x.amax(0), x.log2(), x.gt(2.0),
            x.new_ones((2,)), x.ravel(), x.unbind(0)[1])


def _expected(a):
    return (a + 2, -(a - a), a[:, ::-1], np.roll(a, 1, 1), np.tile(a, (2, 1)), a[:, 1:3],
            np.tril(a), np.triu(a, 1), a.T, np.broadcast_to(a, (2, 2, 3)), a.ravel(),
            a.astype(np.int64), a.astype(np.float64), a.astype(np.float16), np.linalg.norm(a),
            np.log(np.exp(a).sum(1)), 2 * a, a[:, [2, 0]], np.where(a > 2, 0, a), a[:, 2:],
            a.max(0), np.log2(a), a > 2, np.ones(2), a.ravel(), a[1])


def test_tensor_methods_in_eager_and_graph_mode():
    a = np.arange(1.0, 7.0, dtype=np.float32).reshape(2, 3)

    class Methods(nn.Cell):
        def construct(self, x):
            return _methods(x)

    for results in (_methods(Tensor(a)), Methods()(Tensor(a))):
        for got, want in zip(results, _expected(a)):
            np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-3, atol=1e-5)
        assert results[11].dtype == ms.int64 and results[13].dtype == ms.float16


def test_forward_hooks_in_both_modes():
    net = nn.Dense(2, 2, weight_init="ones", bias_init="zeros")
    x = Tensor(np.array([[1.0, 2.0]], np.float32))
    np.testing.assert_allclose(net(x).asnumpy(), [[3.0, 3.0]])
    seen = []

    def double_input(cell, inputs):
        return (inputs[0] * 2,)

    def add_one(cell, inputs, output):
        seen.append(type(cell).__name__)
        return output + 1

    pre = net.register_forward_pre_hook(double_input)
    post = net.register_forward_hook(add_one)
    for mode in (ms.GRAPH_MODE, ms.PYNATIVE_MODE):
        ms.set_context(mode=mode)
        np.testing.assert_allclose(net(x).asnumpy(), [[7.0, 7.0]])  # the graph was rebuilt
    ms.set_context(mode=ms.GRAPH_MODE)
    assert seen and seen[0] == "Dense"
    pre.remove()
    post.remove()
    np.testing.assert_allclose(net(x).asnumpy(), [[3.0, 3.0]])

    outer = nn.SequentialCell([net, nn.ReLU()])
    handle = net.register_forward_hook(lambda cell, inputs, output: -output)
    np.testing.assert_allclose(outer(x).asnumpy(), [[0.0, 0.0]])  # inner hooks run in graphs
    grads = ms.grad(outer, grad_position=None, weights=outer.trainable_params())(x)
    np.testing.assert_allclose(grads[0].asnumpy(), 0.0)
    handle.remove()
    net.register_backward_hook(lambda *a: None).remove()  # tests/cellgraph/test_cell_backward_hooks


def test_print_primitive_base_and_custom(capsys):
    from cellgraph.ops.primitive import PrimitiveWithInfer, constexpr, prim_attr_register

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.print = ops.Print()

        def construct(self, x):
            self.print("value:", x)
            self.print("shape:", x.shape)  # constants only: still a node of the graph
            return x * 2

    net = Net()
    for _ in range(2):
        np.testing.assert_allclose(net(Tensor(np.array([1.0, 2.0], np.float32))).asnumpy(),
                                   [2.0, 4.0])
    # printed each time the graph ran
    assert capsys.readouterr().out == "value: [1. 2.]\nshape: (2,)\n" * 2

    class Scale(PrimitiveWithInfer):
        @prim_attr_register
        def __init__(self, factor=2.0):
            pass

    scale = Scale(factor=3.0)
    assert scale.attrs == {"factor": 3.0}
    with pytest.raises(NotImplementedError, match="cellgraph.ops"):
        scale(Tensor(np.ones(2, np.float32)))
    doubled = ops.Custom(lambda x: x * 2, lambda s: s, lambda t: t, func_type="pyfunc")
    np.testing.assert_array_equal(doubled(Tensor(np.ones(2, np.float32))).asnumpy(), [2, 2])
    assert constexpr is ops.constexpr


def test_runtime_device_functions_on_the_cpu():
    from cellgraph import runtime

    runtime.synchronize()  # host kernels have finished when they return
    assert runtime.memory_allocated() == 0 and runtime.memory_reserved() == 0
    assert set(runtime.memory_stats()) >= {"total_allocated_memory", "max_reserved_memory"}
    stream = runtime.Stream()
    with runtime.StreamCtx(stream):
        assert stream.query() is True
    assert runtime.current_stream() is runtime.current_stream()
    with pytest.warns(RuntimeWarning, match="allocator"):
        runtime.set_memory(max_size="8GB")


def test_launch_blocking_on_the_cpu_raises_a_kernel_error_at_its_call():
    import warnings

    from cellgraph import runtime

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing to warn about on the NumPy backend
        assert runtime.launch_blocking() is None
    with pytest.raises(ValueError, match="the last dimension of the input cannot be 1"):
        ops.FFTWithSize(2, True, True)(Tensor(np.ones((2, 1), np.complex64)))


class _AssignsAttributes(nn.Cell):
    def __init__(self):
        super().__init__()
        self.count = Parameter(Tensor(np.array([2], np.int32)), name="count")
        self.w = Parameter(Tensor(np.array([3.0], np.float32)), name="w")

    def construct(self, x):
        for _ in range(3):
            self.count = self.count + 1
        self.w = 2 * self.w
        return x * self.w + self.count


def test_assigning_a_parameter_attribute_in_construct_updates_it():
    for mode in (ms.GRAPH_MODE, ms.PYNATIVE_MODE):
        ms.set_context(mode=mode)
        net = _AssignsAttributes()
        np.testing.assert_allclose(net(Tensor(np.array([1.0], np.float32))).asnumpy(), [11.0])
        np.testing.assert_allclose(net(Tensor(np.array([1.0], np.float32))).asnumpy(), [20.0])
        assert isinstance(net.w, Parameter) and net.count.asnumpy()[0] == 8
    ms.set_context(mode=ms.GRAPH_MODE)

    class NotAParameter(nn.Cell):
        def __init__(self):
            super().__init__()
            self.scale = 2.0

        def construct(self, x):
            self.scale = 3.0
            return x

    net = NotAParameter()   # MindSpore's graph mode runs the assignment (JIT fallback)
    net(Tensor(np.ones(1, np.float32)))
    assert net.scale == 3.0


def test_tensor_with_an_initializer():
    from cellgraph.common.initializer import Normal, One

    np.testing.assert_array_equal(Tensor(shape=(2, 3), dtype=ms.float32, init=One()).asnumpy(),
                                  np.ones((2, 3)))
    ms.set_seed(1)
    drawn = Tensor(shape=(4000,), dtype=ms.float32, init=Normal(0.5)).init_data()
    assert abs(float(drawn.asnumpy().std()) - 0.5) < 0.02
    with pytest.raises(TypeError, match="Initializer"):
        Tensor(shape=(2,), dtype=ms.float32, init=3)


def test_unsigned_dtypes():
    for dtype, np_dtype in ((ms.uint16, np.uint16), (ms.uint32, np.uint32),
                            (ms.uint64, np.uint64)):
        t = Tensor(np.array([1, 2], np_dtype))
        assert t.dtype == dtype and (t + t).asnumpy().dtype == np_dtype
        assert Tensor([3], dtype).asnumpy().dtype == np_dtype
    assert ms.common.dtype.uint32 is ms.uint32


def test_ops_operations_holds_every_primitive_class_of_ops():
    from cellgraph.ops import operations as P

    for name in ("Assign", "AddN", "Depend", "FloorDiv", "FloorMod", "Print", "MatMul"):
        assert getattr(P, name) is getattr(ops, name), name
