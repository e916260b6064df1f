"""Runs one program for run_programs.py: `python program_harness.py PROGRAM.py` (a script), or
`python program_harness.py PROGRAM.json` (a tutorial page: a list of code blocks, run in order
in one namespace; a block that raises prints `-- block K raises TYPE`, TYPE the built-in
exception class it derives from, and the next block runs, so that a page's deliberate errors
are compared too), in the program's own folder, on MindSpore or on cellgraph (the program's
text says which).

Before the program starts: Python's and NumPy's global generators are seeded (0), and the
folder holds a module `download` in place of the PyPI package the tutorials fetch their data
with, which writes synthetic datasets of the real ones' formats and shapes instead, and
pretrained checkpoints as random weights of the real ones' names and shapes (the same bytes
on both sides, from their own generator; synthetic_cv.py holds the computer-vision pages',
synthetic_gen.py the generative and NLP pages'), and a module `requests` whose `get` serves
the same archives to the pages that fetch theirs over HTTP (into a home folder that is the
program's own). A URL it has no synthetic data for raises, on both sides alike. With
PROGRAM_DEVICE=CPU in the environment (a program written for a GPU or an Ascend device, run
on one CPU), the package's set_context and set_device take any device_target as "CPU", on
both sides alike; with PROGRAM_DATA=FOLDER/NAME, the files of SYNTHETIC[NAME] are written
under FOLDER first (a data file the program reads without downloading it; synthetic_sci.py
makes those of the scientific applications).
"""
import functools
import gzip
import importlib
import io
import json
import os
import random
import runpy
import sys
import tarfile
import types
import zipfile
from pathlib import Path

import numpy as np

if str(Path(__file__).resolve().parent) not in sys.path:  # loaded as a module, not run
    sys.path.append(str(Path(__file__).resolve().parent))
import synthetic_gen  # the modules beside this file
from synthetic_cv import SYNTHETIC_CV
from synthetic_sci import FILES as SCIENCE_FILES

SIZES = {"train": 256, "test": 64}  # MNIST, whose files say how many images they hold
CIFAR_RECORDS = 10000


def same_weights(network, tensor) -> int:
    """The weights of a zoo model the same on both sides (model_program.py, zoo_program.py):
    each parameter whose initial value is not a constant (in the order of the names) gets
    values from one seeded NumPy generator, scaled by its fan-in; constants (BatchNorm's gamma
    and beta, zero biases, layer scales) and integer parameters (index tables such as a CTC
    loss's label indices) keep theirs. `tensor` is the package's Tensor class. Returns how many
    values the parameters hold."""
    rng = np.random.RandomState(1)
    count = 0
    for _, param in sorted(network.parameters_and_names(), key=lambda item: item[0]):
        value = param.asnumpy()
        count += value.size
        if (value.size < 2 or np.all(value == value.flat[0])
                or value.dtype.kind in "biu"):
            continue
        fan_in = int(np.prod(value.shape[1:])) if value.ndim > 1 else value.shape[0]
        new = rng.standard_normal(value.shape) / np.sqrt(max(fan_in, 1))
        param.set_data(tensor(new.astype(value.dtype)))
    return count

def mnist_files(rng: np.random.RandomState) -> dict:
    files = {}
    for split, prefix in (("train", "train"), ("test", "t10k")):
        n = SIZES[split]
        labels = rng.randint(0, 10, n).astype(np.uint8)
        # images that depend on their label, so that training can learn something
        images = rng.randint(0, 64, (n, 28, 28)).astype(np.uint8)
        for i, label in enumerate(labels):
            images[i, 2 + 2 * label:6 + 2 * label, 4:24] = 255
        files[f"MNIST_Data/{split}/{prefix}-images-idx3-ubyte"] = synthetic_gen.idx_file(images)
        files[f"MNIST_Data/{split}/{prefix}-labels-idx1-ubyte"] = synthetic_gen.idx_file(labels)
    return files


def cifar10_files(rng: np.random.RandomState) -> dict:
    """CIFAR-10's binary version: records of one label byte and 3x32x32 pixel bytes, 10000 to a
    file as in the real one (MindSpore's reader reads exactly that many from each file and
    fails on a shorter one)."""
    files = {}
    names = [f"data_batch_{i}.bin" for i in range(1, 6)] + ["test_batch.bin"]
    for name in names:
        labels = rng.randint(0, 10, (CIFAR_RECORDS, 1)).astype(np.uint8)
        pixels = np.frombuffer(rng.bytes(CIFAR_RECORDS * 3072), np.uint8).reshape(-1, 3072)
        files[f"cifar-10-batches-bin/{name}"] = np.concatenate([labels, pixels], 1).tobytes()
    classes = ("airplane", "automobile", "bird", "cat", "deer", "dog", "frog", "horse", "ship",
               "truck")
    files["cifar-10-batches-bin/batches.meta.txt"] = "".join(f"{c}\n" for c in classes).encode()
    return files


SYNTHETIC = {"MNIST_Data.zip": mnist_files, "cifar-10-binary.tar.gz": cifar10_files,
             **SYNTHETIC_CV, **synthetic_gen.ARCHIVES, **SCIENCE_FILES}


def _synthetic_files(url: str) -> tuple[str, dict | bytes]:
    name = url.rstrip("/").rsplit("/", 1)[-1]
    if name not in SYNTHETIC:
        raise RuntimeError(f"program_harness: no synthetic data for {url}")
    return name, SYNTHETIC[name](np.random.RandomState(1234))


def archive(name: str, files: dict | bytes) -> bytes:
    """The files as a .zip or a .tar(.gz) archive, the same bytes on each run (no times); a
    single file (a checkpoint) as itself."""
    if isinstance(files, bytes):
        return files
    buffer = io.BytesIO()
    if name.endswith(".zip"):
        with zipfile.ZipFile(buffer, "w") as z:
            for rel, data in files.items():
                z.writestr(zipfile.ZipInfo(rel, (1980, 1, 1, 0, 0, 0)), data)
        return buffer.getvalue()
    packed = io.BytesIO()
    with tarfile.open(fileobj=packed, mode="w") as t:
        for rel, data in files.items():
            info = tarfile.TarInfo(rel)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    if not name.endswith((".gz", ".tgz")):
        return packed.getvalue()
    with gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0) as z:
        z.write(packed.getvalue())
    return buffer.getvalue()


def write_data(spec: str) -> None:
    """`FOLDER/NAME`: SYNTHETIC[NAME]'s files written under FOLDER (relative to the program's
    folder), where a program reads a data file it does not download."""
    folder, _, name = spec.rpartition("/")
    for rel, data in SYNTHETIC[name](np.random.RandomState(1234)).items():
        out = Path(folder) / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)


def download(url, path="./", kind="file", replace=False, **_):
    """What the `download` package does for the tutorials' archives, with synthetic contents."""
    name, files = _synthetic_files(url)
    root = Path(path)
    target = root / name if root.is_dir() or str(path).endswith("/") else root
    if kind in ("zip", "tar", "tar.gz") and isinstance(files, dict):
        for rel, data in files.items():
            out = root / rel
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(data)
        return str(root)
    # kind="file": the archive itself
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(archive(name, files))
    return str(target)


class _Response:
    """What `requests.get(url, stream=True)` answers, for a synthetic archive."""

    status_code = 200

    def __init__(self, url):
        self.url = url
        self.content = archive(*_synthetic_files(url))
        self.headers = {"Content-Length": str(len(self.content))}

    def iter_content(self, chunk_size=1):
        step = chunk_size or len(self.content)
        for start in range(0, len(self.content), step):
            yield self.content[start:start + step]

    def raise_for_status(self):
        return None


def _install_download_module():
    module = type(sys)("download")
    module.download = download
    sys.modules["download"] = module
    http = type(sys)("requests")
    http.get = lambda url, **_: _Response(url)
    sys.modules["requests"] = http


def _pin_device(program: str, device: str) -> None:
    """set_context(device_target=...) and set_device(...) of the package the program imports
    (its text says which) run with `device` in place of the program's own target."""
    package = "cellgraph" if "cellgraph" in Path(program).read_text(encoding="utf-8") \
        else "mindspore"
    module = importlib.import_module(package)
    context = importlib.import_module(f"{package}.context")
    set_context, set_device = module.set_context, module.set_device

    @functools.wraps(set_context)
    def pinned_context(*args, **kwargs):
        if "device_target" in kwargs:
            kwargs["device_target"] = device
        return set_context(*args, **kwargs)

    @functools.wraps(set_device)
    def pinned_device(device_target, *args, **kwargs):
        return set_device(device, *args, **kwargs)

    module.set_context = context.set_context = pinned_context
    module.set_device = pinned_device


def builtin_type(error: BaseException) -> str:
    """The built-in exception class an exception derives from (cellgraph's errors subclass
    the ones MindSpore raises). An error that derives from two (CheckpointNotFoundError: a
    FileNotFoundError, and the ValueError MindSpore raises) names MindSpore's last among its
    bases: of the most derived built-in classes, the last in its method resolution order."""
    found = [c for c in type(error).__mro__ if c.__module__ == "builtins"]
    leaves = [c for c in found if not any(k is not c and issubclass(k, c) for k in found)]
    return leaves[-1].__name__


def run_blocks(path: Path) -> None:
    # the blocks run in a module of their own registered as __main__, as a notebook's cells
    # do: a graph compiler that looks a function's names up through its module finds them
    module = types.ModuleType("__main__")
    module.__file__ = str(path)
    sys.modules["__main__"] = module
    namespace = module.__dict__
    for k, block in enumerate(json.loads(path.read_text(encoding="utf-8")), 1):
        # each block from a file of its own, so that its functions have source to compile
        source = path.parent / f"block_{k:03d}.py"
        source.write_text(block, encoding="utf-8")
        try:
            exec(compile(block, str(source), "exec"), namespace)  # noqa: S102 - the program
        except Exception as error:  # noqa: BLE001 - compared, then the page goes on
            sys.stdout.flush()
            print(f"-- block {k} raises {builtin_type(error)}", flush=True)
            print(f"-- block {k}: {type(error).__name__}: {str(error)[:300]}", file=sys.stderr)


def main(program: str) -> None:
    random.seed(0)
    np.random.seed(0)
    # a page's cache under the home folder (~/.mindspore_examples) starts empty each run;
    # the tools' own caches (matplotlib's fonts) stay where they were
    home = Path.home()
    os.environ.setdefault("XDG_CACHE_HOME", str(home / ".cache"))
    os.environ.setdefault("XDG_CONFIG_HOME", str(home / ".config"))
    os.environ["HOME"] = str(Path(program).resolve().parent)
    _install_download_module()
    if os.environ.get("PROGRAM_DATA"):
        write_data(os.environ["PROGRAM_DATA"])
    if os.environ.get("PROGRAM_DEVICE"):
        _pin_device(program, os.environ["PROGRAM_DEVICE"])
    sys.argv = [program]
    sys.path.insert(0, str(Path(program).resolve().parent))
    if program.endswith(".json"):
        run_blocks(Path(program))
    else:
        runpy.run_path(program, run_name="__main__")


if __name__ == "__main__":
    main(sys.argv[1])
