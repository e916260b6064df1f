"""The JAX backend (`jax`): each compiled graph becomes one XLA program.

Selecting it (JAX is an optional extra: `pip install cellgraph[jax]`):

    cellgraph.set_context(backend="jax")         # on JAX's default device
    cellgraph.set_context(device_target="GPU")   # JAX when it sees a GPU (after PyTorch, CuPy)

Compiled calls (graph mode, grad, vmap, TrainOneStepCell) go through `Backend.compile_graph`:
cellgraph's optimised graph is lowered to one `jax.jit` function (runtime/jax_lowering.py), so
XLA fuses what cellgraph's generated Python would run as one NumPy pass per node. XLA needs
every shape before it runs: the per-trip stacks of a differentiated Tensor `while` go into
buffers of a static bound, compiled again for a larger one when a run outgrows it
(jax_lowering.tape_loops); a graph XLA still cannot take (a value whose shape only the run
decides, or a taped graph that prints, which a second run would show) runs on the host instead,
as the NumPy backend runs it, with a warning naming the node. Eager calls
(PyNative, `__init__` code) run the kernel table one primitive at a time: the shared
array-module table over `jax.numpy` plus the overrides in runtime/jax_kernels.py.

The backend lives on JAX's default device (a GPU when JAX has one; set `JAX_PLATFORMS=cpu` to
keep it on the CPU). MindSpore's int64 and float64 need JAX's 64-bit mode, which importing this
module turns on (`jax_enable_x64`); float32 programs are unaffected. Host fallbacks, as on the
other backends (backend.HOST_FALLBACKS): `uniform_real` (eagerly, the NumPy generator's numbers)
and `print`. In compiled graphs, random draws come from `jax.random` with keys made from
cellgraph's global generator: reproducible after `set_seed`, but not the NumPy backend's
numbers.
"""
from __future__ import annotations

import functools
import threading
import warnings

try:
    import jax
except ImportError as e:  # the backend is optional
    raise ImportError("the jax backend needs JAX: pip install 'cellgraph[jax]'") from e

import jax.numpy as jnp
import numpy as np

from .backend import Backend, get_backend, register_backend, with_host_fallbacks
from .jax_kernels import kernel_table
from .jax_lowering import compile_graph, dynamic_node

jax.config.update("jax_enable_x64", True)


def make_backend(device) -> Backend:
    """A backend on JAX device `device`; `device` is "GPU" for a GPU, else "CPU"."""
    def from_host(a):
        return jax.device_put(a, device)

    def to_host(a):
        return np.asarray(a)

    def asarray(value, dtype):
        if isinstance(value, jax.Array):
            return value if value.dtype == dtype else value.astype(dtype)
        return from_host(np.asarray(value, dtype=dtype))

    kernels = with_host_fallbacks(kernel_table(), to_host, from_host)
    kernels = {name: _full_float32(fn) for name, fn in kernels.items()}

    def compile_executable(compiled):
        found = dynamic_node(compiled.graph)
        if found is None:
            return _full_float32(compile_graph(compiled.graph, kernels))
        return _on_the_host(compiled, from_host, *found)

    return Backend("jax", jnp, kernels, to_host=to_host, from_host=from_host,
                   device="GPU" if device.platform == "gpu" else "CPU", asarray=asarray,
                   array_type=jax.Array, compile_graph=compile_executable)


def _full_float32(fn):
    """`fn` with float32 matrix products and convolutions in full float32. XLA's default on a
    GPU is TF32 (a 10-bit mantissa), about 1e-3 off MindSpore's and NumPy's numbers; the
    precision is part of `jax.jit`'s cache key, so the context covers tracing and running."""
    @functools.wraps(fn)
    def call(*args, **kwargs):
        with jax.default_matmul_precision("highest"):
            return fn(*args, **kwargs)
    return call


_WARNED: set = set()  # the (graph, node line) pairs already reported
_WARNED_LOCK = threading.Lock()


def _on_the_host(compiled, from_host, node, why: str):
    """A graph XLA cannot take (a value whose shape is known only when it runs: the stacks a
    differentiated Tensor `while` records per trip) runs as generated Python over the NumPy
    kernels, its arguments copied to the host and its results back. Never silently: the
    first time a graph does, a warning names the node (`dynamic_node`), the user's line and
    why."""
    from .executor import bind_module

    where = node.loc.short() if node is not None and node.loc is not None else "?"
    key = (compiled.graph.name, where, why)
    with _WARNED_LOCK:
        first = key not in _WARNED
        _WARNED.add(key)
    if first:
        what = f"node {node.callee.name}" if node is not None else "the graph"
        text = f" ({node.loc.text.strip()})" if node is not None and node.loc is not None \
            and node.loc.text else ""
        warnings.warn(f"backend 'jax': @{compiled.graph.name} runs node by node on the host, "
                      f"not through XLA: {what} at {where}{text}: {why}", RuntimeWarning,
                      stacklevel=2)

    run, _ = bind_module(compiled.module, get_backend("numpy"))

    def on_the_host(*arrays):
        return tuple(from_host(np.asarray(o)) for o in run(*[np.asarray(a) for a in arrays]))
    return on_the_host


register_backend(make_backend(jax.devices()[0]))
