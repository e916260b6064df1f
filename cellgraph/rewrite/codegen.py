"""Writing a SymbolTree back as a network: each node rebuilds its statement as AST nodes (one
writer per `form`), the forward method is compiled from that AST, and a subclass of the
original network's class carries it. No text is parsed: `get_code` unparses the same AST for
people to read."""
from __future__ import annotations

import ast
import copy

from .cells import container_cells
from .values import check_identifier, expr_of, name_expr


def _assign(node, value: ast.AST) -> ast.stmt:
    """`targets = value`, or the bare expression when the node assigns nothing."""
    if not node.targets:
        return ast.Expr(value=value)
    stores = [expr_of(t, ast.Store()) for t in node.targets]
    target = stores[0] if len(stores) == 1 else ast.Tuple(elts=stores, ctx=ast.Store())
    return ast.Assign(targets=[target], value=value)


def _keywords(node) -> list:
    return [ast.keyword(arg=check_identifier(key, "a keyword argument's name"),
                        value=expr_of(value)) for key, value in node.kwargs.items()]


def _write_call(node, out: list) -> None:
    call = ast.Call(func=expr_of(node.func), args=[expr_of(a) for a in node.args],
                    keywords=_keywords(node))
    out.append(_assign(node, call))


def _write_binop(node, out: list) -> None:
    left, right = (expr_of(a) for a in node.args)
    out.append(_assign(node, ast.BinOp(left=left, op=node.op, right=right)))


def _write_unaryop(node, out: list) -> None:
    out.append(_assign(node, ast.UnaryOp(op=node.op, operand=expr_of(node.args[0]))))


def _write_boolop(node, out: list) -> None:
    out.append(_assign(node, ast.BoolOp(op=node.op, values=[expr_of(a) for a in node.args])))


def _write_compare(node, out: list) -> None:
    left, right = (expr_of(a) for a in node.args)
    out.append(_assign(node, ast.Compare(left=left, ops=[node.op], comparators=[right])))


def _write_value(node, out: list) -> None:
    out.append(_assign(node, expr_of(node.args[0])))


def _write_container(kind):
    def write(node, out: list) -> None:
        out.append(_assign(node, kind(elts=[expr_of(a) for a in node.args], ctx=ast.Load())))
    return write


def _write_dict(node, out: list) -> None:
    out.append(_assign(node, ast.Dict(keys=[ast.Constant(value=k) for k in node.kwargs],
                                      values=[expr_of(v) for v in node.kwargs.values()])))


def _write_python(node, out: list) -> None:
    out.append(node.source)


def _write_return(node, out: list) -> None:
    out.append(ast.Return(value=expr_of(node.args[0]) if node.args else None))


def _write_nothing(node, out: list) -> None:
    return None


def _branch_body(node) -> list:
    return body_statements(node.body) or [ast.Pass()]


def _write_if(node, out: list) -> None:
    out.append(ast.If(test=expr_of(node.args[0]), body=_branch_body(node), orelse=[]))


def _write_else(node, out: list) -> None:
    """The `else` of the `if` written just before, or, when that branch was erased, an `if`
    whose true branch does nothing."""
    previous = out[-1] if out else None
    if isinstance(previous, ast.If) and not previous.orelse and \
            getattr(previous, "_rewrite_test", None) is node.args[0]:
        previous.orelse = _branch_body(node)
        return
    out.append(ast.If(test=expr_of(node.args[0]), body=[ast.Pass()], orelse=_branch_body(node)))


def _loop_statement(node, body: list, orelse: list) -> ast.stmt:
    if node.form.startswith("for"):
        return ast.For(target=copy.deepcopy(node.loop_target), iter=expr_of(node.args[0]),
                       body=body, orelse=orelse)
    return ast.While(test=expr_of(node.args[0]), body=body, orelse=orelse)


def _write_loop(node, out: list) -> None:
    out.append(_loop_statement(node, _branch_body(node), []))


def _write_loop_else(node, out: list) -> None:
    """The `else` of the loop written just before, or, when that loop was erased, a loop
    whose body does nothing."""
    previous = out[-1] if out else None
    if isinstance(previous, (ast.For, ast.While)) and not previous.orelse and \
            getattr(previous, "_rewrite_head", None) is node.args[0]:
        previous.orelse = _branch_body(node)
        return
    out.append(_loop_statement(node, [ast.Pass()], _branch_body(node)))


STATEMENT_WRITERS = {
    "call": _write_call,
    "binop": _write_binop,
    "unaryop": _write_unaryop,
    "boolop": _write_boolop,
    "compare": _write_compare,
    "value": _write_value,
    "tuple": _write_container(ast.Tuple),
    "list": _write_container(ast.List),
    "dict": _write_dict,
    "python": _write_python,
    "return": _write_return,
    "input": _write_nothing,
    "cell": _write_nothing,
    "if": _write_if,
    "else": _write_else,
    "for": _write_loop,
    "while": _write_loop,
    "for_else": _write_loop_else,
    "while_else": _write_loop_else,
}


def body_statements(nodes: list) -> list:
    """The statements the nodes of one body write, in order, each placed at the line of the
    statement its node was parsed from (a node made through the API: the line of the node
    before it, where errors then point)."""
    out, anchor = [], None
    for node in nodes:
        start = len(out)
        STATEMENT_WRITERS[node.form](node, out)
        anchor = node.source if isinstance(node.source, ast.stmt) else anchor
        for stmt in out[start:]:
            if node.form == "if":
                stmt._rewrite_test = node.args[0]
            elif node.form in ("for", "while"):
                stmt._rewrite_head = node.args[0]
            if anchor is not None and stmt is not node.source:
                ast.copy_location(stmt, anchor)
    return out


def construct_def(tree) -> ast.FunctionDef:
    """The forward method's definition as the tree's nodes now write it."""
    original = tree.function_ast
    function = ast.FunctionDef(name=original.name, args=_arguments(tree),
                               body=body_statements(tree.root_nodes) or [ast.Pass()],
                               decorator_list=[], returns=None, type_comment=None,
                               type_params=[])
    ast.copy_location(function, original)
    return ast.fix_missing_locations(function)


def function_def(scope) -> ast.FunctionDef:
    """A parsed helper function's definition as its nodes now write it."""
    original = scope.definition
    function = ast.FunctionDef(name=original.name, args=copy.deepcopy(original.args),
                               body=body_statements(scope.nodes) or [ast.Pass()],
                               decorator_list=[], returns=None, type_comment=None,
                               type_params=[])
    ast.copy_location(function, original)
    return ast.fix_missing_locations(function)


def _arguments(tree) -> ast.arguments:
    """The forward method's parameters, with the Input nodes inserted through the API after
    the positional ones (default None unless given)."""
    arguments = copy.deepcopy(tree.function_ast.args)
    for node in tree.input_nodes():
        if node.source is not None:
            continue
        arguments.args.append(ast.arg(arg=check_identifier(node.targets[0].value)))
        default = node.default if node.default is not None else None
        arguments.defaults.append(expr_of(default) if default is not None
                                  else ast.Constant(value=None))
    return arguments


def init_def(tree, class_names: dict) -> ast.FunctionDef:
    """What the rewritten class's __init__ does, for display: take the original network's
    attributes, the Cells and values nodes were inserted with, and rewritten sub-networks."""
    body = [
        ast.Expr(value=ast.Call(func=name_expr("__init__", "nn.Cell"),
                                args=[ast.Name(id="self", ctx=ast.Load())], keywords=[])),
        ast.For(target=ast.Tuple(elts=[ast.Name(id="key", ctx=ast.Store()),
                                       ast.Name(id="value", ctx=ast.Store())], ctx=ast.Store()),
                iter=ast.Call(func=name_expr("items", "obj.__dict__"), args=[], keywords=[]),
                body=[ast.Expr(value=ast.Call(
                    func=ast.Name(id="setattr", ctx=ast.Load()),
                    args=[ast.Name(id=n, ctx=ast.Load()) for n in ("self", "key", "value")],
                    keywords=[]))],
                orelse=[]),
    ]
    for name in tree.added_attributes:
        body.append(ast.Assign(targets=[name_expr(name, "self", ast.Store())],
                               value=name_expr(name, "obj")))
    for name, sub_tree in tree.sub_trees.items():
        body.append(ast.Assign(
            targets=[name_expr(name, "self", ast.Store())],
            value=ast.Call(func=ast.Name(id=class_names[sub_tree], ctx=ast.Load()),
                           args=[name_expr(name, "self")], keywords=[])))
    for name, container in tree.container_nodes_in_use().items():
        body.append(ast.Assign(targets=[name_expr(name, "self", ast.Store())],
                               value=_container_expr(name, container, class_names)))
    args = ast.arguments(posonlyargs=[], args=[ast.arg(arg="self"), ast.arg(arg="obj")],
                         kwonlyargs=[], kw_defaults=[], defaults=[])
    return ast.FunctionDef(name="__init__", args=args, body=body, decorator_list=[],
                           returns=None, type_comment=None, type_params=[])


def _container_expr(name: str, container, class_names: dict) -> ast.AST:
    """The container of a CellContainer node's cells as its nodes now list them (a
    SequentialCell, a CellList, a list or a tuple): a cell it held as `obj.<name>[i]`, a
    rewritten one through its class, a new one by node name."""
    original = container_cells(container.instance)
    items = []
    for node in container.container:
        index = next((i for i, c in enumerate(original) if c is node.instance), None)
        item = ast.Subscript(value=name_expr(name, "obj"), slice=ast.Constant(value=index),
                             ctx=ast.Load()) if index is not None \
            else ast.Name(id=check_identifier(node.name), ctx=ast.Load())
        if node.symbol_tree is not None:
            item = ast.Call(func=ast.Name(id=class_names[node.symbol_tree], ctx=ast.Load()),
                            args=[item], keywords=[])
        items.append(item)
    if isinstance(container.instance, (list, tuple)):
        kind = ast.List if isinstance(container.instance, list) else ast.Tuple
        return kind(elts=items, ctx=ast.Load())
    return ast.Call(func=name_expr(type(container.instance).__name__, "nn"),
                    args=[ast.List(elts=items, ctx=ast.Load())], keywords=[])


def class_def(tree, class_names: dict) -> ast.ClassDef:
    """`class NetOpt(Net, nn.Cell)` with __init__ and the rewritten construct (display); the
    classes of sub-trees are named by `class_names`."""
    bases = [ast.Name(id=check_identifier(tree.cls.__name__), ctx=ast.Load()),
             name_expr("Cell", "nn")]
    return ast.ClassDef(name=tree.opt_class_name(), bases=bases, keywords=[],
                        body=[init_def(tree, class_names), construct_def(tree)] + [
                            function_def(scope) for scope in tree.function_scopes.values()
                            if scope is not None and scope.kind == "method"],
                        decorator_list=[], type_params=[])


def code_text(tree) -> str:
    """The rewritten classes, sub-networks first, as Python text. Trees of one class that
    write the same class share it; others of that class are `NetOpt_1`, `NetOpt_2`..."""
    class_names, written, counts, classes = {}, {}, {}, []
    functions = []  # the parsed global functions, each distinct text once
    for each in tree.trees_in_build_order():
        for scope in each.function_scopes.values():
            if scope is not None and scope.kind == "global":
                definition = function_def(scope)
                if all(ast.dump(definition) != ast.dump(f) for f in functions):
                    functions.append(definition)
        definition = class_def(each, class_names)
        key = (each.cls, ast.dump(definition))
        if key not in written:
            base = definition.name
            count = counts.get(base, 0)
            counts[base] = count + 1
            definition.name = written[key] = base if count == 0 else f"{base}_{count}"
            classes.append(definition)
        class_names[each] = written[key]
    module = ast.fix_missing_locations(ast.Module(body=functions + classes, type_ignores=[]))
    return ast.unparse(module) + "\n"
