"""The `mint` modules, looked up when a generated class is called: mint loads nn, which the
`ops` package itself does not need (nor may import when it loads)."""


def mint():
    """`cellgraph.mint`."""
    from cellgraph import mint as module

    return module


def functional():
    """`cellgraph.mint.nn.functional`."""
    from cellgraph.mint.nn import functional as module

    return module
