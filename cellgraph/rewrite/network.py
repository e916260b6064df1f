"""Making the rewritten network: the forward method is compiled from the AST the nodes write
(never from text), in a copy of the original class's module namespace, and set on a subclass
of the original class whose __init__ takes over the original network's attributes."""
from __future__ import annotations

import ast
import copy

import gast

from cellgraph.compiler.source import SourceInfo, register_function_ast
from cellgraph.nn.cell import Cell
from cellgraph.nn.layer.container import SequentialCell

from .codegen import construct_def


def network_class(tree, sub_classes: dict, containers: dict) -> type:
    """The class of the rewritten network of `tree`; `sub_classes` holds, by attribute name,
    the class made for each sub-tree and the network it rewrites, `containers` the rebuilt
    SequentialCells."""
    function = construct_def(tree)
    # compiled in a class body of the defining class's name, so that `super()` and private
    # names work as they did there; `__class__` is then made the defining class itself
    owner = tree.owner_cls
    holder = ast.ClassDef(name=owner.__name__, bases=[], keywords=[], body=[function],
                          decorator_list=[], type_params=[])
    ast.copy_location(holder, function)
    code = compile(ast.Module(body=[holder], type_ignores=[]), tree.filename, "exec")
    namespace = dict(tree.namespace)
    namespace.update(getattr(tree, "global_bindings", {}))
    made: dict = {}
    exec(code, namespace, made)  # noqa: S102 - compiled from an AST built node by node
    construct = vars(made[owner.__name__])[function.name]
    if "__class__" in construct.__code__.co_freevars:
        index = construct.__code__.co_freevars.index("__class__")
        construct.__closure__[index].cell_contents = owner
    register_function_ast(construct, gast.ast_to_gast(copy.deepcopy(function)),
                          SourceInfo(tree.filename, 1, tree.indent))
    name = tree.opt_class_name()
    members = {"construct": construct,
               "__init__": _init_from(dict(tree.added_attributes), dict(sub_classes),
                                         dict(containers)),
               "__module__": tree.cls.__module__, "__qualname__": name}
    return type(tree.cls)(name, (tree.cls,), members)


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


def _container(node) -> SequentialCell:
    """A SequentialCell of the container node's cells as they now are."""
    cells = [_class_of(n.symbol_tree)(n.symbol_tree.network) if n.symbol_tree is not None
             else n.instance for n in node.container]
    return SequentialCell(cells)
