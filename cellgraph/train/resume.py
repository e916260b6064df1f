"""Resuming a run from its last checkpoint, after `cellgraph launch --max-restarts` started
the workers again (or any restart of a script).

A checkpoint that resumes a run holds, beside the parameters (the optimizer's state among them
when the training network is saved), MindSpore's `epoch_num` and `step_num` entries, the global
random generator's state (`cellgraph_rng_state`, JSON text: dropout masks go on as they
would have) and the dataset iterator's position (`cellgraph_dataset_position`, JSON text: the
epoch, the rows read in it and the pipeline's random generators as it began, so shuffles go on
in the same order). With a deterministic data order (a dataset seed, or none shuffled) the
resumed run then ends at the parameters of a run that was never interrupted.

* `ModelCheckpoint` writes these entries when the launcher allows restarts, and after a restart
  it loads the newest checkpoint of its directory and prefix as `Model.train` begins, which
  then goes on from the step after it.
* A hand loop writes them with `save_checkpoint(net, path, append_dict=resume_state(epoch,
  step, iterator))` and restores them with `resume_checkpoint(net, directory, iterator)`.

Every rank reads the checkpoint rank 0 wrote (the ranks of a data-parallel job hold the same
parameters), so the ranks need a shared folder, as one machine has.
"""
from __future__ import annotations

import json
import os
import re

import numpy as np

from cellgraph.common.seed import get_rng_state, set_rng_state
from cellgraph.runtime.rng import kernel_stream_states, restore_kernel_stream_states

from .serialization import CheckpointError, load_checkpoint, load_param_into_net

RNG_KEY = "cellgraph_rng_state"
POSITION_KEY = "cellgraph_dataset_position"
KERNEL_RNG_KEY = "cellgraph_kernel_rng_states"  # the dropout kernels' streams
STATE_KEYS = ("epoch_num", "step_num", RNG_KEY, KERNEL_RNG_KEY, POSITION_KEY)

__all__ = ["latest_checkpoint", "restart_count", "resume_checkpoint", "resume_state"]


def _env_count(name: str) -> int:
    text = os.environ.get(name, "")
    try:
        return int(text) if text else 0
    except ValueError:
        raise ValueError(f"{name} must be an integer, got {text!r}") from None


def restart_count() -> int:
    """How many times the launcher has restarted this job's workers (0 on the first run)."""
    return _env_count("CELLGRAPH_RESTART_COUNT")


def restarts_allowed() -> bool:
    """Whether the launcher restarts failed workers (`--max-restarts` above 0)."""
    return _env_count("CELLGRAPH_MAX_RESTARTS") > 0


def resume_state(epoch_num, step_num, iterator=None) -> dict:
    """The `append_dict` entries a checkpoint needs to resume from: `epoch_num` and `step_num`
    (as the loop counts them), the global random generator's state and the dropout kernels'
    streams' (runtime/rng.MinstdStream) and, with `iterator` (a
    dataset iterator), where it is in its epochs."""
    for name, value in (("epoch_num", epoch_num), ("step_num", step_num)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
            raise ValueError(f"resume_state: `{name}` must be an int >= 0, got {value!r}")
    state = {"epoch_num": int(epoch_num), "step_num": int(step_num),
             RNG_KEY: json.dumps(get_rng_state()),
             KERNEL_RNG_KEY: json.dumps(kernel_stream_states())}
    if iterator is not None:
        if not hasattr(iterator, "position"):
            raise TypeError(f"resume_state: `iterator` must be a dataset iterator "
                            f"(create_tuple_iterator / create_dict_iterator), got "
                            f"{type(iterator).__name__}")
        state[POSITION_KEY] = json.dumps(iterator.position)
    return state


def _prefix_pattern(prefix: str | None):
    if prefix is None:
        return None
    return re.compile(re.escape(prefix) + r"(_\d+)?-.*\.ckpt$")


def latest_checkpoint(directory, prefix=None) -> str | None:
    """The newest `.ckpt` file in `directory` (of ModelCheckpoint's `prefix`, with the `_N`
    suffixes it adds for later runs, if given), or None when there is none."""
    directory = os.fspath(directory)
    if not os.path.isdir(directory):
        return None
    pattern = _prefix_pattern(prefix)
    newest, newest_time = None, None
    for entry in os.scandir(directory):
        if not entry.name.endswith(".ckpt") or not entry.is_file(follow_symlinks=False):
            continue
        if pattern is not None and not pattern.match(entry.name):
            continue
        mtime = entry.stat(follow_symlinks=False).st_mtime_ns
        if newest_time is None or mtime > newest_time:
            newest, newest_time = entry.path, mtime
    return newest


def _int_entry(value) -> int:
    return int(np.asarray(value.asnumpy() if hasattr(value, "asnumpy") else value))


def resume_checkpoint(net, ckpt, iterator=None, prefix=None) -> dict | None:
    """Load the checkpoint `ckpt` (a file, or the newest one of a folder, see
    `latest_checkpoint`) into `net`, restore the random generator's state and move `iterator`
    (a new dataset iterator) to the recorded position. Returns {"epoch_num", "step_num",
    "ckpt_file_name"} to continue the loop from, or None when the folder has no checkpoint."""
    path = os.fspath(ckpt)
    if os.path.isdir(path):
        path = latest_checkpoint(path, prefix)
        if path is None:
            return None
    entries = load_checkpoint(path)
    missing = [key for key in ("epoch_num", "step_num", RNG_KEY) if key not in entries]
    if missing:
        raise CheckpointError(f"resume_checkpoint: {path} cannot resume a run: it lacks "
                              f"{', '.join(missing)} (write it with append_dict="
                              f"resume_state(...), or with ModelCheckpoint under "
                              f"`cellgraph launch --max-restarts`)")
    if iterator is not None and POSITION_KEY not in entries:
        raise CheckpointError(f"resume_checkpoint: {path} has no dataset position to move the "
                              f"iterator to (pass the iterator to resume_state when saving)")
    params = {name: value for name, value in entries.items() if name not in STATE_KEYS}
    load_param_into_net(net, params, strict_load=False)
    set_rng_state(json.loads(entries[RNG_KEY]))
    if KERNEL_RNG_KEY in entries:
        restore_kernel_stream_states(json.loads(str(entries[KERNEL_RNG_KEY])))
    if iterator is not None:
        iterator.seek(json.loads(entries[POSITION_KEY]))
    return {"epoch_num": _int_entry(entries["epoch_num"]),
            "step_num": _int_entry(entries["step_num"]), "ckpt_file_name": path}
