"""A list a graph reads from outside (a global, an attribute, a closure) and returns comes back
as that very list, as in MindSpore 2.10's graph mode (the identities below recorded from it)."""
import numpy as np

from cellgraph import Tensor, context, jit, jit_class, nn

NESTED = [1, 2, (3, [4, 5])]
WITH_TENSORS = [Tensor(np.array([1.0], np.float32)), "a"]
POPPED = [1, 2, 3, 4]
EXTENDED = [1, 2]


def setup_module():
    context.set_context(mode=context.GRAPH_MODE)


def test_a_global_list_and_a_list_nested_in_it_are_returned_as_themselves():
    @jit
    def foo():
        return NESTED, NESTED[2][1]

    whole, inner = foo()
    assert whole is NESTED
    assert inner is NESTED[2][1]


def test_a_global_list_holding_tensors_is_returned_as_itself():
    @jit
    def foo():
        return WITH_TENSORS

    assert foo() is WITH_TENSORS


def test_a_cell_attribute_list_is_returned_as_itself():
    class Net(nn.Cell):
        def __init__(self, values):
            super().__init__()
            self.values = values

        def construct(self):
            return self.values

    values = [1, 2]
    assert Net(values)() is values


def test_a_jit_class_attribute_list_is_returned_as_itself():
    @jit_class
    class Holder:
        def __init__(self):
            self.values = [3, 4]

    holder = Holder()

    @jit
    def foo():
        return holder.values

    assert foo() is holder.values


def test_a_closure_list_is_returned_as_itself():
    local = [7, 8]

    @jit
    def foo():
        return local

    assert foo() is local


def test_a_list_changed_in_place_is_returned_as_itself():
    @jit
    def pop():
        value = POPPED.pop()
        return value, POPPED

    @jit
    def extend():
        EXTENDED.extend([3])
        return EXTENDED

    value, whole = pop()
    assert value == 4 and whole is POPPED and POPPED == [1, 2, 3]
    assert extend() is EXTENDED and EXTENDED == [1, 2, 3]


def test_a_list_made_in_the_graph_is_a_new_list_with_its_values():
    @jit
    def foo(x):
        return [NESTED[0], x]

    x = Tensor(np.array([2.0], np.float32))
    out = foo(x)
    assert isinstance(out, list) and out[0] == 1
    np.testing.assert_array_equal(out[1].asnumpy(), [2.0])
