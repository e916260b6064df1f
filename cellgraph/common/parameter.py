"""`mindspore.common.parameter`: Parameter and ParameterTuple."""
from cellgraph.runtime.tensor import Parameter, ParameterTuple

__all__ = ["Parameter", "ParameterTuple"]
