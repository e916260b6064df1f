"""cellgraph.numpy is laid out as mindspore.numpy: each function is defined in the file that
defines it in MindSpore, so that MindSpore's module paths (`mindspore.numpy.math_ops.dot`) name
the same functions, and its files import each other without a cycle."""
import importlib

import pytest

import cellgraph.numpy as np

# a sample of each file's functions, as MindSpore 2.10 files them
MINDSPORE_FILES = {
    "array_creations": ["array", "asarray", "asfarray", "ones", "zeros", "full", "arange",
                        "linspace", "eye", "identity", "empty_like", "full_like", "tril", "triu",
                        "diag", "diagonal", "diagflat", "trace", "meshgrid", "pad", "randn",
                        "randint", "tril_indices", "triu_indices"],
    "array_ops": ["transpose", "expand_dims", "squeeze", "swapaxes", "reshape", "ravel",
                  "concatenate", "append", "hstack", "vstack", "where", "stack", "unique",
                  "moveaxis", "tile", "broadcast_to", "broadcast_arrays", "roll", "split",
                  "array_split", "flip", "take", "take_along_axis", "repeat", "size",
                  "unravel_index", "argwhere"],
    "logic_ops": ["not_equal", "less_equal", "less", "greater_equal", "greater", "equal",
                  "isfinite", "isnan", "isinf", "isclose", "isin", "logical_and",
                  "logical_not", "logical_or", "logical_xor"],
    "math_ops": ["absolute", "add", "subtract", "multiply", "divide", "true_divide", "power",
                 "minimum", "maximum", "mean", "dot", "tensordot", "std", "var", "average",
                 "matmul", "square", "sqrt", "reciprocal", "log", "amax", "amin", "hypot",
                 "floor", "ceil", "clip", "remainder", "fmod", "trunc", "exp", "expm1", "cbrt",
                 "cross", "log1p", "logaddexp", "logaddexp2", "sin", "arctan2", "cov",
                 "multi_dot", "argmax", "argmin", "searchsorted", "interp", "corrcoef", "sign",
                 "digitize", "bincount", "cumprod", "norm", "count_nonzero", "positive",
                 "log2", "bitwise_and"],
    "dtypes": ["float32", "int32", "bool_", "pi", "inf", "nan"],
}


@pytest.mark.parametrize("file", sorted(MINDSPORE_FILES))
def test_each_function_is_defined_in_mindsporess_file(file):
    module = importlib.import_module(f"cellgraph.numpy.{file}")
    for name in MINDSPORE_FILES[file]:
        assert name in module.__all__, (file, name)
        assert getattr(np, name) is getattr(module, name), (file, name)


def test_the_package_exports_each_file_and_mindsporess_aliases():
    files = [importlib.import_module(f"cellgraph.numpy.{f}") for f in MINDSPORE_FILES]
    exported = {n for m in files for n in m.__all__}
    assert exported | {"abs", "max", "min", "mod"} == set(np.__all__)
    assert len(np.__all__) == len(set(np.__all__))
    assert np.abs is np.absolute and np.max is np.amax and np.min is np.amin
    assert np.mod is np.remainder


def test_math_ops_keeps_the_builtins_it_uses():
    """var divides by max(count - ddof, 0), Python's max, not numpy's amax."""
    x = np.asarray([1.0, 2.0, 4.0])
    assert float(np.var(x, ddof=5).asnumpy()) == float("inf")
