"""text.Vocab and text.Lookup check their arguments and fail as MindSpore 2.10's do (messages
recorded from it)."""
import numpy as np
import pytest

import cellgraph.dataset as ds
from cellgraph.dataset import text


@pytest.mark.parametrize("build, error, message", [
    (lambda: text.Vocab.from_dict({"home": -1, "behind": 0}), ValueError,
     "Input word_id is not within the required interval of [0, 2147483647]."),
    (lambda: text.Vocab.from_list(["w1", "w1"], [], True), ValueError,
     "word_list contains duplicate word: w1."),
    (lambda: text.Vocab.from_list(["w1", "w2"], ["s1", "s1"], True), ValueError,
     "special_tokens contains duplicate word: s1."),
    (lambda: text.Vocab.from_list(["w1", "w2"], ["s1", "w1"], True), ValueError,
     "special_tokens and word_list contain duplicate word :{'w1'}."),
    (lambda: text.Lookup(text.Vocab.from_list(["w1"]), 123), TypeError,
     ("Argument unknown_token with value 123 is not of type [<class 'str'>], but got "
     "<class 'int'>.")),
    (lambda: text.Vocab().tokens_to_ids(["w3"]), RuntimeError,
     ("The Vocab has not built yet, got type <class 'NoneType'>. Use Vocab.from_dataset(), "
     "Vocab.from_list(), Vocab.from_file() or Vocab.from_dict() to build a Vocab.")),
    (lambda: text.Vocab.from_list(["w1"]).ids_to_tokens(-2), ValueError,
     "Input ids is not within the required interval of [0, 2147483647]."),
    (lambda: text.Vocab.from_list(["w1"]).tokens_to_ids(999), TypeError,
     ("Argument tokens with value 999 is not of type [<class 'str'>, <class 'list'>, "
     "<class 'numpy.ndarray'>], but got <class 'int'>.")),
    (lambda: text.Vocab.from_list(["w1"]).ids_to_tokens([2, 1.2]), TypeError,
     ("Argument ids[1] with value 1.2 is not of type [<class 'int'>, <class 'numpy.int64'>], "
     "but got <class 'float'>.")),
])
def test_errors(build, error, message):
    with pytest.raises(error) as info:
        build()
    assert str(info.value) == message


def test_lookup_errors_where_mindspore_raises_them():
    vocab = text.Vocab.from_list(["w1"], [], False)
    lookup = text.Lookup(vocab, "unk")  # made; the pipeline (or an eager call) checks it
    with pytest.raises(RuntimeError, match='Lookup: "unk" doesn\'t exist in vocab.'):
        lookup("w1")
    data = ds.GeneratorDataset(lambda: iter([np.array("un1")]), ["text"]).map(
        text.Lookup(vocab))
    with pytest.raises(RuntimeError, match='token: "un1" doesn\'t exist in vocab and no '
                                           'unknown token is specified.'):
        list(data)
    assert vocab.ids_to_tokens([0, 9]) == ["w1", ""] and vocab.tokens_to_ids("zz") == -1


def test_from_dataset_checks():
    data = ds.GeneratorDataset(lambda: iter([np.array("a")]), ["text"])
    with pytest.raises(ValueError, match=r"frequency range \[a,b\] should be 0 <= a <= b"):
        text.Vocab.from_dataset(data, "text", (100, 1), 12)
    with pytest.raises(ValueError, match="Input top_k must be greater than 0."):
        text.Vocab.from_dataset(data, "text", (2, 3), 0)
    with pytest.raises(TypeError, match=r"Argument col\[0\] with value 23"):
        text.Vocab.from_dataset(data, 23)


def test_lookup_data_type_is_a_mindspore_dtype():
    # MindSpore 2.10: a NumPy dtype is a TypeError, mstype.string its parameter error
    import cellgraph as ms

    vocab = text.Vocab.from_list(["a", "unk"])
    for data_type in ("tldr", np.int32, np.dtype("int32")):
        with pytest.raises(TypeError, match=r"Argument data_type with value .* is not of type "
                                            r"\[<class '.*'>\], but got"):
            text.Lookup(vocab, "unk", data_type)
    with pytest.raises(RuntimeError, match="Lookup : The parameter data_type must be numeric "
                                           "including bool."):
        text.Lookup(vocab, "unk", ms.string)
    out = text.Lookup(vocab, "unk", ms.float32)(np.array(["a", "zz"]))
    assert out.dtype == np.float32 and out.tolist() == [0.0, 1.0]
