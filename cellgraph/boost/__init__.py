"""`mindspore.boost`: training accelerations; here gradient accumulation."""
from . import grad_accumulation
from .grad_accumulation import GradientAccumulation

__all__ = ["GradientAccumulation", "grad_accumulation"]
