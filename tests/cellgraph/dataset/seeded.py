"""Rows of a seeded pipeline: what the tests of MindSpore's random vision operations compare."""
import cellgraph.dataset as ds


def mapped_rows(op, images, workers=1, seed=11):
    """The images through `op` mapped over a NumpySlicesDataset, on dataset seed `seed`."""
    ds.config.set_seed(seed)
    data = ds.NumpySlicesDataset({"image": images}, shuffle=False)
    data = data.map(op, "image", num_parallel_workers=workers)
    return [row[0] for row in data.create_tuple_iterator(output_numpy=True)]
