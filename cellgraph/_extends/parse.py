"""`mindspore._extends.parse`: `compile_config`, MindSpore's switches for its graph compiler.

cellgraph reads none of them; `CHECK_BPROP` in particular asks MindSpore to check that a Cell's
`bprop` returns one gradient per input with the input's shape and dtype, which cellgraph always
does."""
from __future__ import annotations

import types

compile_config = types.SimpleNamespace(CHECK_BPROP="")
