"""text.BasicTokenizer, WordpieceTokenizer and BertTokenizer give MindSpore's tokens and UTF-8
byte offsets. Expected values are MindSpore 2.10's (CPU)."""
import numpy as np
import pytest

import cellgraph.dataset as ds
from cellgraph.dataset import text
from cellgraph.dataset.text import NormalizeForm

VOCAB = ["[UNK]", "[CLS]", "[SEP]", "我", "喜", "欢", "english", "eng", "##lish", "##li", "##sh",
         "welcome", "to", "bei", "##jing", "!", "北", "京", "caf", "##é", "##e", "na", "##ï",
         "##ve", "ß", "a", "##b", "语"]


def _lists(out):
    return [[str(t) for t in out[0]]] + [o.tolist() for o in out[1:]]


@pytest.mark.parametrize("kwargs, sentence, expected", [
    ({"lower_case": True}, "北京欢迎您！",
     [["北", "京", "欢", "迎", "您", "!"], [0, 3, 6, 9, 12, 15], [3, 6, 9, 12, 15, 16]]),
    ({"lower_case": True}, "Café naïve résumé ÀÉÎ",
     [["cafe", "naive", "resume", "aei"], [0, 5, 11, 18], [4, 10, 17, 21]]),
    ({"lower_case": True}, "ß straße İstanbul ǅ",
     [["ss", "strasse", "istanbul", "dz"], [0, 3, 11, 20], [2, 10, 19, 22]]),
    ({"lower_case": False}, "Café naïve", [["Café", "naïve"], [0, 6], [5, 12]]),
    ({"keep_whitespace": True, "normalization_form": NormalizeForm.NFKC},
     "Ｆｕｌｌ\u3000ｗｉｄｔｈ ﬁ ²",
     [["Full", " ", "width", " ", "fi", " ", "2"], [0, 4, 5, 10, 11, 13, 14],
      [4, 5, 10, 11, 13, 14, 15]]),
    ({"keep_whitespace": True}, "Hello  World\t[CLS]x",
     [["Hello", "  ", "World", " ", "[CLS]", "x"], [0, 5, 7, 12, 13, 18],
      [5, 7, 12, 13, 18, 19]]),
    ({}, "我喜欢English!", [["我", "喜", "欢", "English", "!"], [0, 3, 6, 9, 16],
                             [3, 6, 9, 16, 17]]),
    ({}, "  ", [[""], [0], [0]]),
    ({"lower_case": True}, "a\tb  c\u200bd\x01e", [["a", "b", "cd", "e"], [0, 2, 5, 8],
                                                     [1, 3, 7, 9]]),
    # MindSpore folds from the text's start again after each kept special token
    ({"lower_case": True}, "Hello [CLS] World",
     [["hello", "[CLS]", "hello", "[", "cls", "]", "world"], [0, 6, 11, 17, 18, 21, 23],
      [5, 11, 16, 18, 21, 22, 28]]),
    ({"lower_case": True}, "[[CLS] ab",
     [["[", "[", "cls", "]", "ab"], [0, 1, 2, 5, 7], [1, 2, 5, 6, 9]]),
    ({"preserve_unused_token": False}, "[CLS] x [unused3]",
     [["[", "CLS", "]", "x", "[", "unused3", "]"], [0, 1, 4, 6, 8, 9, 16],
      [1, 4, 5, 7, 9, 16, 17]]),
])
def test_basic_tokenizer(kwargs, sentence, expected):
    assert _lists(text.BasicTokenizer(with_offsets=True, **kwargs)(sentence)) == expected


def test_basic_tokenizer_without_offsets_in_a_pipeline():
    data = ds.NumpySlicesDataset(["Welcome to Beijing!", "北京"], column_names=["text"],
                                 shuffle=False)
    data = data.map(text.BasicTokenizer(), input_columns="text")
    rows = [list(map(str, row["text"])) for row in data.create_dict_iterator(output_numpy=True)]
    assert rows == [["Welcome", "to", "Beijing", "!"], ["北", "京"]]


def test_wordpiece_tokenizer_keeps_mindsporess_offsets_of_unknown_words():
    vocab = text.Vocab.from_list(["my", "##x", "un", "##aff", "##able", "[UNK]"])
    words = ["myxyz", "unaffable", "zz", "myx"]
    out = text.WordpieceTokenizer(vocab, with_offsets=True)(words)
    assert _lists(out) == [["[UNK]", "un", "##aff", "##able", "[UNK]", "my", "##x"],
                           [0, 2, 0, 0, 2, 5, 0, 0, 2], [2, 3, 5, 2, 5, 9, 2, 2, 3]]
    out = text.WordpieceTokenizer(vocab, max_bytes_per_token=4, unknown_token="",
                                  with_offsets=True)(words)
    assert _lists(out) == [["myxyz", "unaffable", "zz", "my", "##x"], [0, 0, 0, 0, 2],
                           [5, 9, 2, 2, 3]]
    out = text.WordpieceTokenizer(text.Vocab.from_list(VOCAB), with_offsets=True)("englishx")
    assert _lists(out) == [["[UNK]"], [0, 0], [7, 8]]


@pytest.mark.parametrize("kwargs, sentence, expected", [
    ({"lower_case": True}, "我喜欢English!",
     [["我", "喜", "欢", "english", "!"], [0, 3, 6, 9, 16], [3, 6, 9, 16, 17]]),
    ({"lower_case": True}, "Café naïve résumé ÀÉÎ",
     [["caf", "##e", "[UNK]", "[UNK]", "[UNK]"], [0, 3, 5, 5, 11, 18, 19, 18],
      [3, 4, 7, 10, 17, 19, 20, 21]]),
    # a word over max_bytes_per_token: the unknown token's own length
    ({"max_bytes_per_token": 4}, "Welcome to Beijing!",
     [["[UNK]", "to", "[UNK]", "!"], [0, 8, 11, 18], [5, 10, 16, 19]]),
])
def test_bert_tokenizer(kwargs, sentence, expected):
    op = text.BertTokenizer(text.Vocab.from_list(VOCAB), with_offsets=True, **kwargs)
    assert _lists(op(sentence)) == expected
    plain = text.BertTokenizer(text.Vocab.from_list(VOCAB), **kwargs)(sentence)
    assert [str(t) for t in plain] == expected[0]


def test_argument_checks():
    vocab = text.Vocab.from_list(VOCAB)
    with pytest.raises(TypeError, match="Wrong input type for lower_case, should be boolean"):
        text.BasicTokenizer(lower_case=1)
    with pytest.raises(TypeError, match="normalization_form, should be enum of 'NormalizeForm'"):
        text.BasicTokenizer(normalization_form=1)
    with pytest.raises(ValueError, match="vocab is not provided"):
        text.WordpieceTokenizer(None)
    with pytest.raises(TypeError, match="should be text.Vocab object"):
        text.WordpieceTokenizer([1])
    with pytest.raises(ValueError, match=r"Input is not within the required interval of \[0, "):
        text.WordpieceTokenizer(vocab, max_bytes_per_token=-1)
    with pytest.raises(TypeError, match="max_bytes_per_token, should be int"):
        text.BertTokenizer(vocab, max_bytes_per_token=1.5)
    with pytest.raises(ValueError, match="vacab is not provided"):
        text.BertTokenizer(None)
    with pytest.raises(RuntimeError, match="should be a scalar, but got a tensor with rank: 1"):
        text.BasicTokenizer()(np.array(["a", "b"]))
    with pytest.raises(TypeError, match="Invalid user input. Got <class 'dict'>"):
        text.BertTokenizer(vocab)({"a": 1})


def test_importing_the_dataset_package_scans_no_unicode_category():
    # a category's pattern takes a scan of every code point: it is built when a tokenizer
    # first needs it, not when cellgraph.dataset is imported
    import subprocess
    import sys
    code = ("import cellgraph.dataset\n"
            "from cellgraph.dataset.text import icu_regex\n"
            "print(icu_regex._category_ranges.cache_info().currsize)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "0"
