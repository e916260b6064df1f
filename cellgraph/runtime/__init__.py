"""cellgraph.runtime: Tensor storage, backends and their kernels, the executor."""
from . import (
    eager,  # noqa: F401  (installs the eager trace under `bind`)
    numpy_backend,  # noqa: F401  (registers the reference backend)
    rng,  # noqa: F401  (the global generator and the random kernels)
)
from .device_api import *
from .launch_settings import *
from .tensor import Parameter, ParameterTuple, Tensor  # noqa: F401
