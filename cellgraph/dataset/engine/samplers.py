"""`mindspore.dataset.engine.samplers`: the samplers at MindSpore's module path."""
from ..samplers import (
    DistributedSampler,
    IterSampler,
    PKSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    SubsetSampler,
    WeightedRandomSampler,
)
from . import at_home

__all__ = ["DistributedSampler", "IterSampler", "PKSampler", "RandomSampler", "Sampler",
           "SequentialSampler", "SubsetRandomSampler", "SubsetSampler", "WeightedRandomSampler"]

at_home(__name__, DistributedSampler, IterSampler, PKSampler, RandomSampler, Sampler, SequentialSampler,
        SubsetRandomSampler, SubsetSampler, WeightedRandomSampler)
