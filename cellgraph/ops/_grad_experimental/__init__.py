"""`mindspore.ops._grad_experimental`: the registry of Python bprops (`grad_base`)."""
