"""Helpers for the nn tests: float64 copies of Cells and finite-difference checks of the
gradients with respect to a Cell's Parameters (inputs are checked with cellgraph.testing)."""
from __future__ import annotations

import numpy as np

import cellgraph
from cellgraph import Tensor, grad, jit, ops
from cellgraph.testing import check_grads

f64 = cellgraph.float64


def to_float64(cell):
    """Make every float Parameter of `cell` float64 (in place); returns the cell."""
    for p in cell.get_parameters():
        if p.dtype.is_float:
            p.set_dtype(f64)
    return cell


def t64(array) -> Tensor:
    return Tensor(np.asarray(array, np.float64))


class _Projected:
    """sum(cot * cell(*args)): a scalar whose weight gradient is the VJP with `cot`."""

    def __init__(self, cell, cot):
        self.cell, self.cot = cell, cot

    def __call__(self, *args):
        return ops.reduce_sum(self.cell(*args) * self.cot)


def check_weight_grads(cell, args, eps=1e-6, rtol=1e-6, atol=1e-8, seed=0):
    """d/dparams <cot, cell(*args)> by cellgraph.grad against central differences along one
    random direction per Parameter, in float64."""
    rng = np.random.default_rng(seed)
    params = cell.trainable_params()
    assert params, "the cell has no trainable Parameter"
    out = cell(*args)
    objective = _Projected(cell, Tensor(rng.standard_normal(out.shape)))
    grads = grad(objective, grad_position=None, weights=params)(*args)
    value = jit(objective)
    for p, g in zip(params, grads):
        assert g.shape == p.shape and g.dtype == p.dtype, (p.name, g.shape, g.dtype)
        base = p.asnumpy().copy()
        u = rng.standard_normal(base.shape)
        p.set_data(base + eps * u)
        plus = float(value(*args).asnumpy())
        p.set_data(base - eps * u)
        minus = float(value(*args).asnumpy())
        p.set_data(base)
        numeric = (plus - minus) / (2 * eps)
        analytic = float(np.sum(g.asnumpy() * u))
        assert abs(analytic - numeric) <= atol + rtol * max(abs(analytic), abs(numeric)), (
            f"{p.name}: gradient {analytic} by differentiation, {numeric} by differences")


def check_cell_grads(cell, args, weights=True, **tol):
    """Input gradients (cellgraph.testing.check_grads, order 1) and Parameter gradients."""
    check_grads(cell, tuple(args), order=1, **tol)
    if weights:
        check_weight_grads(cell, tuple(args))
