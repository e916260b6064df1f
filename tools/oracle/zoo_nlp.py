"""Builders of research/nlp networks of mindspore-ai/models for zoo_program.py, by the rule and
with the helpers of zoo_networks.py (its docstring says what a builder returns)."""
import numpy as np
from mindspore import Tensor, amp, nn
from mindspore import dtype as mstype
from zoo_networks import (
    BATCH,
    LAYERS,
    SEQ,
    VOCAB,
    WIDTH,
    Run,
    default_config,
    ids,
    momentum,
    normal,
)


def textrcnn():
    from src.textrcnn import textrcnn as TextRCNN

    # the network fixes its widths (300 embedded, 512 hidden); the cell is the configured one
    config = default_config()
    net = TextRCNN(weight=normal((VOCAB, 300), 8), vocab_size=VOCAB, cell=config.cell,
                   batch_size=BATCH)
    inputs = (ids((BATCH, SEQ), VOCAB, 3),)
    # the train script's Model(amp_level="O3"): the network in float16, its output cast back
    train = amp.build_train_network(net, momentum(net), nn.SoftmaxCrossEntropyWithLogits(
        sparse=True), level="O3")
    return Run(net, inputs, train, inputs + (ids((BATCH,), 2, 4),))


def atae_lstm():
    from src.atae_for_train import NetWithLoss
    from src.model import AttentionLstm

    config = default_config()
    config.batch_size, config.vocab_size = BATCH, VOCAB
    config.dim_word = config.dim_hidden = config.dim_aspect = WIDTH
    config.dropout_prob = 0.0
    net = AttentionLstm(config, normal((VOCAB, WIDTH), 8), is_train=True)
    with_loss = NetWithLoss(net, batch_size=1)
    step = nn.TrainOneStepCell(with_loss, momentum(with_loss))
    content = ids((BATCH, SEQ), VOCAB, 3)
    lengths = Tensor(np.array([SEQ, SEQ - 3], np.int32))
    aspect = ids((BATCH,), config.aspect_num, 4)
    solution = Tensor(np.eye(config.grained, dtype=np.int32)[
        np.random.RandomState(5).randint(0, config.grained, BATCH)])
    inputs = (content, lengths, aspect)
    return Run(net, inputs, step, inputs + (solution,))


def skipgram():
    from src.skipgram import SkipGram

    # the network returns its loss (negative sampling), trained as the train script's Model does
    net = SkipGram(VOCAB, WIDTH)
    negatives = 5
    inputs = (ids((BATCH,), VOCAB, 3), ids((BATCH,), VOCAB, 4), ids((BATCH, negatives), VOCAB, 5))
    step = nn.TrainOneStepCell(net, momentum(net))
    return Run(net, inputs, step, inputs)


def _triples(entities, relations, seed):
    rng = np.random.RandomState(seed)
    return Tensor(np.stack([rng.randint(0, entities, BATCH), rng.randint(0, relations, BATCH),
                            rng.randint(0, entities, BATCH)], 1).astype(np.int32))


def rotate():
    from src.rotate import ModelBuilder

    config = default_config()
    config.num_entity, config.num_relation, config.hidden_dim = VOCAB, 5, WIDTH
    config.max_steps = 2
    head_step, _ = ModelBuilder(config).get_train_net()
    inputs = _kge_inputs(5)
    # no construct of its own: the inference pass is the loss cell's forward pass
    return Run(head_step.network, inputs, head_step, inputs)


def _kge_inputs(relations):
    """A batch of (head, relation, tail) triples, negative entities, subsampling weights."""
    negatives = 4
    return (_triples(VOCAB, relations, 3), ids((BATCH, negatives), VOCAB, 4),
            Tensor(np.random.RandomState(5).uniform(0.5, 1, (BATCH, 1)).astype(np.float32)))


def hake():
    from mindspore import ParameterTuple
    from src.HAKE_for_train import HAKENetworkWithLoss_HEAD, HAKETrainOneStepCell
    from src.HAKE_model import HAKE_GRAPH

    config = default_config()
    relations = 5
    graph = HAKE_GRAPH(VOCAB, relations, WIDTH, config.gamma, config.modulus_weight,
                       config.phase_weight)
    with_loss = HAKENetworkWithLoss_HEAD(graph, config.adversarial_temperature)
    # the train script: Adam over the loss cell's parameters, head-batch training first
    optimizer = nn.Adam(ParameterTuple(with_loss.trainable_params()), config.learning_rate)
    step = HAKETrainOneStepCell(with_loss, optimizer)
    inputs = _kge_inputs(relations)
    # the graph's own construct takes no input: the inference pass is the loss cell's
    return Run(with_loss, inputs, step, inputs)


def transx():
    from src.loss import LossWrapperCell, TripletsMarginLoss
    from src.model_builder import create_model

    config = default_config("configs/default_config.yaml")
    config.dim_e = config.dim_r = WIDTH
    relations = 5
    net = create_model(VOCAB, relations, config)
    # each triple followed by its corrupted ones, as the folder's dataset batches them
    rows = BATCH * (1 + config.negative_sampling_rate)
    triples = _triples(VOCAB, relations, 3)
    batch = Tensor(np.concatenate([triples.asnumpy(), _triples(VOCAB, relations, 4).asnumpy()])
                   .reshape(2, BATCH, 3).transpose(1, 0, 2).reshape(rows, 3))
    with_loss = LossWrapperCell(net, TripletsMarginLoss(config.negative_sampling_rate,
                                                        config.margin))
    step = nn.TrainOneStepCell(with_loss, nn.SGD(net.trainable_params(), learning_rate=Tensor(
        config.lr, mstype.float32), weight_decay=config.weight_decay))
    return Run(net, (batch,), step, (batch,))


def dam():
    import sys

    from mindspore import ParameterTuple
    from src.config import parse_args
    from src.net import DAMNet, DAMNetWithLoss, DAMTrainOneStepCell

    argv, sys.argv = sys.argv, sys.argv[:1]  # the folder's defaults, no command line
    try:
        config = parse_args()
    finally:
        sys.argv = argv
    # its output layer fixes 9 turns of 50 words (576 features); the widths are the tiny ones
    config.vocab_size, config.emb_size, config.stack_num = VOCAB, WIDTH, LAYERS
    net = DAMNet(config, emb_init=None, is_emb_init=False)
    with_loss = DAMNetWithLoss(net)
    optimizer = nn.Adam(params=ParameterTuple(with_loss.trainable_params()),
                        learning_rate=config.learning_rate)
    step = DAMTrainOneStepCell(with_loss, optimizer, sens=config.loss_scale)
    turns, words = config.max_turn_num, config.max_turn_len
    rng = np.random.RandomState(5)
    inputs = (ids((BATCH, turns, words), VOCAB, 3),
              Tensor(rng.randint(1, words + 1, (BATCH, turns)).astype(np.int32)),
              ids((BATCH, words), VOCAB, 4),
              Tensor(rng.randint(1, words + 1, (BATCH,)).astype(np.int32)),
              Tensor(rng.randint(0, 2, (BATCH, 1)).astype(np.float32)))
    return Run(net, inputs, step, inputs)


BUILDERS = {"textrcnn": textrcnn, "atae_lstm": atae_lstm, "skipgram": skipgram,
            "rotate": rotate, "hake": hake,
            "transx": transx, "dam": dam}
