"""SentencePieceVocab and SentencePieceTokenizer (the sentencepiece extra). The expected pieces
and ids are MindSpore 2.10's for the same corpus; UNIGRAM models match with SentencePiece
0.1.98, the version MindSpore is built with."""
import numpy as np
import pytest

spm = pytest.importorskip("sentencepiece")

import cellgraph.dataset as ds
from cellgraph.dataset import text
from cellgraph.dataset.text import SentencePieceModel, SPieceTokenizerOutType

LINES = ["the quick brown fox jumps over the lazy dog", "a lazy dog sleeps in the sun",
         "the fox is quick and the dog is lazy", "brown dogs and brown foxes play together",
         "over and over the sun rises"] * 3
STRING, INT = SPieceTokenizerOutType.STRING, SPieceTokenizerOutType.INT


@pytest.fixture
def corpus(tmp_path):
    path = tmp_path / "corpus.txt"
    path.write_text("\n".join(LINES) + "\n")
    return str(path)


def test_bpe_pieces_and_ids(corpus):
    vocab = text.SentencePieceVocab.from_file([corpus], 40, 0.9995, SentencePieceModel.BPE, {})
    assert text.SentencePieceTokenizer(vocab, STRING)("the lazy fox sleeps").tolist() == [
        "▁the", "▁", "la", "z", "y", "▁", "f", "o", "x", "▁", "s", "l", "e", "e", "p", "s"]
    ids = text.SentencePieceTokenizer(vocab, INT)("the lazy fox sleeps")
    assert ids.dtype == np.int32
    assert ids.tolist() == [5, 13, 7, 34, 27, 13, 29, 15, 33, 13, 16, 25, 14, 14, 30, 16]


@pytest.mark.skipif(getattr(spm, "__version__", "") != "0.1.98",
                    reason="MindSpore's UNIGRAM vocabularies are SentencePiece 0.1.98's")
def test_unigram_pieces_and_ids_saved_and_loaded(corpus, tmp_path):
    vocab = text.SentencePieceVocab.from_file([corpus], 40, 0.9995,
                                              SentencePieceModel.UNIGRAM, {})
    text.SentencePieceVocab.save_model(vocab, str(tmp_path), "m.model")
    from_file = text.SentencePieceTokenizer(str(tmp_path / "m.model"), STRING)
    assert from_file("the lazy fox sleeps").tolist() == [
        "▁the", "▁lazy", "▁fox", "▁", "s", "l", "e", "e", "ps"]
    assert text.SentencePieceTokenizer(vocab, INT)("the lazy fox sleeps").tolist() == [
        3, 8, 7, 10, 15, 22, 11, 11, 14]


def test_vocab_from_dataset_in_a_pipeline(corpus):
    data = ds.TextFileDataset(corpus, shuffle=False)
    vocab = text.SentencePieceVocab.from_dataset(data, ["text"], 30, 1.0,
                                                 SentencePieceModel.BPE, {})
    tokenizer = text.SentencePieceTokenizer(vocab, STRING)
    assert tokenizer("brown dogs over").tolist() == [
        "▁", "b", "r", "o", "w", "n", "▁", "d", "o", "g", "s", "▁", "o", "v", "e", "r"]
    rows = ds.TextFileDataset(corpus, shuffle=False).map(operations=tokenizer)
    first = next(rows.create_dict_iterator(output_numpy=True, num_epochs=1))["text"]
    assert first.tolist() == tokenizer(LINES[0]).tolist()


def test_errors(corpus):
    vocab = text.SentencePieceVocab.from_file([corpus], 30, 1.0, SentencePieceModel.BPE, {})
    with pytest.raises(RuntimeError, match="the input shape should be scalar"):
        text.SentencePieceTokenizer(vocab, STRING)(np.array(["a", "b"]))
    with pytest.raises(TypeError, match="out_type is not an instance of SPieceTokenizerOutType"):
        text.SentencePieceTokenizer(vocab, 1)
    with pytest.raises(RuntimeError, match=r"SentencePieceVocab: .*Vocabulary size too high "
                                           r"\(1000\)"):
        text.SentencePieceVocab.from_file([corpus], 1000, 0.9995, SentencePieceModel.BPE, {})
    with pytest.raises(TypeError, match="file_path"):
        text.SentencePieceVocab.from_file(corpus, 30, 1.0, SentencePieceModel.BPE, {})
