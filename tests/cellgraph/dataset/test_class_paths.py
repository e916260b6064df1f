"""Each dataset class lives at MindSpore's module path: `type(data)` prints
`<class '....dataset.engine.datasets_vision.MnistDataset'>` as MindSpore's does, each pipeline
operation returns a dataset named as MindSpore names it, and pickle finds the class there."""
import pickle

import numpy as np
import pytest

import cellgraph.dataset as ds

ENGINE = "cellgraph.dataset.engine."


def _source():
    return ds.NumpySlicesDataset(np.arange(6), column_names=["a"], shuffle=False)


@pytest.mark.parametrize("make, path", [
    (lambda d: d, "datasets_user_defined.NumpySlicesDataset"),
    (lambda d: d.map(lambda a: a), "datasets.MapDataset"),
    (lambda d: d.batch(2), "datasets.BatchDataset"),
    (lambda d: d.shuffle(2), "datasets.ShuffleDataset"),
    (lambda d: d.repeat(2), "datasets.RepeatDataset"),
    (lambda d: d.project(["a"]), "datasets.ProjectDataset"),
    (lambda d: d.rename("a", "b"), "datasets.RenameDataset"),
    (lambda d: d.skip(1), "datasets.SkipDataset"),
    (lambda d: d.take(1), "datasets.TakeDataset"),
    (lambda d: ds.zip((d, d.rename("a", "b"))), "datasets.ZipDataset"),
    (lambda d: d + d, "datasets.ConcatDataset"),
    (lambda d: d.filter(lambda a: True), "datasets.FilterDataset"),
    (lambda d: d.create_dict_iterator(), "iterators.DictIterator"),
    (lambda d: d.create_tuple_iterator(), "iterators.TupleIterator"),
])
def test_pipeline_types(make, path):
    made = make(_source())
    assert f"{type(made).__module__}.{type(made).__qualname__}" == ENGINE + path
    assert str(type(made)) == f"<class '{ENGINE}{path}'>"


@pytest.mark.parametrize("cls, module", [
    (ds.MnistDataset, "datasets_vision"),
    (ds.Cifar10Dataset, "datasets_vision"),
    (ds.ImageFolderDataset, "datasets_vision"),
    (ds.TextFileDataset, "datasets_text"),
    (ds.GeneratorDataset, "datasets_user_defined"),
    (ds.MindDataset, "datasets_standard_format"),
    (ds.RandomSampler, "samplers"),
    (ds.DistributedSampler, "samplers"),
    (ds.DatasetCache, "cache_client"),
    (ds.Dataset, "datasets"),
    (ds.BatchInfo, "datasets"),
])
def test_class_homes(cls, module):
    assert cls.__module__ == ENGINE + module
    home = __import__(cls.__module__, fromlist=[cls.__name__])
    assert getattr(home, cls.__name__) is cls


def test_pickle_finds_the_class():
    sampler = pickle.loads(pickle.dumps(ds.SequentialSampler(1, 3)))
    assert type(sampler) is ds.SequentialSampler
    assert (sampler.start_index, sampler.num_samples) == (1, 3)


def test_transforms_reaches_the_vision_module():
    """MindSpore's dataset.transforms imports the vision module into itself: programs write
    `ds.transforms.vision.Inter.LINEAR`."""
    from cellgraph.dataset import vision

    assert ds.transforms.vision is vision
    assert ds.transforms.vision.Inter.LINEAR is vision.Inter.LINEAR
