"""`mindspore.common.tensor`: Tensor, and `tensor(data, dtype)`, which makes one.

Reading Tensor here (as `cellgraph.Tensor` does) loads `cellgraph.ops` first, which gives the
Tensor class the methods the API layer defines: those the core lacks, and the ones MindSpore
dispatches among overloads (`x.max(dim=0)`, `x.sort(dim=0)`), which replace the core's single
form."""
import cellgraph.ops  # noqa: F401  (installs the API layer's Tensor methods)
from cellgraph.runtime.tensor import Tensor, tensor

__all__ = ["Tensor", "tensor"]
