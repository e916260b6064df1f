"""The front end: a partial evaluator over the gast AST of `construct` and what it calls.

Python-level values (constants, attributes of `self`, sub-Cells, tuples, lists, dicts,
functions, closures) are evaluated at compile time; only Tensor computations reach the graph,
through `bind`. So resolving names, inlining helpers, unrolling static loops and folding
constant `if`s all happen while parsing, and the graph that comes out is specialised to the
argument types. `if`/`while` on a Tensor become `switch`/`while_loop` nodes (control_flow.py).

One visitor method per supported construct; what is not supported is listed in UNSUPPORTED
with the message the user reads.
"""
from __future__ import annotations

import builtins
import functools
import inspect
import numbers
import operator
import os
import re
import sys
import types
import weakref

import gast
import numpy as np

from cellgraph._check_jit_forbidden_api import (
    forbidden_call,
    forbidden_instance,
    forbidden_method,
)
from cellgraph.primitives.composite_setitem import tensor_setitem
from cellgraph.primitives.errors import (
    ArgumentError,
    ArgumentValueError,
    AttributeLookupError,
    CellgraphError,
    CompileError,
    DTypeError,
    IndexValueError,
    ShapeError,
    SourceLoc,
    SyntaxTypeError,
    UnboundNameError,
    UndefinedNameError,
)

from . import builder as _builder
from . import (
    choice,
    control_flow,
    definedness,
    dynamic_sequence,
    effects,
    graph_dict,
    loop_exits,
    member_subscript,
    print_op,
    py_func_op,  # noqa: F401  (declares ops.Custom's primitive)
    pynative_indexing,
    recursion,
    runtime_optional,
    scalar_bitwise,
    sequence_builtins,
    summary_op,  # noqa: F401  (declares the summary operations' primitive)
)
from .builder import AssignedConstant, Tracer, current_builder, is_parameter, is_tensor_like
from .compile_context import CALL_DEPTH, LAX
from .constant_condition import known_condition
from .guards import STATE, record_code_globals, record_function, record_guard
from .method_calls import check_method_call
from .pytree import RuntimeString
from .scope import (
    BreakSignal,
    Closure,
    ContinueSignal,
    ReturnSignal,
    Scope,
    array_number,
    bind_arguments,
    is_cell,
    is_compile_time_object,
    is_guarded_owner,
    is_jit_class,
    is_unparsed_user_function,
    is_user_function,
    mark_compile_time_object,
    parameter_list,
    tracer_isinstance,
    tracer_number,
    tracer_type,
    unexpected_keyword,
    user_error,
    user_property_getter,
    written_by_user,
)
from .source import SourceInfo, function_ast

UNSUPPORTED = {
    gast.Try: "`try` statements are not supported in graph mode; handle errors outside "
              "construct, or run the Cell in PYNATIVE_MODE",
    gast.Delete: "`del` is not supported in graph mode; rebind the name instead",
    gast.Nonlocal: "`nonlocal` is not supported in graph mode; return the new value instead",
    gast.Yield: "generators (`yield`) are not supported in graph mode; build a tuple or list",
    gast.YieldFrom: "generators (`yield from`) are not supported in graph mode",
    gast.Await: "`await` is not supported in graph mode",
    gast.AsyncFunctionDef: "async functions are not supported in graph mode",
    gast.ClassDef: "class definitions are not supported inside construct; define the class "
                   "at module level",
    gast.Import: "`import` is not supported inside construct; import at module level",
    gast.ImportFrom: "`import` is not supported inside construct; import at module level",
    gast.SetComp: "set comprehensions are not supported in graph mode",
    gast.Set: "sets are not supported in graph mode; use a tuple",
}

BINOPS = {gast.Add: operator.add, gast.Sub: operator.sub, gast.Mult: operator.mul,
          gast.Div: operator.truediv, gast.FloorDiv: operator.floordiv, gast.Mod: print_op.modulo,
          gast.Pow: operator.pow, gast.MatMult: operator.matmul,
          gast.BitAnd: scalar_bitwise.bit_and, gast.BitOr: scalar_bitwise.bit_or,
          gast.BitXor: scalar_bitwise.bit_xor, gast.LShift: scalar_bitwise.left_shift,
          gast.RShift: scalar_bitwise.right_shift}
# MindSpore's words when a division of Python numbers in a graph has a zero divisor (its scalar
# operations' checks, ValueError)
ZERO_DIVISOR = {gast.Div: "The divisor could not be zero. But the divisor is zero now.",
                gast.FloorDiv: "The divisor could not be zero. But the divisor is zero now.",
                gast.Mod: "Cannot perform modulo operation on zero."}
CMPOPS = {gast.Eq: operator.eq, gast.NotEq: operator.ne, gast.Lt: operator.lt,
          gast.LtE: operator.le, gast.Gt: operator.gt, gast.GtE: operator.ge,
          gast.Is: runtime_optional.identical, gast.IsNot: runtime_optional.not_identical,
          gast.In: choice.contains,
          gast.NotIn: lambda a, b: control_flow.logical_not(choice.contains(a, b))}
# the exception types a graph raises (MindSpore's exception_types_map)
RAISE_TYPES = frozenset({
    "IndexError", "ValueError", "TypeError", "KeyError", "AttributeError", "NameError",
    "AssertionError", "BaseException", "KeyboardInterrupt", "Exception", "StopIteration",
    "OverflowError", "ZeroDivisionError", "EnvironmentError", "IOError", "OSError",
    "MemoryError", "UnboundLocalError", "RuntimeError", "NotImplementedError",
    "IndentationError", "RuntimeWarning"})
MAX_INLINE_DEPTH = 200
MAX_STATIC_ITERATIONS = 100_000


def _with_graph_text(exc):
    """`exc` raised with its arguments written as MindSpore's graphs write a constant raise's:
    floats to six significant digits (2.0 is 2), bools true/false, strings in tuples and lists
    unquoted, several arguments as one tuple. Exceptions with a string argument, or holding
    other values, keep Python's words (as MindSpore's mostly match)."""
    args = exc.args
    if not args or any(isinstance(a, str) for a in args) or \
            not all(_graph_text_value(a) for a in args) or type(exc).__name__ not in RAISE_TYPES:
        return exc
    text = _graph_text(args[0]) if len(args) == 1 else \
        "(" + ", ".join(_graph_text(a) for a in args) + ")"
    return type(exc)(text)


def _graph_text_value(value) -> bool:
    if isinstance(value, (tuple, list)):
        return all(_graph_text_value(v) for v in value)
    return isinstance(value, (bool, int, float, str)) or value is None


def _graph_text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, tuple):
        return "(" + ", ".join(_graph_text(v) for v in value) + ")"
    if isinstance(value, list):
        return "[" + ", ".join(_graph_text(v) for v in value) + "]"
    return str(value)


def binop(op, left, right):
    """`left <op> right` (op a gast operator). Python numbers divided by zero raise MindSpore's
    ValueError, as its scalar operations check the divisor while the graph is built."""
    try:
        return BINOPS[type(op)](left, right)
    except ZeroDivisionError:
        if type(op) in ZERO_DIVISOR and all(isinstance(v, numbers.Number)
                                            for v in (left, right)):
            raise ArgumentValueError(ZERO_DIVISOR[type(op)]) from None
        raise


# the package's own files: its construct code may use what MindSpore's parser refuses a user
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_CONDITION_COMMENT = re.compile(r"#\s*@jit\.cond:\s*(True|False)\s*$")


def _condition_comment(loc) -> bool | None:
    """The value a `# @jit.cond: True|False` comment on the line at `loc` gives its `if`."""
    match = _CONDITION_COMMENT.search(loc.text) if loc is not None and loc.text else None
    return None if match is None else match.group(1) == "True"


def _known_now(value) -> bool:
    """Whether `value` is known when compiling, with no graph value in it: a number, string,
    None, NumPy data, or a list, tuple or dict of such."""
    if isinstance(value, (bool, int, float, complex, str, bytes, type(None), np.ndarray,
                          np.generic)):
        return True
    if isinstance(value, (list, tuple)):
        return all(_known_now(v) for v in value)
    if isinstance(value, dict):
        return all(_known_now(k) and _known_now(v) for k, v in value.items())
    return False


# Python's exceptions that evaluating the user's code may raise: reported through user_error.
USER_ERRORS = (TypeError, ValueError, IndexError, KeyError, AttributeError, ZeroDivisionError)

class Interpreter:
    """Runs one function body over compile-time values and tracers."""

    def __init__(self, scope: Scope, info: SourceInfo, name: str):
        self.scope = scope
        self.info = info
        self.name = name
        self.loop_depth = 0  # static loops around the statement being run
        self.declared_globals: set = set()  # the names a `global` statement named

    # -- calling ----------------------------------------------------------------------------
    @staticmethod
    def call(fn, args, kwargs):
        """Call `fn` from graph code: interpret what we parse, call everything else."""
        if isinstance(fn, Closure):
            return Interpreter._run(fn.node, fn.info, fn.scope, fn.name, args, kwargs,
                                    fn.defaults, fn.kw_defaults, id(fn.scope))
        if isinstance(fn, choice.Choice):
            return fn.call(Interpreter.call, args, kwargs)
        if is_cell(fn):
            return fn._graph_call(args, kwargs)
        if is_jit_class(fn):
            return Interpreter.new_instance(fn, args, kwargs)
        if is_jit_class(type(fn)):
            call = next((k.__dict__["__call__"] for k in type(fn).__mro__
                         if "__call__" in k.__dict__), None)
            if call is None:  # MindSpore's error for it
                raise ArgumentValueError(f"MsClassObject: '{type(fn).__name__}' has no "
                                         f"__call__ function, please check the code.")
            if is_user_function(call):
                return Interpreter.call_function(call, (fn,) + tuple(args), kwargs)
        if inspect.ismethod(fn) and is_user_function(fn.__func__):
            if _binds_no_instance(fn):
                return Interpreter.call_function(fn.__func__, args, kwargs)
            return Interpreter.call_function(fn.__func__, (fn.__self__,) + tuple(args), kwargs)
        if is_user_function(fn):
            return Interpreter.call_function(fn, args, kwargs)
        if is_unparsed_user_function(fn):
            record_code_globals(fn, written_by_user)
        return fn(*args, **kwargs)

    @staticmethod
    def new_instance(user_class, args, kwargs):
        """`Cls(...)` of a jit_class inside construct: __init__ is parsed like any method, and
        the new object's attributes may be assigned while it is being built."""
        obj = user_class.__new__(user_class)
        mark_compile_time_object(obj)
        init = user_class.__init__
        if is_user_function(init):
            Interpreter.call_function(init, (obj,) + tuple(args), kwargs)
        else:
            init(obj, *args, **kwargs)
        return obj

    @staticmethod
    def call_function(fn, args, kwargs):
        node, info = function_ast(fn)
        cells = fn.__closure__ or ()
        free = {}
        for name, cell in zip(fn.__code__.co_freevars, cells):
            try:
                free[name] = cell.cell_contents
            except ValueError:
                continue
            _builder.note_outside(free[name])
        record_function(fn)
        scope = Scope(free, None, fn.__globals__)
        defaults = list(fn.__defaults__ or ())
        region = _builder.function_saved_hooks(fn) if _builder.function_saved_hooks else None
        if region is not None:  # register_saved_tensors_hooks: the body runs in its region
            with region:
                return Interpreter._run(node, info, scope, fn.__qualname__, args, kwargs,
                                        defaults, dict(fn.__kwdefaults__ or {}),
                                        tuple(map(id, cells)))
        # the closure cells tell apart functions made by one `def` over different free values
        return Interpreter._run(node, info, scope, fn.__qualname__, args, kwargs, defaults,
                                dict(fn.__kwdefaults__ or {}), tuple(map(id, cells)))

    @staticmethod
    def _run(node, info, parent, name, args, kwargs, defaults, kw_defaults, closure=()):
        if STATE.inline_depth >= CALL_DEPTH.limit:
            raise CompileError(f"Exceed function call depth limit {CALL_DEPTH.limit}, (function "
                               f"call depth: {STATE.inline_depth + 1}) while inlining {name}; "
                               f"set_recursion_limit (or set_context(max_call_depth=...)) "
                               f"raises it", info.loc(node))
        if STATE.inline_depth > MAX_INLINE_DEPTH:
            raise CompileError(f"calls nested more than {MAX_INLINE_DEPTH} deep while inlining "
                               f"{name}; a recursion on Python values that does not end?",
                               info.loc(node))

        def run_body(args, kwargs):
            return Interpreter._run_body(node, info, parent, name, args, kwargs, defaults,
                                         kw_defaults)

        return recursion.call(node, closure, name, args, kwargs, run_body)

    @staticmethod
    def _run_body(node, info, parent, name, args, kwargs, defaults, kw_defaults):
        try:
            local = bind_arguments(node.args, name, args, kwargs, defaults, kw_defaults)
        except ArgumentError as e:  # the entry point has no caller in the source: show its def
            raise e.with_loc(info.loc(node) if STATE.inline_depth == 0 else None)
        interp = Interpreter(Scope(local, parent, parent.globals if parent else {}), info, name)
        STATE.inline_depth += 1
        try:
            if isinstance(node, gast.Lambda):
                return interp.eval_lambda_body(node.body)
            try:
                interp.exec_block(node.body)
            except ReturnSignal as r:
                control_flow.check_returnable(r.value)
                return r.value
            return None
        except RecursionError:
            # Python's stack ran out while inlining: the user's recursion, not a compiler fault.
            # Building the error may itself need stack; a level nearer the top then tries again.
            raise CompileError(f"calls nested too deep while inlining {name} (depth "
                               f"{STATE.inline_depth}, Python's recursion limit "
                               f"{sys.getrecursionlimit()}); recursion in graph code must end "
                               f"within a few levels, or run it in PYNATIVE_MODE",
                               _caller_loc(info.loc(node))) from None
        finally:
            STATE.inline_depth -= 1

    # -- statements -------------------------------------------------------------------------
    def exec_block(self, stmts) -> None:
        stmts = loop_exits.lower_block(stmts)
        for i, stmt in enumerate(stmts):
            if isinstance(stmt, gast.If):
                if self.exec_stmt(stmt, rest=stmts[i + 1:]):
                    return  # the branches took the rest of the block with them
            else:
                self.exec_stmt(stmt)

    def exec_stmt(self, node, rest=()):
        visitor = getattr(self, "stmt_" + type(node).__name__, None)
        loc = self.info.loc(node)
        if visitor is None:
            raise CompileError(UNSUPPORTED.get(type(node), f"{type(node).__name__} statements "
                                               "are not supported in graph mode"), loc)
        builder = current_builder()
        call = (lambda: visitor(node, rest)) if isinstance(node, gast.If) else (
            lambda: visitor(node))
        try:
            if builder is None:
                return call()
            with builder.at(loc):
                return call()
        except (ReturnSignal, BreakSignal, ContinueSignal, effects.RaiseSignal):
            raise
        except CellgraphError as e:
            raise e.with_loc(loc)
        except USER_ERRORS as e:
            raise user_error(e, loc) from e

    def eval_lambda_body(self, body):
        """A lambda's body, its errors reported as a statement's are (see exec_stmt)."""
        loc = self.info.loc(body)
        try:
            return self.eval(body)
        except CellgraphError as e:
            raise e.with_loc(loc)
        except USER_ERRORS as e:
            raise user_error(e, loc) from e

    def stmt_Expr(self, node):
        receiver = member_subscript.method_receiver(node.value)
        if receiver is not None:
            self._check_member_subscripts([receiver])
        self.eval(node.value)

    def stmt_Pass(self, node):
        pass

    def stmt_Global(self, node):
        """`global x`: x reads the module's value, as it does without the statement (MindSpore
        takes the statement); a graph cannot rebind a module's name, so an assignment to x is
        refused (see assign)."""
        self.declared_globals.update(node.names)

    def stmt_Return(self, node):
        raise ReturnSignal(None if node.value is None else self.eval(node.value),
                           self.info.loc(node))

    def stmt_Break(self, node):
        raise BreakSignal()

    def stmt_Continue(self, node):
        raise ContinueSignal()

    def stmt_Assign(self, node):
        self._check_member_subscripts(s for t in node.targets
                                      for s in member_subscript.written_subscripts(t))
        value = self.eval(node.value)
        for target in node.targets:
            self.assign(target, value)

    def stmt_AnnAssign(self, node):
        if node.value is not None:
            self._check_member_subscripts(member_subscript.written_subscripts(node.target))
            self.assign(node.target, self.eval(node.value))

    def stmt_AugAssign(self, node):
        target = node.target
        self._check_member_subscripts(member_subscript.written_subscripts(target))
        current = self.eval(_as_load(target))
        self.assign(target, binop(node.op, current, self.eval(node.value)))

    def _check_member_subscripts(self, subscripts) -> None:
        """MindSpore's parse-time checks of item assignments into `self.x` (member_subscript)."""
        for subscript in subscripts:
            attr = member_subscript.member_of_self(subscript)
            if attr is None:
                continue
            try:
                owner = self.scope.lookup("self")
            except KeyError:
                return
            member_subscript.check_member_subscript(
                owner, attr, _builder.compile_context().syntax_level, self.info.loc(subscript))

    def stmt_FunctionDef(self, node):
        if node.decorator_list:
            raise CompileError("decorators on functions inside construct are not supported",
                               self.info.loc(node))
        self.scope.vars[node.name] = self._closure(node, node.name)

    def stmt_If(self, node, rest=()) -> bool:
        """Returns True when the statements after the `if` were run inside its branches.
        A `# @jit.cond: True` (or False) comment on the `if` line decides the condition at
        compile time, as in MindSpore, without evaluating it."""
        forced = _condition_comment(self.info.loc(node))
        test = forced if forced is not None else self.eval(node.test)
        if isinstance(test, Tracer):
            known = known_condition(test)
            if known is None:
                return control_flow.tensor_if(self, node, test, rest)
            test = known
        before = self._vars_before([node])
        taken = control_flow.truth(test)
        self.exec_block(node.body if taken else node.orelse)
        definedness.mark_constant_if(self.scope.vars, before, node, taken, self.info)
        return False

    def _vars_before(self, stmts) -> dict:
        """The local names before `stmts`, with the names they assign that are not local yet
        but have a value outside the function (a global, an enclosing function's local): that
        value is the name's on the paths that do not assign it (MindSpore's parser reads
        `z += i` in a loop over a global `z` from the global)."""
        before = dict(self.scope.vars)
        for name in definedness.assigned_names(stmts):
            if name not in before:
                value = self.scope.outer_value(name, definedness.ABSENT)
                if definedness.is_defined(value):
                    before[name] = value
        return before

    def _refuse_loop_else(self, node, kind: str) -> None:
        if node.orelse:  # MindSpore's parser refuses `for ... else` and `while ... else`
            raise CompileError(f"The '{kind}...else...' statement is not supported now.",
                               self.info.loc(node.orelse[0]))

    def stmt_For(self, node):
        self._refuse_loop_else(node, "for")
        before = self._vars_before([node])
        try:
            self._run_for(node)
        finally:
            definedness.mark_loop(self.scope.vars, before, node, "for", self.info)

    def _run_for(self, node):
        iterable = self.eval(node.iter)
        sequence = getattr(iterable, "runtime_sequence", None)
        if sequence is not None and sequence.items is None:
            return self._run_runtime_for(node, iterable)
        node, flags = loop_exits.lower_loop_exits(node)
        self.scope.vars.update(dict.fromkeys(flags, False))
        if isinstance(iterable, Tracer):
            iterable = self.at_node(node.iter, lambda: list(iterable))  # its rows
        self.loop_depth += 1
        try:
            for count, item in enumerate(iterable):
                if count > MAX_STATIC_ITERATIONS:
                    raise CompileError("a for loop unrolled past 100000 iterations",
                                       self.info.loc(node))
                self.assign(node.target, item)
                try:
                    self.exec_block(node.body)
                except BreakSignal:
                    return
                except ContinueSignal:
                    continue
        finally:
            self.loop_depth -= 1
        self.exec_block(node.orelse)

    def _run_runtime_for(self, node, sequence):
        """`for x in seq` over a sequence whose length is known only when the graph runs
        (`range(n)` of a mutable n, a dynamic-length list): a Tensor `while` over its
        positions, as MindSpore's graphs run it.

            for x in seq: body   ->   i = 0
                                      while i < len(seq): x = seq[i]; i = i + 1; body
        """
        tag = f"{id(node):x}"  # names no user code can write (they start with a dot)
        items, count, index = f".seq{tag}", f".len{tag}", f".i{tag}"
        self.scope.vars.update({items: sequence, count: sequence.runtime_sequence.length(), index: 0})

        def name(n, ctx=None):
            return gast.Name(n, ctx or gast.Load(), None, None)

        step = [gast.Assign([node.target], gast.Subscript(name(items), name(index),
                                                          gast.Load())),
                gast.Assign([name(index, gast.Store())],
                            gast.BinOp(name(index), gast.Add(), gast.Constant(1, None)))]
        loop = gast.While(gast.Compare(name(index), [gast.Lt()], [name(count)]),
                          [gast.copy_location(s, node) for s in step] + list(node.body), [])
        gast.copy_location(loop, node)
        for part in gast.walk(loop):
            if not hasattr(part, "lineno"):
                gast.copy_location(part, node)
        self.stmt_While(loop)

    def stmt_While(self, node):
        self._refuse_loop_else(node, "while")
        before = self._vars_before(node.body)
        try:
            self._run_while(node)
        finally:
            definedness.mark_loop(self.scope.vars, before, node, "while", self.info)

    def _run_while(self, node):
        node, flags = loop_exits.lower_loop_exits(node)
        self.scope.vars.update(dict.fromkeys(flags, False))
        test = self.eval(node.test)
        count = 0
        while not isinstance(test, Tracer):
            if not control_flow.truth(test):
                self.exec_block(node.orelse)
                return
            count += 1
            if count > MAX_STATIC_ITERATIONS:
                raise CompileError("a while loop on Python values ran past 100000 iterations "
                                   "while compiling", self.info.loc(node))
            self.loop_depth += 1
            try:
                self.exec_block(node.body)
            except BreakSignal:
                return
            except ContinueSignal:
                pass
            finally:
                self.loop_depth -= 1
            test = self.eval(node.test)
        control_flow.tensor_while(self, node)

    def stmt_Assert(self, node):
        test = self.eval(node.test)
        if isinstance(test, Tracer):
            # decided when the graph runs, as MindSpore does: `if test: pass` else raise
            # AssertionError(msg), the message made only on the failing side
            exc = gast.Call(func=gast.Constant(value=AssertionError, kind=None),
                            args=[node.msg] if node.msg is not None else [], keywords=[])
            check = gast.If(test=node.test, body=[gast.Pass()],
                            orelse=[gast.Raise(exc=exc, cause=None)])
            for part in gast.walk(check):
                if not isinstance(part, gast.expr_context):
                    gast.copy_location(part, node)
            control_flow.tensor_if(self, check, test, ())
            return
        if not test:
            msg = self.eval(node.msg) if node.msg is not None else ""
            raise AssertionError(f"{msg}\n{self.info.loc(node).render()}")

    def stmt_With(self, node):
        """`with obj as x:` on a jit_class object or a Cell, as MindSpore's graph mode has it:
        `x = obj.__enter__()`, the body, then `obj.__exit__(None, None, None)` (also when the
        body returns, breaks or continues); its methods are parsed like any method."""
        self._with_items(node, list(node.items))

    def _with_items(self, node, items):
        if not items:
            self.exec_block(node.body)
            return
        item = items[0]
        manager = self.eval(item.context_expr)
        kind = type(manager)
        if getattr(kind, "_enters_while_parsing", False):
            # a context manager of the compiler's own (saved_tensors_hooks): its methods run as
            # Python while the block is parsed, and act on the graph being built
            self._with_compile_time(node, items, item, manager)
            return
        if not (is_jit_class(kind) or is_cell(manager)):
            # a TypeError, as MindSpore's (its documentation allows a Cell too)
            raise ArgumentError(f"`with` in graph mode takes an object of a class decorated "
                                f"with @jit_class or an nn.Cell, not {kind.__name__}; move the "
                                f"context manager outside construct",
                                self.info.loc(item.context_expr))
        methods = {}
        for name in ("__enter__", "__exit__"):
            method = next((k.__dict__[name] for k in kind.__mro__ if name in k.__dict__), None)
            if method is None:
                raise ArgumentError(f"`with` needs {kind.__name__}.{name}, which it lacks",
                                    self.info.loc(item.context_expr))
            methods[name] = method
        entered = Interpreter.call(methods["__enter__"].__get__(manager), [], {})
        if item.optional_vars is not None:
            self.assign(item.optional_vars, entered)
        try:
            self._with_items(node, items[1:])
        except (ReturnSignal, BreakSignal, ContinueSignal):
            Interpreter.call(methods["__exit__"].__get__(manager), [None, None, None], {})
            raise
        Interpreter.call(methods["__exit__"].__get__(manager), [None, None, None], {})

    def _with_compile_time(self, node, items, item, manager):
        entered = self.at_node(item.context_expr, manager.__enter__)
        try:
            if item.optional_vars is not None:
                self.assign(item.optional_vars, entered)
            self._with_items(node, items[1:])
        finally:
            manager.__exit__(None, None, None)

    def stmt_Raise(self, node):
        self._check_exception_type(node.exc)
        exc = self.eval(node.exc) if node.exc is not None else RuntimeError(
            "No active exception to reraise")  # Python's words, as MindSpore's
        if isinstance(exc, type) and issubclass(exc, BaseException):
            exc = exc()
        builder = current_builder()
        if builder is not None and (builder.runs_conditionally or effects.holds_graph_values(exc)):
            # whether it is reached, or its message, is known only at run time
            effects.emit_raise(exc)
            raise effects.RaiseSignal()
        raise _with_graph_text(exc)

    def _check_exception_type(self, exc_node) -> None:
        """MindSpore's parser: `raise Name(...)` names a local variable or one of the Python
        exception types graphs raise (RAISE_TYPES); any other name is refused."""
        name_node = exc_node.func if isinstance(exc_node, gast.Call) else exc_node
        if not isinstance(name_node, gast.Name) or name_node.id in RAISE_TYPES:
            return
        scope = self.scope
        while scope is not None:
            if name_node.id in scope.vars:
                return
            scope = scope.parent
        raise CompileError(f"Unsupported exception type: {name_node.id}. Raise only support some "
                           f"Python standard exception types: {', '.join(sorted(RAISE_TYPES))}",
                           self.info.loc(exc_node))

    # -- assignment targets -----------------------------------------------------------------
    def assign(self, target, value) -> None:
        if isinstance(target, gast.Name):
            if target.id in self.declared_globals:
                raise CompileError(f"assigning the global `{target.id}` is not supported in "
                                   f"graph mode; return the new value and assign it outside "
                                   f"the graph", self.info.loc(target))
            self.scope.vars[target.id] = value
        elif isinstance(target, (gast.Tuple, gast.List)):
            items = _unpack(value, target.elts, self.info.loc(target))
            for t, v in zip(target.elts, items):
                self.assign(t.value if isinstance(t, gast.Starred) else t, v)
        elif isinstance(target, gast.Subscript):
            container = self.eval(target.value)
            index = self.eval(target.slice)
            if isinstance(container, Tracer) or is_tensor_like(container):
                # `x[i] = v` makes a new tensor and rebinds what `x` names (a variable, a
                # Parameter attribute, or an item of an enclosing tensor); a Parameter that a
                # name holds (an argument) is updated in place, as an attribute one is
                updated = self.at_node(target, lambda: tensor_setitem(container, index, value))
                if is_parameter(container) and not isinstance(target.value, gast.Attribute):
                    self.at_node(target, lambda: effects.assign_in_graph(container, updated))
                else:
                    self.assign(target.value, updated)
                    if isinstance(target.value, gast.Name):  # (y[i][j] = v rebinds y itself)
                        self.at_node(target, lambda: pynative_indexing.write_back(container,
                                                                                  updated))
            elif isinstance(container, list) and (
                    dynamic_sequence.has_runtime_bound(index) or (isinstance(index, slice) and
                    isinstance(value, dynamic_sequence.RuntimeSequence))):
                # the list becomes a dynamic-length one, which `target.value` names from now
                updated = dynamic_sequence.RuntimeSequence.of(container, "list_setitem")
                self.at_node(target, lambda: updated.__setitem__(index, value))
                self.assign(target.value, updated)
            elif isinstance(container, list) and isinstance(index, Tracer):
                self.at_node(target, lambda: dynamic_sequence.set_item_at(container, index,
                                                                          value))
            else:
                if isinstance(container, dict):
                    self.at_node(target, lambda: graph_dict.check_key(index, "dict_setitem"))
                container[index] = value
        elif isinstance(target, gast.Attribute):
            self.assign_attribute(target, value)
        else:
            raise CompileError(f"cannot assign to {type(target).__name__}", self.info.loc(target))

    def assign_attribute(self, target, value) -> None:
        """`obj.attr = value`: objects made during this compile take it; an object with a
        `_graph_setattr` hook (a Cell assigning one of its Parameters) handles it. The owner
        is named (`self.attr`, `obj.inner.attr`), as MindSpore requires: not an item or a call's
        result."""
        if not isinstance(target.value, (gast.Name, gast.Attribute)):
            raise CompileError(f"In graph mode, only attribute and name of class members can be "
                               f"assigned. But got {type(target.value).__name__}.",
                               self.info.loc(target))
        owner = self.eval(target.value)
        if is_compile_time_object(owner):
            setattr(owner, target.attr, value)
            return
        if is_parameter(owner):  # `self.weight.name = ...`: MindSpore's refusal, word for word
            raise ArgumentValueError("Do not support to set attribute for a parameter.",
                                     self.info.loc(target))
        setter = getattr(owner, "_graph_setattr", None)
        handled = setter is not None and self.at_node(target, lambda: setter(target.attr,
                                                                              value))
        if not handled and not effects.assign_attribute(owner, target.attr, value) and not (
                _known_now(value) and current_builder().record_attribute_constant(
                    owner, target.attr, value)):
            raise CompileError(f"assigning to attribute `{target.attr}` in graph mode is only "
                               f"supported for Parameters, and for Tensor values outside a "
                               f"Tensor-dependent branch or loop; set it in __init__ or return "
                               f"the value", self.info.loc(target))

    # -- expressions ------------------------------------------------------------------------
    def eval(self, node):
        visitor = getattr(self, "expr_" + type(node).__name__, None)
        if visitor is None:
            raise CompileError(UNSUPPORTED.get(type(node), f"{type(node).__name__} expressions "
                                               "are not supported in graph mode"),
                               self.info.loc(node))
        return visitor(node)

    def expr_Constant(self, node):
        return node.value

    def expr_Name(self, node):
        try:
            value = self.scope.lookup(node.id)
        except KeyError:
            raise UndefinedNameError(f"The name '{node.id}' is not defined, or not supported "
                                     f"in graph mode.", self.info.loc(node)) from None
        if not definedness.is_defined(value):
            raise UnboundNameError(value.message, self.info.loc(node))
        return value

    def expr_Attribute(self, node):
        obj = self.eval(node.value)
        builder = current_builder()
        assigned = builder and builder.assigned_attribute(obj, node.attr)
        if isinstance(assigned, AssignedConstant):  # after `obj.attr = 2` in this graph
            return assigned.value
        if assigned is not None:  # a read after `obj.attr = tensor` in this graph
            return assigned
        forbidden = forbidden_method(obj, node.attr)
        if forbidden is not None:  # a method MindSpore's graphs refuse on a Tensor or Parameter
            raise CompileError(forbidden, self.info.loc(node))
        if node.attr == "asnumpy" and isinstance(obj, Tracer) and \
                _builder.compile_context().syntax_level < LAX:
            raise AttributeLookupError(
                f"In JIT strict mode, cannot get attributes asnumpy or the Tensor["
                f"{obj.aval.dtype}] object has no attribute: 'asnumpy'. You can use "
                f"os.environ['MS_DEV_JIT_SYNTAX_LEVEL'] = '2' to enable the JIT lax mode to "
                f"support the current syntax.", self.info.loc(node))
        if isinstance(obj, dict) and node.attr in graph_dict.METHODS:  # the graph's own
            return graph_dict.method(obj, node.attr)
        getter = user_property_getter(obj, node.attr)
        if getter is not None:  # parsed like a method: its own reads are guarded one by one
            if is_guarded_owner(obj):
                record_guard(obj, node.attr, reread=False)
            return Interpreter.call_function(getter, (obj,), {})
        try:
            value = getattr(obj, node.attr)
        except AttributeError:
            if isinstance(obj, dict) and node.attr == "has_key":  # MindSpore's graphs have it
                return obj.__contains__
            raise AttributeLookupError(f"'{_graph_type_name(obj)}' object has no attribute "
                                       f"'{node.attr}'",
                                       self.info.loc(node)) from None
        if is_guarded_owner(obj):
            record_guard(obj, node.attr, value)
        if not isinstance(obj, Tracer):
            _builder.note_outside(value)
        if node.attr == "shape" and isinstance(value, tuple) and None in value and \
                isinstance(obj, Tracer):
            # a size known only when the graph runs: a variable scalar, as ops.shape gives it
            return dynamic_sequence.runtime_shape(obj)
        if _builder.parameter_forward_hook is not None and is_parameter(value):
            hook = _builder.parameter_forward_hook(value)
            if hook is not None:  # Cell.register_parameter_forward_hook: read as hook(value)
                return Interpreter.call_function(hook, (value,), {})
        return value

    def expr_Subscript(self, node):
        container, index = self.eval(node.value), self.eval(node.slice)
        if type(container) in (tuple, list) and isinstance(index, int) and \
                not isinstance(index, bool) and not -len(container) <= index < len(container):
            getter = "TupleGetItem" if isinstance(container, tuple) else "list_getitem"
            raise IndexValueError(f"{getter} evaluator index should be in range"
                                  f"[{-len(container)}, {len(container)}), but got {index}.",
                                  self.info.loc(node))
        if isinstance(container, (tuple, list)) and dynamic_sequence.has_runtime_bound(index):
            return self.at_node(node, lambda: dynamic_sequence.slice_sequence(container, index))
        if isinstance(index, Tracer) and choice.is_sequence(container):
            return self.at_node(node, lambda: choice.index_sequence(container, index,
                                                                     self.info.loc(node)))
        result = self.at_node(node, lambda: container[index])
        pynative_indexing.note_index_read(container, index, result)
        return result

    def expr_Slice(self, node):
        part = lambda n: None if n is None else self.eval(n)
        bounds = part(node.lower), part(node.upper), part(node.step)
        for bound in bounds:  # MindSpore's MakeSlice: ints, bools, None or Tensors
            if isinstance(bound, (float, str)):
                kind = "Float32" if isinstance(bound, float) else "String"
                raise DTypeError(f"Slice indices must be integers or bool. But got a {kind} "
                                 f"number.", self.info.loc(node))
        return slice(*bounds)

    def expr_Tuple(self, node):
        return tuple(self._elements(node.elts))

    def expr_List(self, node):
        return list(self._elements(node.elts))

    def expr_Dict(self, node):
        out = {}
        for k, v in zip(node.keys, node.values):
            if k is None:
                out.update(self.eval(v))
            else:
                key = self.eval(k)
                self.at_node(k, lambda key=key: graph_dict.check_key(key))
                out[key] = self.eval(v)
        return out

    def _elements(self, elts):
        for e in elts:
            if isinstance(e, gast.Starred):
                yield from self.eval(e.value)
            else:
                yield self.eval(e)

    def expr_BinOp(self, node):
        left, right = self.eval(node.left), self.eval(node.right)
        try:
            return self.at_node(node, lambda: binop(node.op, left, right))
        except TypeError as e:  # Python's own, on Python values (`[10] & [11]`): its message
            if isinstance(e, CellgraphError) or is_tensor_like(left) or is_tensor_like(right):
                raise
            raise ArgumentError(str(e), self.info.loc(node)) from None

    def expr_UnaryOp(self, node):
        value = self.eval(node.operand)
        if isinstance(node.op, gast.Not):
            return control_flow.logical_not(value)
        return {gast.USub: operator.neg, gast.UAdd: operator.pos,
                gast.Invert: operator.invert}[type(node.op)](value)

    def expr_BoolOp(self, node):
        return control_flow.bool_op(self, node)

    def expr_Compare(self, node):
        left, result = self.eval(node.left), None
        for op, comparator in zip(node.ops, node.comparators):
            right = self.eval(comparator)
            name = type(op).__name__
            if sequence_builtins.orders_at_run_time(name, left, right):
                step = self.at_node(node, functools.partial(sequence_builtins.ordered, name,
                                                            left, right))
            else:
                sequence_builtins.check_sequence_ordering(name, left, right)
                step = CMPOPS[type(op)](left, right)
            result = step if result is None else control_flow.logical_and(result, step)
            left = right
        return result

    def expr_IfExp(self, node):
        return control_flow.if_expression(self, node)

    def expr_Call(self, node):
        fn = self.eval(node.func)
        forbidden = forbidden_call(fn)
        if forbidden is not None:
            raise CompileError(forbidden, self.info.loc(node))
        refused = forbidden_instance(fn)
        if refused is not None:
            raise ArgumentValueError(refused, self.info.loc(node))
        args = list(self._elements(node.args))
        kwargs = {}
        for kw in node.keywords:
            if kw.arg is None:
                kwargs.update(self.eval(kw.value))
            else:
                kwargs[kw.arg] = self.eval(kw.value)
        if fn is builtins.print:
            return control_flow.graph_print(args, kwargs)
        text = print_op.text_call(fn, args, kwargs)
        if text is not None:
            return text
        if fn is builtins.super and not args:
            return self._zero_arg_super()
        if dynamic_sequence.is_hooked(fn):  # on a dynamic-length sequence, variable scalar
            out = self.at_node(node, lambda: dynamic_sequence.builtin_call(fn, args, kwargs))
            if out is not dynamic_sequence.NOT_HANDLED:
                return out
        if fn in (builtins.int, builtins.float) and len(args) == 1 and not kwargs and \
                isinstance(args[0], Tracer):
            return self.at_node(node, lambda: tracer_number(fn, args[0]))
        if fn in (builtins.int, builtins.float) and len(args) == 1 and not kwargs and \
                isinstance(args[0], np.ndarray):
            return self.at_node(node, lambda: array_number(fn, args[0]))
        if fn is builtins.isinstance and len(args) == 2:
            self.at_node(node, lambda: sequence_builtins.check_classinfo(args[1]))
            if isinstance(args[0], Tracer):
                return tracer_isinstance(args[1], args[0])
        if fn is builtins.type and len(args) == 1 and not kwargs and isinstance(args[0], Tracer):
            return tracer_type(args[0])
        if fn is builtins.getattr and len(args) == 2 and isinstance(args[0], Tracer):
            return self.at_node(node, lambda: _tensor_attribute(*args))
        if fn is builtins.bool and len(args) == 1 and not kwargs and \
                sequence_builtins.is_graph_tensor(args[0]):
            return self.at_node(node, lambda: sequence_builtins.tensor_bool(args[0]))
        if fn in (builtins.all, builtins.any) and len(args) == 1 and not kwargs and \
                is_tensor_like(args[0]) and not isinstance(args[0], np.ndarray):
            return self.at_node(node, lambda: sequence_builtins.tensor_all_any(fn, args[0]))
        if fn in (builtins.max, builtins.min) and not kwargs and args and \
                sequence_builtins.extreme_applies(args):
            return self.at_node(node, lambda: sequence_builtins.extreme(fn, args))
        if isinstance(fn, type) and fn in sequence_builtins.BUILTINS:
            return self.at_node(node, lambda: sequence_builtins.BUILTINS[fn](
                lambda f, a: Interpreter.call(f, a, {}), *args, **kwargs))
        method = sequence_builtins.sequence_method(fn)
        if method is not None:  # list.index / tuple.count ...: MindSpore's comparisons
            return self.at_node(node, lambda: method(*args, **kwargs))
        if isinstance(node.func, gast.Attribute):  # a Tensor method no overload of fits
            check_method_call(node.func.attr, fn, args, kwargs, self.info.loc(node))
        return self.at_node(node, lambda: Interpreter.call(fn, args, kwargs))

    def expr_Lambda(self, node):
        return self._closure(node, "<lambda>")

    def expr_ListComp(self, node):
        self._check_one_generator(node, "ListComp")
        out = []
        self._comprehension(node.generators, lambda: out.append(self.eval(node.elt)))
        return out

    def expr_GeneratorExp(self, node):
        """A generator expression is evaluated at once, to a list, as in MindSpore."""
        return self.expr_ListComp(node)

    def _check_one_generator(self, node, kind: str) -> None:
        """MindSpore's parser takes one `for` per comprehension in a user's graph code (the
        library's own construct code is not held to it)."""
        if len(node.generators) != 1 and not self.info.filename.startswith(_PACKAGE_DIR):
            raise SyntaxTypeError(f"The 'generators' supports 1 'comprehension' in "
                                  f"{kind}/GeneratorExp, but got {len(node.generators)} "
                                  f"comprehensions.", self.info.loc(node))

    def expr_DictComp(self, node):
        self._check_one_generator(node, "DictComp")
        out = {}

        def add():
            key = self.eval(node.key)
            self.at_node(node.key, lambda: graph_dict.check_key(key))
            out[key] = self.eval(node.value)

        self._comprehension(node.generators, add)
        return out

    def _comprehension(self, generators, emit):
        if not generators:
            emit()
            return
        gen = generators[0]
        iterable = self.eval(gen.iter)
        for item in iterable:
            self.assign(gen.target, item)
            if all(control_flow.truth(self.eval(cond)) for cond in gen.ifs):
                self._comprehension(generators[1:], emit)

    def expr_JoinedStr(self, node):
        parts = []
        for value in map(self.eval, node.values):
            if isinstance(value, RuntimeString):  # a formatted tuple or list of graph values
                parts += value.parts
            else:
                parts.append(value if isinstance(value, Tracer) else str(value))
        return print_op.joined_string(parts)

    def expr_FormattedValue(self, node):
        value = self.eval(node.value)
        spec = self.eval(node.format_spec) if node.format_spec is not None else ""
        if isinstance(value, Tracer):
            if spec or node.conversion not in (-1, None):
                raise CompileError("a Tensor in an f-string prints as print(x) does; a format "
                                   "spec or !r/!s on it is not supported in graph mode",
                                   self.info.loc(node))
            return value  # formatted when the graph runs
        if isinstance(value, (tuple, list)) and print_op.holds_tracer(value) and not spec and \
                node.conversion in (-1, None):
            return print_op.python_text(value)  # its Tensors written as their repr at run time
        if not spec and hasattr(value, "_graph_text") and is_tensor_like(value):
            return value._graph_text()  # a constant Tensor: as MindSpore's graph writes it
        return format(value, spec)

    def expr_Starred(self, node):
        raise CompileError("a starred expression is allowed only in a call or a tuple",
                           self.info.loc(node))

    # -- helpers ----------------------------------------------------------------------------
    def _closure(self, node, name):
        defaults = [self.eval(d) for d in node.args.defaults]
        kw_defaults = {a.id: self.eval(d) for a, d in zip(node.args.kwonlyargs,
                                                           node.args.kw_defaults) if d is not None}
        return Closure(node, self.scope, self.info, defaults, kw_defaults, name, Interpreter.call)

    def _zero_arg_super(self):
        this = self.scope.vars.get("self")
        owner = self.scope.lookup("__class__") if "__class__" in self.scope.vars else None
        if this is None:
            raise CompileError("super() without arguments needs `self`; write "
                               "super(ClassName, self)")
        qual = self.name.rsplit(".", 1)[0]
        cls = owner or next((c for c in type(this).__mro__ if c.__qualname__ == qual), None)
        if cls is None:
            raise CompileError("cannot resolve super(); write super(ClassName, self)")
        return builtins.super(cls, this)

    def loc(self, node) -> SourceLoc | None:
        return self.info.loc(node)

    def at_node(self, node, compute):
        """`compute()` with `node`'s location on the nodes it emits and on its errors, so a
        caret points at the call or operator that failed, not at the start of the statement."""
        loc = self.info.loc(node)
        builder = current_builder()
        try:
            if builder is None:
                return compute()
            with builder.at(loc):
                return compute()
        except CellgraphError as e:
            raise e.with_loc(loc)


def _caller_loc(fallback):
    """The statement being compiled (the call that went too deep), else `fallback`."""
    builder = current_builder()
    return builder.loc if builder is not None and builder.loc is not None else fallback


def _as_load(target):
    """An expression that reads what an AugAssign target writes."""
    if isinstance(target, gast.Name):
        return gast.Name(target.id, gast.Load(), None, None)
    if isinstance(target, gast.Subscript):
        node = gast.Subscript(target.value, target.slice, gast.Load())
        return gast.copy_location(node, target)
    if isinstance(target, gast.Attribute):
        return gast.copy_location(gast.Attribute(target.value, target.attr, gast.Load()), target)
    raise CompileError(f"cannot augment-assign to {type(target).__name__}")


def _unpack(value, targets, loc):
    """One value per target; a `*name` target takes a list of what the others leave."""
    items = list(value) if not isinstance(value, Tracer) else [value[i] for i in range(
        value.shape[0] if value.shape else 0)]
    star = next((i for i, t in enumerate(targets) if isinstance(t, gast.Starred)), None)
    if star is None:
        if len(items) != len(targets):
            raise ShapeError(f"cannot unpack {len(items)} values into {len(targets)} names", loc)
        return items
    if len(items) < len(targets) - 1:
        raise ShapeError(f"cannot unpack {len(items)} values into {len(targets) - 1} or more "
                         f"names", loc)
    end = len(items) - (len(targets) - star - 1)
    return items[:star] + [items[star:end]] + items[end:]


# ----- entry points ----------------------------------------------------------------------------

def _binds_no_instance(method) -> bool:
    """MindSpore's graph mode passes the object to a method called through it (`self.func(a,
    b)`) only when the method's first parameter is named `self`: `def func(x, y)` on a Cell
    is called as func(a, b), as MindSpore's tutorials rely on (a class method still gets its
    class)."""
    if isinstance(method.__self__, type):
        return False
    code = method.__func__.__code__
    return code.co_argcount > 0 and code.co_varnames[0] != "self"


def trace_call(fn, args, kwargs=None):
    """Call `fn` on graph values in the current builder (inlining what we parse)."""
    return Interpreter.call(fn, list(args), kwargs or {})


_KEYWORD_ONLY: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def keyword_only_names(fn) -> tuple[str, ...]:
    """The names of `fn`'s keyword-only parameters, in signature order, then "**name" for its
    `**name` parameter if it has one (remembered per function, weakly: a call's fast path
    should not pay for `inspect.signature`)."""
    code = getattr(fn, "__code__", None)
    if (fn.__class__ is types.FunctionType and not code.co_kwonlyargcount
            and not code.co_flags & inspect.CO_VARKEYWORDS
            and not fn.__dict__):  # its code alone is its signature (no __wrapped__ etc.)
        return ()
    names = _KEYWORD_ONLY.get(fn)
    if names is None:
        try:
            params = inspect.signature(fn).parameters.values()
        except (TypeError, ValueError):
            params = ()
        names = tuple(p.name if p.kind == p.KEYWORD_ONLY else "**" + p.name
                      for p in params if p.kind in (p.KEYWORD_ONLY, p.VAR_KEYWORD))
        _KEYWORD_ONLY[fn] = names
    return names


def top_level_arguments(fn, owner: str, args: tuple, kwargs: dict,
                        complete: bool = True) -> tuple:
    """A top-level graph-mode call of `fn` as the compiled graph takes it: the positional
    parameters by position (*args spread out), then every keyword-only one in signature order,
    defaults included, then the dict of the keywords a `**kwargs` parameter takes
    (KeywordOnlyCall passes them back by name). Without `complete`,
    positional defaults after the last argument given stay off (the traced function applies
    them), so that both spellings of a call share one graph. `owner` names `fn` in errors."""
    signature = inspect.signature(fn)
    parameters = list(signature.parameters.values())
    unexpected = unexpected_keyword(parameters, kwargs)
    if unexpected is not None:
        raise ArgumentError(f"{owner}() got an unexpected keyword argument {unexpected!r}; "
                            f"its parameters are ({parameter_list(parameters)})")
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError as e:
        raise ArgumentError(f"{owner}: {e}") from None
    given = set(bound.arguments)
    bound.apply_defaults()
    positional, keyword_only, provided = [], [], 0
    for name, param in signature.parameters.items():
        value = bound.arguments.get(name)
        if param.kind == param.VAR_KEYWORD:  # one dict argument (its keys are static)
            keyword_only.append(dict(value or {}))
        elif param.kind == param.KEYWORD_ONLY:
            keyword_only.append(value)
        elif param.kind == param.VAR_POSITIONAL:
            positional += list(value or ())
            provided = len(positional)
        else:
            positional.append(value)
            provided = len(positional) if complete or name in given else provided
    return tuple(positional[:provided]) + tuple(keyword_only)


# MindSpore's names for the types of values in a graph, as its attribute errors say them
_GRAPH_TYPE_NAMES = ((bool, "Bool"), (int, "Int"), (float, "Float"), (str, "String"),
                     (list, "List"), (dict, "Dictionary"))


def _graph_type_name(obj) -> str:
    if isinstance(obj, Tracer):
        return "Tensor"
    if isinstance(obj, tuple):
        return "NamedTuple" if hasattr(type(obj), "_fields") else "Tuple"
    return next((name for kind, name in _GRAPH_TYPE_NAMES if isinstance(obj, kind)),
                type(obj).__name__)


def _tensor_attribute(tensor, name):
    """`getattr(x, name)` in construct on a graph value, which stands for a Tensor: MindSpore's
    AttributeError, naming the Tensor, if it has no such attribute."""
    try:
        return getattr(tensor, name)
    except AttributeError:
        raise AttributeLookupError(f"'Tensor' object has no attribute '{name}'") from None


class KeywordOnlyCall:
    """`fn` for a top-level compile whose last arguments are the values of `fn`'s keyword-only
    parameters `names`: a compiled graph takes every argument by position, and tracing passes
    those back by name. The names are all of `fn`'s keyword-only parameters, so every call of
    `fn` has the same layout and one graph cache serves them all."""

    def __init__(self, fn, names: tuple[str, ...]):
        self.__wrapped__, self.names = fn, names
        self.__name__ = "construct" if is_cell(fn) else getattr(fn, "__name__",
                                                                  type(fn).__name__)

    def __call__(self, *args):
        split = len(args) - len(self.names)
        return trace_call(self.__wrapped__, args[:split], keyword_arguments(self.names,
                                                                            args[split:]))


def keyword_arguments(names: tuple[str, ...], values) -> dict:
    """The keyword arguments of a call from `keyword_only_names` and their values in order: a
    "**name" entry's value is the dict of the extra keywords."""
    kwargs = {}
    for name, value in zip(names, values):
        if name.startswith("**"):
            kwargs.update(value)
        else:
            kwargs[name] = value
    return kwargs

