"""The compile context: passes are handed it, and the front end finds it on the builder of
the compile it traces for, so two compiles with different settings (in two threads at once, or
one inside another's) each see their own."""
import threading

import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, nn, ops
from cellgraph.compiler.builder import compile_context
from cellgraph.compiler.compile_context import LOOP_SETTINGS, CompileContext
from cellgraph.compiler.ir import print_graph
from cellgraph.compiler.pipeline import parse, run_passes


class Doubles(nn.Cell):
    def construct(self, x):
        while x.sum() < 10:
            x = ops.sin(x) + x * 2
        return x


def optimized_text(ctx: CompileContext) -> str:
    fn, x = cellgraph.grad(Doubles()), Tensor(np.array([0.5], np.float32))
    graph = parse(fn, (x,), ctx=ctx)[0]
    return print_graph(run_passes(graph, ctx=ctx))


def test_the_loop_checkpoint_comes_from_the_compiles_context():
    assert LOOP_SETTINGS.checkpoint == 0
    assert "segment" not in optimized_text(CompileContext())
    assert "while_body_segments_record" in optimized_text(CompileContext(loop_checkpoint=2))


def test_the_settings_give_the_context_of_a_compile_that_names_none():
    cellgraph.set_context(loop_checkpoint=3)
    try:
        assert compile_context() == CompileContext.from_settings()
        assert compile_context().loop_checkpoint == 3
    finally:
        cellgraph.set_context(loop_checkpoint=0)
    assert CompileContext.from_settings(differentiable=True).differentiable


def test_compiles_in_two_threads_each_read_their_own_context():
    expected = {k: optimized_text(CompileContext(loop_checkpoint=k)) for k in (0, 2)}
    assert expected[0] != expected[2]
    results, errors = {0: [], 2: []}, []

    def compile_many(k):
        try:
            for _ in range(5):
                results[k].append(optimized_text(CompileContext(loop_checkpoint=k)))
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=compile_many, args=(k,)) for k in (0, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for k in (0, 2):
        assert results[k] == [expected[k]] * 5


class Made:
    pass


def test_objects_made_while_parsing_belong_to_their_compile():
    from cellgraph.compiler.builder import Builder
    from cellgraph.compiler.scope import is_compile_time_object, mark_compile_time_object

    made = Made()
    first, second = Builder("first"), Builder("second")
    first.context, second.context = CompileContext(), CompileContext()
    with first.active():
        mark_compile_time_object(made)
        assert is_compile_time_object(made)
        inner = Builder("branch")  # a branch's builder: the same compile
        with inner.active():
            assert is_compile_time_object(made)
    with second.active():
        assert not is_compile_time_object(made)
    assert not is_compile_time_object(made)


def test_mixed_precision_casts_pushed_while_tracing_stay_in_the_compile():
    from cellgraph.compiler.builder import Builder, parameter_cast_dtype, parameters_cast_to
    from cellgraph.primitives import dtype as dt

    seen_elsewhere = []
    with parameters_cast_to(dt.float16):  # a Cell running eagerly in float16
        builder = Builder("graph")
        builder.context = CompileContext.from_settings()  # a compile starts among its casts
        with builder.active():
            assert parameter_cast_dtype() is dt.float16
            with parameters_cast_to(dt.float64):  # a traced Cell's own compute dtype
                assert parameter_cast_dtype() is dt.float64
                other = threading.Thread(target=lambda: seen_elsewhere.append(
                    parameter_cast_dtype()))
                other.start()
                other.join()
            assert parameter_cast_dtype() is dt.float16
        assert builder.context.param_casts == [dt.float16]
        assert parameter_cast_dtype() is dt.float16
    assert parameter_cast_dtype() is None
    assert seen_elsewhere == [None]  # another thread's eager code casts nothing


def test_jit_syntax_levels_as_mindspore(monkeypatch):
    """STRICT returns a construct's dict as the tuple of its values and, with COMPATIBLE,
    refuses asnumpy in a graph (MindSpore 2.10's AttributeError); jit(fullgraph=True) is
    STRICT, and MS_DEV_JIT_SYNTAX_LEVEL comes before a Cell's JitConfig."""
    import cellgraph as ms
    from cellgraph import Tensor, nn

    ms.set_context(mode=ms.GRAPH_MODE)
    monkeypatch.delenv("MS_DEV_JIT_SYNTAX_LEVEL", raising=False)

    class Table(nn.Cell):
        def construct(self):
            return {"a": 1, "b": Tensor([2])}

    class Host:
        def double(self, x):
            return 2 * x.asnumpy()

    class UsesHost(nn.Cell):
        def __init__(self):
            super().__init__()
            self.host = Host()

        def construct(self, x):
            return self.host.double(x)

    def configured(cell, level):
        cell.set_jit_config(ms.JitConfig(jit_syntax_level=level))
        return cell

    out = configured(Table(), "STRICT")()
    assert type(out) is tuple and out[0] == 1 and out[1].asnumpy().tolist() == [2]
    assert type(configured(Table(), "COMPATIBLE")()) is dict
    assert type(ms.jit(lambda: {"a": 1}, fullgraph=True)()) is tuple
    assert type(ms.jit(lambda: {"a": 1})()) is dict
    with pytest.raises(AttributeError, match="In JIT strict mode, cannot get attributes "
                                             r"asnumpy or the Tensor\[Int64\]"):
        configured(UsesHost(), "COMPATIBLE")(Tensor(2))
    assert configured(UsesHost(), "LAX")(Tensor(2)) == 4
    monkeypatch.setenv("MS_DEV_JIT_SYNTAX_LEVEL", "0")
    with pytest.raises(AttributeError):
        configured(UsesHost(), "LAX")(Tensor(2))
