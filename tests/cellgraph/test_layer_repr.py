"""print(layer) as MindSpore 2.10 prints it (its strings, recorded; object addresses left out)."""
import re

import pytest

from cellgraph import nn

CASES = [
    (lambda: nn.Conv1d(2, 3, 3), ("Conv1d(input_channels=2, output_channels=3, kernel_size=(1, 3), "
     "stride=(1, 1), pad_mode=same, padding=(0, 0, 0, 0), dilation=(1, 1), group=1, "
     "has_bias=False, weight_init=HeUniform, bias_init=None, format=NCHW)")),
    (lambda: nn.Conv3d(1, 2, 3), ("Conv3d(input_channels=1, output_channels=2, "
     "kernel_size=(3, 3, 3), stride=(1, 1, 1), pad_mode=same, padding=0, dilation=(1, 1, 1), "
     "group=1, has_bias=False, weight_init=HeUniform, bias_init=None, format=NCDHW)")),
    (lambda: nn.LayerNorm((4,)), ("LayerNorm(normalized_shape=(4,), begin_norm_axis=-1, "
     "begin_params_axis=-1, gammaParameter (name=gamma, shape=(4,), dtype=Float32, "
     "requires_grad=True), beta=Parameter (name=beta, shape=(4,), dtype=Float32, "
     "requires_grad=True))")),
    (lambda: nn.Embedding(10, 4), ("Embedding(vocab_size=10, embedding_size=4, use_one_hot=False, "
     "embedding_table=Parameter (name=embedding_table, shape=(10, 4), dtype=Float32, "
     "requires_grad=True), dtype=Float32, padding_idx=None)")),
    (lambda: nn.MaxPool2d(2, 2), "MaxPool2d(kernel_size=2, stride=2, pad_mode=VALID)"),
    (lambda: nn.AvgPool1d(2), "AvgPool1d(kernel_size=(1, 2), stride=(1, 1), pad_mode=VALID)"),
    (lambda: nn.GELU(), "GELU()"), (lambda: nn.LeakyReLU(0.2), "LeakyReLU()"),
    (lambda: nn.Softmax(), "Softmax()"), (lambda: nn.ELU(), "ELU()"),
    (lambda: nn.CrossEntropyLoss(), "CrossEntropyLoss()"), (lambda: nn.MSELoss(), "MSELoss()"),
    (lambda: nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
     "SoftmaxCrossEntropyWithLogits()"),
    (lambda: nn.ZeroPad2d(1), "ZeroPad2d()"),
]


@pytest.mark.parametrize("make, expected", CASES, ids=[c[1].split("(")[0] for c in CASES])
def test_repr_as_mindspore(make, expected):
    # an initializer prints as MindSpore's default object repr does (an address): compare names
    shown = re.sub(r"(weight_init|bias_init)=<[\w.]*\.(\w+) object at 0x[0-9a-fA-F]+>", r"\1=\2",
                   repr(make()))
    assert shown == expected
