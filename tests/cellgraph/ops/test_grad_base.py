"""`ops._grad_experimental.grad_base`: MindSpore's registry of Python bprops. Registrations are
read back as MindSpore reads them; a Primitive subclass with a Python `__call__` is
differentiated through its `__call__` whatever is registered, as MindSpore 2.10 does (its
PyNative gives 2.0 for the program below: the registered bprop's 10.0 is not used)."""
import numpy as np

import cellgraph as ms
from cellgraph import Tensor, nn
from cellgraph.ops import composite as C
from cellgraph.ops._grad_experimental.grad_base import BpropRegistry, bprop_getters, get_bprop_fn
from cellgraph.ops.primitive import PrimitiveWithInfer, prim_attr_register


class Double(PrimitiveWithInfer):
    @prim_attr_register
    def __init__(self):
        super().__init__("Double")

    def __call__(self, x):
        return x * 2

    def infer_shape(self, shape):
        return shape

    def infer_dtype(self, dtype):
        return dtype


def _get_bprop_double(prim):
    def bprop(x, out, dout):
        return (dout * 10,)

    return bprop


class DoubleNet(nn.Cell):
    def construct(self, x):
        return Double()(x)


def test_registrations_are_read_back_by_class_instance_and_name():
    registry = BpropRegistry()
    registry.register(Double)(_get_bprop_double)
    registry.register("SomeOp")(_get_bprop_double)
    assert registry.get(Double(), None) is _get_bprop_double
    assert registry.get("Double", None) is _get_bprop_double
    assert registry.get("SomeOp", None) is _get_bprop_double
    assert registry.get("Other", 7) == 7


def test_a_python_call_is_differentiated_through_its_body():
    bprop_getters.register(Double)(_get_bprop_double)
    try:
        assert get_bprop_fn(Double(), get_closure=True) is _get_bprop_double
        assert callable(get_bprop_fn(Double()))
        x = Tensor(np.array([1.0, 2.0], np.float32))
        for mode in (ms.GRAPH_MODE, ms.PYNATIVE_MODE):
            ms.set_context(mode=mode)
            (grad,) = C.GradOperation(get_all=True)(DoubleNet())(x)
            np.testing.assert_allclose(grad.asnumpy(), [2.0, 2.0])
    finally:
        bprop_getters.pop(id(Double), None)
        bprop_getters.pop("Double", None)


def test_vm_impl_registry():
    """ops.vm_impl_registry and get_vm_impl_fn, as MindSpore's example runs them (it prints
    <class 'float'>): the getter gets what it was looked up by."""
    from cellgraph.ops import get_vm_impl_fn, vm_impl_registry

    @vm_impl_registry.register("Type")
    def vm_impl_dtype(self):
        def vm_impl(x):
            return (self, type(x))
        return vm_impl

    assert get_vm_impl_fn("Type")(1.0) == ("Type", float)
    assert get_vm_impl_fn("NoSuchOp") is None

    @vm_impl_registry.register(Double)
    def vm_impl_double(self):
        return lambda x: x * 2

    double = Double()
    assert get_vm_impl_fn(double)(3) == 6
    assert get_vm_impl_fn("Double")(4) == 8
    assert get_vm_impl_fn(bprop_getters) is None  # neither a Primitive nor a name
