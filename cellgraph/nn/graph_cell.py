"""`nn.GraphCell`: a Cell that runs a graph `load` read from a MindIR file."""
from __future__ import annotations

from cellgraph.runtime.tensor import Parameter, Tensor

from .cell import Cell

__all__ = ["GraphCell"]


class GraphCell(Cell):
    """Runs `graph`, a MindIR graph from `cellgraph.load`, on its inputs, with the graph's
    parameters (`params_init`: name -> Tensor or Parameter replaces the value of the
    parameter of that name; names the graph does not hold are ignored, as MindSpore does).

    The graph runs node by node through cellgraph's primitive classes whenever the cell is
    called, in either mode. Called from inside a compiled function (jit, another Cell's
    graph-mode `construct`), its nodes are traced into that graph, which a graph without
    control flow allows; one with a Switch raises UnsupportedError there. `obf_random_seed`
    (dynamic obfuscation) is not supported, as in MindSpore."""

    def __init__(self, graph, params_init=None, obf_random_seed=None):
        super().__init__(auto_prefix=True)
        from cellgraph.train.mindir_graph import MindIRGraph

        if obf_random_seed is not None:
            raise NotImplementedError("Dynamic structure obfuscation is not supported now.")
        if not isinstance(graph, MindIRGraph):
            raise TypeError(f"For 'GraphCell', the argument 'graph' must be a FuncGraph loaded "
                            f"from MindIR, but got type {type(graph)}.")
        params_init = {} if params_init is None else params_init
        if not isinstance(params_init, dict):
            raise TypeError(f"For 'GraphCell', the argument 'params_init' must be a dict, but "
                            f"got {type(params_init)}.")
        for name, value in params_init.items():
            if not isinstance(name, str) or not isinstance(value, Tensor):
                raise TypeError(f"For 'GraphCell', the key of the 'params_init' must be str, and "
                                f"the value must be Tensor or Parameter, but got the key type: "
                                f"{type(name)}, and the value type: {type(value)}")
        self.graph = graph
        for name, array in graph.parameter_arrays().items():
            value = params_init.get(name)
            if value is not None and (tuple(value.shape) != array.shape
                                      or value.asnumpy().dtype != array.dtype):
                raise ValueError(f"Only support update parameter by Tensor or Parameter with "
                                 f"same shape and dtype as it. The parameter '{name}' has shape "
                                 f"{list(array.shape)} and dtype {Tensor(array).dtype}, but got "
                                 f"the update value with shape {list(value.shape)} and dtype "
                                 f"{value.dtype}.")
            data = Tensor(array) if value is None else Tensor(value.asnumpy())
            self._params[name] = Parameter(data, name=name)

    def construct(self, *inputs):
        return self.graph(*inputs, parameters=self._params)

    def __call__(self, *args, **kwargs):
        if kwargs:
            raise TypeError(f"For 'GraphCell', the inputs are positional, but got keyword "
                            f"arguments {sorted(kwargs)}.")
        return self.graph(*args, parameters=self._params)
