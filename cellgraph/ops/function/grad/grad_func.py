"""MindSpore's `ops.function.grad.grad_func`: the differentiation functions."""
from cellgraph.autograd import get_grad, grad, value_and_grad
from cellgraph.custom_vjp import custom_vjp
from cellgraph.forward import jvp, linearize, vjp
from cellgraph.ops.function.other_func import stop_gradient
from cellgraph.taylor import derivative, jet
from cellgraph.vectorize import jacfwd, jacrev

__all__ = ["custom_vjp", "derivative", "get_grad", "grad", "jacfwd", "jacrev", "jet", "jvp",
           "linearize", "stop_gradient", "value_and_grad", "vjp"]
