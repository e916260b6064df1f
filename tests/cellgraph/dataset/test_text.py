"""dataset.text: Vocab built every way, Lookup, ToNumber and the tokenizers, in a pipeline."""
import numpy as np
import pytest

import cellgraph as ms
import cellgraph.dataset as ds
from cellgraph.dataset import text


def test_vocab_from_list_dict_and_file(tmp_path):
    vocab = text.Vocab.from_list(["a", "b"], special_tokens=["<pad>"], special_first=True)
    assert vocab.vocab() == {"<pad>": 0, "a": 1, "b": 2}
    assert vocab.tokens_to_ids(["b", "zz"]) == [2, -1] and vocab.tokens_to_ids("a") == 1
    assert vocab.ids_to_tokens([0, 9]) == ["<pad>", ""]
    assert text.Vocab.from_dict({"x": 5}).tokens_to_ids("x") == 5
    path = tmp_path / "words.txt"
    path.write_text("the,1\ncat,2\nthe,3\n")
    from_file = text.Vocab.from_file(str(path), delimiter=",", special_tokens=["<unk>"],
                                     special_first=False)
    assert from_file.vocab() == {"the": 0, "cat": 1, "<unk>": 2}


def test_vocab_from_dataset_orders_by_frequency_then_word():
    corpus = {"Z": 4, "Y": 4, "X": 4, "W": 3, "U": 3, "V": 2, "T": 1}
    rows = [(np.array([w] * n),) for w, n in corpus.items()]
    data = ds.GeneratorDataset(lambda: iter(rows), ["words"])
    vocab = text.Vocab.from_dataset(data, ["words"], freq_range=(1, 10), top_k=5,
                                    special_tokens=["<pad>", "<unk>"])
    assert list(vocab.vocab()) == ["<pad>", "<unk>", "X", "Y", "Z", "U", "W"]
    assert [vocab.vocab()[w] for w in ("X", "W")] == [2, 6]


def test_lookup_and_to_number_in_a_pipeline():
    vocab = text.Vocab.from_list(["hello", "world", "<unk>"])
    sentences = [np.array(["hello", "there", "world"]), np.array(["world", "world", "x"])]
    data = ds.GeneratorDataset(lambda: iter([(s,) for s in sentences]), ["tokens"],
                               shuffle=False)
    data = data.map(text.Lookup(vocab, "<unk>", ms.int64), input_columns="tokens")
    ids = [r[0] for r in data.create_tuple_iterator(output_numpy=True)]
    np.testing.assert_array_equal(ids[0], [0, 2, 1])
    assert ids[1].dtype == np.int64 and ids[1].tolist() == [1, 1, 2]
    with pytest.raises(RuntimeError, match="doesn't exist in vocab and no unknown token is specified"):
        text.Lookup(vocab)(np.array(["nope"]))
    np.testing.assert_array_equal(text.ToNumber(ms.float32)(np.array(["1.5", "-2"])),
                                  [1.5, -2.0])
    with pytest.raises(RuntimeError, match="will be out of bounds if cast to uint8"):
        text.ToNumber(np.uint8)(np.array(["300"]))
    # MindSpore reads the number at the start (C's strtoll): "1.5x" is 1, "x1" none
    assert text.ToNumber(np.int32)(np.array(["1.5x"])).tolist() == [1]
    with pytest.raises(RuntimeError, match='it is invalid to convert "x1" to a number'):
        text.ToNumber(np.int32)(np.array(["x1"]))


def test_tokenizers_with_byte_offsets():
    tokens, starts, limits = text.UnicodeCharTokenizer(with_offsets=True)(np.array("aé b"))
    assert tokens.tolist() == ["a", "é", " ", "b"]
    assert starts.tolist() == [0, 1, 3, 4] and limits.tolist() == [1, 3, 4, 5]
    assert starts.dtype == np.uint32
    words, starts, limits = text.WhitespaceTokenizer(True)(np.array("  hi  thère x"))
    assert words.tolist() == ["hi", "thère", "x"]
    assert starts.tolist() == [2, 6, 13] and limits.tolist() == [4, 12, 14]
    assert text.PythonTokenizer(lambda s: s.split("-"))(np.array("a-b")).tolist() == ["a", "b"]



def test_add_token_as_mindspore():
    text_ops = text
    begin = text_ops.AddToken("T", True)(["a", "b"])
    assert begin.tolist() == ["T", "a", "b"]
    end = text_ops.AddToken("T", False)(np.array([["a", "bb"]]))
    assert end.tolist() == [["a", "bb", "T"]]
    with pytest.raises(TypeError) as info:
        text_ops.AddToken(1.0)
    assert str(info.value) == ("Argument token with value 1.0 is not of type [<class 'str'>], "
                               "but got <class 'float'>.")
    with pytest.raises(RuntimeError, match="AddToken: input tensor type should be string."):
        text_ops.AddToken("T")(np.array([1, 2]))
    with pytest.raises(RuntimeError, match="AddToken: input tensor rank should be 1 or 2."):
        text_ops.AddToken("T")(np.array([[["a"]]]))


def test_ngram_pads_at_most_n_minus_one_tokens_a_side():
    """MindSpore 2.10's n-grams for the same inputs."""
    words = np.array(["a", "b"])
    assert text.Ngram([1, 3], ("<", 1), (">", 3), "+")(words).tolist() == [
        "a", "b", "<+a+b", "a+b+>", "b+>+>"]
    assert text.Ngram(4, ("<", 1), (">", 1))(np.array(["a"])).tolist() == [""]
    assert text.Ngram([2, 3, 4])(np.array(["Lone", "Star"])).tolist() == ["Lone Star", "", ""]
    assert text.Ngram(2, separator="")(np.array(["x", "y", "z"])).tolist() == ["xy", "yz"]


@pytest.mark.parametrize("args, error, message", [
    (([],), ValueError, "n needs to be a non-empty list"),
    (([1, [1]],), TypeError, "gram[1] with value [1] is not of type"),
    (([1, 0],), ValueError, "gram_1 must be greater than 0"),
    (([1], ("s", -1)), ValueError, "padding width need to be positive numbers"),
    (([1], ("s", "x")), ValueError, "left_pad needs to be a tuple of (str, int)"),
])
def test_ngram_argument_errors(args, error, message):
    with pytest.raises(error) as info:
        text.Ngram(*args)
    assert message in str(info.value)


def test_sliding_window():
    assert text.SlidingWindow(2)(np.array([1.5, 2, 3])).tolist() == [[1.5, 2.0], [2.0, 3.0]]
    assert text.SlidingWindow(2, -1)(["x", "y", "z"]).tolist() == [["x", "y"], ["y", "z"]]
    assert text.SlidingWindow(10)(["x", "y"]).shape == (0,)
    with pytest.raises(RuntimeError, match="supports 1D input only for now, but got 2D"):
        text.SlidingWindow(2)([["x", "y"]])
    with pytest.raises(RuntimeError, match="axis supports 0 or -1 only for now, but got -100"):
        text.SlidingWindow(2, -100)(["x", "y"])
    with pytest.raises(RuntimeError, match="OneToOne, can only accept one tensor"):
        text.SlidingWindow(2)(["x"], ["y"])
    with pytest.raises(ValueError):
        text.SlidingWindow(0)
    with pytest.raises(TypeError):
        text.SlidingWindow(1, "0")


@pytest.mark.parametrize("strings, dtype, expected", [
    (["1.5", "  12", "12 ", "0x10", "+5"], ms.int32, [1, 12, 12, 0, 5]),
    (["1e3"], ms.float16, [1000.0]),
])
def test_to_number_reads_as_c_does(strings, dtype, expected):
    """MindSpore 2.10's ToNumber results: the longest number at the start of each string."""
    assert text.ToNumber(dtype)(np.array(strings)).tolist() == expected


@pytest.mark.parametrize("string, dtype, message", [
    ("a8fa9ds8fa", ms.int32, 'ToNumber: it is invalid to convert "a8fa9ds8fa" to a number.'),
    ("137", ms.int8, ("string input 137 will be out of bounds if cast to int8. The valid range "
                     "is: [-128, 127].")),
    ("-0", ms.uint8, "string input -0 will be out of bounds if cast to uint8"),
    ("1e-50", ms.float32, ("string input 1e-50 will be out of bounds if cast to float32. The "
                          "valid range is: [-340282346638528859811704183484516925440.000000, ")),
    ("inf", ms.float32, "string input inf will be out of bounds if cast to float32"),
    ("7e4", ms.float16, ("ToFloat16: value 70000.000000in input data is outside of valid float16 "
                        "range [65504.000000, -65504.000000].")),
])
def test_to_number_errors(string, dtype, message):
    with pytest.raises(RuntimeError) as info:
        text.ToNumber(dtype)(np.array([string]))
    assert message in str(info.value)


def test_to_number_and_truncate_argument_errors():
    with pytest.raises(TypeError, match="data_type: Bool is not numeric data type."):
        text.ToNumber(ms.bool_)
    with pytest.raises(RuntimeError, match="OneToOne, can only accept one tensor"):
        text.ToNumber(ms.int8)(["1"], ["2"])
    with pytest.raises(ValueError, match=r"Input max_seq_len is not within the required interval "
                                         r"of \[1, 2147483647\]."):
        text.Truncate(0)
    with pytest.raises(TypeError, match="Argument max_seq_len with value x"):
        text.Truncate("x")


def test_regex_tokenizer_as_mindspore():
    """MindSpore 2.10's tokens (and UTF-8 byte offsets) for the same strings."""
    assert text.RegexTokenizer(r"\s+")(np.array("Welcome  to Beijing! ")).tolist() == [
        "Welcome", "to", "Beijing!"]
    assert text.RegexTokenizer(r"\s+", r"\s+")(np.array("Welcome  to Beijing! ")).tolist() == [
        "Welcome", "  ", "to", " ", "Beijing!", " "]
    tokens, starts, ends = text.RegexTokenizer(r"\s+", with_offsets=True)(np.array(" 我 喜 "))
    assert tokens.tolist() == ["我", "喜"] and starts.tolist() == [1, 5] and ends.tolist() == [4, 8]
    assert text.RegexTokenizer(r"\s+|,", r",")(np.array("a,b c,,")).tolist() == [
        "a", ",", "b", "c", ",", ","]
    assert text.RegexTokenizer(r"\s+")(np.array("   ")).tolist() == [""]
    assert text.WhitespaceTokenizer()(np.array("")).tolist() == [""]


def test_regex_replace_with_unicode_properties():
    assert text.RegexReplace(r"\p{Ll}", "_")(np.array(["Hello World"])).tolist() == [
        "H____ W____"]
    assert text.RegexReplace(r"\p{Cc}|\p{Cf}|\s+", "")(np.array("a b\u200bc\x01d")).tolist() == \
        "abcd"
    assert text.RegexReplace(r"[\p{Han}]+", "#")(np.array("ab我们c")).tolist() == "ab#c"
    assert text.RegexReplace("a", "b", False)(np.array("aaa")).tolist() == "baa"
    assert text.RegexReplace("(a)(b)", "$2$1")(np.array("abab")).tolist() == "baba"


def test_case_fold_and_normalize_utf8():
    assert text.CaseFold()(np.array(["Welcome To BEIJING!", "ß", "ﬁ", "Ⅻ"])).tolist() == [
        "welcome to beijing!", "ss", "fi", "xii"]
    words = np.array(["ṩ", "ﬁ", "é"])
    forms = text.NormalizeForm
    assert [w.encode() for w in text.NormalizeUTF8(forms.NFKD)(words).tolist()] == [
        b"s\xcc\xa3\xcc\x87", b"fi", b"e\xcc\x81"]
    assert text.NormalizeUTF8(forms.NONE)(words).tolist() == words.tolist()
    assert text.to_str(text.to_bytes(words)).tolist() == words.tolist()


def test_vectors_and_to_vectors(tmp_path):
    """MindSpore 2.10's loading and lookup rules: a 2-field header skipped, the first vector of
    a token kept, max_vectors lines, unknown tokens zero (or unk_init), lower_case_backup."""
    path = tmp_path / "vectors.txt"
    path.write_text("3 2\nok 0.5 -1\n! 2 3 \nok 9 9\nhome 1 1\n")
    vectors = text.Vectors.from_file(str(path), max_vectors=3)
    assert text.ToVectors(vectors)("ok").tolist() == [0.5, -1.0]
    assert text.ToVectors(vectors)("home").tolist() == [0.0, 0.0]
    out = text.ToVectors(vectors, unk_init=[-1, -1], lower_case_backup=True)(
        np.array(["OK", "none"]))
    assert out.dtype == np.float32 and out.tolist() == [[0.5, -1.0], [-1.0, -1.0]]
    with pytest.raises(RuntimeError, match="unk_init must be the same length as vectors, but "
                                           "got unk_init: 1 and vectors: 2"):
        text.ToVectors(vectors, unk_init=[1])("ok")
    bad = tmp_path / "bad.txt"
    bad.write_text("a 1 2\nb 1 2 3\n")
    with pytest.raises(RuntimeError, match="all vectors must have the same number of dimensions, "
                                           "but got dim 3 while expecting 2"):
        text.Vectors.from_file(str(bad))
    with pytest.raises(RuntimeError, match="get real path failed"):
        text.Vectors.from_file(str(tmp_path / "none.txt"))
    with pytest.raises(ValueError, match="Input max_vectors is not within the required interval"):
        text.Vectors.from_file(str(path), max_vectors=-1)


def test_char_n_gram(tmp_path):
    """MindSpore 2.10's CharNGram vectors for the same file: the mean of the known 2/3/4-grams
    of "#BEGIN#" + token + "#END#" (a gram whose vector is the unknown vector left out)."""
    path = tmp_path / "grams.txt"
    path.write_text("2gram-#BEGIN#a 1 2\n2gram-ab 3 4\n3gram-ab#END# 5 7\n2gram-b#END# 0 0\n"
                    "1gram-a 9 9\n")
    grams = text.CharNGram.from_file(str(path))
    out = text.ToVectors(grams)(np.array(["ab", "AB", "zz"]))
    np.testing.assert_allclose(out, [[3.0, 4.333333], [0, 0], [0, 0]], rtol=1e-6)
    np.testing.assert_allclose(text.ToVectors(grams, lower_case_backup=True)("AB"),
                               [3.0, 4.333333], rtol=1e-6)


def test_eager_text_input_must_make_a_tensor():
    with pytest.raises(TypeError, match=r"Invalid user input. Got <class 'list'>: \[\['1', '2', "
                                        r"None\]\], cannot be converted into tensor."):
        text.ToNumber(ms.int8)([["1", "2", None]])
    with pytest.raises(RuntimeError, match="string input inf will be out of bounds if cast to "
                                           "float16"):
        text.ToNumber(ms.float16)(np.array(["inf"]))


def test_fast_text_and_glove_check_their_file_names_as_mindspore(tmp_path):
    """FastText reads a `*.vec` file and GloVe a `glove.6B.*.txt` one, in Vectors' format;
    other names and missing files raise MindSpore 2.10's RuntimeErrors."""
    lines = "2 3\nthe 0.1 0.2 0.3\ncat 1.0 2.0 3.0\n"
    vec, glove, other = (tmp_path / "w.vec", tmp_path / "glove.6B.3d.txt",
                         tmp_path / "words.txt")
    for path in (vec, glove, other):
        path.write_text(lines)
    for cls, good in ((text.FastText, vec), (text.GloVe, glove)):
        vectors = cls.from_file(str(good))
        assert isinstance(vectors, text.Vectors) and vectors.dim == 3
        np.testing.assert_allclose(text.ToVectors(vectors)("cat"), [1.0, 2.0, 3.0])
    with pytest.raises(RuntimeError, match=r"FastText: invalid file, can not find file '\*.vec'"):
        text.FastText.from_file(str(other))
    with pytest.raises(RuntimeError, match=r"GloVe: invalid file, can not find file "
                                           r"'glove.6B.\*.txt'"):
        text.GloVe.from_file(str(other))
    with pytest.raises(RuntimeError, match="FastText: invalid file, failed to open FastText"):
        text.FastText.from_file(str(tmp_path / "missing.vec"))
