"""Device selection and the MindSpore entry points this platform cannot honour.

`set_device("GPU")` is `set_context(device_target="GPU")`. Exporting or loading MindIR and
AIR/ONNX graphs needs MindSpore's serialiser, which cellgraph does not have: those functions
exist so that programs reach them, and raise `UnsupportedError` saying what to use instead.
"""
from __future__ import annotations

from cellgraph.primitives.errors import UnsupportedError

from . import context

__all__ = ["UnsupportedError", "export", "get_current_device", "load", "set_device"]


def set_device(device_target, device_id=None) -> None:
    """Run on `device_target` ("CPU", "GPU"; "Ascend" warns and runs on the CPU)."""
    context.set_context(device_target=device_target)
    if device_id is not None:
        context.set_context(device_id=device_id)


def get_current_device():
    """(device_target, device_id) of the current context."""
    return context.get_context("device_target"), context.get_context("device_id")


def export(net, *inputs, file_name, file_format="MINDIR", **kwargs):
    raise UnsupportedError(f"export(file_format={file_format!r}): cellgraph cannot write MindIR, "
                           f"AIR or ONNX graphs; save the weights with save_checkpoint and "
                           f"rebuild the network in Python, or view the compiled program with "
                           f"cellgraph.dump_ir")


def load(file_name, **kwargs):
    raise UnsupportedError(f"load({file_name!r}): cellgraph cannot read MindIR graphs; rebuild "
                           f"the network in Python and load_checkpoint its weights")
