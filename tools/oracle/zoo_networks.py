"""Builders of the networks zoo_program.py runs: mindspore-ai/models folders that are not image
classifiers (language, recommendation, audio, graph), each built from its folder's src/ with a
tiny configuration (the rule is in programs.txt's header).

A builder takes no argument and returns a `Run`: the network a user calls for inference with
its inputs, and the network its training step trains (the folder's own loss cell and
one-step cell where it has them, else the network under a generic loss) with the inputs that
step takes. The module is written into the program's folder beside zoo_program.py, with the
word `mindspore` written `cellgraph` on cellgraph's side, and imported from there; the model
folder is on the module path, so `src` is the folder's package.
"""
import importlib.util
import sys
import types
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from mindspore import Tensor, nn

# the tiny sizes (programs.txt's header)
BATCH, SEQ, VOCAB, WIDTH, FFN, LAYERS, HEADS = 2, 8, 50, 16, 32, 2, 2


@dataclass
class Run:
    net: nn.Cell            # called on `inputs` in inference mode
    inputs: tuple
    train: nn.Cell          # one training step: returns the loss (or a tuple of losses)
    train_inputs: tuple


def ids(shape, high, seed):
    return Tensor(np.random.RandomState(seed).randint(0, high, shape).astype(np.int32))


def normal(shape, seed):
    return Tensor(np.random.RandomState(seed).standard_normal(shape).astype(np.float32))


def momentum(net):
    return nn.Momentum(net.trainable_params(), learning_rate=0.001, momentum=0.9)


def _src_package():
    """The folder's src/ as the package `src`, its __init__.py not run: there it imports the
    folder's dataset tools (gensim, sklearn), which building the network does not need."""
    if "src" not in sys.modules:
        folder = importlib.util.find_spec("src").submodule_search_locations[0]
        package = types.ModuleType("src")
        package.__path__ = [folder]
        sys.modules["src"] = package
    return Path(sys.modules["src"].__path__[0])


def default_config(name="default_config.yaml"):
    """The folder's default configuration file as attributes (its first YAML document)."""
    import yaml

    with open(_src_package().parent / name, encoding="utf-8") as f:
        return types.SimpleNamespace(**next(yaml.safe_load_all(f)))


class ClassifierLoss(nn.Cell):
    """The generic loss: softmax cross-entropy of the network's logits, the labels last."""

    def __init__(self, net):
        super().__init__(auto_prefix=False)
        self.net = net
        self.loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")

    def construct(self, *inputs):
        return self.loss(self.net(*inputs[:-1]), inputs[-1])


def classifier_step(net, inputs, labels, loss=None):
    """The training step of a network without its own one-step cell: the folder's loss
    function (`loss`) or ClassifierLoss, and Momentum."""
    with_loss = ClassifierLoss(net) if loss is None else nn.WithLossCell(net, loss)
    train = nn.TrainOneStepCell(with_loss, momentum(net))
    return train, tuple(inputs) + (labels,)


# ---------------------------------------------------------------- official/nlp
def bert():  # also official/nlp/Bert_thor, whose src/ has the same modules
    from src.bert_for_pre_training import BertNetworkWithLoss, BertTrainOneStepCell
    from src.bert_model import BertConfig

    config = BertConfig(seq_length=SEQ, vocab_size=VOCAB, hidden_size=WIDTH,
                        num_hidden_layers=LAYERS, num_attention_heads=HEADS,
                        intermediate_size=FFN, hidden_dropout_prob=0.0,
                        attention_probs_dropout_prob=0.0, max_position_embeddings=SEQ * 2,
                        type_vocab_size=2)
    with_loss = BertNetworkWithLoss(config, True)
    input_ids, token_type = ids((BATCH, SEQ), VOCAB, 3), ids((BATCH, SEQ), 2, 4)
    mask = np.ones((BATCH, SEQ), np.int32)
    mask[1, SEQ - 3:] = 0
    mask = Tensor(mask)
    step = BertTrainOneStepCell(with_loss, momentum(with_loss))
    masked = (ids((BATCH, 1), 2, 5), ids((BATCH, 3), SEQ, 6), ids((BATCH, 3), VOCAB, 7),
              Tensor(np.ones((BATCH, 3), np.float32)))
    return Run(with_loss.bert.bert, (input_ids, token_type, mask), step,
               (input_ids, mask, token_type) + masked)


def transformer():
    # the forward pass runs the model in its training form (teacher forcing): the beam search
    # its eval script builds uses np.bool, which NumPy 1.24 removed
    from src.transformer_for_train import TransformerNetworkWithLoss, TransformerTrainOneStepCell
    from src.transformer_model import TransformerConfig

    config = TransformerConfig(batch_size=BATCH, seq_length=SEQ, vocab_size=VOCAB,
                               hidden_size=WIDTH, num_hidden_layers=LAYERS,
                               num_attention_heads=HEADS, intermediate_size=FFN,
                               hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0,
                               max_position_embeddings=SEQ * 2)
    with_loss = TransformerNetworkWithLoss(config, True)
    source, target, label = (ids((BATCH, SEQ), VOCAB, seed) for seed in (3, 4, 5))
    source_mask = np.ones((BATCH, SEQ), np.int32)
    source_mask[1, SEQ - 2:] = 0
    source_mask = Tensor(source_mask)
    target_mask = Tensor(np.ones((BATCH, SEQ), np.int32))
    step = TransformerTrainOneStepCell(with_loss, momentum(with_loss))
    return Run(with_loss.transformer, (source, source_mask, target, target_mask), step,
               (source, source_mask, target, target_mask, label, target_mask))


def lstm():
    from src.lstm import SentimentNet

    # the network reads the last of 500 steps (its construct fixes the sequence length)
    table = normal((VOCAB, WIDTH), 8)
    net = SentimentNet(vocab_size=VOCAB, embed_size=WIDTH, num_hiddens=WIDTH,
                       num_layers=LAYERS, bidirectional=True, num_classes=2, weight=table,
                       batch_size=BATCH)
    inputs = (ids((BATCH, 500), VOCAB, 3),)
    train, train_inputs = classifier_step(net, inputs, ids((BATCH,), 2, 4))
    return Run(net, inputs, train, train_inputs)


def textcnn():
    from src.textcnn import SoftmaxCrossEntropyExpand, TextCNN

    net = TextCNN(vocab_len=VOCAB, word_len=SEQ, num_classes=2, vec_length=WIDTH)
    inputs = (ids((BATCH, SEQ), VOCAB, 3),)
    train, train_inputs = classifier_step(net, inputs, ids((BATCH,), 2, 4),
                                          SoftmaxCrossEntropyExpand(sparse=True))
    return Run(net, inputs, train, train_inputs)


def fasttext():
    from src.fasttext_train import FastTextNetWithLoss, FastTextTrainOneStepCell

    classes = 4
    with_loss = FastTextNetWithLoss(VOCAB, WIDTH, classes)
    tokens = ids((BATCH, SEQ), VOCAB, 3)
    lengths = Tensor(np.full((BATCH, 1), SEQ, np.float32))
    step = FastTextTrainOneStepCell(with_loss, momentum(with_loss))
    return Run(with_loss.fasttext, (tokens, lengths), step,
               (tokens, lengths, ids((BATCH, 1), classes, 4)))


def lstm_crf():
    from src.LSTM_CRF import Lstm_CRF
    from src.util import Lstm_CRF_Cell_CPU

    config = default_config()
    tags = {"O": 0, "B-PER": 1, "I-PER": 2, "B-LOC": 3, "I-LOC": 4}
    net = Lstm_CRF(vocab_size=VOCAB, tag_to_index=tags, embedding_size=WIDTH, hidden_size=WIDTH,
                   num_layers=LAYERS, weight=normal((VOCAB, WIDTH), 8),
                   bidirectional=config.bidirectional, batch_size=BATCH, seq_length=SEQ,
                   dropout=0.0, is_training=True)
    # the folder's train script: AdamWeightDecay, no decay on biases and LayerNorm, a loss scale
    adam = config.AdamWeightDecay
    params = net.trainable_params()
    skip = [any(word in p.name.lower() for word in adam["decay_filter"]) for p in params]
    decay = [p for p, s in zip(params, skip) if not s]
    others = [p for p, s in zip(params, skip) if s]
    optimizer = nn.AdamWeightDecay([{"params": decay, "weight_decay": adam["weight_decay"]},
                                    {"params": others, "weight_decay": 0.0}],
                                   learning_rate=adam["learning_rate"], eps=adam["eps"])
    update = nn.DynamicLossScaleUpdateCell(loss_scale_value=2**16, scale_factor=2,
                                           scale_window=100)
    step = Lstm_CRF_Cell_CPU(net, optimizer=optimizer, scale_update_cell=update)
    inputs = (ids((BATCH, SEQ), VOCAB, 3), ids((BATCH, SEQ), len(tags) - 2, 4))
    return Run(net, inputs, step, inputs)


def hypertext():
    from src.config import Config
    from src.hypertext_train import HModelTrainOneStepCell, HModelWithLoss
    from src.radam_optimizer import RiemannianAdam

    config = Config(None, None, "CPU")
    config.useTnews()
    config.n_vocab, config.bucket, config.embed, config.max_length = VOCAB, VOCAB, WIDTH, SEQ
    config.num_classes = 4
    with_loss = HModelWithLoss(config)
    optimizer = RiemannianAdam(learning_rate=config.learning_rate,
                               params=[p for p in with_loss.get_parameters() if p.requires_grad])
    step = HModelTrainOneStepCell(with_loss, optimizer=optimizer)
    words, ngrams = ids((BATCH, SEQ), VOCAB, 3), ids((BATCH, SEQ), VOCAB, 4)
    return Run(with_loss.hmodel, (words, ngrams), step,
               (words, ngrams, ids((BATCH, 1), config.num_classes, 5)))


def gpt():
    from mindspore.parallel._transformer.loss import CrossEntropyLoss
    from src.gpt import GPT, GPTWithLoss
    from src.utils import GPTConfig

    config = GPTConfig(batch_size=BATCH, seq_length=SEQ, vocab_size=VOCAB, embedding_size=WIDTH,
                       num_layers=LAYERS, num_heads=HEADS, dropout_rate=0.0)
    net = GPT(config)
    with_loss = GPTWithLoss(net, CrossEntropyLoss(), eos_token=VOCAB - 1)
    tokens = ids((BATCH, SEQ + 1), VOCAB, 3)
    mask = Tensor(np.ones((BATCH, SEQ), np.float32))
    step = nn.TrainOneStepCell(with_loss, momentum(with_loss))
    return Run(net, (tokens[:, :SEQ], mask), step, (tokens,))


# ---------------------------------------------------------------- official/recommend
def ctr_inputs(config):
    batch_ids = ids((BATCH, config.field_size), VOCAB, 3)
    weights = Tensor(np.random.RandomState(4).uniform(0, 1, (BATCH, config.field_size))
                     .astype(np.float32))
    label = Tensor(np.random.RandomState(5).randint(0, 2, (BATCH, 1)).astype(np.float32))
    return batch_ids, weights, label


def deepfm():
    from src.deepfm import DeepFMModel, NetWithLossClass, TrainStepWrap

    config = default_config()
    config.batch_size, config.data_vocab_size, config.data_emb_dim = BATCH, VOCAB, WIDTH
    config.deep_layer_args = [[FFN, FFN, WIDTH, WIDTH], config.deep_layer_args[1]]
    config.keep_prob = 1.0
    config.field_size = config.data_field_size
    net = DeepFMModel(config)
    with_loss = NetWithLossClass(net, l2_coef=config.l2_coef)
    step = TrainStepWrap(with_loss, lr=config.learning_rate, eps=config.epsilon,
                         loss_scale=config.loss_scale)
    batch_ids, weights, label = ctr_inputs(config)
    return Run(net, (batch_ids, weights), step, (batch_ids, weights, label))


def wide_and_deep():
    from src.wide_and_deep import NetWithLossClass, TrainStepWrap, WideDeepModel

    config = default_config()
    config.batch_size, config.vocab_size, config.emb_dim = BATCH, VOCAB, WIDTH
    config.deep_layer_dim = [FFN, FFN, WIDTH, WIDTH]
    config.dropout_flag, config.keep_prob = False, 1.0
    net = WideDeepModel(config)
    with_loss = NetWithLossClass(net, config)
    step = TrainStepWrap(with_loss, sens=1024.0)
    batch_ids, weights, label = ctr_inputs(config)
    return Run(net, (batch_ids, weights), step, (batch_ids, weights, label))


# ---------------------------------------------------------------- official/audio
def deepspeech2():
    import json

    from src.deepspeech2 import DeepSpeechModel, NetWithLossClass

    with open(_src_package().parent / "labels.json", encoding="utf-8") as f:
        labels = json.load(f)
    # the spectrogram's size follows the folder's audio configuration (16 kHz, 20 ms windows)
    audio = types.SimpleNamespace(sample_rate=16000, window_size=0.02)
    net = DeepSpeechModel(batch_size=BATCH, labels=labels, rnn_hidden_size=WIDTH,
                          nb_layers=LAYERS, audio_conf=audio, device_target="CPU")
    frames = 2 * SEQ
    spectrogram = normal((BATCH, 1, 161, frames), 3)
    # full-length utterances: past an utterance's length MindSpore 2.10's CPU CTCLoss leaves
    # the gradient unset (whatever its memory held), where it is zero
    lengths = Tensor(np.array([frames, frames], np.int32))
    targets = 3  # label characters per utterance
    indices = Tensor(np.array([[b, t] for b in range(BATCH) for t in range(targets)], np.int64))
    values = ids((BATCH * targets,), len(labels) - 1, 4) + 1  # 0 is CTC's blank
    with_loss = NetWithLossClass(net)
    step = nn.TrainOneStepCell(with_loss, momentum(with_loss))
    return Run(net, (spectrogram, lengths), step, (spectrogram, lengths, indices, values))


def ecapa_tdnn():
    from src.ecapa_tdnn import ECAPA_TDNN, Classifier

    # the folder's train script: five stages, the last three times as wide
    backbone = ECAPA_TDNN(WIDTH, channels=(WIDTH,) * 4 + (3 * WIDTH,), lin_neurons=WIDTH,
                          attention_channels=WIDTH, se_channels=WIDTH)
    classes = 5
    net = nn.SequentialCell([backbone, Classifier(1, 0, WIDTH, classes)])
    inputs = (normal((BATCH, 2 * SEQ, WIDTH), 3),)
    train, train_inputs = classifier_step(net, inputs, ids((BATCH,), classes, 4))
    return Run(net, inputs, train, train_inputs)


# ---------------------------------------------------------------- official/gnn, research/gnn
NODES, CLASSES = 12, 3


def graph_matrix():
    """A seeded undirected graph of NODES nodes with self loops, as a 0/1 matrix."""
    rng = np.random.RandomState(3)
    adj = (rng.uniform(0, 1, (NODES, NODES)) < 0.3).astype(np.float32) + np.eye(NODES)
    return np.minimum(np.maximum(adj, adj.T), 1).astype(np.float32)


def gcn():
    from src.config import ConfigGCN
    from src.gcn import GCN

    config = ConfigGCN()
    config.dropout = 0.0
    nodes, features, classes = NODES, WIDTH, CLASSES
    adj = graph_matrix()
    degree = 1 / np.sqrt(adj.sum(1))
    adj = Tensor((adj * degree[:, None] * degree[None, :]).astype(np.float32))
    net = GCN(config, features, classes)
    inputs = (adj, normal((nodes, features), 4))
    train, train_inputs = classifier_step(net, inputs, ids((nodes,), classes, 5))
    return Run(net, inputs, train, train_inputs)


def gat():
    from src.gat import GAT
    from src.utils import TrainGAT

    config = default_config()
    # the graph as the folder's data loader gives it: one batch of nodes, -1e9 off the edges
    biases = Tensor(((1 - graph_matrix()) * -1e9)[None])
    feature = normal((1, NODES, WIDTH), 4)
    labels = np.eye(CLASSES, dtype=np.float32)[np.random.RandomState(5).randint(0, CLASSES,
                                                                                 NODES)]
    mask = np.zeros(NODES, bool)
    mask[: NODES // 2] = True
    net = GAT(WIDTH, CLASSES, NODES, [WIDTH], [HEADS, 1], attn_drop=0.0, ftr_drop=0.0)
    step = TrainGAT(net, CLASSES, labels[None], mask[None], config.lr, config.l2_coeff)
    return Run(net, (feature, biases), step, (feature, biases))


# ---------------------------------------------------------------- research/recommend
def ncf():
    from src.ncf import NCFModel, NetWithLossClass, TrainStepWrap

    config = default_config()
    users, items = VOCAB, VOCAB
    # the folder's train script: 16 for the matrix factorisation, layers as configured
    net = NCFModel(num_users=users, num_items=items, num_factors=config.num_factors,
                   model_layers=config.layers, mf_regularization=0,
                   mlp_reg_layers=[0.0] * 4, mf_dim=16)
    step = TrainStepWrap(NetWithLossClass(net), total_steps=2, sens=1.0)
    user, item = ids((BATCH, 1), users, 3), ids((BATCH, 1), items, 4)
    labels = ids((BATCH, 1), 2, 5)
    valid = Tensor(np.ones((BATCH, 1), np.float32))
    return Run(net, (user, item), step, (user, item, labels, valid))


# ---------------------------------------------------------------- research/audio
def fcn4():
    from src.loss import BCELoss
    from src.musictagger import MusicTaggerCNN

    # the folder's train script's kernels and pools; its pools fix the input to 96 x 1280, its
    # last layer the last width (2048)
    net = MusicTaggerCNN(in_classes=[1, WIDTH, WIDTH, WIDTH, 2048], kernel_size=[3] * 5,
                         padding=[0] * 5, maxpool=[(2, 4), (4, 5), (3, 8), (4, 8)],
                         has_bias=True)
    inputs = (normal((BATCH, 1, 96, 1280), 3),)
    tags = net.dense.out_channels
    labels = Tensor(np.random.RandomState(4).randint(0, 2, (BATCH, tags)).astype(np.float32))
    train, train_inputs = classifier_step(net, inputs, labels, BCELoss())
    return Run(net, inputs, train, train_inputs)


_src_package()
BUILDERS = {"bert": bert, "bert_thor": bert, "transformer": transformer, "lstm": lstm, "gpt": gpt,
            "textcnn": textcnn, "fasttext": fasttext, "lstm_crf": lstm_crf,
            "hypertext": hypertext,
            "deepfm": deepfm, "wide_and_deep": wide_and_deep, "deepspeech2": deepspeech2,
            "ecapa_tdnn": ecapa_tdnn, "gcn": gcn, "gat": gat, "ncf": ncf, "fcn4": fcn4}
