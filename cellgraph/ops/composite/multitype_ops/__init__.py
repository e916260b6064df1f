"""MindSpore's `ops.composite.multitype_ops`: the operations defined on each kind of value."""
