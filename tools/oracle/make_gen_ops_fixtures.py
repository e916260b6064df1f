"""Record MindSpore's results of `ops.auto_generate.gen_ops_prim` classes on small inputs, as the
fixture tests/data/gen_ops_prim_mindspore.json that tests/ops/test_gen_ops_prim_classes.py
replays on cellgraph (run with a Python that has MindSpore 2.10):

    python tools/oracle/make_gen_ops_fixtures.py [OUT]

Each case names a class, its constructor arguments and its call arguments. MindSpore's CPU
build runs many of these classes only in graph mode (their PyNative kernels are Ascend's), so a
case runs in PyNative mode, else in a graph; a class its CPU build cannot run at all is given
`reference`, the path of a MindSpore function that computes the same on the CPU (the class's
own op under another name), called with the same arguments. The fixture keeps the arguments,
the results (values, dtype, shape) or the exception type, and which of the three gave them.
"""
import json
import sys
from pathlib import Path

import mindspore as ms
import numpy as np
from mindspore import nn
from mindspore.ops.auto_generate import gen_ops_prim

OUT = Path(__file__).resolve().parents[2] / "tests" / "data" / "gen_ops_prim_mindspore.json"


def t(values, dtype="float32"):
    """A Tensor argument."""
    return {"tensor": np.asarray(values, dtype).tolist(), "dtype": dtype}


def dt(name):
    """A dtype argument (mindspore.int32)."""
    return {"dtype": name}


def tup(*items):
    """A tuple argument (JSON has lists only)."""
    return {"tuple": list(items)}


def _keywords(name, *keywords):
    """A reference: `ops.name` with the trailing arguments given as `keywords`."""
    def call(*args):
        split = len(args) - len(keywords)
        return getattr(ms.ops, name)(*args[:split], **dict(zip(keywords, args[split:])))

    call.__doc__ = f"ops.{name}"
    return call


def _ref(doc, function):
    """A reference written out: `function` of the call arguments, described by `doc`."""
    function.__doc__ = doc
    return function


def _int64(name, *, output=None):
    """A reference: `ops.name`, its result (or its `output`-th result) as int64, the dtype
    MindSpore's infer function gives the class (ops/infer/ops_func_impl)."""
    def call(*args):
        out = getattr(ms.ops, name)(*args)
        if output is None:
            return out.astype(ms.int64)
        return tuple(o.astype(ms.int64) if i == output else o for i, o in enumerate(out))

    call.__doc__ = f"ops.{name} as int64"
    return call


X = t([[0.5, -1.5, 2.0], [3.0, 0.25, -1.0]])
X_INT = t([[1, -2, 3], [4, 0, -6]], "int32")
UNIT = t([[0.5, -0.25, 0.0], [0.75, -1.0, 1.0]])
MAT = t([[1.0, 2.0], [3.0, 4.0], [0.5, -1.0]])
VEC2, VEC3 = t([0.5, -2.0]), t([1.0, 2.0, -1.0])
BATCH = t(np.arange(12).reshape(2, 2, 3) / 4)
BITS, BITS2 = t([[5, 3, -8], [0, 12, 7]], "int32"), t([[1, 6, 3], [2, 4, 7]], "int32")

# (case id, class, constructor keyword arguments, call arguments, reference or None)
CASES = [
    ("add_ext_alpha", "AddExt", {}, [X, X_INT, 2], None),
    ("add_ext_float_alpha", "AddExt", {}, [X, X, 0.5], None),
    ("add_scalar", "AddScalar", {}, [X_INT, 3, 2], None),
    ("add_scalar_float_other", "AddScalar", {}, [X_INT, 1.5], None),
    ("sub_ext_alpha", "SubExt", {}, [X, X_INT, 2], None),
    ("sub_scalar", "SubScalar", {}, [X, 1.0, 3], None),
    ("muls", "Muls", {}, [X_INT, 2.5], None),
    ("divs_int", "Divs", {}, [X_INT, 4], None),
    ("div_mod_floor", "DivMod", {}, [X, t([[2.0, 2.0, -3.0], [1.5, 0.5, 4.0]]), "floor"], None),
    ("div_mod_trunc_int", "DivMod", {}, [X_INT, t([[2, 3, -2], [3, 1, 4]], "int32"), "trunc"],
     None),
    ("div_mods_none", "DivMods", {}, [X_INT, 4, None], None),
    ("addcdiv_ext", "AddcdivExt", {}, [X, X, t([[2.0, 4.0, 1.0], [0.5, 2.0, 8.0]]), 0.5],
     _ref("input + value * tensor1 / tensor2", lambda x, a, b, v: x + v * a / b)),
    ("addcmul_ext", "AddcmulExt", {}, [X, X, X, 2],
     _ref("input + value * tensor1 * tensor2", lambda x, a, b, v: x + v * a * b)),
    ("addmm", "Addmm", {}, [t([[1.0, 2.0], [0.0, -1.0]]), t([[1.0, 0.5, 2.0], [3.0, -1.0, 0.0]]),
                          MAT, 0.5, 2.0], _keywords("addmm", "beta", "alpha")),
    ("addbmm", "Addbmm", {}, [t(np.ones((2, 2))), BATCH, t(np.arange(12).reshape(2, 3, 2) / 3),
                            1, 0.5], _keywords("addbmm", "beta", "alpha")),
    ("baddbmm", "Baddbmm", {}, [t(np.ones((2, 2, 2))), BATCH,
                              t(np.arange(12).reshape(2, 3, 2) / 3), 2, 1],
     _keywords("baddbmm", "beta", "alpha")),
    ("addmv", "Addmv", {}, [VEC3, MAT, VEC2, 0.5, 2], _keywords("addmv", "beta", "alpha")),
    ("mm", "Mm", {}, [MAT, t([[1.0, 0.0, 2.0], [0.5, 1.0, -1.0]])], "ops.matmul"),
    ("mv", "Mv", {}, [MAT, VEC2], "ops.mv"),
    ("dot", "Dot", {}, [VEC3, t([0.5, 0.25, 2.0])], "ops.inner"),
    ("outer", "Outer", {}, [VEC3, VEC2], "ops.outer"),
    ("vdot", "Vdot", {}, [VEC3, t([0.5, 0.25, 2.0])], "ops.inner"),
    ("acos_ext", "AcosExt", {}, [UNIT], "ops.acos"),
    ("acosh_ext", "AcoshExt", {}, [t([[1.0, 2.5], [10.0, 1.5]])], "ops.acosh"),
    ("asin_ext", "AsinExt", {}, [UNIT], "ops.asin"),
    ("asinh_ext", "AsinhExt", {}, [X], "ops.asinh"),
    ("atan_ext", "AtanExt", {}, [X], "ops.atan"),
    ("atan2_ext", "Atan2Ext", {}, [X, t([[1.0, -2.0, 0.5], [-1.0, 0.0, 3.0]])], "ops.atan2"),
    ("exp2", "Exp2", {}, [X], "ops.exp2"),
    ("frac", "Frac", {}, [X], "ops.frac"),
    ("sinc", "Sinc", {}, [X], None),
    ("sinc_int", "Sinc", {}, [X_INT], None),
    ("is_neg_inf", "IsNegInf", {}, [t([1.0, -np.inf, np.inf, np.nan])], "ops.isneginf"),
    ("bitwise_not", "BitwiseNot", {}, [BITS], "ops.invert"),
    ("bitwise_and_tensor", "BitwiseAndTensor", {}, [BITS, BITS2], "ops.bitwise_and"),
    ("bitwise_or_tensor", "BitwiseOrTensor", {}, [BITS, BITS2], "ops.bitwise_or"),
    ("bitwise_xor_tensor", "BitwiseXorTensor", {}, [BITS, BITS2], "ops.bitwise_xor"),
    ("bool_not", "BoolNot", {}, [True], None),
    ("prod_ext_bool", "ProdExt", {}, [t([True, False], "bool")], None),
    # MindSpore 2.10's CPU Any and AnyExt read a non-bool input's bytes as bools (Any of
    # [[0, 0], [0, 3]] int32 is False there): bool inputs, where its results are right
    ("any", "Any", {}, [t([[False, False], [False, True]], "bool")], None),
    ("any_false", "Any", {}, [t([False, False], "bool")], None),
    ("max", "Max", {}, [X], None),
    ("min_int", "Min", {}, [X_INT], None),
    ("trace_ext", "TraceExt", {}, [t(np.arange(12).reshape(3, 4), "int32")], _int64("trace")),
    ("matrix_inverse_ext", "MatrixInverseExt", {}, [t([[4.0, 1.0], [2.0, 3.0]])],
     "ops.inverse"),
    ("equal_ext", "EqualExt", {}, [X, X], "ops.equal"),
    ("eq_scalar", "EqScalar", {}, [X_INT, 3], "ops.equal"),
    ("greater_equal_scalar", "GreaterEqualScalar", {}, [X, 0.5], None),
    ("less_scalar", "LessScalar", {}, [X_INT, 1], "ops.less"),
    ("floor_div_scalar", "FloorDivScalar", {}, [X_INT, 4], "ops.floor_divide"),
    ("fmod_scalar", "FmodScalar", {}, [X, 0.75], "ops.fmod"),
    ("fmod_tensor", "FmodTensor", {}, [X_INT, t([[2, 3, 2], [3, 5, 4]], "int32")], "ops.fmod"),
    ("remainder_tensor_tensor", "RemainderTensorTensor", {},
     [X, t([[2.0, 2.0, -3.0], [1.5, 0.5, 4.0]])], None),
    ("remainder_tensor_scalar", "RemainderTensorScalar", {}, [X_INT, 4], None),
    ("remainder_scalar_tensor", "RemainderScalarTensor", {}, [5, BITS2], None),
    ("logaddexp", "LogAddExp", {}, [X, t([[1.0, 2.0, 0.0], [-1.0, 0.5, 3.0]])],
     "ops.logaddexp"),
    ("logaddexp2", "LogAddExp2", {}, [X, t([[1.0, 2.0, 0.0], [-1.0, 0.5, 3.0]])],
     "ops.logaddexp2"),
    ("xlogy_scalar_other", "XLogYScalarOther", {}, [t([[0.0, 1.0, 2.0]]), 3.0], "ops.xlogy"),
    ("xlogy_scalar_self", "XLogYScalarSelf", {}, [2.0, t([[0.5, 1.0, 4.0]])], "ops.xlogy"),
    ("argmax_ext", "ArgMaxExt", {}, [X, 1, True], None),
    ("argmax_ext_flat", "ArgMaxExt", {}, [X], None),
    ("argmin_ext", "ArgMinExt", {}, [X, 0], _int64("argmin")),
    ("argsort", "ArgSort", {}, [X, 1, True], _int64("argsort")),
    ("sort_ext", "SortExt", {}, [X, 0, True], _int64("sort", output=1)),
    ("topk_ext", "TopkExt", {}, [X, 2, 1, False], _int64("topk", output=1)),
    ("any_ext", "AnyExt", {}, [t([[0, 0, 1], [0, 0, 0]], "bool"), 1, True], None),
    ("clamp_scalar", "ClampScalar", {}, [X, -1.0, 1.0], "ops.clamp"),
    ("clamp_scalar_min", "ClampScalar", {}, [X_INT, 0], "ops.clamp"),
    ("clamp_tensor", "ClampTensor", {}, [X, t([0.0, 0.0, 0.0]), t([1.0, 2.0, 1.5])],
     "ops.clamp"),
    ("count_nonzero", "CountNonZero", {}, [t([[0, 1, 2], [0, 0, 3]], "int32"), 1],
     _int64("count_nonzero")),
    ("count_nonzero_all", "CountNonZero", {}, [X_INT], _int64("count_nonzero")),
    ("cumsum_ext", "CumsumExt", {}, [X_INT, 1], "ops.cumsum"),
    ("cumsum_ext_dtype", "CumsumExt", {}, [X, 0, dt("float64")], "ops.cumsum"),
    ("cummin_ext", "CumminExt", {}, [t([[3.0, 1.0, 2.0], [0.0, 4.0, -1.0]]), 1], _int64("cummin", output=1)),
    ("lerp_scalar", "LerpScalar", {}, [X, t(np.ones((2, 3))), 0.25], "ops.lerp"),
    ("logsumexp", "LogSumExp", {}, [X, 1, True], "ops.logsumexp"),
    ("nansum", "Nansum", {}, [t([[1.0, np.nan, 2.0], [np.nan, 3.0, 4.0]]), 1], "ops.nansum"),
    ("prod_ext", "ProdExt", {}, [X, 1, True], None),
    ("prod_ext_int", "ProdExt", {}, [X_INT], None),
    ("norm", "Norm", {}, [X, 2.0, 1], "ops.norm"),
    ("norm_p1_all", "Norm", {}, [X, 1.0],
     _ref("ops.norm of the flattened input", lambda x, p: ms.ops.norm(x.reshape(-1), p))),
    ("linalg_vector_norm", "LinalgVectorNorm", {}, [X, 3.0, 0, True], "ops.vector_norm"),
    ("std", "Std", {}, [X, 1, 1, True], "ops.std"),
    ("var", "Var", {}, [X, None, 0], "ops.var"),
    ("std_mean", "StdMean", {}, [X, 0, 1, False], "ops.std_mean"),
    ("var_mean", "VarMean", {}, [X, 1, 1, False], "ops.var_mean"),
    ("median_ext", "MedianExt", {}, [X],
     _ref("ops.median of the flattened input", lambda x: ms.ops.median(x.reshape(-1))[0])),
    ("median_dim", "MedianDim", {}, [t([[3.0, 1.0, 2.0, 5.0], [0.0, 4.0, -1.0, 2.0]]), 1],
     _int64("median", output=1)),
    ("kthvalue", "Kthvalue", {}, [X, 2, 1],
     _ref("the k-th of ops.sort's values and indices", lambda x, k, dim: tuple(
         o[:, k - 1] for o in _int64("sort", output=1)(x, dim)))),
    ("histc_ext", "HistcExt", {}, [X, 4, -2.0, 4.0], "ops.histc"),
    ("bincount_ext", "BincountExt", {}, [t([0, 1, 1, 3], "int64"), None, 5],
     _int64("bincount")),
    ("lin_space_ext", "LinSpaceExt", {}, [0.0, 1.0, 5], "ops.linspace"),
    ("lin_space_ext_int", "LinSpaceExt", {}, [0, 10, 4, dt("int64")],
     _ref("ops.linspace as dtype", lambda a, b, n, d: ms.ops.linspace(a, b, n).astype(d))),
    ("arange", "Arange", {}, [1, 7, 2], None),
    ("arange_float", "Arange", {}, [0.0, 1.0, 0.25, dt("float32")], None),
    ("take", "Take", {}, [X, t([[0, 5], [4, 1]], "int64")],
     _ref("ops.gather of the flattened input", lambda x, i: ms.ops.gather(x.reshape(-1), i, 0))),
    ("diag_ext", "DiagExt", {}, [VEC3, 1], "ops.diagflat"),
    ("diag_ext_matrix", "DiagExt", {}, [X, -1], "ops.diagonal"),
    ("tril_ext", "TrilExt", {}, [t(np.arange(12).reshape(3, 4), "int32"), 1], "ops.tril"),
    ("roll", "Roll", {"shifts": 1, "dims": 1}, [X],
     _ref("the last column, then the others", lambda x: ms.ops.cat((x[:, -1:], x[:, :-1]), 1))),
]


def value(arg):
    """A recorded argument as MindSpore's."""
    if isinstance(arg, dict):
        if "tensor" in arg:
            return ms.Tensor(np.array(arg["tensor"], arg["dtype"]))
        if "dtype" in arg:
            return getattr(ms, arg["dtype"])
        return tuple(value(a) for a in arg["tuple"])
    if isinstance(arg, list):
        return [value(a) for a in arg]
    return arg


def record(out):
    """A result as the fixture keeps it."""
    if isinstance(out, (tuple, list)):
        return {"sequence": [record(o) for o in out]}
    if isinstance(out, ms.Tensor):
        return {"values": out.asnumpy().tolist(), "dtype": str(out.dtype).lower(),
                "shape": list(out.shape)}
    return {"scalar": out, "type": type(out).__name__}


class _Call(nn.Cell):
    def __init__(self, op, args):
        super().__init__()
        self.op, self.args = op, args

    def construct(self):
        return self.op(*self.args)


def _run_class(cls, init, args):
    op = getattr(gen_ops_prim, cls)(**{k: value(v) for k, v in init.items()})
    try:
        ms.set_context(mode=ms.PYNATIVE_MODE)
        return "pynative", record(op(*[value(a) for a in args]))
    except RuntimeError:  # no PyNative kernel on this CPU build: a graph may have one
        ms.set_context(mode=ms.GRAPH_MODE)
        try:
            return "graph", record(_Call(op, tuple(value(a) for a in args))())
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)


def _resolve(path):
    obj = ms
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def run(name, cls, init, args, reference):
    case = {"name": name, "cls": cls, "init": init, "args": args}
    try:
        case["how"], case["out"] = _run_class(cls, init, args)
    except RuntimeError as exc:
        if reference is None:
            print(f"{name}: {cls} does not run on this CPU build and has no reference: "
                  f"{str(exc).strip().splitlines()[-1][:200]}")
            return None
        case["how"] = reference if isinstance(reference, str) else reference.__doc__
        try:
            function = _resolve(reference) if isinstance(reference, str) else reference
            case["out"] = record(function(*[value(a) for a in args]))
        except Exception as exc:  # noqa: BLE001 -- a reference to fix: said, and left out
            print(f"{name}: the reference fails: {type(exc).__name__}: {str(exc)[:200]}")
            return None
    except (TypeError, ValueError, IndexError) as exc:
        case["how"], case["raises"] = "pynative", type(exc).__name__
    return case


def main(out=OUT):
    cases = [case for case in (run(*c) for c in CASES) if case is not None]
    Path(out).write_text(json.dumps({"mindspore": ms.__version__, "cases": cases}, indent=0)
                         + "\n")
    print(f"{len(cases)} cases -> {out}")


if __name__ == "__main__":
    main(*sys.argv[1:])
