"""What a Cell sets on the primitives it holds (its attributes that are primitives, and those of
the Cells inside it), as MindSpore's Cell does: `set_data_parallel()` and `offload()`.

Both mark the primitives with attributes MindSpore's graph compiler reads: a data-parallel
strategy to generate in AUTO_PARALLEL mode (`strategy_gen_mode`), and activations to move to
the host between the forward and the backward pass (`offload`, `backward_prefetch`). Neither
changes what cellgraph computes: AUTO_PARALLEL's strategy search is refused when a network
compiles (auto_parallel.py), and the host is where CPU activations already are. The
attributes are set and read back (`prim.attrs`), with MindSpore's checks of the arguments.
"""
from __future__ import annotations

from cellgraph import _checkparam as validator
from cellgraph.ops.primitive import Primitive


class CellPrimitives:
    """The Cell methods over its primitives (a base of nn.Cell)."""

    def _get_prims_recursively(self) -> list:
        """This Cell's primitives (attributes), then those of the Cells inside it."""
        found = [value for value in vars(self).values() if isinstance(value, Primitive)]
        for cell in self.cells():
            found.extend(cell._get_prims_recursively())
        return found

    def set_data_parallel(self):
        """Have AUTO_PARALLEL's strategy generation give every primitive of this Cell (and of
        the Cells inside it) that has no strategy a data-parallel one, instead of searching."""
        for prim in self._get_prims_recursively():
            prim.add_prim_attr("strategy_gen_mode", "data_parallel")

    def offload(self, backward_prefetch="Auto"):
        """Offload the activations of every primitive of this Cell to the host in the forward
        pass and fetch them back `backward_prefetch` operators ahead ("Auto": one) in the
        backward pass (MindSpore's graph mode, with lazy_inline)."""
        if isinstance(backward_prefetch, str):
            validator.check_string(backward_prefetch, ["Auto"], "backward_prefetch",
                                   self.cls_name)
        else:
            validator.check_non_negative_int(backward_prefetch)
        for prim in self._get_prims_recursively():
            prim.add_prim_attr("offload", True)
            prim.add_prim_attr("backward_prefetch", backward_prefetch)
