"""utils.MsDispatchMode: PyNative operations go to the innermost mode's __ms_dispatch__, whose
func(*args) hands them on to the next mode out; operations the handler runs itself are not
dispatched; graphs are not intercepted (MindSpore 2.10's behaviour, with cellgraph's names of
the operations)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, ops
from cellgraph.runtime.eager import DISPATCH

X = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
Y = Tensor(np.array([4.0, 5.0, 6.0], np.float32))


@pytest.fixture(autouse=True)
def pynative():
    mode = ms.get_context("mode")
    ms.set_context(mode=ms.PYNATIVE_MODE)
    yield
    ms.set_context(mode=mode)
    assert DISPATCH.modes == [] and not DISPATCH.handling


class Logger(ms.MsDispatchMode):
    def __init__(self, log, tag=""):
        self.log, self.tag = log, tag

    def __ms_dispatch__(self, func, args, kwargs=None):
        self.log.append((self.tag, func.name, len(args), kwargs))
        out = func(*args)
        ops.exp(args[0])  # the handler's own operations are not dispatched
        return out


def test_modes_nest_and_decorate():
    log = []
    with Logger(log, "outer"):
        z = X + Y
        with Logger(log, "inner"):
            w = X * 2
        v = X - Y
    np.testing.assert_array_equal(z.asnumpy(), [5, 7, 9])
    np.testing.assert_array_equal(w.asnumpy(), [2, 4, 6])
    np.testing.assert_array_equal(v.asnumpy(), [-3, -3, -3])
    # the inner mode handles first; its func(*args) goes to the outer one
    assert log == [("outer", "Add", 2, None), ("inner", "Mul", 2, None),
                   ("outer", "Mul", 2, None), ("outer", "Sub", 2, None)]

    log.clear()

    @Logger(log, "decorator")
    def add(a, b):
        return a + b

    np.testing.assert_array_equal(add(X, Y).asnumpy(), [5, 7, 9])
    assert log == [("decorator", "Add", 2, None)]
    log.clear()
    X + Y  # outside every mode
    assert log == []


def test_handler_sees_static_parameters_and_may_change_things():
    seen = []

    class Doubler(ms.MsDispatchMode):
        def __ms_dispatch__(self, func, args, kwargs=None):
            seen.append((func.name, args[1:]))
            if func.name == "ReduceSum":
                return func(args[0], args[1], True)  # keep_dims
            return func(*args) * 2

    with Doubler():
        s = X.sum(0)
        e = ops.exp(Tensor(np.zeros(2, np.float32)))
    assert s.shape == (1,) and float(s.asnumpy()[0]) == 6.0
    np.testing.assert_array_equal(e.asnumpy(), [2, 2])
    assert seen[0][0] == "ReduceSum" and seen[1] == ("Exp", ())


def test_a_handler_may_not_run_the_operation():
    class Replace(ms.MsDispatchMode):
        def __ms_dispatch__(self, func, args, kwargs=None):
            return ops.exp(args[0])

    log = []
    with Logger(log, "outer"), Replace():
        out = ops.sin(X)
    np.testing.assert_allclose(out.asnumpy(), np.exp([1, 2, 3]), rtol=1e-6)
    assert log == []


def test_graphs_are_not_intercepted():
    log = []

    @ms.jit
    def f(a, b):
        return a * b + 1

    with Logger(log):
        out = f(X, Y)
    np.testing.assert_array_equal(out.asnumpy(), [5, 11, 19])
    assert log == []


def test_modes_belong_to_their_thread():
    import threading

    log, results = [], []
    with Logger(log):
        worker = threading.Thread(target=lambda: results.append(X + Y))
        worker.start()
        worker.join()
    assert log == [] and results[0].shape == (3,)
