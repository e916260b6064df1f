"""mindspore.dataset.core: the argument checks shared by the dataset transforms."""
