"""`mindspore.common._monad`: the monad values `U` (the universe: memory side effects) and
`IO` (input/output side effects) that programs pass to `ops.depend` to order a computation
after the side effects before it. Graphs here run their statements in program order, so a
monad carries no state; it is an ordinary value that `depend` accepts as its second input."""

__all__ = ["IO", "U"]


class UMonad:
    """The universe monad: stands for every memory side effect before it."""

    def __repr__(self):
        return "U"


class IOMonad:
    """The IO monad: stands for every input/output side effect before it."""

    def __repr__(self):
        return "IO"


U = UMonad()
IO = IOMonad()
