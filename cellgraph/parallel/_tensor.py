"""`mindspore.parallel._tensor`: a parameter's slices and its layout (a device matrix and a
tensor map, as in strategy files: train/strategy_file.py). `_get_tensor_strategy` says how
many slices each dimension is cut into; `_reshape_param_data` puts the whole parameter back
together from the slices every device holds, stacked in rank order."""
from __future__ import annotations

import numpy as np

from cellgraph.runtime.tensor import Tensor
from cellgraph.train.strategy_file import rank_block


def _get_tensor_strategy(dev_mat, tensor_map):
    """The number of slices each dimension of a tensor laid out by `tensor_map` over
    `dev_mat` is cut into."""
    return [rank_block(0, list(dev_mat), entry)[1] for entry in tensor_map]


def _reshape_param_data(param_data, dev_mat, tensor_map):
    """The whole tensor from `param_data`, the slices of every device of `dev_mat` stacked
    along axis 0 in rank order. Devices holding the same slice hold copies; as in MindSpore,
    the one of the highest rank is kept."""
    dev_mat = list(dev_mat)
    slices = np.split(param_data.asnumpy(), int(np.prod(dev_mat)), axis=0)
    counts = _get_tensor_strategy(dev_mat, tensor_map)
    shape = slices[0].shape
    whole = np.empty([n * c for n, c in zip(shape, counts)], slices[0].dtype)
    for rank, part in enumerate(slices):
        at = tuple(slice(rank_block(rank, dev_mat, e)[0] * n, (rank_block(rank, dev_mat, e)[0]
                                                              + 1) * n)
                   for e, n in zip(tensor_map, shape))
        whole[at] = part
    return Tensor(whole)
