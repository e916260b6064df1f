"""MindSpore's `nn.sparse`: the Cells over the sparse operations."""
from .sparse import SparseTensorDenseMatmul, SparseToDense

__all__ = ["SparseTensorDenseMatmul", "SparseToDense"]
