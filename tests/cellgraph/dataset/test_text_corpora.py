"""The CSV text-classification corpora (AGNews, AmazonReview, DBpedia, SogouNews,
YahooAnswers, YelpReview) against rows and errors recorded from MindSpore 2.10 on two small
files: train.csv (two records, quoted delimiter and doubled quotes) and test.csv (one record
with a line break). Each corpus has its own column count: three-column records are refused by
the two- and four-column corpora."""
import pytest

import cellgraph.dataset as ds  # noqa: F401 (the calls the tests eval use it)

CASES = [
    ('AGNewsDataset', 'usage="all", shuffle=False, num_parallel_workers=1', (['index', 'title', 'description'], 3, [['3', 't3', 'multi\nline'], ['1', 't, 1', 'body "q"'], ['2', 't2', 'b2']])),
    ('AGNewsDataset', 'usage="all", shuffle=False, num_parallel_workers=2', (['index', 'title', 'description'], 3, [['3', 't3', 'multi\nline'], ['1', 't, 1', 'body "q"'], ['2', 't2', 'b2']])),
    ('AGNewsDataset', 'usage="train", shuffle=False', (['index', 'title', 'description'], 2, [['1', 't, 1', 'body "q"'], ['2', 't2', 'b2']])),
    ('DBpediaDataset', 'usage="all", shuffle=False, num_parallel_workers=1', (['class', 'title', 'content'], 3, [['3', 't3', 'multi\nline'], ['1', 't, 1', 'body "q"'], ['2', 't2', 'b2']])),
    ('DBpediaDataset', 'usage="all", shuffle=False, num_parallel_workers=2', (['class', 'title', 'content'], 3, [['3', 't3', 'multi\nline'], ['1', 't, 1', 'body "q"'], ['2', 't2', 'b2']])),
    ('DBpediaDataset', 'usage="train", shuffle=False', (['class', 'title', 'content'], 2, [['1', 't, 1', 'body "q"'], ['2', 't2', 'b2']])),
    ('AmazonReviewDataset', 'usage="all", shuffle=False, num_parallel_workers=1', (['label', 'title', 'content'], 3, [['3', 't3', 'multi\nline'], ['1', 't, 1', 'body "q"'], ['2', 't2', 'b2']])),
    ('AmazonReviewDataset', 'usage="all", shuffle=False, num_parallel_workers=2', (['label', 'title', 'content'], 3, [['3', 't3', 'multi\nline'], ['1', 't, 1', 'body "q"'], ['2', 't2', 'b2']])),
    ('AmazonReviewDataset', 'usage="train", shuffle=False', (['label', 'title', 'content'], 2, [['1', 't, 1', 'body "q"'], ['2', 't2', 'b2']])),
    ('SogouNewsDataset', 'usage="all", shuffle=False, num_parallel_workers=1', (['index', 'title', 'content'], 3, [['1', 't, 1', 'body "q"'], ['2', 't2', 'b2'], ['3', 't3', 'multi\nline']])),
    ('SogouNewsDataset', 'usage="all", shuffle=False, num_parallel_workers=2', (['index', 'title', 'content'], 3, [['1', 't, 1', 'body "q"'], ['3', 't3', 'multi\nline'], ['2', 't2', 'b2']])),
    ('SogouNewsDataset', 'usage="train", shuffle=False', (['index', 'title', 'content'], 2, [['1', 't, 1', 'body "q"'], ['2', 't2', 'b2']])),
    ('YahooAnswersDataset', 'usage="all", shuffle=False, num_parallel_workers=1', "RuntimeError: Invalid file, failed to parse csv file: {folder}/test.csv at line 1. Error message: Invalid columns, the size of column_names should be less than the size of 'column_defaults', but got the size of column_names: 3, the size of 'column_defaults': 4."),
    ('YahooAnswersDataset', 'usage="train", shuffle=False', "RuntimeError: Invalid file, failed to parse csv file: {folder}/train.csv at line 1. Error message: Invalid columns, the size of column_names should be less than the size of 'column_defaults', but got the size of column_names: 3, the size of 'column_defaults': 4."),
    ('YelpReviewDataset', 'usage="all", shuffle=False, num_parallel_workers=1', "RuntimeError: Invalid file, failed to parse csv file: {folder}/train.csv at line 1. Error message: Invalid columns, the size of column_names should be less than the size of 'column_defaults', but got the size of column_names: 2, the size of column_defaults : 2."),
    ('YelpReviewDataset', 'usage="all", shuffle=False, num_parallel_workers=2', "RuntimeError: Invalid file, failed to parse csv file: {folder}/train.csv at line 1. Error message: Invalid columns, the size of column_names should be less than the size of 'column_defaults', but got the size of column_names: 2, the size of column_defaults : 2."),
    ('YelpReviewDataset', 'usage="train", shuffle=False', "RuntimeError: Invalid file, failed to parse csv file: {folder}/train.csv at line 1. Error message: Invalid columns, the size of column_names should be less than the size of 'column_defaults', but got the size of column_names: 2, the size of column_defaults : 2."),
]


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "train.csv").write_text('1,"t, 1","body ""q"""\n2,t2,b2\n')
    (tmp_path / "test.csv").write_text('3,t3,"multi\nline"\n')
    return str(tmp_path)


@pytest.mark.parametrize("name, spelled, expected", CASES)
def test_corpus_gives_mindspores_rows(folder, name, spelled, expected):
    data = eval(f"ds.{name}(folder, {spelled})")  # the call as written above
    if isinstance(expected, str):
        with pytest.raises(RuntimeError) as info:
            list(data)
        assert str(info.value) == expected.split(": ", 1)[1].replace("{folder}", folder)
        return
    names, size, rows = expected
    assert data.get_col_names() == names and data.get_dataset_size() == size
    assert [[v.item() for v in row] for row in data.create_tuple_iterator(output_numpy=True)] \
        == rows
