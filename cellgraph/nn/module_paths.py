"""MindSpore's nn submodule paths (`nn.layer.activation`, `nn.loss.loss`,
`nn.optim.optimizer`, ...), mapped onto the modules that hold those classes here, so that
imports written against MindSpore's file layout work unchanged."""
from __future__ import annotations

import sys
import types

from . import (
    dynamic_lr,
    grad_cells,
    learning_rate_schedule,
    loss,
    loss_scale,
    optim,
    optim_adaptive,
    wrap,
)

# path under cellgraph.nn -> the modules whose public names it holds
PATHS = {
    "loss.loss": (loss,),
    "optim.optimizer": (optim,),
    "optim.sgd": (optim,),
    "optim.momentum": (optim,),
    "optim.adam": (optim,),
    "optim.rmsprop": (optim_adaptive,),
    "optim.ada_grad": (optim_adaptive,),
    "optim.adadelta": (optim_adaptive,),
    "optim.lamb": (optim_adaptive,),
    "optim.adafactor": (optim_adaptive,),
    "wrap.cell_wrapper": (wrap, grad_cells),
    "wrap.loss_scale": (loss_scale,),
    "grad": (grad_cells,),
    "grad.cell_grad": (grad_cells,),
    "learning_rate_schedule": (learning_rate_schedule,),
    "dynamic_lr": (dynamic_lr,),
}


def _public(module) -> dict:
    names = getattr(module, "__all__", None) or [n for n in vars(module) if not n.startswith("_")]
    return {n: getattr(module, n) for n in names}


def mount(package) -> None:
    """Register every path in PATHS under `package` (cellgraph.nn), shortest first; `nn.optim`
    holds every optimizer, as MindSpore's package does."""
    for name in optim_adaptive.__all__:
        setattr(optim, name, getattr(optim_adaptive, name))
    for path in sorted(PATHS, key=lambda p: p.count(".")):
        modules = PATHS[path]
        full = f"{package.__name__}.{path}"
        if full in sys.modules and sys.modules[full] in modules:
            continue
        module = modules[0] if len(modules) == 1 and full not in sys.modules else None
        if module is None:
            module = sys.modules.get(full) or types.ModuleType(full, f"mindspore.nn.{path}")
            for source in modules:
                module.__dict__.update(_public(source))
            module.__all__ = sorted(n for n in module.__dict__ if not n.startswith("_"))
        sys.modules.setdefault(full, module)
        parent_path, _, leaf = full.rpartition(".")
        parent = sys.modules[parent_path]
        if not isinstance(getattr(parent, leaf, None), types.ModuleType):
            setattr(parent, leaf, module)
