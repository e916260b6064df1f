"""`mindspore.multiprocessing`: Python's multiprocessing. MindSpore subclasses `Process` so
that a forked child re-creates its native runtime; cellgraph's runtime is Python objects, which
a child process gets as they were in the parent (with `fork`) or builds again on import (with
`spawn`), so Python's own `Process`, `get_context`, `set_start_method` and the rest serve."""
from multiprocessing import *
from multiprocessing import __all__  # noqa: F401
