"""Bytes are not strings to MindSpore's text operations: eagerly and in a pipeline they raise
its RuntimeError naming the string type (MindSpore 2.10's test_raising_error_for_bytes);
PythonTokenizer decodes them, as MindSpore's does."""
import numpy as np
import pytest

import cellgraph
from cellgraph import dataset as ds
from cellgraph.dataset import text

OPS = [text.BasicTokenizer(), text.CaseFold(), text.FilterWikipediaXML(), text.Ngram([3]),
       text.NormalizeUTF8(), text.RegexReplace("/x56", "/x78"), text.ToNumber(cellgraph.int8),
       text.UnicodeCharTokenizer(), text.UnicodeScriptTokenizer(), text.WhitespaceTokenizer(),
       text.Lookup(text.Vocab.from_list(["a"]), unknown_token="a")]


@pytest.mark.parametrize("op", OPS, ids=lambda op: type(op).__name__)
def test_bytes_are_refused(op):
    with pytest.raises(RuntimeError, match="string"):
        op(b"/x56/x34/x78/x66")


def test_bytes_in_a_pipeline_are_refused_and_str_is_not():
    def rows(value):
        def gen():
            yield (np.array(value),)
        return ds.GeneratorDataset(gen, ["t"]).map(text.CaseFold())

    got = next(rows("ABC").create_tuple_iterator(output_numpy=True))[0]
    assert got.tolist() == "abc"
    with pytest.raises(RuntimeError, match="CaseFold: input is not string datatype"):
        next(rows(b"ABC").create_tuple_iterator(output_numpy=True))


def test_python_tokenizer_decodes_bytes():
    words = text.PythonTokenizer(lambda s: s.split())(np.array(b"ab cd"))
    assert words.tolist() == ["ab", "cd"]
