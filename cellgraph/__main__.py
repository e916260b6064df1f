"""`python -m cellgraph ...`: the same program as the `cellgraph` console script."""
from cellgraph.cli import main

raise SystemExit(main())
