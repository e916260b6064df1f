"""`mindspore.common.parameter`: Parameter and ParameterTuple, and `_Buffer`, the Tensor kind
that a Cell keeps as state but not as a parameter."""
import cellgraph.ops  # noqa: F401  (installs the API layer's Tensor methods: common/tensor.py)
from cellgraph.primitives.errors import ArgumentValueError, DTypeError
from cellgraph.runtime.tensor import Parameter, ParameterTuple, Tensor

__all__ = ["Parameter", "ParameterTuple"]


class _Buffer(Tensor):
    """A Tensor that a Cell registers as a buffer when it is assigned as an attribute (state
    such as running statistics, not a parameter): it appears in `Cell.buffers()` and, when
    `persistent`, in `Cell.state_dict()`. It shares `data`'s values, as MindSpore's (which
    stops the gradient of `data`) does."""

    __slots__ = ("persistent",)

    def __new__(cls, data, *, persistent=True):
        if data is None:
            raise ArgumentValueError("_Buffer: the input data should not be None")
        if not isinstance(data, Tensor):
            raise DTypeError(f"_Buffer: the input data should be a Tensor, got "
                             f"{type(data).__name__}")
        return object.__new__(cls)

    def __init__(self, data, *, persistent=True):
        super().__init__(data._data, data.dtype, internal=True)
        self.persistent = bool(persistent)
