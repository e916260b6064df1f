"""`# @jit.cond: True` / `# @jit.cond: False` on an `if` line: MindSpore's way of deciding a
condition at compile time; the branch it names runs, whatever the condition's value."""
import cellgraph as ms
from cellgraph import Tensor, jit


def test_the_comment_decides_the_branch():
    ms.set_context(mode=ms.GRAPH_MODE)

    @jit
    def forced_true(x):
        if x == 2:  # @jit.cond: True
            return x + 1
        return x - 1

    @jit
    def forced_false(x):
        if x == 2:  # @jit.cond: False
            return x + 1
        return x - 1

    @jit
    def plain(x):
        if x == 2:  # an ordinary comment
            return x + 1
        return x - 1

    assert int(forced_true(Tensor(5))) == 6
    assert int(forced_false(Tensor(2))) == 1
    assert int(plain(Tensor(2))) == 3 and int(plain(Tensor(5))) == 4
