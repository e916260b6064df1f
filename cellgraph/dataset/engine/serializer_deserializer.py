"""`mindspore.dataset.serialize`, `deserialize`, `show` and `compare`: a pipeline as MindSpore's
JSON and back.

The layout is MindSpore's: each node a dict with its "op_type", its "children" (the nodes it
reads, the source last) and its settings under MindSpore's names; a source's rows are chosen
by its "sampler" (a dict with "sampler_name" and the sampler's arguments, "child_sampler"
for a chain); a map's "operations" are each {"tensor_op_name", "tensor_op_params"}, a Python
function {"python_module", "tensor_op_name"} only. Files are written as MindSpore writes them:
one line, keys sorted. Sources, samplers and transforms are written with the arguments they
were made with (`core/arguments.py`) and rebuilt by calling their class with them; what
MindSpore cannot rebuild (Python functions, GeneratorDataset, filter, the transforms without
MindSpore's serdes support) fails on `deserialize` with MindSpore's message.
"""
from __future__ import annotations

import enum
import json
import os

import numpy as np

from ..core import config
from ..core.arguments import arguments_of
from ..transforms.transforms import TensorOperation

__all__ = ["compare", "deserialize", "serialize", "show"]

# MindSpore's C++ enums as its JSON writes them
_INTER_CODES = {"BILINEAR": 0, "NEAREST": 1, "BICUBIC": 2, "AREA": 3, "PILCUBIC": 4}
_BORDER_CODES = {"CONSTANT": 0, "EDGE": 1, "REFLECT": 2, "SYMMETRIC": 3}
_SHUFFLE_CODES = {"FALSE": 0, "FILES": 1, "GLOBAL": 2, "INFILE": 3}
_POLICY_CODES = {"IMAGENET": 0, "CIFAR10": 1, "SVHN": 2}
_ENUM_CODES = {"Inter": _INTER_CODES, "Border": _BORDER_CODES, "Shuffle": _SHUFFLE_CODES,
               "AutoAugmentPolicy": _POLICY_CODES}

# the names MindSpore's JSON gives transforms whose class is named otherwise
_OP_NAMES = {"HWC2CHW": "HwcToChw", "UniformAugment": "UniformAug"}
_CLASS_NAMES = {v: k for k, v in _OP_NAMES.items()}
# the transforms MindSpore can place on a device: its JSON says where they run (cellgraph
# runs them on the CPU)
_PLACED = frozenset([
    "AdjustBrightness", "AdjustContrast", "AdjustHue", "AdjustSaturation", "AdjustSharpness",
    "Affine", "AutoContrast", "ConvertColor", "Crop", "Decode", "Equalize", "Erase",
    "GaussianBlur", "HorizontalFlip", "Invert", "Normalize", "Pad", "Perspective", "Posterize",
    "Resize", "ResizedCrop", "Rotate", "Solarize", "VerticalFlip",
])

# the transforms MindSpore's JSON names without their arguments ("tensor_op_params": null): the
# text transforms whose C++ side writes no JSON of its own
_WITHOUT_PARAMS = frozenset([
    "BasicTokenizer", "JiebaTokenizer", "Lookup", "Ngram", "NormalizeUTF8", "RegexReplace",
    "RegexTokenizer", "SentencePieceTokenizer", "SlidingWindow", "ToVectors",
    "TruncateSequencePair", "UnicodeCharTokenizer", "UnicodeScriptTokenizer",
    "WhitespaceTokenizer", "WordpieceTokenizer",
])

# the transforms MindSpore's deserializer rebuilds: those of its C++ serdes table, and the ones
# it writes as Python objects (with "python_module")
_REBUILT = frozenset([
    "AdjustGamma", "Affine", "AutoContrast", "BoundingBoxAugment", "CenterCrop", "Crop",
    "CutMixBatch", "CutOut", "Decode", "Equalize", "GaussianBlur", "HorizontalFlip", "HWC2CHW",
    "Invert", "MixUpBatch", "Normalize", "NormalizePad", "Pad", "RandomAffine", "RandomColor",
    "RandomColorAdjust", "RandomCropDecodeResize", "RandomCrop", "RandomCropWithBBox",
    "RandomHorizontalFlip", "RandomHorizontalFlipWithBBox", "RandomPosterize", "RandomResize",
    "RandomResizeWithBBox", "RandomResizedCrop", "RandomResizedCropWithBBox", "RandomRotation",
    "RandomSelectSubpolicy", "RandomSharpness", "RandomSolarize", "RandomVerticalFlip",
    "RandomVerticalFlipWithBBox", "Rescale", "Resize", "ResizePreserveAR", "ResizeWithBBox",
    "RgbaToBgr", "RgbaToRgb", "RgbToBgr", "Rotate", "SlicePatches", "SwapRedBlue", "ToTensor",
    "UniformAugment", "VerticalFlip", "Fill", "OneHot", "TypeCast", "ToNumber", "Compose",
    "RandomApply", "RandomChoice", "RandomOrder", "ToPIL", "ToNumpy", "ToType", "FiveCrop",
    "TenCrop", "Grayscale", "RandomGrayscale", "RandomPerspective", "RandomErasing",
    "LinearTransformation",
])

# the sources MindSpore's deserializer rebuilds
_SOURCES = frozenset([
    "AlbumDataset", "CelebADataset", "Cifar10Dataset", "Cifar100Dataset", "CLUEDataset",
    "CocoDataset", "CSVDataset", "FlickrDataset", "ImageFolderDataset", "ManifestDataset",
    "MnistDataset", "TextFileDataset", "TFRecordDataset", "VOCDataset",
])



def _fill_params(params: dict) -> dict:
    """Fill's value as MindSpore's JSON holds it: a tensor (its elements, shape and type)."""
    value = np.asarray(params["fill_value"])
    kind = "string" if value.dtype.kind in "US" else str(value.dtype)
    return {"data": [_value(v) for v in value.reshape(-1).tolist()],
            "shape": list(value.shape), "type": kind}


def _fill_arguments(params: dict) -> dict:
    if "fill_value" in params or "data" not in params:
        return params
    kind = params.get("type")
    dtype = None if kind in (None, "string", "bytes") else np.dtype(kind)
    value = np.array(params["data"], dtype=dtype).reshape(params.get("shape") or [])
    return {"fill_value": value.item() if value.ndim == 0 else value}


def _turn_params(params: dict, degrees) -> dict:
    """Rotate's and RandomRotation's arguments as MindSpore's C++ JSON holds them: the degrees
    as floats, no centre as [], the fill as three channels."""
    fill = params.get("fill_value")
    return {**params, **degrees, "center": [] if params.get("center") is None else
            params["center"], "fill_value": [fill] * 3 if isinstance(fill, int) else fill}


def _turn_arguments(params: dict) -> dict:
    center, fill = params.get("center"), params.get("fill_value")
    return {**params, "center": tuple(center) if center else None,
            "fill_value": tuple(fill) if isinstance(fill, list) else fill}


def _random_turn_params(params: dict) -> dict:
    from ..vision.geometry import _rotation_range

    degrees = [float(d) for d in _rotation_range(params["degrees"])]
    return _turn_params(params, {"degrees": degrees})


# the transforms whose arguments MindSpore's JSON holds otherwise: (to its params, from them)
_PARAMS = {
    "Rotate": (lambda p: _turn_params({k: v for k, v in p.items() if k != "degrees"},
                                      {"degree": float(p["degrees"] % 360)}),
               lambda p: _turn_arguments({("degrees" if k == "degree" else k): v
                                          for k, v in p.items()})),
    "RandomRotation": (_random_turn_params, _turn_arguments),
    "Fill": (_fill_params, _fill_arguments),
    # MindSpore's C++ Decode always gives RGB; to_pil is cellgraph's (MindSpore writes a
    # Pillow Decode as a Python transform)
    "Decode": (lambda p: {**p, "rgb": True}, lambda p: p),
}

_SAMPLING = ("num_samples", "shuffle", "sampler", "num_shards", "shard_id")
# what MindSpore's JSON holds for these arguments when they are not given
_NOT_GIVEN = {"extensions": [], "class_indexing": {}}
# the settings MindSpore's sources write that their Python constructors do not take
_FIXED = {"ImageFolderDataset": {"recursive": False}}
_QUEUE = 16  # MindSpore's connector_queue_size default, which its JSON carries


def _error(message: str) -> RuntimeError:
    return RuntimeError(message)


# -- writing ------------------------------------------------------------------------------------
def _value(value):
    """An argument as JSON."""
    from cellgraph.primitives import dtype as dt

    from ..samplers import Sampler

    if isinstance(value, enum.Enum):
        codes = _ENUM_CODES.get(type(value).__name__, {})
        return codes.get(value.name, value.name)
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return float(value)
    if isinstance(value, (list, tuple)):
        return [_value(v) for v in value]
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, dict):
        return {str(k): _value(v) for k, v in value.items()}
    if isinstance(value, dt.DType):
        return str(np.dtype(value.np))
    if isinstance(value, np.dtype) or (isinstance(value, type) and issubclass(value, np.generic)):
        return str(np.dtype(value))
    if isinstance(value, Sampler):
        return _sampler(value)
    if isinstance(value, TensorOperation) or callable(value):
        return _operation(value)
    return str(value)


def _function_name(function) -> str:
    name = getattr(function, "__name__", None)
    return name if isinstance(name, str) else type(function).__name__


def _operation(op) -> dict:
    """A transform as MindSpore's JSON writes it; a Python function by its name only."""
    if not isinstance(op, TensorOperation):
        return {"python_module": getattr(op, "__module__", None) or type(op).__module__,
                "tensor_op_name": _function_name(op)}
    if isinstance(op, PyFunc):
        raise _error("Failed to find key 'tensor_op_params' in PyFuncOp' JSON file or input "
                     "dict")
    arguments = arguments_of(op)
    name = type(op).__name__
    if not arguments or name in _WITHOUT_PARAMS:
        params = None
    else:
        params = {k: _value(v) for k, v in arguments.items()}
    if params is not None and name in _PARAMS:
        params = _PARAMS[name][0](params)
    if name in _PLACED:
        params = {**(params or {}), "device_target": "CPU"}
    return {"tensor_op_name": _OP_NAMES.get(name, name), "tensor_op_params": params}


def _sampler(sampler) -> dict:
    arguments = arguments_of(sampler) or {}
    out = {"sampler_name": type(sampler).__name__}
    out.update({k: _value(v) for k, v in arguments.items()})
    child = getattr(sampler, "child_sampler", None)
    if child is not None:
        out["child_sampler"] = [_sampler(child)]
    return out


def _workers(value) -> int:
    return config.get_num_parallel_workers() if value is None else int(value)


def _node(node) -> dict:
    """One node and, under "children", what it reads."""
    from .. import nodes
    from ..sources import GeneratorDataset, NumpySlicesDataset
    from ..transfer import TransferDataset
    from .datasets import DeserializedDataset

    if isinstance(node, DeserializedDataset):  # written as the pipeline it was read as
        return _node(node.children[0])
    arguments = arguments_of(node) or {}
    if isinstance(node, (GeneratorDataset, NumpySlicesDataset)):
        # a source of Python data (NumpySlicesDataset, the .mat sources too): MindSpore writes
        # it as a GeneratorDataset, without the data or the function, which JSON cannot hold
        return {"children": [], "op_type": "GeneratorDataset", "connector_queue_size": _QUEUE,
                "num_parallel_workers": _workers(arguments.get("num_parallel_workers")),
                "column_names": list(node.column_names)}
    out = {"children": [_node(child) for child in node.children]}
    if isinstance(node, nodes.MapDataset):
        out.update(op_type="Map", input_columns=list(node.inputs),
                   output_columns=list(node.outputs),
                   operations=[_operation(op) for op in node.operations],
                   num_parallel_workers=_workers(node.num_parallel_workers),
                   connector_queue_size=_QUEUE, callback=[])
        if node._names_order is not None:
            out["column_order"] = list(node._names_order)
    elif isinstance(node, nodes.BatchDataset):
        out.update(op_type="Batch", batch_size=node.batch_size,
                   drop_remainder=node.drop_remainder,
                   input_columns=list(arguments.get("input_columns") or []),
                   output_columns=list(arguments.get("output_columns") or []),
                   num_parallel_workers=_workers(node.num_parallel_workers),
                   connector_queue_size=_QUEUE)
        if node.pad_info is not None:
            out["pad_info"] = {k: _value(v) for k, v in node.pad_info.items()}
    elif isinstance(node, nodes.ShuffleDataset):
        out.update(op_type="Shuffle", buffer_size=node.buffer_size, reset_each_epoch=True)
    elif isinstance(node, nodes.RepeatDataset):
        out.update(op_type="Repeat", count=-1 if node.times is None else node.times)
    elif isinstance(node, nodes.SkipDataset):
        out.update(op_type="Skip", count=node.start)
    elif isinstance(node, nodes.TakeDataset):
        out.update(op_type="Take", count=-1 if node.stop is None else node.stop)
    elif isinstance(node, nodes.ProjectDataset):
        out.update(op_type="Project", columns=list(node.column_names))
    elif isinstance(node, nodes.RenameDataset):
        out.update(op_type="Rename", input_columns=list(arguments.get("inputs", [])),
                   output_columns=list(arguments.get("outputs", [])))
    elif isinstance(node, nodes.ZipDataset):
        out.update(op_type="Zip")
    elif isinstance(node, nodes.ConcatDataset):
        out.update(op_type="Concat")
    elif isinstance(node, nodes.FilterDataset):
        out.update(op_type="Filter", input_columns=list(arguments.get("input_columns") or []),
                   num_parallel_workers=_workers(node.num_parallel_workers),
                   connector_queue_size=_QUEUE)
    elif isinstance(node, TransferDataset):
        out.update(op_type="Transfer", send_epoch_end=bool(arguments.get("send_epoch_end")),
                   queue_name=arguments.get("queue_name", ""), device_type="CPU",
                   device_id=0, total_batch=0,
                   create_data_info_queue=bool(arguments.get("create_data_info_queue")))
    else:
        out.update(_source(node, arguments))
    return out


def _source(node, arguments: dict) -> dict:
    """A source: its class name, its arguments (the sampling ones as its sampler)."""
    out = {"op_type": type(node).__name__, "connector_queue_size": _QUEUE}
    out.update(_FIXED.get(type(node).__name__, {}))
    for name, value in arguments.items():
        if name in _SAMPLING or name == "cache":
            continue
        if name == "num_parallel_workers":
            value = _workers(value)
        if name == "dataset_files" and isinstance(value, str):
            value = [value]  # MindSpore writes the list of files
        out[name] = _NOT_GIVEN[name] if value is None and name in _NOT_GIVEN else _value(value)
    sampler = getattr(node, "sampler", None)
    if "sampler" in arguments and sampler is not None:  # the rows its sampler chooses
        out["sampler"] = _sampler(sampler)
    else:  # a file source: its sampling arguments, as MindSpore writes them
        for name, unset in (("num_samples", 0), ("num_shards", 1), ("shard_id", 0)):
            if name in arguments:
                value = arguments[name]
                out[name] = unset if value is None else _value(value)
        if "shuffle" in arguments:
            shuffle = arguments["shuffle"]
            if isinstance(shuffle, bool) or shuffle is None:
                shuffle = _SHUFFLE_CODES["GLOBAL" if shuffle in (True, None) else "FALSE"]
            out["shuffle"] = _value(shuffle)
    return out


def to_json(dataset, filename: str = "") -> dict:
    """The pipeline ending at `dataset` as a dict, written to `filename` too when given."""
    tree = _node(dataset)
    if filename:
        directory = os.path.dirname(filename) or "."
        if not os.path.isdir(directory):
            raise RuntimeError(f"Invalid file, get real path failed, path={filename}")
        with open(filename, "w", encoding="utf-8") as file:
            file.write(json.dumps(tree, sort_keys=True, separators=(",", ":")) + "\n")
    return tree


def _autotune_summary(tree: dict) -> list[str]:
    """MindSpore's AutoTune summary: each operation of the pipeline, outermost first, with
    its worker count and queue size."""
    lines = []

    def visit(node):
        op_type = node.get("op_type", "")
        name = op_type.removesuffix("Dataset")
        workers = node.get("num_parallel_workers")
        workers = "NA" if not workers else f"{workers:>2}"
        lines.append(f"{name}Op(ID:{len(lines)})".ljust(20)
                     + f"(num_parallel_workers:{workers}, prefetch_size:{_QUEUE})")
        for child in node.get("children", []):
            visit(child)

    visit(tree)
    return lines[::-1]  # the source first


def write_autotune(dataset, path: str) -> None:
    """The AutoTune file of the pipeline ending at `dataset` (MindSpore's layout: remark,
    summary, tree; indented by 4). cellgraph tunes no setting, so the remark says so."""
    tree = _node(dataset)
    report = {"remark": "The following file has been auto-generated by the Dataset AutoTune. "
                        "Dataset Pipeline is not the bottleneck. No configuration changes were "
                        "made by Dataset AutoTune.",
              "summary": _autotune_summary(tree), "tree": tree}
    with open(path, "w", encoding="utf-8") as file:
        file.write(json.dumps(report, indent=4, sort_keys=True) + "\n")


def serialize(dataset, json_filepath=""):
    """The pipeline ending at `dataset` as a dict (MindSpore's JSON layout), also written to
    `json_filepath` when given."""
    return dataset.to_json(json_filepath)


def show(dataset, indentation=2):
    """Log the pipeline's JSON (at INFO level), indented by `indentation` spaces."""
    from cellgraph import log as logger

    logger.info(json.dumps(dataset.to_json(), indent=indentation))


def compare(pipeline1, pipeline2):
    """Whether two pipelines serialize alike."""
    return pipeline1.to_json() == pipeline2.to_json()


# -- reading ------------------------------------------------------------------------------------
def _load(source) -> dict:
    if isinstance(source, dict):
        tree = source
    else:
        path = os.fspath(source)
        try:
            with open(path, encoding="utf-8") as file:
                tree = json.load(file)
        except OSError:
            raise RuntimeError(f"Invalid file, failed to open json file: {path}") from None
        except ValueError as error:
            raise RuntimeError(f"Invalid file, failed to parse json file: {path}, error "
                               f"message: {error}") from None
    return tree.get("tree", tree)


def deserialize(input_dict=None, json_filepath=None):
    """The pipeline a dict from `serialize` (or a path to its JSON file) describes, or the
    one in the file `json_filepath`; None when given neither. It is read when first used."""
    from .datasets import DeserializedDataset

    data = None
    if input_dict:
        data = DeserializedDataset(input_dict)
    if json_filepath:
        data = DeserializedDataset(json_filepath)
    return data


def build_pipeline(source):
    """The pipeline a serialized dict, or the JSON file at a path, describes."""
    return _pipeline(_load(source))


def _pipeline(tree: dict):
    if "children" not in tree:
        raise _error("Failed to find children")
    children = [_pipeline(child) for child in tree["children"]]
    op_type = tree.get("op_type")
    if op_type is None:
        raise _error("Failed to find op_type in json.")
    if len(children) > 1:
        if op_type == "Zip":
            from .. import zip as zip_datasets

            return zip_datasets(tuple(children))
        if op_type == "Concat":
            return children[0].concat(children[1:])
        raise _error(f"Invalid data, unsupported operation type: {op_type}")
    if not children:
        return _make_source(tree, op_type)
    return _make_node(children[0], tree, op_type)


def _make_node(child, tree: dict, op_type: str):
    if op_type == "Map":
        operations = [_make_operation(op) for op in tree.get("operations", [])]
        return child.map(operations, input_columns=tree.get("input_columns") or None,
                         output_columns=tree.get("output_columns") or None,
                         num_parallel_workers=tree.get("num_parallel_workers"))
    if op_type == "Batch":
        pad_info = tree.get("pad_info")
        if pad_info:
            pad_info = {k: (None if v is None else tuple(v)) for k, v in pad_info.items()}
            return child.padded_batch(tree["batch_size"], tree.get("drop_remainder", False),
                                      tree.get("num_parallel_workers"), pad_info)
        return child.batch(tree["batch_size"], tree.get("drop_remainder", False),
                           tree.get("num_parallel_workers"),
                           input_columns=tree.get("input_columns") or None,
                           output_columns=tree.get("output_columns") or None)
    if op_type == "Shuffle":
        return child.shuffle(tree["buffer_size"])
    if op_type == "Repeat":
        return child.repeat(tree["count"])
    if op_type == "Skip":
        return child.skip(tree["count"])
    if op_type == "Take":
        return child.take(tree["count"])
    if op_type == "Project":
        return child.project(tree["columns"])
    if op_type == "Rename":
        return child.rename(tree["input_columns"], tree["output_columns"])
    if op_type == "Transfer":
        return child.device_que(tree.get("send_epoch_end", True),
                                tree.get("create_data_info_queue", False),
                                tree.get("queue_name", ""))
    raise _error(f"Invalid data, unsupported operation type: {op_type}")


def _parameter_types(cls) -> dict:
    """Each parameter of `cls.__init__` with its default (what tells an enum's)."""
    import inspect

    try:
        return {name: p.default for name, p in inspect.signature(cls).parameters.items()}
    except (TypeError, ValueError):
        return {}


def _argument(default, value):
    """`value` from JSON as the parameter whose default is `default` takes it: an enum from
    its code or name, a list as a tuple where the default is one."""
    if default is None and isinstance(value, (list, dict)) and not value:
        return None  # MindSpore writes an argument not given (extensions, class_indexing) so
    if isinstance(default, enum.Enum):
        enum_type = type(default)
        codes = _ENUM_CODES.get(enum_type.__name__, {})
        for name, code in codes.items():
            if value == code and not isinstance(value, bool):
                return enum_type[name]
        if isinstance(value, str) and value in enum_type.__members__:
            return enum_type[value]
    return value


def _call_with(cls, values: dict, skip=()):
    """`cls(**values)`, taking only its parameters, each converted as its default says."""
    defaults = _parameter_types(cls)
    kwargs = {name: _argument(defaults[name], value) for name, value in values.items()
              if name in defaults and name not in skip}
    return cls(**kwargs)


def _make_sampler(tree: dict):
    from .. import samplers

    name = tree.get("sampler_name")
    cls = getattr(samplers, name, None) if isinstance(name, str) else None
    if not (isinstance(cls, type) and issubclass(cls, samplers.Sampler)):
        raise _error(f"Invalid data, unsupported sampler type: {name}")
    sampler = _call_with(cls, tree)
    for child in tree.get("child_sampler") or []:
        sampler.add_child(_make_sampler(child))
    return sampler


def _make_source(tree: dict, op_type: str):
    import cellgraph.dataset as ds

    cls = getattr(ds, op_type, None)
    if op_type not in _SOURCES or cls is None:
        raise _error(f"Invalid data, unsupported operation type: {op_type}")
    values = dict(tree)
    if values.get("num_samples") == 0:  # MindSpore's "all rows"
        values["num_samples"] = None
    if "sampler" in values:
        values["sampler"] = _make_sampler(values["sampler"])
    return _call_with(cls, values, skip=("children", "op_type", "connector_queue_size"))


def _transform_class(name: str):
    from .. import audio, text, transforms, vision

    for module in (vision, transforms, text, audio):
        cls = getattr(module, name, None)
        if isinstance(cls, type):
            return cls
    return None


def _make_operation(op: dict):
    name = op.get("tensor_op_name")
    if "tensor_op_params" not in op and "python_module" in op:
        return PyFunc(name, op["python_module"])
    class_name = _CLASS_NAMES.get(name, name)
    cls = _transform_class(class_name) if isinstance(class_name, str) else None
    if class_name not in _REBUILT or cls is None or not issubclass(cls, TensorOperation):
        raise _error(f"Invalid data, unsupported operation: {name}")
    params = dict(op.get("tensor_op_params") or {})
    if class_name in _PARAMS:
        params = _PARAMS[class_name][1](params)
    for key in ("transforms", "transform"):
        if isinstance(params.get(key), list):
            params[key] = [_make_operation(o) if isinstance(o, dict) else o
                           for o in params[key]]
    if class_name == "RandomSelectSubpolicy" and isinstance(params.get("policy"), list):
        params["policy"] = [[(_make_operation(o), p) for o, p in sub]
                            for sub in params["policy"]]
    return _call_with(cls, params)


class PyFunc(TensorOperation):
    """A Python function a serialized pipeline names (its module and name only): the function
    itself is not in the JSON, so it cannot run, nor be serialized again."""

    def __init__(self, name, module):
        self.name, self.module = name, module

    def __call__(self, *inputs):
        raise RuntimeError(f"{self.name} (from {self.module}) is a Python function of a "
                           f"deserialized pipeline: its code is not in the JSON, so it cannot "
                           f"run")
