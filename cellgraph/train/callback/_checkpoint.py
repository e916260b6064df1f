"""ModelCheckpoint and CheckpointConfig: save the training network every N steps (or
seconds), keep the newest few files, name them PREFIX-EPOCH_STEP.ckpt."""
from __future__ import annotations

import numbers
import os
import stat
import time
import warnings

from cellgraph.primitives.errors import UnsupportedError
from cellgraph.train import resume
from cellgraph.train.serialization import save_checkpoint, writes_checkpoints

from .._utils import _make_directory
from ..async_save import check_async_save, wait_async_save
from ._callback import Callback

__all__ = ["CheckpointConfig", "ModelCheckpoint"]


def _count(value, name: str):
    """None, or an int >= 0 (MindSpore's check: TypeError for another type, ValueError for a
    negative int)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"CheckpointConfig: `{name}` must be an int, got "
                        f"{type(value).__name__} {value!r}")
    if value < 0:
        raise ValueError(f"CheckpointConfig: `{name}` must be an int >= 0, got {value!r}")
    return int(value)


class CheckpointConfig:
    """When and what to save: every `save_checkpoint_steps` steps or
    `save_checkpoint_seconds` seconds, at most `keep_checkpoint_max` files kept; `format`
    ("ckpt" or "safetensors", also the files' extension), `crc_check` and the encryption go
    to save_checkpoint. `remove_redundancy` (each data-parallel rank saving only its share)
    and `exception_save` are not supported."""

    def __init__(self, save_checkpoint_steps=1, save_checkpoint_seconds=0,
                 keep_checkpoint_max=5, keep_checkpoint_per_n_minutes=0, integrated_save=True,
                 async_save=False, saved_network=None, append_info=None, enc_key=None,
                 enc_mode="AES-GCM", exception_save=False, crc_check=False,
                 remove_redundancy=False, format="ckpt", **kwargs):
        steps = _count(save_checkpoint_steps, "save_checkpoint_steps")
        seconds = _count(save_checkpoint_seconds, "save_checkpoint_seconds")
        keep_max = _count(keep_checkpoint_max, "keep_checkpoint_max")
        per_minutes = _count(keep_checkpoint_per_n_minutes, "keep_checkpoint_per_n_minutes")
        if not (steps or seconds or keep_max or per_minutes):  # MindSpore's check and words
            raise ValueError("For 'CheckpointConfig', the input arguments "
                             "'save_checkpoint_steps', 'save_checkpoint_seconds', "
                             "'keep_checkpoint_max' and 'keep_checkpoint_per_n_minutes' can't be "
                             "all None or 0.")
        # as MindSpore settles them: saving by steps leaves no seconds, keeping a number of
        # files no minutes, and with neither a number nor minutes one file is kept
        self.save_checkpoint_steps = steps
        self.save_checkpoint_seconds = None if steps else seconds
        self.keep_checkpoint_max = keep_max if keep_max or per_minutes else 1
        self.keep_checkpoint_per_n_minutes = None if keep_max else per_minutes
        self.integrated_save, self.async_save = integrated_save, check_async_save(async_save)
        # what the file holds and how it is written: handed to save_checkpoint as is
        self.enc_key, self.enc_mode, self.crc_check = enc_key, enc_mode, crc_check
        if format not in ("ckpt", "safetensors"):
            raise ValueError(f"CheckpointConfig: `format` must be 'ckpt' or 'safetensors', "
                             f"got {format!r}")
        self.format = format
        for name, value in (("exception_save", exception_save),
                            ("remove_redundancy", remove_redundancy),
                            *sorted(kwargs.items())):
            if value:  # a checkpoint saved on an exception, redundancy removal across ranks,
                # MapParameter increments: none of them is done here, so say so
                raise UnsupportedError(f"CheckpointConfig: {name}={value!r} is not supported "
                                       f"(the default keeps working)")
        self.saved_network = saved_network
        self.append_info = list(append_info or [])
        unknown = [a for a in self.append_info if not isinstance(a, dict) and a not in (
            "epoch_num", "step_num")]
        if unknown:
            raise ValueError(f"CheckpointConfig: `append_info` holds 'epoch_num', 'step_num' "
                             f"or a dict, got {unknown}")


    def get_checkpoint_policy(self) -> dict:
        """When checkpoints are saved and kept, and which network, as a dict."""
        return {"save_checkpoint_steps": self.save_checkpoint_steps,
                "save_checkpoint_seconds": self.save_checkpoint_seconds,
                "keep_checkpoint_max": self.keep_checkpoint_max,
                "keep_checkpoint_per_n_minutes": self.keep_checkpoint_per_n_minutes,
                "saved_network": self.saved_network}


class ModelCheckpoint(Callback):
    """Saves checkpoints during training as `directory/PREFIX-EPOCH_STEP.ckpt`; a prefix
    already used in the directory gets a suffix (PREFIX_1) so earlier runs are kept. Under
    `cellgraph launch --max-restarts` the checkpoints also hold what resuming needs (see
    cellgraph.train.resume), and a restarted worker resumes from the newest of them."""

    def __init__(self, prefix="CKP", directory=None, config=None):
        if not callable(prefix) and (not isinstance(prefix, str) or not prefix or "/" in prefix):
            raise ValueError(f"For 'ModelCheckpoint', the argument 'prefix' for checkpoint file "
                             f"name is invalid, it must be callable or string that does not "
                             f"contain '/', but got {prefix}.")
        if config is not None and not isinstance(config, CheckpointConfig):
            raise TypeError(f"ModelCheckpoint: `config` must be a CheckpointConfig, got "
                            f"{type(config).__name__}")
        self._config = config or CheckpointConfig()
        # a callable prefix or directory is called with cb_params at each save (MindSpore's
        # custom names: a callable prefix names the whole file, PREFIX.ckpt)
        self._prefix_func = prefix if callable(prefix) else None
        self._directory_func = directory if callable(directory) else None
        if self._directory_func is not None:
            self._directory = None
        elif directory is not None:
            self._directory = _make_directory(directory)  # made now, as MindSpore makes it
        else:
            self._directory = os.getcwd()
        self._base_prefix = prefix
        self._prefix = prefix
        self._saved: list[str] = []
        self._last_step = -1
        self._last_time = time.monotonic()
        self._latest = None

    @property
    def latest_ckpt_file_name(self):
        return self._latest

    def on_train_begin(self, run_context):
        if self._directory_func is None:
            os.makedirs(self._directory, exist_ok=True)
            if self._prefix_func is None:
                if resume.restart_count() > 0:
                    self._resume(run_context.original_args())
                self._prefix = self._free_prefix()
        self._last_time = time.monotonic()

    def _resume(self, cb_params) -> None:
        """After `cellgraph launch` restarted the workers: the newest checkpoint of this
        directory and prefix (rank 0's) goes into the network, the random generator and the
        dataset iterator, and the run goes on from its step."""
        path = resume.latest_checkpoint(self._directory, self._base_prefix)
        if path is None:
            return
        network = self._config.saved_network or cb_params.train_network
        state = resume.resume_checkpoint(network, path,
                                         iterator=cb_params.get("train_dataset_iterator"))
        cb_params.cur_step_num = self._last_step = state["step_num"]
        cb_params.cur_epoch_num = state["epoch_num"]
        self._latest = path

    def _free_prefix(self) -> str:
        existing = os.listdir(self._directory)
        prefix, n = self._base_prefix, 0
        suffix = "." + self._config.format
        while any(f.startswith(prefix + "-") and f.endswith(suffix) for f in existing):
            n += 1
            prefix = f"{self._base_prefix}_{n}"
        return prefix

    # MindSpore's ModelCheckpoint defines the 1.x hooks step_end and end (the 2.x
    # on_train_step_end/on_train_end call them), so a program may call them directly
    def step_end(self, run_context):
        cb_params = run_context.original_args()
        step = cb_params.cur_step_num
        config = self._config
        due = config.save_checkpoint_steps and step % config.save_checkpoint_steps == 0
        if config.save_checkpoint_seconds and \
                time.monotonic() - self._last_time >= config.save_checkpoint_seconds:
            due = True
        if due:
            self._save(cb_params)

    def end(self, run_context):
        cb_params = run_context.original_args()
        config = self._config  # MindSpore's: no last checkpoint without steps or seconds
        if (config.save_checkpoint_steps or config.save_checkpoint_seconds) and \
                cb_params.cur_step_num != self._last_step:
            self._save(cb_params)
        wait_async_save(self._config.async_save)

    def _save(self, cb_params):
        if self._prefix_func is not None:
            self._prefix = self._prefix_func(cb_params)
            if not isinstance(self._prefix, str) or "/" in self._prefix:
                raise ValueError(f"For 'ModelCheckpoint', the argument 'prefix' for checkpoint "
                                 f"file name is callable, it must return a string that does not "
                                 f"contain '/', but got {self._prefix}.")
        if self._directory_func is not None:
            self._directory = _make_directory(self._directory_func(cb_params))
        if self._prefix_func is not None:
            name = f"{self._prefix}.{self._config.format}"
        else:
            step_in_epoch = (cb_params.cur_step_num - 1) % cb_params.batch_num + 1
            name = f"{self._prefix}-{cb_params.cur_epoch_num}_{step_in_epoch}.{self._config.format}"
        path = os.path.join(self._directory, name)
        network = self._config.saved_network or cb_params.train_network
        config = self._config
        wait_async_save(config.async_save)  # the previous file is whole before it may go
        save_checkpoint(network, path, async_save=config.async_save,
                        append_dict=self._append_dict(cb_params), enc_key=config.enc_key,
                        enc_mode=config.enc_mode, crc_check=config.crc_check,
                        format=config.format)
        self._last_step, self._last_time, self._latest = cb_params.cur_step_num, \
            time.monotonic(), path
        if path in self._saved:
            self._saved.remove(path)
        self._saved.append(path)
        keep = self._config.keep_checkpoint_max
        while keep and len(self._saved) > keep:
            old = self._saved.pop(0)
            if writes_checkpoints() and os.path.exists(old):  # the writer alone removes
                os.remove(old)

    def _append_dict(self, cb_params) -> dict:
        extra = {}
        for item in self._config.append_info:
            if item == "epoch_num":
                extra["epoch_num"] = cb_params.cur_epoch_num
            elif item == "step_num":
                extra["step_num"] = cb_params.cur_step_num
            else:
                extra.update(item)
        if resume.restarts_allowed():  # what a restarted worker resumes from
            extra.update(resume.resume_state(cb_params.cur_epoch_num, cb_params.cur_step_num,
                                             cb_params.get("train_dataset_iterator")))
        return extra


def _chg_ckpt_file_name_if_same_exist(directory, prefix, exception=False):
    """`prefix`, or `prefix_N` past the highest `prefix_K-...` checkpoint (.ckpt or
    .safetensors; `_breakpoint.ckpt` files when `exception`) already in `directory`, as
    MindSpore names a new run's checkpoints; a callable prefix or directory is returned as is."""
    if callable(prefix) or callable(directory):
        return prefix
    suffix_num = 0
    pre_len = len(prefix)
    for filename in os.listdir(directory):
        breakpoint_file = filename[-16:] == "_breakpoint.ckpt"
        if exception and not breakpoint_file:
            continue
        if not exception and (os.path.splitext(filename)[-1] not in (".ckpt", ".safetensors")
                              or breakpoint_file):
            continue
        if filename.find(prefix) == 0 and not filename[pre_len].isalpha():
            index = filename[pre_len:].find("-")
            if index == 0:
                suffix_num = max(suffix_num, 1)
            elif index != -1:
                num = filename[pre_len + 1:pre_len + index]
                if num.isdigit():
                    suffix_num = max(suffix_num, int(num) + 1)
    return f"{prefix}_{suffix_num}" if suffix_num != 0 else prefix


class CheckpointManager:
    """The checkpoint files of one prefix in a directory (MindSpore's `_CheckpointManager`):
    listed by `update_ckpoint_filelist`, removed oldest first or thinned to one per minutes."""

    def __init__(self, format="ckpt"):
        self._ckpoint_filelist = []
        self._format = format

    @property
    def ckpoint_filelist(self):
        return self._ckpoint_filelist

    @property
    def ckpoint_num(self):
        return len(self._ckpoint_filelist)

    def update_ckpoint_filelist(self, directory, prefix):
        """The files `prefix-<digits and punctuation>.<format>` in `directory`."""
        self._ckpoint_filelist = []
        suffix = f".{self._format}"
        for filename in os.listdir(directory):
            if os.path.splitext(filename)[-1] == suffix and filename.startswith(prefix + "-"):
                middle = filename[len(prefix):-len(suffix)]
                if not any(char.isalpha() for char in middle):
                    self._ckpoint_filelist.append(os.path.join(directory, filename))

    def remove_ckpoint_file(self, file_name):
        try:
            os.chmod(file_name, stat.S_IWRITE)
            os.remove(file_name)
            self._ckpoint_filelist.remove(file_name)
        except (OSError, ValueError) as exc:
            warnings.warn(f"{type(exc).__name__}, failed to remove the older ckpt file "
                          f"{file_name}.", stacklevel=2)

    def remove_oldest_ckpoint_file(self):
        self.remove_ckpoint_file(min(self._ckpoint_filelist, key=os.path.getmtime))

    def keep_one_ckpoint_per_minutes(self, minutes, cur_time):
        """Of the files written in the last `minutes` minutes, keep only the oldest."""
        recent, oldest_file, oldest_time = [], "", cur_time
        for ck_file in self._ckpoint_filelist:
            modified = os.path.getmtime(ck_file)
            if cur_time - modified < 60 * minutes:
                recent.append(ck_file)
                if modified < oldest_time:
                    oldest_time, oldest_file = modified, ck_file
        for ck_file in recent:
            if ck_file != oldest_file:
                self.remove_ckpoint_file(ck_file)
