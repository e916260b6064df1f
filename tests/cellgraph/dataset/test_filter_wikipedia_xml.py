"""text.FilterWikipediaXML: MindSpore 2.10's outputs (recorded), quirks included: its rewrites
apply in the sorted order of their patterns, `R` is dropped, ICU's `\\n` replacement is `n`."""
import numpy as np
import pytest

import cellgraph.dataset as ds
from cellgraph.dataset import text

CASES = [("Welcome    to    China", "welcome to china"), ("!!!", ""), ("ABC", "abc"),
         ("Rome and REST 42", "ome and est four two"), ("中国", ""),
         ("[[fr:Paris]] line1\n\n line2 [[Paris|city]] {x}",
          "fr paris line one line two paris city x"),
         ("#REDIRECT [[Foo]]", ""), ("Tab\tand  12.5%", "tab and one two five"),
         ("<page><title>Hi</title>[[Category:Birds|x]] &amp; x&nbsp;y</page>", "")]


@pytest.mark.parametrize("given, expected", CASES)
def test_as_mindspore(given, expected):
    assert str(text.FilterWikipediaXML()(given)) == expected


def test_in_a_pipeline_and_on_arrays():
    op = text.FilterWikipediaXML()
    out = op(np.array(["Hello World"]))
    assert out.shape == (1,) and out[0] == "hello world"
    data = ds.NumpySlicesDataset(np.array(["Welcome to China", "中国", "ABC"]), ["text"],
                                 shuffle=False).map(operations=op, input_columns=["text"])
    assert [str(r["text"]) for r in data.create_dict_iterator(output_numpy=True)] == \
        ["welcome to china", "", "abc"]
    with pytest.raises(RuntimeError, match="input is not of type string"):
        op(np.array([1, 2]))
