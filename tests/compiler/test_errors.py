"""User errors in graph mode: the exception type, the whole message, and where it points (this
file, the line, the source text and a caret under the failing construct)."""
from __future__ import annotations

import collections
import inspect

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops
from cellgraph.primitives.errors import (
    ArgumentError,
    CellgraphError,
    CompileError,
    DTypeError,
    IndexValueError,
    ShapeError,
    SyntaxTypeError,
)

X = Tensor(np.ones((2, 3), np.float32))
Y = Tensor(np.ones((4, 3), np.float32))


def expect_error(exc_type, call, message, owner, line_snippet, caret_at=None):
    """`call()` raises `exc_type` whose text is `message` and then the location of the line of
    `owner`'s source containing `line_snippet`, with the caret under `caret_at`."""
    with pytest.raises(exc_type) as info:
        call()
    err = info.value
    assert isinstance(err, CellgraphError)
    lines, first = inspect.getsourcelines(owner)
    index = next(i for i, text in enumerate(lines) if line_snippet in text)
    stripped = lines[index].strip()
    col = stripped.index(caret_at if caret_at is not None else stripped)
    where = (f"  In file {__file__}:{first + index}\n"
             f"    {stripped}\n"
             f"    {' ' * col}^")
    assert str(err) == f"{message}\n{where}"
    assert (err.loc.filename, err.loc.line) == (__file__, first + index)
    return err


# ----- unsupported syntax ---------------------------------------------------------------------

class WithTry(nn.Cell):
    def construct(self, x):
        try:
            y = x + 1
        except ValueError:
            y = x
        return y


class WithYield(nn.Cell):
    def construct(self, x):
        yield x


class WithDel(nn.Cell):
    def construct(self, x):
        y = x * 2
        del y
        return x


class WithGlobal(nn.Cell):
    def construct(self, x):
        global X
        X = x
        return x


class ReadsGlobal(nn.Cell):
    def construct(self, x):
        global Y  # noqa: PLW0602
        return x + Y.sum()


def test_global_statement_reads_the_module_value():
    # MindSpore 2.10 takes the statement and reads the module's value
    assert ReadsGlobal()(X).asnumpy().tolist() == [[13.0] * 3] * 2


class WithWith(nn.Cell):
    def construct(self, x):
        with open(__file__):
            x = x + 1
        return x


class WithImport(nn.Cell):
    def construct(self, x):
        import math
        return x * math.pi


class WithAttributeAssignment(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:
            self.cache = x
        return x


class WithGenerator(nn.Cell):
    def construct(self, x):
        return tuple(v * 2 for v in (x, x))


@pytest.mark.parametrize("cell, snippet, message", [
    (WithTry, "try:", ("`try` statements are not supported in graph mode; handle errors outside "
                       "construct, or run the Cell in PYNATIVE_MODE")),
    (WithYield, "yield x", ("generators (`yield`) are not supported in graph mode; build a tuple "
                            "or list")),
    (WithDel, "del y", "`del` is not supported in graph mode; rebind the name instead"),
    (WithGlobal, "X = x", ("assigning the global `X` is not supported in graph mode; return the "
                           "new value and assign it outside the graph")),
    (WithImport, "import math", ("`import` is not supported inside construct; import at module "
                                 "level")),
], ids=lambda v: v.__name__ if isinstance(v, type) else "")
def test_unsupported_statements(cell, snippet, message):
    err = expect_error(CompileError, lambda: cell()(X), message, cell, snippet)
    assert isinstance(err, SyntaxError)


def test_with_on_an_object_that_is_not_a_jit_class_is_a_type_error():
    expect_error(ArgumentError, lambda: WithWith()(X),
                 "`with` in graph mode takes an object of a class decorated with @jit_class or "
                 "an nn.Cell, not TextIOWrapper; move the context manager outside construct",
                 WithWith, "with open", caret_at="open")


def test_assignment_to_attribute_is_a_compile_error():
    expect_error(CompileError, lambda: WithAttributeAssignment()(X),
                 "assigning to attribute `cache` in graph mode is only supported for "
                 "Parameters, and for Tensor values outside a Tensor-dependent branch or loop; "
                 "set it in __init__ or return the value",
                 WithAttributeAssignment, "self.cache = x")


def test_generator_expression_is_evaluated_to_a_list():
    out = WithGenerator()(X)
    assert isinstance(out, tuple) and len(out) == 2
    np.testing.assert_allclose(out[1].asnumpy(), X.asnumpy() * 2)


class ListOfPairs(nn.Cell):
    def construct(self, x):
        return [a * b for a in (1, 2) for b in (3, 4)]


class DictOfDicts(nn.Cell):
    def construct(self, x):
        return {k: v for d in ({"a": 1}, {"b": 2}) for k, v in d.items()}


@pytest.mark.parametrize("cell, kind, snippet", [
    (ListOfPairs, "ListComp", "return ["), (DictOfDicts, "DictComp", "return {")])
def test_a_comprehension_takes_one_for(cell, kind, snippet):
    # MindSpore 2.10's parser refuses more than one `for` in a comprehension with this TypeError
    expect_error(SyntaxTypeError, lambda: cell()(X),
                 f"The 'generators' supports 1 'comprehension' in {kind}/GeneratorExp, but got "
                 f"2 comprehensions.", cell, snippet, caret_at=snippet[7:])


def test_pynative_mode_runs_what_graph_mode_rejects():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(WithTry()(X).asnumpy(), np.full((2, 3), 2.0, np.float32))


# ----- names and arguments --------------------------------------------------------------------

class UndefinedName(nn.Cell):
    def construct(self, x):
        return x + undefined_scale  # noqa: F821


def test_undefined_name():
    err = expect_error(NameError, lambda: UndefinedName()(X),
                       "The name 'undefined_scale' is not defined, or not supported in graph "
                       "mode.", UndefinedName,
                       "undefined_scale", "undefined_scale")
    assert type(err).__name__ == "NameError"  # as MindSpore raises it


class TwoInputs(nn.Cell):
    def construct(self, x, y):
        return x + y


def test_wrong_number_of_arguments_to_construct():
    expect_error(ArgumentError, lambda: TwoInputs()(X),
                 "TwoInputs.construct() missing a required argument: 'y'; expected 2 positional "
                 "arguments (x, y), got 1", TwoInputs, "def construct")
    err = expect_error(ArgumentError, lambda: TwoInputs()(X, X, X),
                       "TwoInputs.construct() too many positional arguments; expected 2 "
                       "positional arguments (x, y), got 3", TwoInputs, "def construct")
    assert isinstance(err, TypeError)


def affine(x, w, b=0.0, *, scale=1.0):
    return (x * w + b) * scale


class HelperMissingArgument(nn.Cell):
    def construct(self, x):
        return affine(x)


class HelperTooMany(nn.Cell):
    def construct(self, x):
        return x - affine(x, 2.0, 1.0, 3.0)


class HelperBadKeyword(nn.Cell):
    def construct(self, x):
        return affine(x, 2.0, shift=1.0)


class MethodMissingArgument(nn.Cell):
    def scaled(self, x, factor):
        return x * factor

    def construct(self, x):
        return self.scaled(x)


@pytest.mark.parametrize("cell, message, snippet, caret_at", [
    (HelperMissingArgument, ("affine() missing a required argument: 'w'; expected 3 positional "
                             "arguments (x, w, b=0.0), got 1"), "return affine(x)", "affine("),
    (HelperTooMany, ("affine() too many positional arguments; expected 3 positional arguments "
                     "(x, w, b=0.0), got 4"), "affine(x, 2.0, 1.0, 3.0)", "affine("),
    (HelperBadKeyword, ("affine(): Got an unexpected keyword argument 'shift'; expected 3 "
                        "positional arguments (x, w, b=0.0), got 2"), "shift=1.0", "affine("),
    (MethodMissingArgument, ("MethodMissingArgument.scaled() missing a required argument: "
                             "'factor'; expected 2 positional arguments (x, factor), got 1"),
     "return self.scaled(x)", "self.scaled"),
], ids=lambda v: v.__name__ if isinstance(v, type) else "")
def test_wrong_arguments_to_a_helper_point_at_the_call(cell, message, snippet, caret_at):
    expect_error(ArgumentError, lambda: cell()(X), message, cell, snippet, caret_at)


# ----- shapes ---------------------------------------------------------------------------------

class MatMulNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.matmul = ops.MatMul()

    def construct(self, x, y):
        x = x * 2
        out = self.matmul(x, y)
        return out


MATMUL_MESSAGE = ("For 'MatMul' the input dimensions must be equal, but got 'x1_col': 3 and "
                  "'x2_row': 4 (shapes (2, 3) and (4, 3)).")  # MindSpore's words, then the shapes


def test_matmul_shape_mismatch_at_compile_time():
    err = expect_error(ShapeError, lambda: MatMulNet()(X, Y), MATMUL_MESSAGE, MatMulNet,
                       "out = self.matmul(x, y)", "self.matmul")
    assert isinstance(err, ValueError)
    # the type rules find it while compiling: no kernel has to run
    expect_error(ShapeError, lambda: ms.dump_ir(MatMulNet(), X, Y, stage="parse"),
                 MATMUL_MESSAGE, MatMulNet, "out = self.matmul(x, y)", "self.matmul")


def test_matmul_shape_mismatch_with_transpose_flag_says_so():
    class Transposed(nn.Cell):
        def __init__(self):
            super().__init__()
            self.matmul = ops.MatMul(transpose_b=True)

        def construct(self, x, y):
            return self.matmul(x, y)

    expect_error(ShapeError, lambda: Transposed()(X, X.T),
                 "For 'MatMul' the input dimensions must be equal, but got 'x1_col': 3 and "
                 "'x2_row': 2 (shapes (2, 3) and (3, 2), transpose_b=True).",
                 Transposed, "return self.matmul(x, y)", "self.matmul")


class BroadcastNet(nn.Cell):
    def construct(self, x, y):
        z = ops.exp(x)
        return z * 2 + y


class ReshapeNet(nn.Cell):
    def construct(self, x):
        return ops.reshape(x, (4, 4))


class IndexNet(nn.Cell):
    def construct(self, x):
        row = x[5]
        return row


@pytest.mark.parametrize("cell, args, message, snippet, caret_at", [
    (BroadcastNet, (X, Y), "Add: shapes (2, 3), (4, 3) cannot be broadcast together",
     "return z * 2 + y", "z * 2 + y"),
    (ReshapeNet, (X,), ("Reshape: cannot reshape a tensor of shape (2, 3) (6 elements) into shape "
                        "(4, 4)"), "ops.reshape(x, (4, 4))", "ops.reshape"),
], ids=lambda v: v.__name__ if isinstance(v, type) else "")
def test_shape_errors_name_the_op_and_shapes(cell, args, message, snippet, caret_at):
    expect_error(ShapeError, lambda: cell()(*args), message, cell, snippet, caret_at)


def test_an_index_out_of_range_is_an_index_error_as_in_mindspore():
    expect_error(IndexError, lambda: IndexNet()(X), "GetItem: index (5,) does not fit a tensor "
                 "of shape (2, 3): index 5 is out of bounds for axis 0 with size 2", IndexNet,
                 "row = x[5]", "x[5]")


def inner_helper(x, y):
    scaled = x * 3
    return ops.matmul(scaled, y)


class ErrorInHelper(nn.Cell):
    def construct(self, x, y):
        return inner_helper(x, y) + 1


def test_error_inside_a_helper_points_into_the_helper():
    # ops.matmul is MindSpore's MatMulExt: its words, and its RuntimeError (a ShapeError too)
    expect_error(RuntimeError, lambda: ErrorInHelper()(X, Y),
                 "For 'MatMulExt' op, shape1[-1] must be equal to shape2[-2], but got 3 and 4 "
                 "(shapes (2, 3) and (4, 3)).", inner_helper, "return ops.matmul(scaled, y)",
                 "ops.matmul")


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = MatMulNet()

    def construct(self, x, y):
        return self.inner(x, y)


def test_error_inside_a_sub_cell_points_into_the_sub_cell():
    expect_error(ShapeError, lambda: Outer()(X, Y), MATMUL_MESSAGE, MatMulNet,
                 "out = self.matmul(x, y)", "self.matmul")


# ----- non-Tensor operands --------------------------------------------------------------------

class ExpOfString(nn.Cell):
    def construct(self, x):
        return ops.exp("a")


class MatMulWithNone(nn.Cell):
    def __init__(self):
        super().__init__()
        self.matmul = ops.MatMul()

    def construct(self, x):
        return self.matmul(x, None)


class AddList(nn.Cell):
    def construct(self, x):
        return ops.add(x, [1.0, "b"])


@pytest.mark.parametrize("cell, message, snippet, caret_at", [
    (ExpOfString, ('Failed calling Exp with "Exp()(input=string)".\nThe valid calling should '
                   'be: \n"Exp()(input=<Number, Tensor>)".\nExp: expected a Tensor or a number '
                   "for input 1, got str 'a'"),
     'ops.exp("a")', "ops.exp"),
    (MatMulWithNone, "MatMul: expected a Tensor or a number for input 2, got NoneType None",
     "self.matmul(x, None)", "self.matmul"),
    (AddList, ('Failed calling Add with "Add()(input=Tensor, other=list)".\nThe valid calling '
               'should be: \n"Add()(input=<Number, Tensor>, other=<Number, Tensor>)".\nAdd: '
               "expected a Tensor or a number for input 2, got list [1.0, 'b']"),
     "ops.add(x, [1.0", "ops.add"),
], ids=lambda v: v.__name__ if isinstance(v, type) else "")
def test_non_tensor_operands(cell, message, snippet, caret_at):
    err = expect_error(DTypeError, lambda: cell()(X), message, cell, snippet, caret_at)
    assert isinstance(err, TypeError)


def test_non_tensor_operands_in_pynative_mode_name_the_op():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    with pytest.raises(DTypeError) as info:
        ops.exp("a")
    # MindSpore's words first, then which operand it is
    assert str(info.value) == ('Failed calling Exp with "Exp()(input=string)".\nThe valid calling '
                               'should be: \n"Exp()(input=<Number, Tensor>)".\nExp: expected a '
                               "Tensor or a number for input 1, got str 'a'")
    with pytest.raises(DTypeError) as info:
        ops.MatMul()(X, None)
    assert str(info.value) == "MatMul: expected a Tensor or a number for input 2, got NoneType None"


class ItemAssignment(nn.Cell):
    def construct(self, x, i):
        x[i, i] = 1.0
        return x


def test_item_assignment_at_float_tensor_indices_in_a_graph():
    expect_error(IndexValueError, lambda: ItemAssignment()(X, Tensor(np.float32(0))),
                 "For 'tensor setitem', the index tensor data type 'Float32' is not supported.",
                 ItemAssignment, "x[i, i] = 1.0", "x[i, i]")


class ReadsMissingAttribute(nn.Cell):
    def construct(self, x):
        return self.missing + x


class CallsMissingTensorMethod(nn.Cell):
    def construct(self, x):
        return x.abs2()


class GetattrMissingTensorMethod(nn.Cell):
    def construct(self, x):
        return getattr(x, "abs2")()  # noqa: B009 (the builtin is what is under test)


class ReadsShapeOfTuple(nn.Cell):
    def construct(self, x):
        return (1, 2).shape


class ReadsShapeOfInt(nn.Cell):
    def construct(self, x):
        return (3).shape


_Point = collections.namedtuple("_Point", ["x", "y"])


class ReadsFieldOfNamedTuple(nn.Cell):
    def construct(self, x):
        point = _Point(1, 2)
        return point.z


@pytest.mark.parametrize("cell, snippet, message", [
    (ReadsMissingAttribute, "self.missing",
     "'ReadsMissingAttribute' object has no attribute 'missing'"),
    (CallsMissingTensorMethod, "x.abs2()", "'Tensor' object has no attribute 'abs2'"),
    (GetattrMissingTensorMethod, "getattr(x", "'Tensor' object has no attribute 'abs2'"),
    (ReadsShapeOfTuple, "(1, 2).shape", "'Tuple' object has no attribute 'shape'"),
    (ReadsShapeOfInt, "(3).shape", "'Int' object has no attribute 'shape'"),
    (ReadsFieldOfNamedTuple, "point.z", "'NamedTuple' object has no attribute 'z'"),
], ids=lambda v: v.__name__ if isinstance(v, type) else "")
def test_a_missing_attribute_is_an_attribute_error(cell, snippet, message):
    """MindSpore raises AttributeError (caught by `except AttributeError`) for an attribute
    construct reads that its object lacks, naming the object's type as its graphs name it (a
    graph value is a Tensor, a tuple a Tuple, an int an Int, a namedtuple a NamedTuple)."""
    err = expect_error(AttributeError, lambda: cell()(X), message, cell, snippet, snippet)
    assert type(err).__name__ == "AttributeError"


class _HoldsX(nn.Cell):
    def __init__(self):
        super().__init__()
        self.x = 0

    def construct(self, x):
        return x


class AssignsThroughAnItem(nn.Cell):
    def __init__(self):
        super().__init__()
        self.cells = nn.CellList([_HoldsX()])

    def construct(self, x):
        self.cells[0].x = x
        return x


def test_assigning_an_attribute_of_an_item_is_mindspores_runtime_error():
    err = expect_error(CompileError, lambda: AssignsThroughAnItem()(X),
                       "In graph mode, only attribute and name of class members can be "
                       "assigned. But got Subscript.", AssignsThroughAnItem,
                       "self.cells[0].x = x")
    assert isinstance(err, RuntimeError)


class _ScalarDivisions(nn.Cell):
    def __init__(self, which):
        super().__init__()
        self.which = which

    def construct(self, x):
        if self.which == "div":
            return x + 5 / 0
        if self.which == "floordiv":
            return x + 5 // 0
        if self.which == "mod":
            return x + 5.0 % 0
        y = 3
        y /= 0
        return x + y


@pytest.mark.parametrize("which, message", [
    ("div", "The divisor could not be zero. But the divisor is zero now."),
    ("floordiv", "The divisor could not be zero. But the divisor is zero now."),
    ("mod", "Cannot perform modulo operation on zero."),
    ("augmented", "The divisor could not be zero. But the divisor is zero now.")])
def test_python_numbers_divided_by_zero_raise_mindspores_value_error(which, message):
    # MindSpore 2.10: ValueError with these words, from its scalar operations' checks
    with pytest.raises(ValueError, match=message):
        _ScalarDivisions(which)(Tensor(np.int32(2)))


class _SliceBy(nn.Cell):
    def __init__(self, bound):
        super().__init__()
        self.bound = bound

    def construct(self, x):
        return x[1:self.bound], (1, 2, 3)[self.bound:]


@pytest.mark.parametrize("bound, kind", [(2.5, "Float32"), ("a", "String")])
def test_a_slice_bound_that_is_not_an_int_or_bool_is_a_type_error(bound, kind):
    # MindSpore 2.10's MakeSlice check: TypeError; a bool bound is an int
    with pytest.raises(TypeError, match=f"Slice indices must be integers or bool. But got a "
                                        f"{kind} number."):
        _SliceBy(bound)(Tensor(np.array([8, 10, 12], np.int32)))
    out, items = _SliceBy(True)(Tensor(np.array([8, 10, 12], np.int32)))
    assert out.asnumpy().tolist() == [] and items == (2, 3)


class _NotAGraphError(Exception):
    pass


class _Raises(nn.Cell):
    def __init__(self, which):
        super().__init__()
        self.which = which

    def construct(self, x):
        if self.which == "UserWarning":
            raise UserWarning("no")
        if self.which == "custom":
            raise _NotAGraphError("no")
        if self.which == "local":
            err = ValueError("local")
            raise err
        raise RuntimeWarning("warned")


@pytest.mark.parametrize("which, name", [("UserWarning", "UserWarning"),
                                         ("custom", "_NotAGraphError")])
def test_raise_of_a_type_graphs_do_not_raise_is_mindspores_runtime_error(which, name):
    # MindSpore 2.10's parser: only its list of Python exception types, or a local variable
    with pytest.raises(RuntimeError, match=f"Unsupported exception type: {name}. Raise only "
                                           f"support some Python standard exception types: "
                                           f"AssertionError, AttributeError, BaseException"):
        _Raises(which)(Tensor(np.int32(1)))
    with pytest.raises(ValueError, match="local"):
        _Raises("local")(Tensor(np.int32(1)))
    with pytest.raises(RuntimeWarning, match="warned"):
        _Raises("other")(Tensor(np.int32(1)))


def test_constant_sequence_index_len_and_truth_errors_have_mindspores_words():
    # MindSpore 2.10's errors for these in a graph
    pair, items = (1, 2), [1, 2]
    calls = [
        (lambda: pair[-3], IndexError,
         "TupleGetItem evaluator index should be in range[-2, 2), but got -3."),
        (lambda: pair[2], IndexError,
         "TupleGetItem evaluator index should be in range[-2, 2), but got 2."),
        (lambda: items[5], IndexError,
         "list_getitem evaluator index should be in range[-2, 2), but got 5."),
        (lambda: len(Tensor(np.int32(1))), TypeError, "Not support len of a 0-D tensor."),
        (lambda: bool(Tensor(np.array([1, 2, 3]))), ValueError,
         "The truth value of an array with more than one element is ambiguous.")]
    for call, error, message in calls:
        with pytest.raises(error) as info:
            ms.jit(call)()
        assert str(info.value).startswith(message)
    assert ms.jit(lambda: ((1, 2)[-2], bool(Tensor(np.array([3])))))() == (1, True)


class _RaiseConstant(nn.Cell):
    def __init__(self, args):
        super().__init__()
        self.args = args

    def construct(self):
        raise ValueError(*self.args)


@pytest.mark.parametrize("args, text", [
    (([1, 2.0], [[1, 2.0], [1, 2.0]]), "([1, 2], [[1, 2], [1, 2]])"),
    (((1, 2.0, "a"),), "(1, 2, a)"), ((1.23456789,), "1.23457"), ((1e20,), "1e+20"),
    ((False,), "false"), ((7,), "7")])
def test_a_constant_raise_writes_its_values_as_mindspore_does(args, text):
    # MindSpore 2.10's messages for these raises in construct
    with pytest.raises(ValueError) as info:
        _RaiseConstant(args)()
    assert str(info.value).startswith(f"ValueError: {text}\n")


def test_a_constant_raise_with_a_string_argument_keeps_pythons_words():
    with pytest.raises(ValueError, match=r"\('test_string_tuple', \(1, 2\)\)"):
        _RaiseConstant(("test_string_tuple", (1, 2)))()


# ----- the API layer's own checks and Python's refusal of a call, inside a graph --------------

def test_an_api_check_keeps_its_error_type_in_a_graph():
    # MindSpore 2.10 raises ValueError for ops.norm(x, 0) on a matrix and TypeError for a list
    # `dim`, in PyNative and inside jit alike; neither is a fault of the compiler's
    with pytest.raises(ValueError, match="For norm, the ord mode must be in") as info:
        ms.jit(lambda x: ops.norm(x, 0))(X)
    assert not isinstance(info.value, CompileError)
    with pytest.raises(TypeError, match="For norm, the dim should be int or tuple of int"):
        ms.jit(lambda x: ops.norm(x, dim=[0, 1]))(X)
    with pytest.raises(TypeError, match="unexpected keyword argument 'keep_dims'") as info:
        ms.jit(lambda x: ops.Argmax(axis=1, keep_dims=True)(x))(X)
    assert not isinstance(info.value, CompileError)


def test_an_unknown_keyword_or_a_missing_argument_of_an_api_call_in_a_graph():
    # MindSpore 2.10's graph compiler raises RuntimeError for ops.sum(x, keepdims=True) ("Got an
    # unexpected keyword argument 'keepdims'") and ops.logsumexp(x) ("Miss argument input for
    # parameter:dim"); Python raises TypeError for both
    for call, words in [(lambda x: ops.sum(x, keepdims=True), "keepdims"),
                        (lambda x: ops.logsumexp(x), "missing 1 required")]:
        for error in (RuntimeError, TypeError):
            with pytest.raises(error, match=words):
                ms.jit(call)(X)
