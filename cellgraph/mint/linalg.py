"""`mindspore.mint.linalg`: norms."""
from cellgraph.ops import vector_norm


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """The 2-norm over `dim` (all elements for None); vector orders as vector_norm."""
    return vector_norm(A, 2 if ord in (None, "fro") else ord, dim, keepdim, dtype=dtype)


__all__ = ["norm", "vector_norm"]
