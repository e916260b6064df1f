"""`mindspore.common.api`: the compilation decorators; `_pynative_executor`, the object
MindSpore's own tests call `sync()` on to wait for queued device work; and
`_cell_graph_executor`, the one they call `compile(net, *inputs)` on to compile a network
without running it; `_JitExecutor`, the same for a function (or a Cell's bound construct)."""
import inspect
import weakref
from collections.abc import Mapping

from cellgraph.jit_decorators import jit, jit_class, ms_class, ms_function

__all__ = ["jit", "jit_class", "ms_class", "ms_function"]


class _CellsCompileCache(Mapping):
    """`cells_compile_cache`: id of a Cell -> its `compile_cache`, for every live Cell that
    holds compiled graphs. A Cell leaves it when it is freed, or when ms_memory_recycle drops
    the graphs."""

    def _items(self):
        from cellgraph.runtime.executor import all_caches

        for cache in all_caches():
            cell = cache.owner() if cache.owner is not None else None
            if cell is not None and cache.entries:
                yield id(cell), cell.compile_cache

    def __getitem__(self, key):
        for cell_id, phases in self._items():
            if cell_id == key:
                return phases
        raise KeyError(key)

    def __iter__(self):
        return (cell_id for cell_id, _ in self._items())

    def __len__(self) -> int:
        return sum(1 for _ in self._items())


cells_compile_cache = _CellsCompileCache()


class _PynativeExecutor:
    """What programs reach of MindSpore's PyNative executor: `sync()` waits until the device
    has finished the work launched so far (errors surface there)."""

    def sync(self) -> None:
        from cellgraph.runtime import synchronize

        synchronize()


_pynative_executor = _PynativeExecutor()


class _CellGraphExecutor:
    """What programs and MindSpore's own tests reach of MindSpore's graph executor:
    `compile(cell, *inputs)` compiles the Cell's construct for those inputs without running it
    and returns `(phase, compiled_now)`, `has_compiled(phase)` says whether that phase's graph
    exists, and calling the executor runs the graph compiled for the inputs.

    A phase names the request (`"predict"` unless given), the Cell and its compiled
    specialisation: `"predict.<id of the cell>.<n>"`, n counting the Cell's specialisations in
    the order they were first compiled. Compiling again for arguments of the same shapes and
    dtypes returns the same phase and False.
    """

    def __init__(self):
        # phase -> (weak reference to the Cell, the Executable compiled for it)
        self._phases: dict = {}
        # id(cell) -> {id(Executable): n}, n numbering the Cell's specialisations
        self._keys: dict = {}

    def compile(self, obj, *args, phase="predict", do_convert=True, jit_config_dict=None,
                **kwargs):
        """Compile `obj.construct` for `args` and `kwargs`. Returns the full phase (str) and
        whether the graph was compiled by this call (False when it existed already).
        `do_convert` (conversion to Ascend's GE graphs) has no counterpart here, and a
        `jit_config_dict` changes nothing in how the graph is compiled."""
        if not isinstance(phase, str):
            raise TypeError(f"_cell_graph_executor.compile: phase must be a str, got "
                            f"{phase!r}")
        _check_unique_parameter_names(obj)
        entry, compiled_now = self._executable(obj, args, kwargs)
        keys = self._keys.setdefault(id(obj), {})
        key = keys.setdefault(id(entry), len(keys))
        full_phase = f"{phase}.{id(obj)}.{key}"
        previous = self._phases.get(full_phase)
        # a phase not asked for before, another Cell at the same address, a recompiled graph
        compiled_now = compiled_now or previous is None or previous[0]() is not obj or \
            previous[1] is not entry
        self._phases[full_phase] = (weakref.ref(obj), entry)
        return full_phase, compiled_now

    def has_compiled(self, phase="predict") -> bool:
        """Whether the graph of the full phase `phase` (as `compile` returned it) exists."""
        found = self._phases.get(phase)
        return found is not None and found[0]() is not None

    def __call__(self, obj, *args, phase="predict"):
        return self.run(obj, *args, phase=phase)

    def run(self, obj, *args, phase="predict"):
        """Run the graph `compile(obj, *args, phase=phase)` compiled; KeyError when it was not
        compiled."""
        from cellgraph import context
        from cellgraph.runtime.executor import run_cached

        if not hasattr(obj, "_graph_cache"):
            raise AttributeError(f"The class {type(obj).__name__} does not have method "
                                 f"construct")
        fn, flat = obj._graph_arguments(args, {})
        entry = obj._graph_cache.lookup(fn, tuple(flat), context.dump_dir())
        key = self._keys.get(id(obj), {}).get(id(entry))
        full_phase = f"{phase}.{id(obj)}.{key}"
        if key is None or not self.has_compiled(full_phase):
            raise KeyError(f"{full_phase} graph is not exist.")
        return run_cached(obj._graph_cache, fn, tuple(flat), context.dump_dir())

    @staticmethod
    def _executable(obj, args, kwargs):
        """(the Executable of obj's construct for these arguments, whether it was compiled
        now)."""
        from cellgraph import context
        from cellgraph.compiler.pipeline import compile_callable
        from cellgraph.runtime.executor import tensor_leaves
        from cellgraph.runtime.tensor import SignatureTensor

        cache = getattr(obj, "_graph_cache", None)
        if cache is None or not callable(getattr(obj, "construct", None)):
            raise AttributeError(f"The class {type(obj).__name__} does not have method "
                                 f"construct")
        before = {id(e) for e in cache.entries.values()}
        fn, flat = obj._graph_arguments(args, kwargs)
        if any(isinstance(leaf, SignatureTensor) for leaf in tensor_leaves(flat)):
            # Tensors of unknown sizes (`Tensor(shape=[None, 3], dtype=...)`), as Cell.compile
            # takes them: the graph is built and checked with those sizes dynamic; calls
            # compile for their own shapes
            return compile_callable(fn, tuple(flat), context.dump_dir()), True
        entry = cache.lookup(fn, tuple(flat), context.dump_dir())
        return entry, id(entry) not in before


def _check_unique_parameter_names(obj) -> None:
    """ValueError when two different Parameters that are attributes of one Cell of the
    network carry one name, as MindSpore's graph executor refuses to compile it (their
    checkpoint entries would collide)."""
    from cellgraph.common.parameter import Parameter

    cells = obj.cells_and_names() if hasattr(obj, "cells_and_names") else ()
    for _, cell in cells:
        seen: dict = {}  # name -> id of the Parameter
        for attr, value in vars(cell).items():
            if not isinstance(value, Parameter):
                continue
            if seen.setdefault(value.name, id(value)) != id(value):
                raise ValueError(f"The value of {attr} is {value!r}, its name '{value.name}' "
                                 f"already exists. Please set a unique name for the parameter.")


_cell_graph_executor = _CellGraphExecutor()


class _JitExecutor:
    """What MindSpore's own tests reach of its function executor: `compile(method_name,
    *args)` compiles `fn` for those arguments without running it and returns the phase,
    `"<module>.<method_name>.<file>.<line>.<ms_create_time>.<n>"` (where `fn` is defined), n
    counting the function's specialisations in the
    order they were first compiled (arguments of the same shapes and dtypes, mutable numbers
    included, give the same phase; a constant number its own). `input_signature`, `obj`,
    `jit_config` and `dynamic` (ways MindSpore's jit configures the compile) are refused."""

    def __init__(self, fn, ms_create_time, input_signature=None, obj=None, jit_config=None,
                 dynamic=0, cell_cache_key_extend=""):
        from cellgraph.primitives.errors import UnsupportedError
        from cellgraph.runtime.executor import GraphCache

        given = [name for name, value in (("input_signature", input_signature), ("obj", obj),
                                          ("jit_config", jit_config)) if value is not None]
        if given or dynamic != 0:
            raise UnsupportedError(f"_JitExecutor: {', '.join(given) or 'dynamic'} is not "
                                   f"supported; compile through `jit` instead")
        if not callable(fn):
            raise TypeError(f"_JitExecutor: fn must be callable, got {type(fn).__name__}")
        self.fn = fn
        self._create_time = ms_create_time
        self._key_extend = str(cell_cache_key_extend)
        self._cache = GraphCache()
        self._keys: dict = {}  # id(Executable) -> n

    def compile(self, method_name, *args, phase="", **kwargs):
        """Compile `fn(*args, **kwargs)` without running it; returns the phase."""
        from cellgraph import context
        from cellgraph.compiler.frontend import top_level_arguments

        if kwargs:
            args = top_level_arguments(self.fn, str(method_name), args, kwargs)
        entry = self._cache.lookup(self.fn, tuple(args), context.dump_dir())
        key = self._keys.setdefault(id(entry), len(self._keys))
        code = getattr(getattr(self.fn, "__func__", self.fn), "__code__", None)
        where = f".{code.co_filename}.{code.co_firstlineno}" if code is not None else ""
        name = phase or f"{getattr(self.fn, '__module__', None)}.{method_name}"
        return f"{name}{where}.{self._create_time}{self._key_extend}.{key}"


def _add_flags(fn=None, **flags):
    """Record compile flags on a function or Cell class (its `_func_graph_flags` dict, where
    MindSpore's compiler reads them); usable as a decorator. The flags MindSpore's compiler acts
    on tune its own passes (recursion checks, inlining), which this compiler has no counterpart
    for: they are kept for programs that read them back."""
    def deco(target):
        found = getattr(target, "_func_graph_flags", None)
        if found is None:
            target._func_graph_flags = found = {}
        found.update(flags)
        return target

    return deco if fn is None else deco(fn)


def _no_recursive(callable_obj):
    """MindSpore's decorator that lets its compiler skip checking a function (or a Cell
    class's construct) for recursion; it flags the object (`no_recursive`). Calls compile and
    run as without it: recursion here is handled where it is met."""
    from cellgraph.nn.cell import Cell

    is_cell_class = inspect.isclass(callable_obj) and issubclass(callable_obj, Cell)
    if not (is_cell_class or inspect.ismethod(callable_obj) or
            inspect.isfunction(callable_obj)):
        raise TypeError(f"Decorator no_recursive is used for callable object, but got "
                        f"{callable_obj}.")
    return _add_flags(callable_obj, no_recursive=True)
