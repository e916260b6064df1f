"""dataset.LineReader reads a file's lines by number as MindSpore 2.10's does (its messages)."""
import pytest

import cellgraph.dataset as ds


def test_lines_and_errors(tmp_path):
    path = tmp_path / "lines.txt"
    path.write_bytes(b"a\r\nb\n\nc")
    reader = ds.LineReader(str(path))
    assert len(reader) == 4 and reader.len() == 4
    assert [reader.readline(i) for i in range(1, 5)] == ["a", "b", "", "c"] and reader[2] == "b"
    with pytest.raises(ValueError, match=r"Input line is not within the required interval of "
                                         r"\[1, 4\]."):
        reader.readline(5)
    with pytest.raises(TypeError, match="Argument line with value 1.5 is not of type"):
        reader.readline(1.5)
    reader.close()
    with pytest.raises(RuntimeError, match=r"The input file \[.*missing.txt\] does not exist."):
        ds.LineReader(str(tmp_path / "missing.txt"))
    with pytest.raises(RuntimeError, match="is not a regular file."):
        ds.LineReader(str(tmp_path))
