"""An IMDB-style sentiment pipeline on an in-memory corpus: GeneratorDataset over raw strings,
text.WhitespaceTokenizer, a Vocab built from the dataset with special tokens, Lookup with an
unknown token, Truncate, filter on the label column, padded_batch with pad_info, Concatenate
to add a start token, TypeCast on the labels; a GRU classifier
over the padded batches, packed by seq_length, trained with Model.train and evaluated."""
import numpy as np
import pytest

import cellgraph as ms
import cellgraph.dataset as ds
from cellgraph import nn, ops
from cellgraph.dataset import text, transforms

POSITIVE = ["great", "good", "fine", "lovely", "superb"]
NEGATIVE = ["awful", "bad", "poor", "dull", "boring"]
NEUTRAL = ["the", "film", "plot", "was", "a", "and", "acting", "movie", "story"]


def corpus(n, seed):
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(n):
        label = int(rng.integers(0, 2))
        length = int(rng.integers(3, 9))
        words = list(rng.choice(NEUTRAL, size=length))
        words[int(rng.integers(0, length))] = str(rng.choice(POSITIVE if label else NEGATIVE))
        rows.append((" ".join(words), label))
    rows.append(("", 2))                                # a broken row the pipeline filters out
    return rows


def make_dataset(rows, vocab=None, batch_size=8, max_len=8):
    def generator():
        for sentence, label in rows:
            yield np.array(sentence), np.array(label, np.int32)

    dataset = ds.GeneratorDataset(generator, column_names=["text", "label"], shuffle=False)
    dataset = dataset.filter(lambda label: label < 2, input_columns=["label"])
    dataset = dataset.map(text.WhitespaceTokenizer(), input_columns="text")
    if vocab is None:
        vocab = text.Vocab.from_dataset(dataset, columns=["text"],
                                        special_tokens=["<pad>", "<unk>", "<s>"])
    start = vocab.tokens_to_ids("<s>")
    dataset = dataset.map([text.Lookup(vocab, unknown_token="<unk>"), text.Truncate(max_len),
                           transforms.Concatenate(prepend=np.array([start], np.int32))],
                          input_columns="text")
    dataset = dataset.map(lambda t: (t, np.array(len(t), np.int32)), input_columns="text",
                          output_columns=["text", "length"])
    dataset = dataset.map(transforms.TypeCast(ms.int32), input_columns="label")
    pad = vocab.tokens_to_ids("<pad>")
    dataset = dataset.padded_batch(batch_size, drop_remainder=True,
                                   pad_info={"text": ([max_len + 1], pad)})
    return dataset, vocab


class GRUClassifier(nn.Cell):
    def __init__(self, vocab_size, embed=12, hidden=16):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed, padding_idx=0)
        self.gru = nn.GRU(embed, hidden, batch_first=True)
        self.fc = nn.Dense(hidden, 2)

    def construct(self, tokens, length):
        _, h = self.gru(self.embedding(tokens), seq_length=length)
        return self.fc(h[-1])


class LossCell(nn.Cell):
    """The loss over the three columns (tokens, length, label) Model.train feeds it."""

    def __init__(self, net, loss_fn):
        super().__init__(auto_prefix=False)
        self.net = net
        self.loss_fn = loss_fn

    def construct(self, tokens, length, label):
        return self.loss_fn(self.net(tokens, length), label)


def test_padded_batch_pads_with_pad_info_and_filter_drops_rows():
    rows = [("good film", 1), ("bad", 0), ("", 2), ("the plot was dull and boring", 0)]
    dataset, vocab = make_dataset(rows, batch_size=3, max_len=4)
    batches = list(dataset.create_dict_iterator(output_numpy=True))
    assert len(batches) == 1
    batch = batches[0]
    assert list(batch) == ["text", "length", "label"]
    start, pad = vocab.tokens_to_ids("<s>"), vocab.tokens_to_ids("<pad>")
    assert batch["text"].shape == (3, 5) and batch["text"].dtype == np.int32
    assert list(batch["length"]) == [3, 2, 5]
    assert list(batch["text"][:, 0]) == [start] * 3
    assert list(batch["text"][1, 2:]) == [pad] * 3
    assert list(batch["label"]) == [1, 0, 0]
    assert batch["text"][2, 4] == vocab.tokens_to_ids("dull")  # truncated after 4 words

    def shapes(dataset):
        return [b[0].shape for b in dataset.create_tuple_iterator(output_numpy=True)]

    def ragged():  # a dataset object feeds one pipeline only
        data = ds.NumpySlicesDataset([[1], [2], [3]], column_names=["x"], shuffle=False)
        return data.map(lambda x: np.arange(int(x[0])), input_columns="x")

    assert shapes(ragged().padded_batch(3, pad_info={})) == [(3, 3)]
    assert shapes(ragged().padded_batch(3, pad_info={"x": (None, -1)})) == [(3, 3)]
    padded = next(ragged().padded_batch(3, pad_info={"x": (None, -1)}).create_tuple_iterator(
        output_numpy=True))[0]
    np.testing.assert_array_equal(padded, [[0, -1, -1], [0, 1, -1], [0, 1, 2]])
    with pytest.raises(ValueError, match="longer than the pad shape"):
        list(ragged().padded_batch(3, pad_info={"x": ([2], 0)}).create_tuple_iterator())


def test_gru_sentiment_model_trains_on_padded_batches():
    ms.set_seed(0)
    train_ds, vocab = make_dataset(corpus(96, 0))
    eval_ds, _ = make_dataset(corpus(48, 1), vocab)
    net = GRUClassifier(len(vocab))
    loss = nn.CrossEntropyLoss()
    opt = nn.Adam(net.trainable_params(), learning_rate=0.02)
    model = ms.Model(LossCell(net, loss), optimizer=opt)
    model.train(6, train_ds, dataset_sink_mode=False)
    net.set_train(False)
    correct = total = 0
    for tokens, length, label in eval_ds.create_tuple_iterator():
        predicted = net(tokens, length).argmax(axis=1)
        correct += int((predicted == label).sum().asnumpy())
        total += label.shape[0]
    assert correct / total > 0.85
    assert ops.isfinite(net.fc.weight).all()
