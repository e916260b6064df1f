"""MindSpore's `common.sparse_tensor` module: the sparse tensor classes, defined in
`cellgraph/sparse.py`."""
from cellgraph.sparse import COOTensor, CSRTensor, RowTensor, RowTensorInner, SparseTensor

__all__ = ["COOTensor", "CSRTensor", "RowTensor", "RowTensorInner", "SparseTensor"]
