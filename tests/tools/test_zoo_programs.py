"""tools/oracle: the zoo programs (zoo=NAME) — the builder modules the runner copies beside the
program, and the weights program_harness.same_weights gives a network."""
import numpy as np

from cellgraph import Parameter, Tensor, nn

from .oracle_tools import ROOT, load


def test_the_runner_copies_every_builder_module_and_not_the_program():
    names = [path.name for path in load("run_programs").zoo_modules()]
    assert "zoo_networks.py" in names and "zoo_nlp.py" in names
    assert "zoo_program.py" not in names
    # each area module's builders are in zoo_program.py's table
    program = (ROOT / "tools" / "oracle" / "zoo_program.py").read_text(encoding="utf-8")
    for name in names:
        assert f"{name[:-3]}.BUILDERS" in program, name


class _WithIndices(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(3, 2, bias_init="zeros")  # a constant: kept
        self.indices = Parameter(Tensor(np.array([[0, 0], [0, 1], [1, 0]], np.int64)),
                                 name="indices")


def test_same_weights_leaves_integer_parameters_as_they_are():
    net = _WithIndices()
    count = load("program_harness").same_weights(net, Tensor)
    assert count == 6 + 2 + 6
    np.testing.assert_array_equal(net.indices.asnumpy(), [[0, 0], [0, 1], [1, 0]])
    # the float weight is the seeded generator's first draw, scaled by the fan-in
    expected = np.random.RandomState(1).standard_normal((2, 3)) / np.sqrt(3)
    np.testing.assert_allclose(net.dense.weight.asnumpy(), expected, rtol=1e-6)
    np.testing.assert_array_equal(net.dense.bias.asnumpy(), [0, 0])
