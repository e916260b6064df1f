"""The Cell tree of nn layers as MindSpore 2.10 builds it: cells_and_names (name and class),
name_cells and parameters_and_names (name, requires_grad), recorded from MindSpore 2.10, and
print(layer) where the tree shows in it. Checkpoints and programs that walk a network see the
same tree on both sides."""
import numpy as np
import pytest

import cellgraph as cg
from cellgraph import nn

# MindSpore 2.10's, recorded
STRUCTURES = {
    'nn.LSTM(3, 4)': (
        [('', 'LSTM'), ('rnn', '_DynamicLSTMCPUGPU'), ('dropout_op', 'Dropout')],
        ['rnn', 'dropout_op'],
        [('weight_ih_l0', True), ('weight_hh_l0', True), ('bias_ih_l0', True), ('bias_hh_l0', True)]),
    'nn.GRU(3, 4, num_layers=2, bidirectional=True)': (
        [('', 'GRU'), ('rnn', '_DynamicGRUCPUGPU'), ('dropout_op', 'Dropout')],
        ['rnn', 'dropout_op'],
        [('weight_ih_l0', True), ('weight_ih_l0_reverse', True), ('weight_ih_l1', True),
         ('weight_ih_l1_reverse', True), ('weight_hh_l0', True), ('weight_hh_l0_reverse', True),
         ('weight_hh_l1', True), ('weight_hh_l1_reverse', True), ('bias_ih_l0', True),
         ('bias_ih_l0_reverse', True), ('bias_ih_l1', True), ('bias_ih_l1_reverse', True),
         ('bias_hh_l0', True), ('bias_hh_l0_reverse', True), ('bias_hh_l1', True),
         ('bias_hh_l1_reverse', True)]),
    'nn.RNN(3, 4, nonlinearity="relu")': (
        [('', 'RNN'), ('rnn', '_DynamicRNNRelu'), ('dropout_op', 'Dropout')],
        ['rnn', 'dropout_op'],
        [('weight_ih_l0', True), ('weight_hh_l0', True), ('bias_ih_l0', True), ('bias_hh_l0', True)]),
    'nn.LSTM(3, 4, num_layers=2, has_bias=False, dropout=0.2)': (
        [('', 'LSTM'), ('rnn', '_DynamicLSTMCPUGPU'), ('dropout_op', 'Dropout')],
        ['rnn', 'dropout_op'],
        [('weight_ih_l0', True), ('weight_ih_l1', True), ('weight_hh_l0', True),
         ('weight_hh_l1', True)]),
    'nn.MultiheadAttention(4, 2, dropout=0.1)': (
        [('', 'MultiheadAttention'), ('out_proj', 'Dense')],
        ['out_proj'],
        [('in_proj_weight', True), ('in_proj_bias', True), ('out_proj.weight', True),
         ('out_proj.bias', True)]),
    'nn.TransformerEncoderLayer(4, 2, dim_feedforward=8)': (
        [('', 'TransformerEncoderLayer'), ('self_attn', 'MultiheadAttention'),
         ('self_attn.out_proj', 'Dense'), ('dense1', 'Dense'), ('dropout', 'Dropout'),
         ('dense2', 'Dense'), ('norm1', 'LayerNorm'), ('norm2', 'LayerNorm'),
         ('dropout1', 'Dropout'), ('dropout2', 'Dropout')],
        ['self_attn', 'dense1', 'dropout', 'dense2', 'norm1', 'norm2', 'dropout1', 'dropout2'],
        [('self_attn.in_proj_weight', True), ('self_attn.in_proj_bias', True),
         ('self_attn.out_proj.weight', True), ('self_attn.out_proj.bias', True),
         ('dense1.weight', True), ('dense1.bias', True), ('dense2.weight', True),
         ('dense2.bias', True), ('norm1.gamma', True), ('norm1.beta', True), ('norm2.gamma', True),
         ('norm2.beta', True)]),
    'nn.TransformerDecoderLayer(4, 2, dim_feedforward=8, activation="gelu")': (
        [('', 'TransformerDecoderLayer'), ('self_attn', 'MultiheadAttention'),
         ('self_attn.out_proj', 'Dense'), ('multihead_attn', 'MultiheadAttention'),
         ('multihead_attn.out_proj', 'Dense'), ('dense1', 'Dense'), ('dropout', 'Dropout'),
         ('dense2', 'Dense'), ('norm1', 'LayerNorm'), ('norm2', 'LayerNorm'),
         ('norm3', 'LayerNorm'), ('dropout1', 'Dropout'), ('dropout2', 'Dropout'),
         ('dropout3', 'Dropout')],
        ['self_attn', 'multihead_attn', 'dense1', 'dropout', 'dense2', 'norm1', 'norm2', 'norm3',
         'dropout1', 'dropout2', 'dropout3'],
        [('self_attn.in_proj_weight', True), ('self_attn.in_proj_bias', True),
         ('self_attn.out_proj.weight', True), ('self_attn.out_proj.bias', True),
         ('multihead_attn.in_proj_weight', True), ('multihead_attn.in_proj_bias', True),
         ('multihead_attn.out_proj.weight', True), ('multihead_attn.out_proj.bias', True),
         ('dense1.weight', True), ('dense1.bias', True), ('dense2.weight', True),
         ('dense2.bias', True), ('norm1.gamma', True), ('norm1.beta', True), ('norm2.gamma', True),
         ('norm2.beta', True), ('norm3.gamma', True), ('norm3.beta', True)]),
    'nn.FocalLoss()': (
        [('', 'FocalLoss'), ('logsoftmax', 'LogSoftmax')],
        ['logsoftmax'],
        []),
    'nn.RMSELoss()': (
        [('', 'RMSELoss'), ('MSELoss', 'MSELoss')],
        ['MSELoss'],
        []),
    'nn.MultiClassDiceLoss()': (
        [('', 'MultiClassDiceLoss'), ('binarydiceloss', 'DiceLoss'), ('activation', 'Softmax')],
        ['binarydiceloss', 'activation'],
        []),
    'nn.LBeta()': (
        [('', 'LBeta'), ('lgamma', 'LGamma')],
        ['lgamma'],
        []),
    'nn.SSIM()': (
        [('', 'SSIM'), ('conv', 'Conv2d')],
        ['conv'],
        [('conv.weight', False)]),
    'nn.MSSSIM()': (
        [('', 'MSSSIM'), ('multi_convs_list', 'CellList'), ('multi_convs_list.0', 'Conv2d'),
         ('multi_convs_list.1', 'Conv2d'), ('multi_convs_list.2', 'Conv2d'),
         ('multi_convs_list.3', 'Conv2d'), ('multi_convs_list.4', 'Conv2d'),
         ('avg_pool', 'AvgPool2d'), ('relu', 'ReLU')],
        ['multi_convs_list', 'avg_pool', 'relu'],
        [('multi_convs_list.0.weight', False), ('multi_convs_list.1.weight', False),
         ('multi_convs_list.2.weight', False), ('multi_convs_list.3.weight', False),
         ('multi_convs_list.4.weight', False)]),
    'nn.MatInverse()': (
        [('', 'MatInverse'), ('matmul', 'MatMul')],
        ['matmul'],
        []),
}

# MindSpore 2.10's, recorded
REPRS = {
    'nn.LSTM(3, 4)':
        'LSTM(\n  (rnn): _DynamicLSTMCPUGPU()\n  (dropout_op): Dropout(p=0.0)\n)',
    'nn.MultiheadAttention(4, 2, dropout=0.1)':
        'MultiheadAttention(\n  (out_proj): Dense(input_channels=4, output_channels=4, has_bias=True)\n)',
    'nn.Dropout(p=0.1)':
        'Dropout(p=0.1)',
    'nn.Dropout(keep_prob=0.8)':
        'Dropout(keep_prob=0.8)',
    'nn.Dropout()':
        'Dropout(keep_prob=0.5)',
    'nn.Linear(2, 3)':
        'Linear(input_features=2, output_features=3, has_bias=True)',
    'nn.Norm()':
        'Norm(axis=(), keep_dims=False)',
    'nn.RMSELoss()':
        'RMSELoss(\n  (MSELoss): MSELoss()\n)',
    'nn.MultiClassDiceLoss()':
        'MultiClassDiceLoss(\n  (binarydiceloss): DiceLoss()\n  (activation): Softmax()\n)',
}


def _build(source):
    return eval(source, {"nn": nn})  # the constructor texts above, written in this file


@pytest.mark.parametrize("source", list(STRUCTURES))
def test_cell_tree_as_mindspore(source):
    cells, children, params = STRUCTURES[source]
    layer = _build(source)
    assert [(name, type(cell).__name__) for name, cell in layer.cells_and_names()] == cells
    assert list(layer.name_cells()) == children
    assert [(name, p.requires_grad) for name, p in layer.parameters_and_names()] == params
    assert [p.name for _, p in layer.parameters_and_names()] == [name for name, _ in params]


@pytest.mark.parametrize("source", list(REPRS))
def test_print_as_mindspore(source):
    assert repr(_build(source)) == REPRS[source]


def test_transformer_activation_cell_kept_as_activation1():
    # MindSpore 2.10 documents nn.ReLU/nn.GELU as accepted but rejects every Cell (a Cell is
    # callable and not ops.relu); cellgraph accepts them as documented, held as `activation1`
    layer = nn.TransformerEncoderLayer(4, 2, dim_feedforward=8, activation=nn.GELU())
    assert list(layer.name_cells())[-2:] == ["activation1", "activation"]
    assert layer.activation is layer.activation1
    with pytest.raises(ValueError, match="nn.ReLU or nn.GELU"):
        nn.TransformerEncoderLayer(4, 2, activation=nn.Tanh())
    with pytest.raises(ValueError, match="relu/gelu"):
        nn.TransformerEncoderLayer(4, 2, activation="tanh")
    with pytest.raises(ValueError, match="ops.relu or ops.gelu"):
        nn.TransformerEncoderLayer(4, 2, activation=cg.ops.tanh)


def test_rnn_child_runs_each_direction_and_keeps_values():
    # the `rnn` child holds no Parameters: the layer's own weights, as MindSpore's
    cg.set_seed(1)
    lstm = nn.LSTM(3, 4, num_layers=2, bidirectional=True, dropout=0.5)
    lstm.set_train(False)
    x = cg.Tensor(np.linspace(-1, 1, 30, dtype=np.float32).reshape(5, 2, 3))
    out, (h, c) = lstm(x)
    assert out.shape == (5, 2, 8) and h.shape == (4, 2, 4) and c.shape == (4, 2, 4)
    # the forward direction's last step and the reverse direction's first step are h_n's
    np.testing.assert_allclose(out.asnumpy()[-1, :, :4], h.asnumpy()[2], rtol=1e-6)
    np.testing.assert_allclose(out.asnumpy()[0, :, 4:], h.asnumpy()[3], rtol=1e-6)
    assert list(lstm.rnn.parameters_and_names()) == []


def test_attention_dropout_only_in_training():
    cg.set_seed(0)
    mha = nn.MultiheadAttention(4, 2, dropout=0.5)
    q = cg.Tensor(np.linspace(-1, 1, 24, dtype=np.float32).reshape(3, 2, 4))
    mha.set_train(False)
    _, weights = mha(q, q, q)
    np.testing.assert_allclose(weights.asnumpy().sum(-1), np.ones((2, 3)), rtol=1e-6)
    mha.set_train(True)
    _, dropped = mha(q, q, q)
    kept = dropped.asnumpy()
    assert (kept == 0).any() and not np.allclose(kept.sum(-1), 1)


def test_ssim_window_is_mindspore_for_an_even_filter_size():
    # MindSpore 2.10's values (graph mode; its PyNative SSIM fails on max_val's cast): the
    # Gaussian window is the conv's weight, off-centre for an even size
    rng = np.random.RandomState(0)
    a = cg.Tensor(rng.rand(1, 3, 24, 24).astype(np.float32))
    b = cg.Tensor(rng.rand(1, 3, 24, 24).astype(np.float32))
    np.testing.assert_allclose(nn.SSIM()(a, b).asnumpy(), [-0.01341417], rtol=1e-4)
    np.testing.assert_allclose(nn.SSIM(filter_size=10)(a, b).asnumpy(), [-0.02393627], rtol=1e-4)


def test_mat_inverse_through_cholesky_keeps_values_and_gradient():
    spd = np.array([[4.0, 1.0, 0.0], [1.0, 3.0, 0.5], [0.0, 0.5, 2.0]], np.float32)
    layer = nn.MatInverse()
    batch = np.stack([spd, 2 * spd])
    np.testing.assert_allclose(layer(cg.Tensor(batch)).asnumpy(), np.linalg.inv(batch),
                               rtol=1e-5, atol=1e-6)
    # d sum(A^-1) / dA = -(A^-1 1)(A^-1 1)^T for a symmetric A
    column = np.linalg.inv(spd.astype(np.float64)) @ np.ones(3)
    grad = cg.grad(lambda a: layer(a).sum())(cg.Tensor(spd))
    np.testing.assert_allclose(grad.asnumpy(), -np.outer(column, column), rtol=1e-5)


# mint.nn's layers are MindSpore's nn.<Name>Ext classes: their names and prints, recorded
EXT_REPRS = {
    'nn.AvgPool1dExt(2)':
        'AvgPool1dExt()',
    'nn.AvgPool2dExt(2)':
        'AvgPool2dExt()',
    'nn.AvgPool3dExt(2)':
        'AvgPool3dExt()',
    'nn.Dropout2dExt()':
        'Dropout2dExt()',
    'nn.DropoutExt()':
        'DropoutExt()',
    'nn.EmbeddingExt(10, 4)':
        'EmbeddingExt(num_embeddings=10, embedding_dim=4, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False, dtype=Float32)',
    'nn.LayerNormExt((4,))':
        'LayerNormExt(normalized_shape=(4,), eps=1e-05, elementwise_affine=True)',
    'nn.LogSoftmaxExt()':
        'LogSoftmaxExt()',
    'nn.MaxPool2dExt()':
        'MaxPool2dExt()',
    'nn.L1LossExt()':
        'L1LossExt()',
    'nn.PReLUExt()':
        'PReLUExt()',
}


@pytest.mark.parametrize("source", list(EXT_REPRS))
def test_mint_layers_are_mindspore_ext_classes(source):
    layer = _build(source)
    assert repr(layer) == EXT_REPRS[source]
    assert type(layer).__name__ == source[3:source.index("(")]
    mint_name = type(layer).__name__[:-len("Ext")]
    assert getattr(cg.mint.nn, mint_name) is type(layer)
    assert not hasattr(cg.mint.nn, "__all__") or type(layer).__name__ not in cg.mint.nn.__all__


def test_lars_and_loss_scale_parameters_as_mindspore():
    # MindSpore 2.10's, recorded: LARS lists its own fake_param before the wrapped optimizer's
    # Parameters; the loss scale is a trainable Parameter of the training cell
    lars = nn.LARS(nn.Momentum(nn.Dense(2, 3).trainable_params(), 0.1, 0.9))
    assert [(name, p.name) for name, p in lars.parameters_and_names()] == [
        ('global_step', 'global_step'),
        ('learning_rate', 'fake_lr'),
        ('fake_param', 'fake_param'),
        ('weight', 'weight'),
        ('bias', 'bias'),
        ('opt.learning_rate', 'learning_rate'),
        ('opt.momentum', 'momentum'),
        ('opt.moments.weight', 'moments.weight'),
        ('opt.moments.bias', 'moments.bias'),
    ]
    net = nn.WithLossCell(nn.Dense(2, 3), nn.MSELoss())
    train = nn.TrainOneStepWithLossScaleCell(
        net, nn.Momentum(net.trainable_params(), 0.1, 0.9),
        scale_sense=nn.DynamicLossScaleUpdateCell(1024, 2, 100))
    assert [(name, p.requires_grad) for name, p in train.parameters_and_names()
            if name == "scale_sense"] == [('scale_sense', True)]


@pytest.mark.parametrize("source, inputs_name", [
    ("nn.GradAccumulationCell(nn.Dense(2, 3), 2)", "micro_inputs"),
    ("nn.PipelineCell(nn.Dense(2, 3), 2)", "micro_inputs"),
    ("nn.MicroBatchInterleaved(nn.Dense(2, 3), 2)", "interleave_inputs"),
])
def test_micro_batch_wrappers_hold_their_slicers(source, inputs_name):
    # MindSpore 2.10's trees: the network, then a CellList of one _MicroBatch a slice
    cell = _build(source)
    assert [(name, type(c).__name__) for name, c in cell.cells_and_names()] == [
        ("", source[3:source.index("(")]), ("network", "Dense"), (inputs_name, "CellList"),
        (f"{inputs_name}.0", "_MicroBatch"), (f"{inputs_name}.1", "_MicroBatch")]
    x = cg.Tensor(np.arange(8, dtype=np.float32).reshape(4, 2))
    whole = cell.network(x).asnumpy()
    np.testing.assert_allclose(cell(x).asnumpy(), whole[:2] + whole[2:], rtol=1e-6)


def test_rnn_dropout_child_takes_its_seed_as_mindspore():
    # MindSpore 2.10's mask, recorded: an LSTM always makes its dropout_op (drawing a dropout
    # seed pair), so a Dropout made after it draws MindSpore's next pair
    cg.set_seed(1)
    nn.LSTM(3, 4)
    nn.MultiheadAttention(4, 2)
    dropout = nn.Dropout(p=0.5)
    dropout.set_train()
    kept = dropout(cg.Tensor(np.ones((2, 8), np.float32))).asnumpy() > 0
    assert kept.astype(int).tolist() == [[1, 1, 0, 1, 1, 1, 0, 1], [1, 0, 0, 0, 1, 1, 1, 1]]
