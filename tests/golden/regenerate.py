"""Rewrite the golden IR files: `python -m tests.golden.regenerate` (`make golden`).

Review the diff before committing it: it shows what a compiler change did to the programs.
"""
from __future__ import annotations

import contextlib
import sys
from pathlib import Path

import cellgraph

from .programs import golden_cases

GOLDEN_DIR = Path(__file__).resolve().parent


def golden_path(program_name: str, stage: str) -> Path:
    return GOLDEN_DIR / f"{program_name}.{stage}.ir"


def current_ir(program, stage: str) -> str:
    """The IR text the compiler produces now for `program` at `stage`."""
    with program_context(program):
        fn, args = program.build()
        return cellgraph.dump_ir(fn, *args, stage=stage)


@contextlib.contextmanager
def program_context(program):
    """The program's context settings (`ProgramInContext.context`) while it is built and
    compiled, the previous ones after."""
    settings = getattr(program, "context", ())
    before = {key: cellgraph.get_context(key) for key, _ in settings}
    cellgraph.set_context(**dict(settings))
    try:
        yield
    finally:
        cellgraph.set_context(**before)


def regenerate() -> list[Path]:
    """Write every golden file; returns the paths whose text changed."""
    changed = []
    for program, stage in golden_cases():
        path = golden_path(program.name, stage)
        text = current_ir(program, stage)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            changed.append(path)
    return changed


def main() -> int:
    changed = regenerate()
    for path in changed:
        print(f"updated {path}")
    print(f"{len(golden_cases())} golden files, {len(changed)} changed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
