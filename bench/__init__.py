"""cellgraph's benchmarks: `python -m bench` (see bench/README.md)."""
