"""Arguments as the gen_ops_prim fixture records them (JSON: tensors as lists with their dtype
and a complex one's imaginary parts apart, dtypes by name, tuples as {"tuple": [...]}), made
again for a package: MindSpore when recording, cellgraph when testing."""
import numpy as np


def array(kept, key):
    """A recorded array: its values under `key`, with the imaginary parts of a complex one."""
    values = np.array(kept[key], kept["dtype"])
    return (values + 1j * np.array(kept["imag"])).astype(kept["dtype"]) if "imag" in kept \
        else values


def decode(arg, package):
    """A recorded argument as `package`'s (its Tensor and dtypes)."""
    if isinstance(arg, dict):
        if "tensor" in arg:
            return package.Tensor(array(arg, "tensor"))
        if "dtype" in arg:
            return getattr(package, arg["dtype"])
        return tuple(decode(a, package) for a in arg["tuple"])
    if isinstance(arg, list):
        return [decode(a, package) for a in arg]
    return arg
