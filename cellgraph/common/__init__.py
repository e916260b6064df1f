"""cellgraph.common: initializers and shared helpers."""
