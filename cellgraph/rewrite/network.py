"""Making the rewritten network: the forward method is compiled from the AST the nodes write
(never from text), in a copy of the original class's module namespace, and set on a subclass
of the original class whose __init__ takes over the original network's attributes."""
from __future__ import annotations

import ast
import copy
import inspect

import gast

from cellgraph.compiler.source import SourceInfo, register_function_ast
from cellgraph.nn.cell import Cell
from cellgraph.nn.layer.container import CellList, SequentialCell

from .codegen import construct_def, function_def


def network_class(tree, sub_classes: dict, containers: dict) -> type:
    """The class of the rewritten network of `tree`; `sub_classes` holds, by attribute name,
    the class made for each sub-tree and the network it rewrites, `containers` the rebuilt
    SequentialCells. Parsed helper methods become methods of the class, parsed global
    functions globals of the namespaces the rewritten code runs in."""
    bindings = tree.global_bindings
    namespaces = []

    def namespace_of(globals_: dict) -> dict:
        namespace = dict(globals_)
        namespace.update(bindings)
        namespaces.append(namespace)
        return namespace

    members = {"construct": _compile(construct_def(tree), tree.owner_cls,
                                     namespace_of(tree.namespace), tree.filename, tree.indent)}
    rewritten = {}
    for scope in tree.function_scopes.values():
        if scope is None:
            continue
        definition = function_def(scope)
        compiled = _compile(definition, scope.owner_cls,
                            namespace_of(scope.function.__globals__), scope.filename,
                            scope.indent)
        if scope.kind == "method":
            members[definition.name] = compiled
        else:
            rewritten[scope.function] = compiled
    for namespace in namespaces:  # calls of a parsed global reach its rewritten version
        for key, value in list(namespace.items()):
            if inspect.isfunction(value) and value in rewritten:
                namespace[key] = rewritten[value]
    name = tree.opt_class_name()
    members.update({"__init__": _init_from(dict(tree.added_attributes), dict(sub_classes),
                                           dict(containers)),
                    "__module__": tree.cls.__module__, "__qualname__": name})
    return type(tree.cls)(name, (tree.cls,), members)


def _compile(function: ast.FunctionDef, owner, namespace: dict, filename: str, indent: int):
    """The function `function` defines, compiled from its AST in `namespace`. A method is
    compiled in a class body of its defining class's name, so that `super()` and private
    names work as they did there, and its `__class__` is made that class itself."""
    body = function
    if owner is not None:
        body = ast.copy_location(ast.ClassDef(name=owner.__name__, bases=[], keywords=[],
                                              body=[function], decorator_list=[],
                                              type_params=[]), function)
    code = compile(ast.Module(body=[body], type_ignores=[]), filename, "exec")
    made: dict = {}
    exec(code, namespace, made)  # noqa: S102 - compiled from an AST built node by node
    compiled = vars(made[owner.__name__])[function.name] if owner is not None \
        else made[function.name]
    if "__class__" in compiled.__code__.co_freevars:
        index = compiled.__code__.co_freevars.index("__class__")
        compiled.__closure__[index].cell_contents = owner
    register_function_ast(compiled, gast.ast_to_gast(copy.deepcopy(function)),
                          SourceInfo(filename, 1, indent))
    return compiled


def _init_from(added: dict, sub_classes: dict, containers: dict):
    def __init__(self, obj):
        """Take over `obj`'s attributes (its own tables copied), the Cells and values nodes
        were inserted with, and sub-networks rewritten."""
        Cell.__init__(self)
        for key, value in obj.__dict__.items():
            if key == "_graph_cache":
                continue
            if key.startswith("_") and isinstance(value, (dict, list, set)):
                value = copy.copy(value)
            object.__setattr__(self, key, value)
        for key, value in added.items():
            setattr(self, key, value)
        for key, (sub_class, sub_network) in sub_classes.items():
            rewritten = sub_class(sub_network)
            if key in self.__dict__:
                object.__setattr__(self, key, rewritten)
            else:
                setattr(self, key, rewritten)
        for key, container in containers.items():
            setattr(self, key, container)
    return __init__


def build_network(tree) -> Cell:
    """A new network that runs the tree's nodes, its sub-networks rewritten likewise."""
    return _class_of(tree)(tree.network)


def _class_of(tree) -> type:
    subs = {key: (_class_of(sub_tree), sub_tree.network)
            for key, sub_tree in tree.sub_trees.items()}
    containers = {key: _container(node) for key, node in tree.container_nodes_in_use().items()}
    return network_class(tree, subs, containers)


def _container(node):
    """A new container of the node's kind (SequentialCell, CellList, list, tuple) holding its
    cells as they now are."""
    cells = [_class_of(n.symbol_tree)(n.symbol_tree.network) if n.symbol_tree is not None
             else n.instance for n in node.container]
    held = node.instance
    if isinstance(held, (list, tuple)):
        return type(held)(cells)
    return (SequentialCell if isinstance(held, SequentialCell) else CellList)(cells)
