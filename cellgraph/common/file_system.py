"""`mindspore.common.file_system`: which functions open checkpoint files, and with what mode.

A `FileSystem` holds the pair MindSpore's checkpoint writer creates files with (`create`,
called as `create(path, *create_args)`) and the pair its reader opens them with (`open`,
`open(path, *open_args)`), and names its backend. The basic backend is Python's `open` in
append-binary and read-binary mode. MindIO (Ascend's in-memory checkpoint store) is taken when
its `mindio_acp` or `mindio` package is installed and initialises; otherwise registering it
answers False and the record is left as it was.

cellgraph's own checkpoint writer and reader (train/serialization.py) go through `safe_io`
(temp file, fsync, rename) and do not consult a FileSystem record."""
from __future__ import annotations

from cellgraph import _checkparam as validator
from cellgraph import log as logger

# the settings handed to mindio_acp.initialize (MindSpore's keys; sizes as strings)
mindio_server_info = {"memfs.data_block_pool_capacity_in_gb": "100"}


class FileSystem:
    """The functions checkpoint files are created and opened with (Python's `open` at first)."""

    def __init__(self):
        self.create = open
        self.create_args = ("ab",)
        self.open = open
        self.open_args = ("rb",)
        self.backend = "basic"


def _register_basic_file_system(fs: FileSystem) -> bool:
    """Point `fs` at Python's `open` ("ab" to create, "rb" to open); always True."""
    fs.create, fs.create_args = open, ("ab",)
    fs.open, fs.open_args = open, ("rb",)
    return True


def _initialized_mindio(module_name: str, **settings):
    """The MindIO module `module_name` once its `initialize(**settings)` returned 0; None when
    it is not installed or did not initialise (which is logged)."""
    import importlib

    try:
        module = importlib.import_module(module_name)
    except ImportError:
        return None
    status = module.initialize(**settings)
    if status == 0:
        return module
    logger.warning(f"Failed to initialize {module_name}: ret = {status}")
    return None


def _init_mindio():
    """MindIO's module, `mindio_acp` tried first, then `mindio`; None when neither is usable."""
    module = _initialized_mindio("mindio_acp", server_info=mindio_server_info)
    return module if module is not None else _initialized_mindio("mindio")


def _register_mindio_file_system(fs: FileSystem) -> bool:
    """Point `fs` at MindIO's `create_file`/`open_file`; False (fs unchanged) without MindIO."""
    mindio = _init_mindio()
    if mindio is None:
        return False
    fs.create, fs.create_args = mindio.create_file, ()
    fs.open, fs.open_args = mindio.open_file, ()
    fs.backend = "mindio"
    logger.info("The weights are stored using MindIO as the backend.")
    return True


def set_mindio_server_info(data_block_pool_capacity_in_gb=100):
    """Set the data block pool's capacity (GB, a positive int) MindIO is initialised with."""
    validator.check_positive_int(data_block_pool_capacity_in_gb,
                                 "data_block_pool_capacity_in_gb")
    mindio_server_info["memfs.data_block_pool_capacity_in_gb"] = str(
        data_block_pool_capacity_in_gb)


def mindio_preload(ckpt_file_name):
    """Have MindIO load `ckpt_file_name` into memory; False when MindIO is not available or
    has no `preload`."""
    validator.check_value_type("ckpt_file_name", ckpt_file_name, str, "mindio_preload")
    mindio = _init_mindio()
    if mindio is None:
        return False
    if not hasattr(mindio, "preload"):
        logger.warning("MindIO module does not have preload method")
        return False
    mindio.preload(ckpt_file_name)
    return True
