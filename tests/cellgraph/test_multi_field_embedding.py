"""nn.MultiFieldEmbeddingLookup: each example's rows, scaled by their values and merged per
field by SUM, MEAN or MAX, with MindSpore 2.10's results recorded from the oracle (the same
table set on both)."""
import numpy as np
import pytest

from cellgraph import Tensor, nn

TABLE = np.random.default_rng(0).standard_normal((8, 3)).astype(np.float32)
INDICES = np.array([[1, 7, 3, 0], [2, 2, 5, 6]], np.int32)
VALUES = np.array([[1.0, 0.5, 0.0, 2.0], [1.0, 1.0, -1.0, 0.0]], np.float32)
FIELDS = np.array([[0, 1, 1, 2], [0, 0, 2, 2]], np.int32)
ROW_1 = [0.1049, -0.53567, 0.3616]
ZERO = [0.0, 0.0, 0.0]
EXPECTED = {
    "SUM": [[ROW_1, [0.68323, -0.3326, 0.17576], [0.25146, -0.26421, 1.28085], ZERO],
            [[2.608, 1.89416, -1.40747], ZERO, [0.73227, 0.54426, 0.3163], ZERO]],
    "MEAN": [[ROW_1, [1.36646, -0.66519, 0.35151], [0.12573, -0.1321, 0.64042], ZERO],
             [[1.304, 0.94708, -0.70374], ZERO, [0.73227, 0.54426, 0.3163], ZERO]],
    "MAX": [[ROW_1, [0.68323, -0.3326, 0.17576], [0.25146, -0.26421, 1.28085], ZERO],
            [[1.304, 0.94708, -0.70374], ZERO, [0.73227, 0.54426, 0.3163], ZERO]],
}


@pytest.mark.parametrize("operator", ["SUM", "MEAN", "MAX"])
def test_fields_merge_as_mindspores(operator):
    net = nn.MultiFieldEmbeddingLookup(8, 3, 4, operator=operator)
    net.embedding_table.set_data(Tensor(TABLE))
    out = net(Tensor(INDICES), Tensor(VALUES), Tensor(FIELDS))
    assert out.shape == (2, 4, 3)
    np.testing.assert_allclose(out.asnumpy(), EXPECTED[operator], atol=1e-5)


def test_its_checks_say_mindspores_words():
    with pytest.raises(ValueError, match=r"the 'operator' must be str and must be in"):
        nn.MultiFieldEmbeddingLookup(8, 3, 4, operator="MIN")
    net = nn.MultiFieldEmbeddingLookup(8, 3, 4)
    with pytest.raises(TypeError, match="the 'input_values' should be Float32, but got "
                                        "'mindspore.float64'"):
        net(Tensor(INDICES), Tensor(VALUES.astype(np.float64)), Tensor(FIELDS))
    with pytest.raises(TypeError, match="the 'field_ids' should be Int32, but got "
                                        "'mindspore.int64'"):
        net(Tensor(INDICES), Tensor(VALUES), Tensor(FIELDS.astype(np.int64)))
    with pytest.raises(ValueError, match="the dimension of 'input_indices' must be 2d, but got 3"):
        net(Tensor(INDICES[..., None]), Tensor(VALUES), Tensor(FIELDS))
