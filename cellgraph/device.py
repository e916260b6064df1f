"""Device selection, and MindSpore's `export` and `load` of whole graphs.

`set_device("GPU")` is `set_context(device_target="GPU")`. `export` writes ONNX models
(`cellgraph.onnx`); `load` reads MindSpore's MindIR files (`cellgraph.train.mindir_graph`) for
`nn.GraphCell` to run. AIR graphs (Ascend's format) are not written: that raises
`UnsupportedError` saying what to use instead.
"""
from __future__ import annotations

from cellgraph.primitives.errors import ArgumentError, ArgumentValueError, UnsupportedError

from . import context

__all__ = ["UnsupportedError", "export", "get_current_device", "load", "set_deterministic",
           "set_device"]

_DETERMINISTIC_SET = []  # one entry once set_deterministic has run


def set_device(device_target, device_id=None) -> None:
    """Run on `device_target` ("CPU", "GPU"; "Ascend" warns and runs on the CPU)."""
    valid_targets = ["CPU", "GPU", "Ascend"]
    if device_target not in valid_targets:  # None included, as MindSpore checks it
        raise ArgumentValueError(f"The argument 'device_target' must be one of {valid_targets}, "
                                 f"but got {device_target}.")
    if device_id is not None and not isinstance(device_id, bool) and isinstance(
            device_id, int) and device_id < 0:
        raise ArgumentValueError("The device id must bigger than or equal to 0.")
    context.set_context(device_target=device_target)
    if device_id is not None:
        context.set_context(device_id=device_id)


def set_deterministic(deterministic) -> None:
    """Deterministic computation on (True) or off: set_context(deterministic="ON"/"OFF"),
    once per process, as MindSpore allows."""
    if not isinstance(deterministic, bool):
        raise ArgumentError(f"The parameter 'deterministic' must be {bool}, but got "
                            f"{type(deterministic)}")
    if _DETERMINISTIC_SET:
        raise RuntimeError("The 'mindspore.set_deterministic' can not be set repeatedly.")
    context.set_context(deterministic="ON" if deterministic else "OFF")
    _DETERMINISTIC_SET.append(deterministic)


def get_current_device():
    """(device_target, device_id) of the current context."""
    return context.get_context("device_target"), context.get_context("device_id")


def export(net, *inputs, file_name, file_format, **kwargs):
    """Write `net` run on `inputs` to `file_name` as `file_format`: "ONNX" (through the onnx
    package, `cellgraph.onnx`) or "MINDIR" (MindSpore's graph file, which its `load` +
    `nn.GraphCell` run; see cellgraph.train.mindir_export for what converts). "AIR", Ascend's
    format, is not written."""
    if file_format not in EXPORT_FORMATS:
        raise ArgumentValueError(f"For 'export', 'file_format' must be one of "
                                 f"{list(EXPORT_FORMATS)}, but got {file_format}.")
    if file_format == "AIR":
        raise UnsupportedError("export(file_format='AIR'): cellgraph cannot write Ascend's AIR "
                               "graphs; export with file_format='MINDIR' or 'ONNX'")
    unknown = sorted(set(kwargs) - {"enc_key", "enc_mode", "custom_func"})
    if unknown:
        raise ArgumentError(f"export() got unexpected keyword arguments {unknown}")
    if file_format == "MINDIR":
        _export_mindir(net, inputs, file_name, kwargs)
        return
    if kwargs.get("custom_func") is not None:
        raise ArgumentValueError(f"Currently only support custom_func for MindIR format, but got "
                                 f"{file_format} format.")
    encrypt = None
    if "enc_key" in kwargs:
        enc_key, enc_mode = kwargs["enc_key"], kwargs.get("enc_mode", "AES-GCM")
        if not isinstance(enc_key, bytes):
            raise ArgumentError(f"The argument 'enc_key' must be bytes, but got "
                                f"{type(enc_key).__name__}.")
        if not callable(enc_mode):
            raise ArgumentValueError(f"AIR/ONNX only support customized encryption, but got "
                                     f"{enc_mode}.")
        encrypt = lambda data: enc_mode(data, enc_key)
    from cellgraph import onnx as onnx_export

    model = onnx_export.onnx_model(net, inputs)
    data = model.SerializeToString()
    onnx_export.write_bytes(data if encrypt is None else encrypt(data), file_name)


EXPORT_FORMATS = ("AIR", "ONNX", "MINDIR")


def _export_mindir(net, inputs, file_name, options) -> None:
    """`net` on `inputs` as a MindIR file (cellgraph.train.mindir_export), encrypted with
    `enc_key` in `enc_mode` (AES-GCM, AES-CBC, SM4-CBC, or a callable `enc_mode(data, key)`)."""
    from cellgraph.train import checkpoint_crypto, mindir_export

    if options.get("custom_func") is not None:
        raise UnsupportedError("export(file_format='MINDIR', custom_func=...): cellgraph writes "
                               "no custom MindIR fields")
    from cellgraph import log
    from cellgraph.train import mindir_split, serialization

    encrypt = None
    if "enc_key" in options:
        enc_key, enc_mode = options["enc_key"], options.get("enc_mode", "AES-GCM")
        if not isinstance(enc_key, bytes):
            raise ArgumentError(f"The argument 'enc_key' must be bytes, but got "
                                f"{type(enc_key).__name__}.")
        if callable(enc_mode):
            encrypt = lambda data: enc_mode(data, enc_key)
        else:
            checkpoint_crypto.check_key(enc_key, enc_mode, "export")
            encrypt = lambda data: checkpoint_crypto.encrypt(data, enc_key, enc_mode)
    model = mindir_export.model_proto(net, inputs)
    parameters = model["graph"].get("parameter", [])
    if parameters and mindir_split.parameters_kilobytes(parameters) > serialization.TOTAL_SAVE:
        log.warning("Parameters in the net capacity exceeds 1G, save MindIR model and "
                    "parameters separately.")
        mindir_split.write_split(model, file_name, serialization.PARAMETER_SPLIT_SIZE, encrypt)
        return
    data = mindir_export.model_bytes_of(model)
    mindir_export.write_mindir(data if encrypt is None else encrypt(data), file_name)


def load(file_name, **kwargs):
    """The graph of the MindIR file `file_name` (MindSpore's `dec_key`/`dec_mode` decrypt it),
    for `nn.GraphCell(graph)(*inputs)` to run; see cellgraph.train.mindir_graph for what a
    graph may hold."""
    from cellgraph.train import mindir_graph

    return mindir_graph.load(file_name, **kwargs)
