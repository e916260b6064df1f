"""CSVDataset against rows, types and errors recorded from MindSpore 2.10 on the small files
written below (a header row, quoted fields holding the delimiter, a doubled quote and a line
break, empty fields, another delimiter)."""
import numpy as np
import pytest

import cellgraph.dataset as ds

FILES = {
    "head.csv": 'a,b,c\n1,2.5,x\n7,-1,"line\nbreak"\n',
    "empty.csv": ',,\n3,,s\n',
    "quote.csv": '"q,""r""",x\n',
    "semi.csv": '3;4.5;s\n;;\n',
    "two.csv": '5,6,7\n',
}

# (arguments after the file, column names, dataset size, rows as (dtype, value) or the error)
CASES = [
      ('"head.csv", column_defaults=[5, 0.25, "dflt"], shuffle=False',
       ['a', 'b', 'c'], 2, [[('int32', 1), ('float32', 2.5), ('<U1', 'x')], [('int32', 7), ('float32', -1.0), ('<U10', 'line\nbreak')]]),
      ('"empty.csv", column_defaults=[5, 0.25, "dflt"], column_names=["i", "f", "s"], shuffle=False',
       ['i', 'f', 's'], 2, 'RuntimeError: Invalid csv, csv file: empty.csv parse failed at line 1, type does not match.'),
      ('"quote.csv", column_names=["p", "q"], shuffle=False',
       ['p', 'q'], 1, [[('<U5', 'q,"r"'), ('<U1', 'x')]]),
      ('"semi.csv", field_delim=";", column_defaults=[1, 2.0, "z"], column_names=["i", "f", "s"], shuffle=False',
       ['i', 'f', 's'], 2, 'RuntimeError: Invalid csv, csv file: semi.csv parse failed at line 2, type does not match.'),
      ('"semi.csv", field_delim=";", column_names=["i", "f", "s"], shuffle=False',
       ['i', 'f', 's'], 2, [[('<U1', '3'), ('<U3', '4.5'), ('<U1', 's')], [('<U1', ''), ('<U1', ''), ('<U1', '')]]),
      ('"head.csv", column_defaults=[5, 5, "dflt"], shuffle=False',
       ['a', 'b', 'c'], 2, [[('int32', 1), ('int32', 2), ('<U1', 'x')], [('int32', 7), ('int32', -1), ('<U10', 'line\nbreak')]]),
]


@pytest.fixture
def folder(tmp_path, monkeypatch):
    for name, text in FILES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("spelled, names, size, expected", CASES)
def test_csv_gives_mindspores_rows(folder, spelled, names, size, expected):
    data = eval("ds.CSVDataset(" + spelled + ")")  # the call as written above
    assert data.get_col_names() == names and data.get_dataset_size() == size
    if isinstance(expected, str):
        with pytest.raises(RuntimeError) as info:
            list(data.create_tuple_iterator(output_numpy=True))
        # MindSpore's wording: its summary, then the message under its heading
        message = str(info.value)
        assert message.startswith("Exception thrown from dataset pipeline.")
        assert f"\n[ERROR] {expected.split(': ', 1)[1]}\n" in message
        return
    rows = [[(str(v.dtype), v.tolist()) for v in row]
            for row in data.create_tuple_iterator(output_numpy=True)]
    assert rows == expected


def test_unclosed_quote_and_repeated_columns_are_refused(folder):
    (folder / "open.csv").write_text('1,2\n3,"4\n', encoding="utf-8")
    data = ds.CSVDataset("open.csv", column_names=["a", "b"], shuffle=False)
    assert data.get_dataset_size() == 2
    with pytest.raises(RuntimeError, match="reach the end of file in quote field"):
        list(data)
    twice = ds.CSVDataset("quote.csv", column_names=["p", "p"], shuffle=False)
    with pytest.raises(RuntimeError, match="duplicate column names are not allowed: p"):
        twice.create_dict_iterator()


def test_files_shuffle_and_shards(folder):
    data = ds.CSVDataset(["head.csv", "two.csv"], column_names=["a", "b", "c"],
                         shuffle=ds.Shuffle.FILES)
    rows = [r[0].item() for r in data.create_tuple_iterator(output_numpy=True)]
    assert sorted(rows) == ["1", "5", "7", "a"]  # as MindSpore: the header is a row here
    shards = []
    for shard_id in (0, 1):  # MindSpore: equal shards of consecutive rows, wrapping around
        shard = ds.CSVDataset("head.csv", column_names=["a", "b", "c"], shuffle=False,
                              num_shards=2, shard_id=shard_id)
        shards.append([r[0].item() for r in shard.create_tuple_iterator(output_numpy=True)])
    assert shards == [["a", "1"], ["7", "a"]]
    assert np.asarray(next(iter(shard))[0]).dtype.kind == "U"
