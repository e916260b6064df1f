"""EnWik9Dataset and TextFileDataset read lines as MindSpore 2.10 does: split at "\\n" only,
EnWik9 keeping empty lines as rows (while its size counts the non-empty ones), and a line that
is not UTF-8 failing when its row is read. Expected values are MindSpore's."""
import numpy as np
import pytest

import cellgraph.dataset as ds


def _read(data):
    out = []
    with pytest.raises(RuntimeError) as info:
        out.extend(str(row[0]) for row in data.create_tuple_iterator(output_numpy=True))
    return out, str(info.value)


def _write(tmp_path, data: bytes) -> str:
    (tmp_path / "enwik9").write_bytes(data)
    return str(tmp_path)


@pytest.mark.parametrize("content, size, rows", [
    (b"first\n\nthird\nlast", 3, ["first", "", "third", "last"]),
    (b"first\n\nthird\nlast\n\n", 3, ["first", "", "third", "last", ""]),
])
def test_enwik9_keeps_empty_lines(tmp_path, content, size, rows):
    data = ds.EnWik9Dataset(_write(tmp_path, content), shuffle=False)
    assert data.get_dataset_size() == size
    assert [str(r[0]) for r in data.create_tuple_iterator(output_numpy=True)] == rows


def test_undecodable_line_fails_at_its_row(tmp_path):
    folder = _write(tmp_path, b"first\n\n  third\r\nab\xf5cd\nlast")
    error = ("Failed to cast to Unicode string: UnicodeDecodeError: 'utf-8' codec can't decode "
             "byte 0xf5 in position 2: invalid start byte")
    data = ds.EnWik9Dataset(folder, shuffle=False)
    assert data.get_dataset_size() == 4
    rows, message = _read(data)
    assert rows == ["first", "", "  third\r"] and error in message
    data = ds.TextFileDataset(folder + "/enwik9", shuffle=False)
    assert data.get_dataset_size() == 4
    rows, message = _read(data)
    assert rows == ["first", "  third\r"] and error in message


def test_wikitext_files_and_order(tmp_path):
    (tmp_path / "wiki.train.tokens").write_text(" = Title = \n\n b line\n")
    (tmp_path / "wiki.valid.tokens").write_text("valid one\n")
    (tmp_path / "wiki.test.tokens").write_text("t1\nt2\n")
    data = ds.WikiTextDataset(str(tmp_path), usage="train", shuffle=False)
    assert data.get_dataset_size() == 2
    assert [str(r[0]) for r in data.create_tuple_iterator(output_numpy=True)] == \
        [" = Title = ", " b line"]
    # "all": the files in name order (test, train, valid), read a line of each in turn
    data = ds.WikiTextDataset(str(tmp_path), shuffle=False)
    assert [str(r[0]) for r in data.create_tuple_iterator(output_numpy=True)] == \
        ["t1", " = Title = ", "t2", " b line", "valid one"]


def test_udpos_sentences(tmp_path):
    (tmp_path / "en-ud-tag.v2.train.txt").write_text(
        "Hi\tINTJ\tUH\nthere\tADV\tRB\n\nOk\tINTJ\tUH\n\ntail\tNOUN\tNN\n")
    (tmp_path / "en-ud-tag.v2.test.txt").write_text("b\tX\n\n")
    data = ds.UDPOSDataset(str(tmp_path), usage="train", shuffle=False)
    assert data.get_dataset_size() == 4  # its non-empty lines, as MindSpore counts
    rows = [[c.tolist() for c in r] for r in data.create_tuple_iterator(output_numpy=True)]
    # a sentence the file ends in (no empty line after it) is not read, as in MindSpore
    assert rows == [[["Hi", "there"], ["INTJ", "ADV"], ["UH", "RB"]], [["Ok"], ["INTJ"], ["UH"]]]
    _, message = _read(ds.UDPOSDataset(str(tmp_path), usage="test", shuffle=False))
    assert ("Invalid file content, each line should contain three columns, representing word, "
            "universal and stanford.") in message


def test_truncate_sequence_pair():
    # MindSpore's values: the longer sequence (the second on a tie) loses its last item
    from cellgraph.dataset import text

    op = text.TruncateSequencePair(3)
    assert [x.tolist() for x in op(["1", "2", "3"], ["4", "5"])] == [["1", "2"], ["4"]]
    assert [x.tolist() for x in op(np.array([1, 2]), np.array([3, 4]))] == [[1, 2], [3]]
    assert [x.tolist() for x in text.TruncateSequencePair(1)([1, 2], [3, 4, 5])] == [[1], []]
    assert [x.tolist() for x in text.TruncateSequencePair(9)([1], [3])] == [[1], [3]]
    with pytest.raises(RuntimeError, match="both data column should be of rank 1."):
        op(np.array([[1, 2]]), np.array([3]))
    data = ds.NumpySlicesDataset({"s1": [[1, 2, 3]], "s2": [[4, 5]]}, shuffle=False)
    row = next(data.map(op, input_columns=["s1", "s2"]).create_dict_iterator(output_numpy=True))
    assert row["s1"].tolist() == [1, 2] and row["s2"].tolist() == [4]


def test_vocab_zero_d_arrays_are_one_item():
    # MindSpore's values: a 0-d array is one id / one token, a 1-d array a list
    from cellgraph.dataset import text

    vocab = text.Vocab.from_list(["w1", "w2", "w3"], special_tokens=["<unk>"],
                                 special_first=True)
    assert vocab.ids_to_tokens(np.array(2)) == "w2"
    assert vocab.ids_to_tokens(np.array([2, 3])) == ["w2", "w3"]
    assert vocab.tokens_to_ids(np.array("w1")) == 1
    assert vocab.tokens_to_ids(np.array(["w1", "w3"])) == [1, 3]
    assert vocab.tokens_to_ids(np.array("zz")) == -1


def test_squad_rows(tmp_path):
    import json

    (tmp_path / "train-v1.1.json").write_text(json.dumps({"data": [{"paragraphs": [{
        "context": "C1", "qas": [
            {"question": "Q1", "answers": [{"text": "a", "answer_start": 3},
                                           {"text": "b", "answer_start": 0}]},
            {"question": "Q2", "answers": []}]}]}]}))
    (tmp_path / "dev-v2.0.json").write_text(json.dumps({"data": [{"paragraphs": [{
        "context": "D", "qas": [{"question": "QD",
                                 "answers": [{"text": "x", "answer_start": 1}]}]}]}]}))
    data = ds.SQuADDataset(str(tmp_path), shuffle=False)
    assert data.get_dataset_size() == 3
    rows = [[c.tolist() for c in r] for r in data.create_tuple_iterator(output_numpy=True)]
    # MindSpore's values: the files read in turn; no answers is [""] and [-1 as uint32]
    assert rows == [["C1", "Q1", ["a", "b"], [3, 0]], ["D", "QD", ["x"], [1]],
                    ["C1", "Q2", [""], [4294967295]]]


def test_lookup_of_one_word():
    from cellgraph.dataset import text

    vocab = text.Vocab.from_list(["w1", "w2"])
    out = text.Lookup(vocab)(np.array("w2"))
    assert out.shape == () and int(out) == 1
    assert text.Lookup(vocab)(["w2", "w1"]).tolist() == [1, 0]
