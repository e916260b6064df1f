"""The program run_programs.py runs for a list entry with `train=MODEL`: mindcv's own training
script (train.py) trains MODEL for one epoch on the synthetic image folders under data/
(synthetic_mindcv.py), then mindcv's evaluation script (validate.py) evaluates the checkpoint it
wrote on data/val.

The runner writes this file into a copy of mindcv's repository root after a first line
`MODEL = "NAME"` and `ARGS = [...]` (the entry's `args=`, more command-line options for both
scripts), with the word `mindspore` written `cellgraph` on cellgraph's side. The settings are
those a user trains with on one CPU, made small: graph mode, one epoch, batches of 4, one
worker, seeded, not distributed. mindcv's logger stamps each line with the date and the
callbacks add step times, lines the comparison leaves out; so the training log's messages are
printed here a second time, without their `time: ...` fields.
"""
import glob
import logging
import re
import runpy
import sys
import threading

COMMON = ["--mode=0", "--distribute=False", "--seed=42", "--dataset=imagenet",
          "--data_dir=data", "--num_parallel_workers=1", "--batch_size=4",
          "--device_target=CPU", f"--model={MODEL}"]  # noqa: F821 - written by the runner
TIME = re.compile(r",?\s*time: [-+.\deE]+s")


class _Untimed(logging.Handler):
    def emit(self, record):
        print("log:", TIME.sub("", record.getMessage()), flush=True)


logging.getLogger("mindcv").addHandler(_Untimed(logging.INFO))
sys.argv = ["train.py", *COMMON, *ARGS, "--epoch_size=1", "--log_interval=1",  # noqa: F821
            "--ckpt_save_dir=ckpt", "--dataset_sink_mode=False"]
runpy.run_path("train.py", run_name="__main__")
# the checkpoints are saved asynchronously; the script's process would wait for those threads
# at exit, before validate.py runs in a process of its own
for thread in threading.enumerate():
    if thread is not threading.current_thread() and not thread.daemon:
        thread.join()

checkpoints = sorted(glob.glob(f"ckpt/{MODEL}-1_*.ckpt"))  # noqa: F821
print("checkpoints:", [path.split("/")[-1] for path in checkpoints])
sys.argv = ["validate.py", *COMMON, *ARGS, f"--ckpt_path={checkpoints[-1]}",  # noqa: F821
            "--val_split=val", "--log_interval=1"]
runpy.run_path("validate.py", run_name="__main__")
