"""`mindspore.mint.linalg`: norms and the matrix inverse."""
from cellgraph.ops import inverse, vector_norm


def inv(A):
    """The inverse of each square matrix in A (the last two axes)."""
    return inverse(A)


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """The 2-norm over `dim` (all elements for None); vector orders as vector_norm."""
    return vector_norm(A, 2 if ord in (None, "fro") else ord, dim, keepdim, dtype=dtype)


__all__ = ["inv", "norm", "vector_norm"]
