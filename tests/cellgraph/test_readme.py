"""The README stays true: its example prints what it says, its commands exist."""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
FENCE = re.compile(r"```(\w+)\n(.*?)```", re.DOTALL)


def fenced_blocks(kind: str) -> list[str]:
    return [body for lang, body in FENCE.findall(README) if lang == kind]


def run(args, cwd):
    return subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=60, check=False)


def test_example_prints_what_the_readme_shows(tmp_path):
    (example,) = fenced_blocks("python")
    forward_output, grad_ir = fenced_blocks("text")
    (tmp_path / "example.py").write_text(example)
    proc = run(["example.py"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == forward_output
    proc = run(["-m", "cellgraph", "ir", "example.py", "--grad"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == grad_ir


def test_set_up_commands_are_make_install_then_make_test():
    setup = fenced_blocks("sh")[0].splitlines()
    assert [line.split("#")[0].strip() for line in setup] == ["make install", "make test"]


def test_every_make_command_in_the_readme_is_a_makefile_target():
    targets = set(re.findall(r"^([\w-]+):", (ROOT / "Makefile").read_text(), re.MULTILINE))
    mentioned = set(re.findall(r"`make ([\w-]+)`", README)) | {"install", "test"}
    assert mentioned <= targets, mentioned - targets


def test_every_cli_command_in_the_readme_exists():
    documented = re.findall(r"^### cellgraph (\w+)$", README, re.MULTILINE)
    assert documented == ["run", "ir", "samples", "launch"]
    for command in documented:
        proc = run(["-m", "cellgraph", command, "--help"], ROOT)
        assert proc.returncode == 0, proc.stderr
