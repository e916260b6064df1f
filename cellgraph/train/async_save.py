"""save_checkpoint's asynchronous writes, as MindSpore makes them.

With `async_save=True` or "thread", the values are read (their bytes copied) when
save_checkpoint is called and the file is written by a thread named "asyn_save_ckpt"; with
"process", by a forked process of that name (on Windows, which cannot fork, the write is done
at once). A new asynchronous save first waits for the one before it, ModelCheckpoint waits
before each save and at the end of training, and the interpreter waits for both kinds at exit.
`async_ckpt_thread_status()` says whether a writing thread is running.
"""
from __future__ import annotations

import atexit
import multiprocessing
import sys
import threading

from cellgraph import log

__all__ = ["async_ckpt_thread_status"]

THREAD_NAME = "asyn_save_ckpt"


def check_async_save(async_save):
    """`async_save` when it is a bool, "process" or "thread"; MindSpore's errors otherwise."""
    if not isinstance(async_save, (bool, str)):
        raise TypeError(f"For 'save_checkpoint', the parameter 'async_save' must be bool or "
                        f"str, but got {type(async_save)}.")
    if isinstance(async_save, str) and async_save not in ("process", "thread"):
        raise ValueError(f"For 'save_checkpoint', the argument 'async_save' can only be "
                         f"'process' or 'thread',but got {async_save}.")
    return async_save


def wait_thread_save() -> None:
    """Wait until the writing threads have finished."""
    for thread in threading.enumerate():
        if thread.name == THREAD_NAME and thread is not threading.current_thread():
            thread.join()


def wait_process_save() -> None:
    """Wait until the writing processes have finished."""
    for process in multiprocessing.active_children():
        if process.name == THREAD_NAME:
            process.join()


def wait_async_save(async_save) -> None:
    """Wait for the saves made with `async_save` (nothing to wait for when it is False)."""
    if async_save == "process":
        wait_process_save()
    elif async_save:
        wait_thread_save()


def start_async_save(async_save, write, *args) -> None:
    """`write(*args)` in a thread (True, "thread") or a forked process ("process") named
    asyn_save_ckpt, once the previous save of that kind has finished."""
    if async_save == "process":
        if sys.platform.startswith("win"):
            log.warning("The Win platform currently does not support asynchronous process "
                        "saving of ckpt, so serial saving of ckpt is used now.")
            write(*args)
            return
        wait_process_save()
        process = multiprocessing.get_context("fork").Process(
            target=write, args=args, name=THREAD_NAME, daemon=True)
        process.start()
        return
    wait_thread_save()
    threading.Thread(target=write, args=args, name=THREAD_NAME).start()


def async_ckpt_thread_status() -> bool:
    """Whether a thread writing a checkpoint asynchronously is running (deprecated since
    MindSpore 2.5, as its warning says)."""
    log.warning("The interface 'mindspore.async_ckpt_thread_status' is deprecated from version "
                "2.5 and will be removed in a future version.")
    return any(thread.name == THREAD_NAME for thread in threading.enumerate())


@atexit.register
def _wait_at_exit() -> None:
    wait_process_save()
    wait_thread_save()
