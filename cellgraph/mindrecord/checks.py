"""The argument checks MindSpore's MindRecord classes share: file names and the number of
reader workers, raising ParamValueError with MindSpore's messages."""
from __future__ import annotations

import functools
import inspect
import os

from .common.exceptions import ParamValueError

MIN_CONSUMER_COUNT = 1
MIN_FILE_SIZE = 8  # bytes: a file smaller than its header's length field is refused
_FORBIDDEN = set("\\/:*?\"<>|`&';")


def max_consumer_count() -> int:
    """The most reader workers: the machine's processor count."""
    return os.cpu_count() or 1


def check_filename(path, arg_name: str = "") -> bool:
    """A file path: a non-empty str, not ending with '/', whose file name holds none of
    \\/:*?"<>|`&'; and neither starts nor ends with a space."""
    arg_name = "File path" if arg_name == "" else f"'{arg_name}'"
    if not path:
        raise ParamValueError(f"{arg_name} is not allowed None or empty!")
    if not isinstance(path, str):
        raise ParamValueError(f"File path: {path} is not string.")
    if path.endswith("/"):
        raise ParamValueError("File path can not end with '/'")
    file_name = os.path.basename(path)
    if set(file_name) & _FORBIDDEN:
        raise ParamValueError("File name should not contains \\/:*?\\\"<>|`&;\\'")
    if file_name.startswith(" ") or file_name.endswith(" "):
        raise ParamValueError("File name should not start/end with space.")
    return True


def check_file_names(file_name) -> None:
    """`file_name`: one path or a list of paths, each checked."""
    if isinstance(file_name, list):
        for f in file_name:
            check_filename(f)
    else:
        check_filename(file_name)


def check_num_consumer(value) -> None:
    """`num_consumer`: an int in [1, the processor count] (a bool counts as an int)."""
    if value is None:
        raise ParamValueError("Parameter num_consumer is None.")
    if not isinstance(value, int):
        raise ParamValueError("Parameter num_consumer is not int.")
    if not MIN_CONSUMER_COUNT <= value <= max_consumer_count():
        raise ParamValueError(f"Parameter num_consumer: {value} should between "
                              f"{MIN_CONSUMER_COUNT} and {max_consumer_count()}.")


def check_parameter(func):
    """Check the `file_name` and `num_consumer` arguments a call passes (those left at their
    defaults are not checked, as in MindSpore)."""
    signature = inspect.signature(func)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        if "file_name" in bound.arguments:
            check_file_names(bound.arguments["file_name"])
        if "num_consumer" in bound.arguments:
            check_num_consumer(bound.arguments["num_consumer"])
        return func(*args, **kwargs)
    return wrapper


def pipeline_error(message: str) -> RuntimeError:
    """A RuntimeError worded as MindSpore's data engine words its errors."""
    rule = "-" * 66
    return RuntimeError(f"Exception thrown from dataset pipeline. Refer to 'Dataset Pipeline "
                        f"Error Message'. \n\n{rule}\n- Dataset Pipeline Error Message: \n"
                        f"{rule}\n[ERROR] {message}\n")
