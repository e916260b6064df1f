"""Cell.add_flags / add_flags_recursive with MindSpore's mixed-precision flags (fp16, fp32,
bf16): the Cell runs in that dtype, as to_float makes it. Expected values are MindSpore 2.10's."""
import numpy as np

import cellgraph as ms
from cellgraph import nn

X = np.array([[0.1, 0.2, 0.30001]], np.float32)


def test_fp16_flag_on_a_sub_cell_runs_it_in_float16():
    class Head(nn.Cell):
        def __init__(self):
            super().__init__()
            dense = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
            self.fc = dense.add_flags_recursive(fp16=True)

        def construct(self, x):
            return self.fc(x)

    out = Head()(ms.Tensor(X))
    assert out.dtype == ms.float16
    np.testing.assert_array_equal(out.asnumpy(), np.full((1, 2), 0.6, np.float16))


def test_last_true_flag_wins_and_false_flags_change_nothing():
    both = nn.Dense(3, 2, weight_init="ones", bias_init="zeros").add_flags(fp16=True, fp32=True)
    assert both(ms.Tensor(X)).dtype == ms.float32
    off = nn.Dense(3, 2, weight_init="ones", bias_init="zeros").add_flags(fp16=False)
    out = off(ms.Tensor(X))
    assert out.dtype == ms.float32
    np.testing.assert_allclose(out.asnumpy(), [[0.60001, 0.60001]], rtol=1e-6)
