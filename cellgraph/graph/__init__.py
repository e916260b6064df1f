"""`mindspore.graph`: the graph-mode module tree of MindSpore 2.10.

`graph.lazy_inline` (the decorator, jit_decorators.py) and `graph.api` (saved tensors' hooks,
memory recycling, the jit decorators). MindSpore's package also exports the hooks of its C++
graph compiler (`register_custom_pass`, `register_custom_backend`, `register_op_infer`, ...),
which take passes and back ends written for that compiler; cellgraph's compiler has no place
for them, so they are not here.
"""
