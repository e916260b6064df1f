"""text.JiebaTokenizer against MindSpore 2.10: its tokens and offsets on small made-up
dictionary and model files (tests/data/jieba_mindspore.json, recorded by
tools/oracle/record_jieba.py, and literals below), its argument checks and its file errors."""
import json
import os

import numpy as np
import pytest

import cellgraph.dataset as ds
from cellgraph.dataset import text
from cellgraph.dataset.text import JiebaMode, JiebaTokenizer

from . import jieba_files

_RECORDED = os.path.join(os.path.dirname(__file__), "..", "..", "data", "jieba_mindspore.json")


@pytest.fixture(scope="module")
def paths(tmp_path_factory):
    return jieba_files.build(str(tmp_path_factory.mktemp("jieba")))


@pytest.fixture(scope="module")
def results(paths):
    return jieba_files.tokenize_all(text, paths)


def _recorded() -> dict:
    with open(_RECORDED, encoding="utf-8") as f:
        return json.load(f)


@pytest.mark.parametrize("case", sorted(jieba_files.CASES))
def test_outputs_match_mindspore(results, case):
    expected = _recorded()[case]
    assert len(results[case]) == len(expected) == len(jieba_files.SENTENCES)
    for sentence, got, want in zip(jieba_files.SENTENCES, results[case], expected):
        assert got == want, sentence


def test_modes_on_one_sentence(paths):
    """MindSpore 2.10's words for one sentence in each mode, with offsets (UTF-8 bytes)."""
    hmm, mp = paths["hmm_model.utf8"], paths["small.dict.utf8"]
    sentence = "今天天气不错我们去公园散步"
    words = {mode: JiebaTokenizer(hmm, mp, mode=mode)(sentence).tolist() for mode in JiebaMode}
    assert words[JiebaMode.MP] == ["今天", "天气", "不错", "我们", "去", "公园", "散步"]
    assert words[JiebaMode.MIX] == words[JiebaMode.MP]
    assert words[JiebaMode.HMM] == ["今", "天", "天", "气不", "错", "我们", "去公园", "散", "步"]
    tokens, starts, limits = JiebaTokenizer(hmm, mp, JiebaMode.MIX, True)("男默女泪天安门广场")
    assert tokens.tolist() == ["男", "默女泪", "天安门", "广", "场"]
    assert starts.dtype == np.uint32 and limits.dtype == np.uint32
    assert starts.tolist() == [0, 3, 12, 21, 24] and limits.tolist() == [3, 12, 21, 24, 27]


def test_empty_string_and_separators(paths):
    op = JiebaTokenizer(paths["hmm_model.utf8"], paths["small.dict.utf8"], with_offsets=True)
    tokens, starts, limits = op("")
    assert tokens.tolist() == [""] and starts.shape == (0,) and limits.shape == (0,)
    tokens, starts, limits = op("今天，我们")
    assert tokens.tolist() == ["今天", "，", "我们"]
    assert starts.tolist() == [0, 6, 9] and limits.tolist() == [6, 9, 15]


def test_added_words(paths):
    """add_word without freq weighs as the dictionary's median word; a word added after a call
    counts from the next call (MindSpore 2.10's words)."""
    op = JiebaTokenizer(paths["hmm_model.utf8"], paths["small.dict.utf8"], mode=JiebaMode.MP)
    assert op("男默女泪天安门广场").tolist() == ["男", "默", "女", "泪", "天安门", "广", "场"]
    op.add_word("男默女泪")
    op.add_word("天安门广场", 2)
    assert op("男默女泪天安门广场").tolist() == ["男默女泪", "天安门广场"]
    assert op.words == [("男默女泪", 0), ("天安门广场", 2)]
    op.add_dict({"江大桥": 0, "长江大桥": 1})
    assert op("南京市长江大桥").tolist() == ["南京", "市长", "江大桥"]
    op.add_word("", 5)  # no word: nothing changes
    assert op("我爱北京").tolist() == ["我", "爱", "北京"]


def test_user_dict_file(paths, tmp_path):
    op = JiebaTokenizer(paths["hmm_model.utf8"], paths["small.dict.utf8"], mode=JiebaMode.MP)
    op.add_dict(paths["user.dict.utf8"])
    assert op.words == [("男默女泪", 10), ("江大桥", 0), ("散步了", 7), ("天安门广场", 20)]
    with pytest.raises(ValueError, match="user dict file .*none.txt is not exist."):
        op.add_dict(str(tmp_path / "none.txt"))


def test_pipeline_columns_and_serialization(paths, tmp_path):
    data = ds.NumpySlicesDataset(["我爱北京天安门", "床前明月光"], column_names=["text"],
                                 shuffle=False)
    op = JiebaTokenizer(paths["hmm_model.utf8"], paths["small.dict.utf8"], mode=JiebaMode.MP,
                        with_offsets=True)
    data = data.map(operations=op, input_columns=["text"],
                    output_columns=["token", "start", "limit"])
    rows = [{k: v.tolist() for k, v in row.items()}
            for row in data.create_dict_iterator(num_epochs=1, output_numpy=True)]
    assert rows == [{"token": ["我", "爱", "北京天安门"], "start": [0, 3, 6], "limit": [3, 6, 21]},
                    {"token": ["床", "前", "明月光"], "start": [0, 3, 6], "limit": [3, 6, 15]}]
    lines = tmp_path / "lines.txt"
    lines.write_text("我爱北京天安门\n", encoding="utf-8")
    data = ds.TextFileDataset(str(lines), shuffle=False).map(operations=op)
    # MindSpore writes the transform without its arguments, and cannot rebuild it
    assert ds.serialize(data)["operations"] == [{"tensor_op_name": "JiebaTokenizer",
                                                "tensor_op_params": None}]
    ds.serialize(data, str(tmp_path / "pipe.json"))
    with pytest.raises(RuntimeError, match="unsupported operation: JiebaTokenizer"):
        ds.deserialize(json_filepath=str(tmp_path / "pipe.json")).get_dataset_size()


def test_argument_checks(paths):
    hmm, mp = paths["hmm_model.utf8"], paths["small.dict.utf8"]
    cases = [((None, mp), {}, ValueError, "The dict of HMMSegment in cppjieba is not provided."),
             ((1, mp), {}, TypeError, "Wrong input type for hmm_path, should be string."),
             ((hmm, None), {}, ValueError, "The dict of MPSegment in cppjieba is not provided."),
             ((hmm, 3), {}, TypeError, "Wrong input type for mp_path, should be string."),
             ((hmm, mp), {"mode": 1}, TypeError, "Wrong input type for mode, should be JiebaMode."),
             ((hmm, mp), {"with_offsets": 1}, TypeError,
              "Wrong input type for with_offsets, should be boolean."),
             ((hmm + ".none", mp), {}, ValueError, f" jieba mode file {hmm}.none is not exist.")]
    for args, kwargs, error, message in cases:
        with pytest.raises(error) as info:
            JiebaTokenizer(*args, **kwargs)
        assert str(info.value) == message
    op = JiebaTokenizer(hmm, mp)
    word_cases = [((None,), ValueError, "word is not provided."),
                  (("北京", -1), ValueError,
                   "Input is not within the required interval of [0, 4294967295]."),
                  (("北京", 2 ** 32), ValueError,
                   "Input is not within the required interval of [0, 4294967295]."),
                  (("北京", 1.5), TypeError, "Argument  with value 1.5 is not of type "),
                  ((5,), TypeError, "Wrong input type for word")]
    for args, error, message in word_cases:
        with pytest.raises(error) as info:
            op.add_word(*args)
        assert str(info.value).startswith(message)
    for user_dict in (["a"], None):
        with pytest.raises(TypeError, match="The type of user_dict must str or dict."):
            op.add_dict(user_dict)
    assert op.words == []


def test_input_checks(paths):
    op = JiebaTokenizer(paths["hmm_model.utf8"], paths["small.dict.utf8"])
    message = ("JiebaTokenizerOp: the input shape should be scalar and the input datatype "
               "should be string.")
    for value in (np.array(["我爱", "北京"]), 3, np.array(b"abc"), ["我爱"]):
        with pytest.raises(RuntimeError) as info:
            op(value)
        assert str(info.value) == message
    with pytest.raises(RuntimeError, match="JiebaTokenizerOp: input should be one column data."):
        op("a", "b")


@pytest.mark.parametrize("content, message", [
    ("我 5 r\n爱 3 v\n\n北京 4 ns\n", "JiebaTokenizer: Split result illegal, line: "),
    ("我 5 r\n爱北 3\n", "JiebaTokenizer: Split result illegal, line: 爱北 3"),
    ("我 5 r\n爱北 3 v x\n", "JiebaTokenizer: Split result illegal, line: 爱北 3 v x"),
    ("", "JiebaTokenizer: MPSegment algorithm file format is incorrect."),
    # MindSpore (cppjieba's assertion) ends the process here
    ("我 5 r\n爱北 abc v\n", 'JiebaTokenizer: the frequency of the word "爱北"'),
])
def test_dictionary_file_errors(paths, tmp_path, content, message):
    path = tmp_path / "bad.dict"
    path.write_text(content, encoding="utf-8")
    op = JiebaTokenizer(paths["hmm_model.utf8"], str(path), mode=JiebaMode.MP)
    with pytest.raises(RuntimeError) as info:
        op("我爱北京")
    assert str(info.value).startswith(message)


def test_dictionary_file_forms(paths, tmp_path):
    """CRLF lines, a byte-order mark, a float or a number with a tail as freq (C's atof), and
    a word listed twice (its last line counts): MindSpore 2.10's words."""
    hmm = paths["hmm_model.utf8"]
    files = {"crlf": "我 5 r\r\n爱 3 v\r\n北京 4 ns\r\n",
             "bom": "\ufeff我 5 r\n北京 4 ns\n",
             "floats": "我 5 r\n北京 4 ns\n天安 2.5e1 n\n门 0.5x n\n",
             "twice": "我 5 r\n北京 4 ns\n北京 400 ns\n京天 10 n\n"}
    expected = {"crlf": ["我", "爱", "北京", "天", "安", "门"],
                "bom": ["我", "爱", "北京", "天", "安", "门"],
                "floats": ["我", "爱", "北京", "天安", "门"],
                "twice": ["我", "爱", "北京", "天", "安", "门"]}
    for name, content in files.items():
        path = tmp_path / f"{name}.dict"
        path.write_text(content, encoding="utf-8", newline="")
        op = JiebaTokenizer(hmm, str(path), mode=JiebaMode.MP)
        assert op("我爱北京天安门").tolist() == expected[name], name


def test_path_errors_at_first_call(paths, tmp_path):
    hmm, mp = paths["hmm_model.utf8"], paths["small.dict.utf8"]
    bad_hmm = tmp_path / "bad_hmm.utf8"
    bad_hmm.write_text("#x\n-0.1 -0.2 -0.3 -0.4\n1 2 3 4\n1 2 3 4\n1 2 3 4\n1 2 3 4\n")
    start_error = ("JiebaTokenizer: The file format of the MPSegment algorithm is incorrect, "
                   "and the content fails to be obtained when startProb is loaded.")
    mp_error = "JiebaTokenizer: MPSegment algorithm file format is incorrect."
    hmm_error = "JiebaTokenizer: HMMSegment algorithm file format is incorrect."
    cases = [(("", mp), "JiebaTokenizer: The dict of HMMSegment in cppjieba is not provided."),
             ((hmm, ""), "JiebaTokenizer: The dict of MPSegment in cppjieba is not provided."),
             ((str(tmp_path), mp), start_error), ((hmm, str(tmp_path)), mp_error),
             ((str(bad_hmm), mp), hmm_error)]
    for args, message in cases:
        op = JiebaTokenizer(*args)  # only a path that does not exist fails here
        with pytest.raises(RuntimeError) as info:
            op("我爱北京")
        assert str(info.value) == message


def test_jieba_mode_values():
    assert [(m.name, int(m)) for m in JiebaMode] == [("MIX", 0), ("MP", 1), ("HMM", 2)]
    assert text.utils.JiebaMode is JiebaMode
