"""`mindspore.runtime`'s launch settings: how many threads dispatch kernels, kernel launch in
parallel groups, and kernel launch capture (Ascend's graph capture of O0/O1 dispatch).

MindSpore keeps them in its runtime's configuration (`_c_expression.RuntimeConf`), checks them
as below and reads them where its device runtimes launch kernels. cellgraph's backends launch
each kernel from the calling thread, so nothing here changes how a kernel runs: the settings
are validated with MindSpore's errors (a second `dispatch_threads_num` or
`set_kernel_launch_group`, or a launch group together with capture, is refused as MindSpore
refuses it) and stored, and `RuntimeConf.get_instance()` reads them back, as MindSpore's CPU
build does.
"""
from __future__ import annotations

import threading

from cellgraph._checkparam import args_type_check, check_positive_int

__all__ = ["dispatch_threads_num", "set_kernel_launch_capture", "set_kernel_launch_group"]


class RuntimeConf:
    """The process's runtime settings (MindSpore's `_c_expression.RuntimeConf`): one instance,
    `RuntimeConf.get_instance()`."""

    _instance: RuntimeConf | None = None
    _lock = threading.Lock()

    def __init__(self):
        self.dispatch_threads = None  # None: not configured (MindSpore's default is 5)
        self.kernel_launch_group = None  # (thread_num, kernel_group_num) once configured
        self.kernel_launch_capture = False
        self.op_capture_skip: list[str] = []

    @classmethod
    def get_instance(cls) -> RuntimeConf:
        with cls._lock:
            if cls._instance is None:
                cls._instance = cls()
            return cls._instance

    def is_dispatch_threads_num_configured(self) -> bool:
        return self.dispatch_threads is not None

    def set_dispatch_threads_num(self, threads_num: int) -> None:
        self.dispatch_threads = threads_num

    def is_kernel_launch_group_configured(self) -> bool:
        return self.kernel_launch_group is not None

    def set_kernel_launch_group(self, thread_num: int, kernel_group_num: int) -> None:
        self.kernel_launch_group = (thread_num, kernel_group_num)

    def get_enable_kernel_launch_capture(self) -> bool:
        return self.kernel_launch_capture

    def set_kernel_launch_capture(self, enable_capture_graph: bool, op_capture_skip) -> None:
        if not all(isinstance(name, str) for name in op_capture_skip):
            bad = next(n for n in op_capture_skip if not isinstance(n, str))
            raise TypeError(f"set_kernel_launch_capture(): op_capture_skip must be a list of "
                            f"str, got {type(bad).__name__} {bad!r}")
        self.kernel_launch_capture = enable_capture_graph
        self.op_capture_skip = list(op_capture_skip)


@args_type_check(threads_num=int)
def dispatch_threads_num(threads_num):
    """The number of threads the runtime dispatches kernels with (MindSpore's default is 5);
    set once per process."""
    conf = RuntimeConf.get_instance()
    if conf.is_dispatch_threads_num_configured():
        raise RuntimeError("The 'dispatch_threads_num' can not be set repeatedly.")
    threads_num = check_positive_int(threads_num, "threads_num")
    conf.set_dispatch_threads_num(threads_num)


@args_type_check(thread_num=int, kernel_group_num=int)
def set_kernel_launch_group(thread_num=2, kernel_group_num=8):
    """Launch kernels in `kernel_group_num` groups over `thread_num` threads (O0); set once per
    process, and not together with kernel launch capture."""
    conf = RuntimeConf.get_instance()
    if conf.is_kernel_launch_group_configured():
        raise RuntimeError("The 'kernel_launch_group' can not be set repeatedly.")
    if conf.get_enable_kernel_launch_capture():
        raise RuntimeError("The kernel launch group and kernel launch capture can not be set "
                           "together")
    if thread_num < 1:
        raise ValueError(f"The value of thread_num should be at least 1, but got {thread_num}")
    if kernel_group_num < 1:
        raise ValueError(f"The value of kernel_group_num should be at least 1, but got "
                         f"{kernel_group_num}")
    if kernel_group_num % thread_num != 0:
        raise ValueError(f"Invalid parameter value, kernel_group_num: {kernel_group_num} cannot "
                         f"be evenly divisible by thread_num: {thread_num}")
    conf.set_kernel_launch_group(thread_num, kernel_group_num)


@args_type_check(enable_capture_graph=bool)
def set_kernel_launch_capture(enable_capture_graph, op_capture_skip=None):
    """Turn kernel launch capture on or off (anywhere in a script), naming the operators it
    leaves out; not together with a kernel launch group."""
    conf = RuntimeConf.get_instance()
    if conf.is_kernel_launch_group_configured():
        raise RuntimeError("The kernel launch group and kernel launch capture can not be set "
                           "together")
    if op_capture_skip is None:
        op_capture_skip = []
    if not isinstance(op_capture_skip, list):
        raise TypeError("op_capture_skip must be a list")
    conf.set_kernel_launch_capture(enable_capture_graph, op_capture_skip)
