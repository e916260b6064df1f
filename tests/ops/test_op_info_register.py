"""The registration builders of ops (MindSpore's ops/op_info_register.py) and the dtype rows
ops.Custom checks on the CPU. Expected dicts, messages and accept/refuse patterns are
MindSpore 2.10's."""
import json

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, ops
from cellgraph.ops import (
    AiCPURegOp,
    CustomRegOp,
    DataType,
    TBERegOp,
    custom_info_register,
    op_info_register,
)
from cellgraph.ops.op_info_register import AkgGpuRegOp, CpuRegOp, RegOp, registered_op_info


def _dumped(info):
    return json.loads(json.dumps(info))


def test_custom_reg_op_info_as_mindspore():
    info = CustomRegOp("My").input(0, "x").input(1, "y", None) \
        .output(0, "z", "dynamic", extra=1).attr("a", "required", "float", "1.0") \
        .dtype_format(DataType.F32_Default, DataType.F32_Default, DataType.F32_Default) \
        .target("CPU").get_op_info()
    assert list(info) == ["op_name", "inputs", "outputs", "attr", "fusion_type",
                          "dtype_format", "target"]
    assert _dumped(info) == {
        "attr": [{"defaultValue": "1.0", "name": "a", "paramType": "required",
                  "type": "float"}],
        "dtype_format": [[["float32", "DefaultFormat"]] * 3], "fusion_type": "",
        "inputs": [{"index": 0, "name": "x", "paramType": "required"},
                   {"index": 1, "name": "y"}],
        "op_name": "My",
        "outputs": [{"extra": 1, "index": 0, "name": "z", "paramType": "dynamic"}],
        "target": "CPU"}
    assert CustomRegOp().get_op_info() == {"op_name": "Custom", "inputs": [], "outputs": [],
                                           "attr": [], "fusion_type": "", "dtype_format": [],
                                           "target": "UnKnown"}


def test_tbe_aicpu_akg_cpu_infos_as_mindspore():
    assert _dumped(TBERegOp("T").get_op_info()) == {
        "async_flag": False, "attr": [], "binfile": "", "compute_cost": 10, "dtype_format": [],
        "dynamicCompileStatic": False, "dynamicFormat": False, "dynamicRankSupport": False,
        "dynamicShapeSupport": False, "fusion_type": "", "imply_type": "TBE",
        "input_to_attr_index": [], "inputs": [], "kernel": "", "needCheckSupport": False,
        "op_name": "T", "op_pattern": "", "outputs": [], "partial_flag": False,
        "real_input_index": [], "reshape_type": "", "unknown_shape_formats": []}
    tbe = TBERegOp("T").async_flag(True).binfile_name("t.so").compute_cost(3) \
        .kernel_name("t").partial_flag(True).op_pattern("broadcast") \
        .need_check_supported(True).dynamic_shape(True).dynamic_rank_support(True) \
        .dynamic_compile_static(True).attr("f", "required", "str", "all", "x") \
        .input(0, "x", False, "required", "all", "Optional") \
        .output(0, "y", True, "required", "all").real_input_index([1, 0]) \
        .input_to_attr_index([2]).unknown_shape_formats(["ND"]).reshape_type("NC") \
        .is_dynamic_format(True).dtype_format(DataType.F16_None, DataType.F16_None) \
        .get_op_info()
    assert tbe["inputs"] == [{"index": 0, "name": "x", "needCompile": False,
                              "paramType": "required", "shape": "all",
                              "valueDepend": "Optional"}]
    assert tbe["outputs"] == [{"index": 0, "name": "y", "need_compile": True,
                               "paramType": "required", "shape": "all"}]
    assert tbe["attr"] == [{"name": "f", "paramType": "required", "type": "str",
                            "value": "all", "defaultValue": "x"}]
    assert (tbe["dynamicFormat"], tbe["needCheckSupport"], tbe["unknown_shape_formats"],
            tbe["binfile"], tbe["kernel"], tbe["compute_cost"]) == (True, True, [["ND"]],
                                                                   "t.so", "t", 3)
    aicpu = AiCPURegOp("S").fusion_type("OPAQUE").attr("axis", "int").input(0, "x", "dynamic") \
        .output(0, "y", "required").dtype_format(DataType.I8_Default, DataType.I8_Default) \
        .dtype_format(DataType.BOOL_Default_Tuple, DataType.I8_Default).get_op_info()
    assert _dumped(aicpu) == {
        "attr": [{"name": "axis", "type": "int"}],
        "dtype_format": [[["int8", "DefaultFormat"], ["int8", "DefaultFormat"]],
                         [["bool", "DefaultFormat", "tuple"], ["int8", "DefaultFormat"]]],
        "fusion_type": "OPAQUE", "imply_type": "AiCPU",
        "inputs": [{"index": 0, "name": "x", "paramType": "dynamic"}], "op_name": "S",
        "outputs": [{"index": 0, "name": "y", "paramType": "required"}]}
    akg = AkgGpuRegOp("A").fusion_type("ELEMWISE").input(0, "x").output(0, "y") \
        .attr("k", "required", "int").get_op_info()
    assert (akg["imply_type"], akg["processor"], akg["attr"]) == (
        "AKG", "CUDA", [{"name": "k", "paramType": "required", "type": "int"}])
    assert CpuRegOp("C").input(0, "x").get_op_info()["imply_type"] == "CPU"


@pytest.mark.parametrize("build, error, message", [
    (lambda: RegOp(3), ValueError, "op name value must be string"),
    (lambda: RegOp("  "), ValueError, "op name is empty"),
    (lambda: CustomRegOp().input("0"), TypeError, "0 value must be int"),
    (lambda: CustomRegOp().input(0, "x").dtype_format(DataType.F32_Default,
                                                        DataType.F32_Default), ValueError,
     ("The size of 'args' must be equal to the sum of input tensors and output tensors, but "
      "got 2 vs 1")),
    (lambda: CustomRegOp().input(0, "x").dtype_format(["float32", "x"]), ValueError,
     "dtype and format value must be tuple of two or three elements"),
    (lambda: CustomRegOp().input(0, "x").dtype_format(("float32", 1)), TypeError,
     "1 value must be str"),
    (lambda: CustomRegOp().target(3), TypeError, "3 value must be str"),
    (lambda: TBERegOp("T").input(0, "x", False, "required", "all", "bad"), ValueError,
     ("Operator T input0's value_depend's value (bad) is not in ('ignored', 'optional', "
      "'required').")),
    (lambda: TBERegOp("T").async_flag(1), TypeError, "1 value must be bool"),
    (lambda: TBERegOp("T").real_input_index((1,)), TypeError, "(1,) value must be list"),
    (lambda: CustomRegOp()._check_param([1], [1, 2], [1], {}), ValueError,
     "param_list size 1, key_list size 2, must be equal.And fn_list size 1."),
])
def test_builder_errors_as_mindspore(build, error, message):
    with pytest.raises(error) as info:
        build()
    assert str(info.value) == message


def test_data_type_constants():
    names = [k for k in vars(DataType) if not k.startswith("_")]
    assert len(names) == 204  # MindSpore 2.10 defines 204
    assert DataType.F32_Default == ("float32", "DefaultFormat")
    assert DataType.None_None == ("", "")
    assert DataType.I8_NC1HWC0 == ("int8", "NC1HWC0")
    assert DataType.F16_FracZNLSTM == ("float16", "FRACTAL_ZN_LSTM")
    assert DataType.BF16_Default_List == ("bfloat16", "DefaultFormat", "list")
    assert DataType.C128_Default_Tuple == ("complex128", "DefaultFormat", "tuple")
    assert not hasattr(DataType, "I16_NCDHW") and not hasattr(DataType, "C64_None")


def test_custom_info_register_binds_the_infos():
    @custom_info_register("a", {"b": 1})
    def double(x):
        return x * 2

    assert double(3) == 6 and double.__name__ == "double"
    assert double.reg_info == ("a", {"b": 1}) and double.__wrapped__.reg_info == ("a", {"b": 1})


def test_op_info_register():
    @op_info_register({"op_name": "CgRegTestOp", "imply_type": "CPU"})
    def add_one(a):
        return a + 1

    assert add_one(1) == 2 and add_one.__name__ == "wrapped_function"
    assert registered_op_info("CgRegTestOp", "CPU")["op_name"] == "CgRegTestOp"
    with pytest.raises(ValueError, match="Invalid op info"):
        op_info_register({"op_name": "X3", "imply_type": "Foo"})(add_one)
    with pytest.raises(TypeError) as info:
        op_info_register(5)(add_one)
    assert str(info.value) == "The type of 'op_info' should be 'str', but got type 'int'."
    # text MindSpore's library cannot read is skipped (logged), not refused
    assert op_info_register("not json")(lambda a: a * 3)(2) == 6


def _reg(*rows, target="CPU"):
    reg = CustomRegOp().input(0, "x").input(1, "y").output(0, "z")
    for row in rows:
        reg = reg.dtype_format(*row)
    return reg.target(target).get_op_info() if target else reg.get_op_info()


F32, I32, F64 = DataType.F32_Default, DataType.I32_Default, DataType.F64_Default
ACCEPT = {  # MindSpore 2.10 on CPU: which input dtypes each registration accepts
    "f32": (_reg((F32, F32, F32)), {"float32", "float64", "float16"}),
    "i32": (_reg((I32, I32, I32)), {"int32", "int64"}),
    "f64": (_reg((F64, F64, F64)), {"float64"}),
    "no_target": (_reg((F32, F32, F32), target=None), {"float32", "float64", "float16"}),
    "gpu": (_reg((F32, F32, F32), target="GPU"),
            {"float32", "float64", "float16", "int32", "int64", "bool"}),
    "mixed": (_reg((F32, I32, F32)), set()),
}


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
@pytest.mark.parametrize("case", sorted(ACCEPT))
def test_custom_checks_cpu_dtype_rows(case, mode):
    ms.set_context(mode=mode)
    reg_info, accepted = ACCEPT[case]

    def add(x, y):
        return x + y

    op = ops.Custom(add, lambda a, _: a, lambda a, _: a, "pyfunc", reg_info=reg_info)
    for dtype in ("float32", "float64", "float16", "int32", "int64", "bool"):
        x = Tensor(np.array([1, 2], dtype))
        if dtype in accepted:
            out = op(x, x)
            assert out.asnumpy().dtype == np.dtype(dtype)  # the declared dtype
            np.testing.assert_array_equal(out.asnumpy(), x.asnumpy() + x.asnumpy())
        else:
            with pytest.raises(TypeError, match="Unsupported data type"):
                op(x, x)
    ms.set_context(mode=ms.PYNATIVE_MODE)


def test_custom_narrowed_inputs_reach_the_function_in_the_row_dtype():
    seen = []

    def add(x, y):
        seen.append(x.dtype.name)
        return x + y

    op = ops.Custom(add, lambda a, _: a, lambda a, _: a, "pyfunc",
                    reg_info=_reg((F32, F32, F32)))
    op(Tensor(np.ones(2, np.float64)), Tensor(np.ones(2, np.float64)))
    assert seen == ["float32"]


def test_custom_reads_reg_info_from_the_decorators():
    @custom_info_register(_reg((I32, I32, I32)))
    def add(x, y):
        return x + y

    op = ops.Custom(add, lambda a, _: a, lambda a, _: a, "pyfunc")
    np.testing.assert_array_equal(op(Tensor([1, 2]), Tensor([3, 4])).asnumpy(), [4, 6])
    with pytest.raises(TypeError, match="Unsupported data type"):
        op(Tensor(np.ones(2, np.float32)), Tensor(np.ones(2, np.float32)))


def test_hybrid_custom_checks_its_cpu_rows_exactly():
    # MindSpore 2.10 refuses float64 and int32 inputs of a float32-only hybrid op on the CPU
    # ("Select CPU operator[...] fail! Unsupported data type!"): no widening for AKG kernels
    info = CustomRegOp().input(0, "a").input(1, "b").output(0, "c") \
        .dtype_format(F32, F32, F32).target("CPU").get_op_info()

    @ops.kernel(reg_info=info)
    def add_h(a, b):
        c = output_tensor(a.shape, a.dtype)  # noqa: F821  (a Hybrid DSL intrinsic)
        for i0 in range(a.shape[0]):
            c[i0] = a[i0] + b[i0]
        return c

    op = ops.Custom(add_h, func_type="hybrid")
    np.testing.assert_array_equal(op(Tensor(np.ones(2, np.float32)),
                                     Tensor(np.ones(2, np.float32))).asnumpy(), [2, 2])
    for dtype in (np.float64, np.int32):
        with pytest.raises(TypeError, match="Unsupported data type"):
            op(Tensor(np.ones(2, dtype)), Tensor(np.ones(2, dtype)))


def test_custom_picks_the_cpu_info_among_several_and_reads_json_text():
    # MindSpore 2.10's Custom documents reg_info as str, dict, list or tuple but fails with
    # AttributeError ('list' object has no attribute 'get') on a list or str given directly
    # (its multi-output check calls reg_info.get); cellgraph takes them as documented
    gpu = _reg((DataType.F16_Default,) * 3, target="GPU")
    cpu_text = json.dumps(_reg((I32, I32, I32)))

    def add(x, y):
        return x + y

    op = ops.Custom(add, lambda a, _: a, lambda a, _: a, "pyfunc", reg_info=[gpu, cpu_text])
    np.testing.assert_array_equal(op(Tensor([1, 2]), Tensor([3, 4])).asnumpy(), [4, 6])
    with pytest.raises(TypeError, match="Unsupported data type"):
        op(Tensor(np.ones(2, np.float16)), Tensor(np.ones(2, np.float16)))


def test_custom_refuses_infos_mindspore_cannot_register():
    ascend = _reg((F32, F32, F32), target="Ascend")

    def add(x, y):
        return x + y

    # a pyfunc's implementation kind is its target, and there is no "Ascend" kind
    with pytest.raises(ValueError, match="the registration information is registered failed. "
                                         "Use 'CustomRegOp' to generate"):
        ops.Custom(add, lambda a, _: a, lambda a, _: a, "pyfunc", reg_info=ascend)

    @ops.kernel(reg_info=_reg((F32, F32, F32), target=None))
    def add_h(a, b):
        c = output_tensor(a.shape, a.dtype)  # noqa: F821  (a Hybrid DSL intrinsic)
        for i0 in range(a.shape[0]):
            c[i0] = a[i0] + b[i0]
        return c

    with pytest.raises(ValueError, match=r"target set in registration information must be one "
                                         r"of \['Ascend', 'GPU', 'CPU'\], but got None"):
        ops.Custom(add_h, func_type="hybrid")
