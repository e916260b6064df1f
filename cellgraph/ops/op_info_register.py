"""Operator registration builders, as MindSpore's `mindspore.ops.op_info_register` module.

    info = CustomRegOp().input(0, "x").output(0, "y") \\
        .dtype_format(DataType.F32_Default, DataType.F32_Default).target("CPU").get_op_info()

A builder collects an operator's inputs, outputs, attributes and supported (dtype, format)
combinations; `get_op_info()` returns them as the dict MindSpore's builders return (same keys,
same order, so `json.dumps` gives the same text). `ops.Custom` reads the `dtype_format` rows of
a CPU (or target-less) registration to reject inputs no row accepts, as MindSpore's CPU kernel
selection does. `op_info_register` validates and records an operator's info in this process's
table (`registered_op_info`); cellgraph has no TBE/AiCPU/AKG kernels to bind it to.
"""
from __future__ import annotations

import functools
import inspect
import json
import os

from cellgraph._checkparam import check_value_type

__all__ = [
    "AiCPURegOp",
    "AkgAscendRegOp",
    "AkgCpuRegOp",
    "AkgGpuRegOp",
    "AkgRegOp",
    "CpuRegOp",
    "CustomRegOp",
    "DataType",
    "RegOp",
    "TBERegOp",
    "custom_info_register",
    "op_info_register",
    "registered_op_info",
]

# the implementation kinds MindSpore's operator library accepts (its OpLib::RegOp)
_IMPLY_TYPES = ("AKG", "TBE", "AiCPU", "CPU", "GPU", "BiSheng")
_REGISTERED: dict[tuple[str, str], dict] = {}


def registered_op_info(op_name: str, imply_type: str):
    """The op info `op_info_register` recorded for (op_name, imply_type), or None."""
    return _REGISTERED.get((op_name, imply_type))


def _register(op_info_text: str, source_path: str) -> bool:
    """Record one op info; False where MindSpore's library refuses it (an unknown imply_type).
    Text that is not JSON, or lacks `op_name`/`imply_type`, is skipped as MindSpore skips it
    (it logs the error and the decorator still succeeds)."""
    try:
        info = json.loads(op_info_text)
        op_name, imply_type = info["op_name"], info["imply_type"]
    except (ValueError, KeyError, TypeError):
        return True
    if imply_type not in _IMPLY_TYPES:
        return False
    suffix = info.get("processor", "") if imply_type == "AKG" else imply_type
    _REGISTERED[(op_name, imply_type)] = dict(info, imply_path=source_path, processor=suffix)
    return True


def op_info_register(op_info):
    """MindSpore's decorator registering an operator's info (a JSON str or a dict)."""

    def register_decorator(func):
        op_info_text = json.dumps(op_info) if isinstance(op_info, dict) else op_info
        check_value_type("op_info", op_info_text, [str])
        file_path = os.path.realpath(inspect.getfile(func))
        if not _register(op_info_text, file_path):
            raise ValueError(f"Invalid op info {file_path}:\n{op_info_text}\n")

        def wrapped_function(*args, **kwargs):
            return func(*args, **kwargs)

        return wrapped_function

    return register_decorator


def custom_info_register(*reg_info):
    """MindSpore's decorator binding registration info to a `func` of `ops.Custom`: the tuple of
    infos becomes `func.reg_info`, and the returned wrapper (functools.wraps) carries it too."""

    def decorator(func):
        func.reg_info = reg_info

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            return func(*args, **kwargs)

        return wrapper

    return decorator


def _checks(kind: type):
    """MindSpore's value check for one Python type: TypeError naming the value and type."""
    def check(value):
        if not isinstance(value, kind):
            raise TypeError(f"{value} value must be {kind.__name__}")
        return True

    return check


_is_string, _is_int, _is_bool, _is_list = (_checks(t) for t in (str, int, bool, list))


# get_op_info() renames these keys (the TBE builder's) to MindSpore's camel-case spelling
_CAMEL_KEYS = {"dynamic_shape_support": "dynamicShapeSupport",
               "dynamic_rank_support": "dynamicRankSupport",
               "dynamic_compile_static": "dynamicCompileStatic",
               "need_check_support": "needCheckSupport", "dynamic_format": "dynamicFormat"}


class RegOp:
    """The base of the builders: an op name, inputs, outputs, attributes, a fusion type and the
    supported (dtype, format) rows. Attributes ending in '_' are the builder's settings;
    `get_op_info()` lists every attribute under its name without the trailing '_'."""

    def __init__(self, op_name=""):
        if not isinstance(op_name, str):
            raise ValueError("op name value must be string")  # noqa: TRY004  (as MindSpore)
        if not op_name.strip():
            raise ValueError("op name is empty")
        self.op_name = op_name
        self.inputs = []
        self.outputs = []
        self.attr_ = []
        self.fusion_type_ = ""
        self.dtype_format_ = []

    _is_string = staticmethod(_is_string)
    _is_int = staticmethod(_is_int)
    _is_bool = staticmethod(_is_bool)
    _is_list = staticmethod(_is_list)

    def _check_param(self, param_list, key_list, fn_list, kwargs):
        """A dict of the given (non-None) parameters under their keys, each checked by its
        function (one function: all by it), plus `kwargs`."""
        for given in (param_list, key_list, fn_list):
            if not isinstance(given, list):
                raise TypeError(f"{given} value must be list type")
        if len(param_list) != len(key_list) or (len(fn_list) != 1
                                                 and len(param_list) != len(fn_list)):
            raise ValueError(f"param_list size {len(param_list)}, key_list size "
                             f"{len(key_list)}, must be equal.And fn_list size {len(fn_list)}.")
        out = {}
        for idx, element in enumerate(param_list):
            if element is not None:
                (fn_list[0] if len(fn_list) == 1 else fn_list[idx])(element)
                out[key_list[idx]] = element
        return dict(out, **kwargs) if kwargs else out

    def fusion_type(self, fusion_type):
        """The operator's fusion type (a str)."""
        self._is_string(fusion_type)
        self.fusion_type_ = fusion_type
        return self

    def dtype_format(self, *args):
        """One supported row: a (dtype, format[, object type]) tuple per input and output."""
        if len(self.inputs) + len(self.outputs) != len(args):
            raise ValueError("input size add output size must be equal to dtype format size")
        for arg in args:
            if not isinstance(arg, tuple) or len(arg) not in (2, 3):
                raise ValueError("dtype and format value must be tuple of two or three elements")
            for part in arg:
                self._is_string(part)
        self.dtype_format_.append(tuple(args))
        return self

    def get_op_info(self):
        """Every setting as a dict, keys without their trailing '_' (TBE's in camel case)."""
        op_info = {}
        for key, value in self.__dict__.items():
            if key.endswith("_"):
                key = key.rstrip("_")
                key = _CAMEL_KEYS.get(key, key)
            op_info[key] = value
        return op_info

    def _add(self, where, params, keys, checks, kwargs):
        where.append(self._check_param(list(params), list(keys), list(checks), kwargs))
        return self


_INDEX_NAME_TYPE = ("index", "name", "paramType")
_INDEX_NAME_TYPE_CHECKS = (_is_int, _is_string, _is_string)


class CpuRegOp(RegOp):
    """Op info of a CPU kernel."""

    def __init__(self, op_name):
        super().__init__(op_name)
        self.imply_type = "CPU"

    def input(self, index=None, name=None, param_type=None, **kwargs):
        """One input: its index, name and param type (str), plus other information."""
        return self._add(self.inputs, (index, name, param_type), _INDEX_NAME_TYPE,
                         _INDEX_NAME_TYPE_CHECKS, kwargs)

    def output(self, index=None, name=None, param_type=None, **kwargs):
        """One output: its index, name and param type (str), plus other information."""
        return self._add(self.outputs, (index, name, param_type), _INDEX_NAME_TYPE,
                         _INDEX_NAME_TYPE_CHECKS, kwargs)

    def attr(self, name=None, value_type=None, value=None, **kwargs):
        """One attribute: its name, value type and value (all str)."""
        return self._add(self.attr_, (name, value_type, value), ("name", "type", "value"),
                         (_is_string,), kwargs)


class AiCPURegOp(CpuRegOp):
    """Op info of an AiCPU kernel (MindSpore's Ascend AI CPU)."""

    def __init__(self, op_name):
        super().__init__(op_name)
        self.imply_type = "AiCPU"


class AkgRegOp(RegOp):
    """Op info of an AKG kernel for `processor`."""

    def __init__(self, op_name, processor):
        super().__init__(op_name)
        self.imply_type = "AKG"
        self.processor = processor

    def input(self, index=None, name=None, param_type=None, **kwargs):
        """One input: its index, name and param type, plus other information."""
        return self._add(self.inputs, (index, name, param_type), _INDEX_NAME_TYPE,
                         _INDEX_NAME_TYPE_CHECKS, kwargs)

    def output(self, index=None, name=None, **kwargs):
        """One output: its index and name, plus other information."""
        return self._add(self.outputs, (index, name), ("index", "name"), (_is_int, _is_string),
                         kwargs)

    def attr(self, name=None, param_type=None, value_type=None, **kwargs):
        """One attribute: its name, param type and value type (all str)."""
        return self._add(self.attr_, (name, param_type, value_type),
                         ("name", "paramType", "type"), (_is_string,), kwargs)


class AkgGpuRegOp(AkgRegOp):
    """Op info of an AKG kernel for CUDA."""

    def __init__(self, op_name):
        super().__init__(op_name, "CUDA")


class AkgAscendRegOp(AkgRegOp):
    """Op info of an AKG kernel for Ascend's AI Core."""

    def __init__(self, op_name):
        super().__init__(op_name, "AiCore")


class AkgCpuRegOp(AkgRegOp):
    """Op info of an AKG kernel for the CPU."""

    def __init__(self, op_name):
        super().__init__(op_name, "CPU")


class TBERegOp(RegOp):
    """Op info of a TBE kernel (Ascend's Tensor Boost Engine)."""

    def __init__(self, op_name):
        super().__init__(op_name)
        self.imply_type = "TBE"
        self.async_flag_ = False
        self.binfile_ = ""
        self.compute_cost_ = 10
        self.kernel_ = ""
        self.partial_flag_ = False
        self.reshape_type_ = ""
        self.dynamic_rank_support_ = False
        self.dynamic_shape_support_ = False
        self.dynamic_compile_static_ = False
        self.need_check_support_ = False
        self.dynamic_format_ = False
        self.op_pattern_ = ""
        self.real_input_index_ = []
        self.input_to_attr_index_ = []
        self.unknown_shape_formats_ = []

    def _set(self, key, value, check):
        check(value)
        setattr(self, key, value)
        return self

    def unknown_shape_formats(self, unknown_shape_formats):
        """Adds the formats (a list) of the inputs and outputs in dynamic shape."""
        _is_list(unknown_shape_formats)
        self.unknown_shape_formats_.append(unknown_shape_formats)
        return self

    def dynamic_rank_support(self, dynamic_rank_support):
        """Whether the kernel supports dynamic rank (a bool)."""
        return self._set("dynamic_rank_support_", dynamic_rank_support, _is_bool)

    def real_input_index(self, real_input_index):
        """The front end's input order of the kernel's inputs (a list)."""
        return self._set("real_input_index_", real_input_index, _is_list)

    def input_to_attr_index(self, input_to_attr_index):
        """The indices of the inputs turned into attributes (a list)."""
        return self._set("input_to_attr_index_", input_to_attr_index, _is_list)

    def async_flag(self, async_flag=False):
        """Whether the kernel computes asynchronously (a bool)."""
        return self._set("async_flag_", async_flag, _is_bool)

    def binfile_name(self, binfile_name):
        """The kernel's binary file name (a str)."""
        return self._set("binfile_", binfile_name, _is_string)

    def compute_cost(self, compute_cost=10):
        """The kernel's cost in the tiling cost model (an int)."""
        return self._set("compute_cost_", compute_cost, _is_int)

    def kernel_name(self, kernel_name):
        """The kernel's name (a str)."""
        return self._set("kernel_", kernel_name, _is_string)

    def partial_flag(self, partial_flag=True):
        """Whether the kernel supports partial computation (a bool)."""
        return self._set("partial_flag_", partial_flag, _is_bool)

    def reshape_type(self, reshape_type):
        """The dimensions kept when an input is padded to 4-D (a str such as "NC")."""
        return self._set("reshape_type_", reshape_type, _is_string)

    def dynamic_shape(self, dynamic_shape=False):
        """Whether the kernel supports dynamic shape (a bool)."""
        return self._set("dynamic_shape_support_", dynamic_shape, _is_bool)

    def dynamic_compile_static(self, dynamic_compile_static=False):
        """Whether the kernel compiles dynamic shapes statically (a bool)."""
        return self._set("dynamic_compile_static_", dynamic_compile_static, _is_bool)

    def need_check_supported(self, need_check_supported=False):
        """Whether the kernel's support must be checked (a bool)."""
        return self._set("need_check_support_", need_check_supported, _is_bool)

    def is_dynamic_format(self, is_dynamic_format=False):
        """Whether the kernel selects its format at run time (a bool)."""
        return self._set("dynamic_format_", is_dynamic_format, _is_bool)

    def op_pattern(self, pattern=None):
        """The kernel's behaviour kind ("broadcast", "reduce", ...); None leaves it."""
        if pattern is not None:
            self._set("op_pattern_", pattern, _is_string)
        return self

    def attr(self, name=None, param_type=None, value_type=None, value=None, default_value=None,
             **kwargs):
        """One attribute: name, param type, value type, value and default value (all str)."""
        return self._add(self.attr_, (name, param_type, value_type, value, default_value),
                         ("name", "paramType", "type", "value", "defaultValue"), (_is_string,),
                         kwargs)

    def input(self, index=None, name=None, need_compile=None, param_type=None, shape=None,
              value_depend=None, **kwargs):
        """One input; `value_depend` is one of "ignored", "optional", "required" (any case)."""
        entry = self._check_param(
            [index, name, need_compile, param_type, shape, value_depend],
            ["index", "name", "needCompile", "paramType", "shape", "valueDepend"],
            [_is_int, _is_string, _is_bool, _is_string, _is_string, _is_string], kwargs)
        allowed = ("ignored", "optional", "required")
        if value_depend and value_depend.lower() not in allowed:
            raise ValueError(f"Operator {self.op_name} input{index}'s value_depend's value "
                             f"({value_depend}) is not in {allowed}.")
        self.inputs.append(entry)
        return self

    def output(self, index=None, name=None, need_compile=None, param_type=None, shape=None,
               **kwargs):
        """One output: index, name, need_compile, param type and shape."""
        return self._add(self.outputs, (index, name, need_compile, param_type, shape),
                         ("index", "name", "need_compile", "paramType", "shape"),
                         (_is_int, _is_string, _is_bool, _is_string, _is_string), kwargs)


class CustomRegOp(RegOp):
    """The registration info of an `ops.Custom` function: its inputs, outputs, attributes,
    supported (dtype, format) rows and target ("UnKnown" until `target` sets it)."""

    def __init__(self, op_name="Custom"):
        super().__init__(op_name)
        self.target_ = "UnKnown"

    def input(self, index=None, name=None, param_type="required", **kwargs):
        """One input: index (int), name (str), param type ("required", "dynamic" or
        "optional"); a None leaves its key out."""
        return self._add(self.inputs, (index, name, param_type), _INDEX_NAME_TYPE,
                         _INDEX_NAME_TYPE_CHECKS, kwargs)

    def output(self, index=None, name=None, param_type="required", **kwargs):
        """One output, as `input`."""
        return self._add(self.outputs, (index, name, param_type), _INDEX_NAME_TYPE,
                         _INDEX_NAME_TYPE_CHECKS, kwargs)

    def dtype_format(self, *args):
        """One supported row: a (dtype, format) pair per input then per output."""
        io_nums = len(self.inputs) + len(self.outputs)
        if len(args) != io_nums:
            raise ValueError(f"The size of 'args' must be equal to the sum of input tensors and "
                             f"output tensors, but got {len(args)} vs {io_nums}")
        return super().dtype_format(*args)

    def attr(self, name=None, param_type=None, value_type=None, default_value=None, **kwargs):
        """One attribute: name, param type, value type and default value (all str)."""
        return self._add(self.attr_, (name, param_type, value_type, default_value),
                         ("name", "paramType", "type", "defaultValue"), (_is_string,), kwargs)

    def target(self, target=None):
        """The target ("Ascend", "GPU" or "CPU") this info is for; None: inferred by Custom."""
        if target is not None:
            _is_string(target)
        self.target_ = target
        return self

    def get_op_info(self):
        """Every setting as a dict, keys without their trailing '_'."""
        return {key.rstrip("_") if key.endswith("_") else key: value
                for key, value in self.__dict__.items()}


# ----- DataType: (dtype, format[, object type]) constants named <DTYPE>_<FORMAT> ---------------

_FORMATS = {"None": "", "Default": "DefaultFormat", "5HD": "NC1HWC0", "FracZ": "FRACTAL_Z",
            "FracNZ": "FRACTAL_NZ", "C1HWNCoC0": "C1HWNCoC0", "NCHW": "NCHW", "NHWC": "NHWC",
            "HWCN": "HWCN", "NDHWC": "NDHWC", "NCDHW": "NCDHW", "DHWCN": "DHWCN",
            "NDC1HWC0": "NDC1HWC0", "NC1HWC0": "NC1HWC0", "FRACTAL_Z_3D": "FRACTAL_Z_3D",
            "FracZNLSTM": "FRACTAL_ZN_LSTM", "FracZNRNN": "FRACTAL_ZN_RNN",
            "ND_RNNBIAS": "ND_RNN_BIAS", "ChannelLast": "ChannelLast"}
_FOUR_D = ("None", "Default", "5HD", "FracZ", "FracNZ", "C1HWNCoC0", "NCHW", "NHWC", "HWCN",
           "NDHWC")
_FLOAT_FORMATS = _FOUR_D + ("NCDHW", "DHWCN", "NDC1HWC0", "FRACTAL_Z_3D", "FracZNLSTM",
                            "FracZNRNN", "ND_RNNBIAS", "ChannelLast")
_BYTE_FORMATS = _FOUR_D + ("NCDHW", "ChannelLast", "NDC1HWC0", "NC1HWC0")
# prefix -> (dtype name, the formats MindSpore defines for it)
_DTYPE_FORMATS = {
    "BOOL": ("bool", _FOUR_D + ("ChannelLast",)),
    "I8": ("int8", _BYTE_FORMATS), "U8": ("uint8", _BYTE_FORMATS),
    "I16": ("int16", _FOUR_D + ("ChannelLast",)), "U16": ("uint16", _FOUR_D + ("ChannelLast",)),
    "I32": ("int32", _FOUR_D + ("NDC1HWC0", "NCDHW", "ChannelLast")),
    "U32": ("uint32", _FOUR_D + ("ChannelLast",)),
    "I64": ("int64", _FOUR_D + ("ChannelLast",)), "U64": ("uint64", _FOUR_D + ("ChannelLast",)),
    "F16": ("float16", _FLOAT_FORMATS), "F32": ("float32", _FLOAT_FORMATS),
    "F64": ("float64", _FOUR_D + ("ChannelLast",)), "BF16": ("bfloat16", _FLOAT_FORMATS),
}


def _data_type_constants() -> dict:
    constants = {"None_None": ("", ""), "None_Default": ("", "DefaultFormat")}
    for prefix, (dtype, formats) in _DTYPE_FORMATS.items():
        for fmt in formats:
            constants[f"{prefix}_{fmt}"] = (dtype, _FORMATS[fmt])
        constants[f"{prefix}_Default_Tuple"] = (dtype, "DefaultFormat", "tuple")
        constants[f"{prefix}_Default_List"] = (dtype, "DefaultFormat", "list")
    for prefix, dtype in (("C64", "complex64"), ("C128", "complex128")):
        constants[f"{prefix}_Default"] = (dtype, "DefaultFormat")
        constants[f"{prefix}_Default_Tuple"] = (dtype, "DefaultFormat", "tuple")
    return constants


DataType = type("DataType", (), {
    "__doc__": "The (dtype, format) combinations of MindSpore's `DataType`, named "
               "<DTYPE>_<FORMAT> (`DataType.F32_Default == ('float32', 'DefaultFormat')`); "
               "`_Tuple`/`_List` ones add the input's object type.",
    "__module__": __name__, **_data_type_constants()})


# ----- what ops.Custom reads: the CPU rows of its registration info -------------------------

_TARGETS = ("Ascend", "GPU", "CPU")
_PROCESSOR_TARGETS = {"AiCore": "Ascend", "CUDA": "GPU", "CPU": "CPU"}
_IMPLY_TARGETS = {"TBE": "Ascend", "GPU": "GPU", "CPU": "CPU"}
_FUNC_TYPE_TARGETS = {"tbe": "Ascend", "pyfunc": "CPU"}


def _expanded(reg_info) -> list:
    if isinstance(reg_info, (list, tuple)):
        return [leaf for item in reg_info for leaf in _expanded(item)]
    return [reg_info]


def _target(info: dict, func_type: str):
    """The target a Custom registration is for, inferred as MindSpore infers it: its `target`,
    else its processor, else its imply_type, else the Custom's func_type."""
    target = info.get("target")
    if target not in _TARGETS:
        target = _PROCESSOR_TARGETS.get(info.get("processor"))
    if target not in _TARGETS:
        target = _IMPLY_TARGETS.get(info.get("imply_type"))
    if target not in _TARGETS:
        target = _FUNC_TYPE_TARGETS.get(func_type)
    return target


# the implementation kind a Custom registration gets when its info names none
_FUNC_TYPE_IMPLY = {"hybrid": "AKG", "akg": "AKG", "tbe": "TBE", "aicpu": "AiCPU"}


def check_custom_reg_info(reg_info, func_type: str, log_prefix: str) -> None:
    """MindSpore's checks when a Custom op registers its infos: each dict info needs a target
    it can infer (ValueError), and an implementation kind its operator library knows
    (ValueError: a pyfunc's kind is its target, and there is no "Ascend" kind)."""
    for info in _expanded(reg_info):
        if isinstance(info, str):
            info = json.loads(info)
        if not isinstance(info, dict):
            continue
        target = _target(info, func_type)
        if target not in _TARGETS:
            raise ValueError(f"{log_prefix}, target set in registration information must be one "
                             f"of {list(_TARGETS)}, but got {target}")
        imply_type = info.get("imply_type")
        if not (isinstance(imply_type, str) and imply_type.strip()):
            imply_type = target if func_type == "pyfunc" else \
                ("BiSheng" if target == "Ascend" else target) if func_type == "aot" else \
                _FUNC_TYPE_IMPLY.get(func_type, "AKG")
        if imply_type not in _IMPLY_TYPES:
            raise ValueError(f"{log_prefix}, the registration information is registered failed. "
                             f"Use 'CustomRegOp' to generate the registration information, then "
                             f"pass it to 'reg_info' or use 'custom_info_register' to bind it to "
                             f"'func' if 'func' is a function.")


def cpu_dtype_rows(reg_info, func_type: str):
    """The (input dtypes, output dtypes) of each `dtype_format` row of the first CPU
    registration in `reg_info` (a CustomRegOp info, its JSON text, or a list/tuple of them), or
    None where there is none to check against: no CPU info, an info without inputs (MindSpore
    then takes the inputs as they come), or inputs marked "dynamic"/"optional", whose count
    varies per call."""
    for info in _expanded(reg_info):
        if isinstance(info, str):
            info = json.loads(info)
        if not isinstance(info, dict) or _target(info, func_type) != "CPU":
            continue
        inputs = info.get("inputs") or []
        if not inputs or any(i.get("paramType", "required") != "required" for i in inputs):
            return None
        return [(tuple(column[0] for column in row[:len(inputs)]),
                 tuple(column[0] for column in row[len(inputs):]))
                for row in info.get("dtype_format", [])]
    return None


# MindSpore's CPU kernel selection for a pyfunc, after no exact match: a float32 column takes
# float16 and float64 inputs, an int32 column int16 and int64 ones (cast to the column's dtype)
_LOOSE = {"float32": ("float16", "float64"), "int32": ("int16", "int64")}


def select_dtype_row(rows, inputs, outputs, func_type: str):
    """The row MindSpore's CPU kernel selection picks for these input and output dtype names,
    or None where it finds none. An empty dtype takes any. A pyfunc's row matches on inputs,
    exactly first, then by the widening/narrowing rule; a hybrid (AKG) op's row must match
    inputs and outputs exactly."""
    def same(want, got, loose=False):
        return len(want) == len(got) and all(
            not w or w == g or (loose and g in _LOOSE.get(w, ())) for w, g in zip(want, got))

    if func_type != "pyfunc":
        return next((row for row in rows if same(row[0], inputs) and same(row[1], outputs)),
                    None)
    for loose in (False, True):
        for row in rows:
            if same(row[0], inputs, loose):
                return row
    return None
