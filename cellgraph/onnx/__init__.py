"""`cellgraph.onnx.export`: a Cell as an ONNX model (MindSpore's `mindspore.onnx.export`).

The network is compiled in inference mode (`set_train(False)` for the duration) for the
example inputs, and its optimised graph is converted primitive by primitive
(`converter.py`, `convert_map.py`). Needs the `onnx` package (`pip install cellgraph[onnx]`).
"""
from __future__ import annotations

from cellgraph.primitives.errors import ArgumentError, ArgumentValueError, UnsupportedError

from .converter import OPSET, ONNXExportError

__all__ = ["OPSET", "ONNXExportError", "export"]

PROTOBUF_LIMIT = 2 ** 31 - 1  # bytes in one serialised protobuf message


def export(net, *inputs, file_name, input_names=None, output_names=None, export_params=True,
           keep_initializers_as_inputs=False, dynamic_axes=None):
    """Write `net` run on `inputs` as an ONNX model to `file_name` (".onnx" added when it has
    no suffix); inputs are named by `input_names`, outputs by `output_names`."""
    for name, value in (("input_names", input_names), ("output_names", output_names)):
        if value is not None and not isinstance(value, list):
            raise ArgumentValueError(f"For 'export', '{name}' must be a list, but got "
                                     f"{type(value).__name__}.")
    if dynamic_axes is not None:
        if not isinstance(dynamic_axes, dict):
            raise ArgumentValueError(f"For 'export', 'dynamic_axes' must be a dict, but got "
                                     f"{type(dynamic_axes).__name__}.")
        if dynamic_axes:
            raise UnsupportedError("export(dynamic_axes=...): cellgraph compiles the network "
                                   "for the shapes of the example inputs (reshapes and slices "
                                   "hold them), so it writes models with static shapes only")
    model = onnx_model(net, inputs, input_names, output_names, export_params,
                       keep_initializers_as_inputs)
    write_model(model, file_name)


def onnx_model(net, inputs, input_names=None, output_names=None, export_params=True,
               keep_initializers_as_inputs=False):
    """The onnx.ModelProto of `net` on `inputs`, compiled in inference mode."""
    from cellgraph.nn import Cell

    if not isinstance(net, Cell):
        raise ArgumentValueError(f"Export ONNX format model only support nn.Cell object, but "
                                 f"got {type(net)}.")
    try:
        import onnx  # noqa: F401
    except ImportError:
        raise UnsupportedError("export(file_format='ONNX') needs the onnx package: pip install "
                               "'cellgraph[onnx]'") from None
    from cellgraph.compiler.pipeline import compile_inference
    from cellgraph.runtime.tensor import Tensor

    for value in inputs:
        if isinstance(value, Tensor) and any(d is None or d < 0 for d in value.shape):
            raise ArgumentValueError("Export ONNX format model not support dynamic shape mode.")
    compiled = compile_inference(net, inputs)
    graph = compiled.graph
    if graph.updates:
        names = ", ".join(p.name for p in graph.updates)
        raise ONNXExportError(f"export(file_format='ONNX'): the network assigns the Parameters "
                              f"{names} while it runs in inference mode; an ONNX model has no "
                              f"state to update", graph.loc)
    weights = [(p.name, p.asnumpy()) for p in graph.weights]
    size = sum(array.nbytes for _, array in weights)
    if size > PROTOBUF_LIMIT:
        raise ONNXExportError(f"export(file_format='ONNX'): the network's Parameters take "
                              f"{size / 2 ** 30:.2f} GB, over protobuf's 2 GB limit for one "
                              f"ONNX file (cellgraph writes no external-data files)", graph.loc)
    input_names = _names(input_names, [p.hint for p in graph.params[:graph.n_inputs]], "input",
                         {name for name, _ in weights})
    output_names = _names(output_names, [None] * len(graph.outputs), "output",
                          {name for name, _ in weights} | set(input_names))
    from .converter import build_model

    return build_model(graph, weights, input_names, output_names, export_params,
                       keep_initializers_as_inputs, "cellgraph")


def _names(given, hints, prefix: str, taken: set) -> list[str]:
    """`given` checked against the count (MindSpore's names where the user gave none: the
    argument's name, else prefix + position), unique and apart from `taken`."""
    count = len(hints)
    if given is not None:
        if len(given) != count or not all(isinstance(n, str) and n for n in given):
            raise ArgumentError(f"For 'export', expected {count} {prefix} names (strings), "
                                f"got {given!r}")
        names = list(given)
    else:
        names = [h if h else f"{prefix}{i}" for i, h in enumerate(hints)]
    seen = set(taken)
    for i, name in enumerate(names):
        if name in seen:
            if given is not None:
                raise ArgumentValueError(f"For 'export', the {prefix} name {name!r} is used "
                                         f"twice (or names a Parameter)")
            k = 1
            while f"{name}_{k}" in seen:
                k += 1
            names[i] = name = f"{name}_{k}"
        seen.add(name)
    return names


def write_model(model, file_name) -> None:
    """`model`'s bytes to `file_name` + ".onnx" when it has no suffix, atomically."""
    write_bytes(model.SerializeToString(), file_name)


def write_bytes(data: bytes, file_name) -> None:
    """The serialised (or encrypted) model to `file_name`, as `write_model`."""
    from cellgraph.safe_io import write_model_file

    write_model_file(data, file_name, ".onnx")
