#!/usr/bin/env bash
# The checks of the GPU backends, on a machine with an NVIDIA GPU (`make gpu-check`):
#   1. the backend conformance suite (tests/runtime/test_backends.py, slow cases included) on
#      torch_cuda, cupy and jax;
#   2. the samples' tests with each of those backends as the one every test starts on;
#   3. the bench's GPU mode: cellgraph's GPU backends against PyTorch (eager, torch.compile) and
#      JAX on the same GPU.
# Usage: tools/gpu_check.sh [OUTDIR]   (PY=python to choose the interpreter; logs go to OUTDIR)
# Exits non-zero when any part fails; each part runs under a time limit of its own.
set -u -o pipefail
PY=${PY:-python3}
OUT=${1:-gpu-check}
mkdir -p "$OUT"
export XLA_PYTHON_CLIENT_PREALLOCATE=false PYTHONUNBUFFERED=1
status=0
section() { echo "== $1 ($(date -u +%T))"; }

section "devices"
nvidia-smi -L 2>&1 | head -4
$PY - <<'PY' 2>&1 | tee "$OUT/versions.txt"
import importlib, numpy
print("numpy", numpy.__version__)
for name in ("torch", "cupy", "jax"):
    try:
        m = importlib.import_module(name)
        print(name, m.__version__)
    except Exception as e:  # noqa: BLE001
        print(name, "unavailable:", type(e).__name__, e)
from cellgraph.runtime import gpu
print("device_target='GPU' picks:", gpu.find_gpu_backend())
import jax; print("jax devices:", jax.devices())
PY

XDIST=""
$PY -c "import xdist" 2>/dev/null && XDIST="-n ${WORKERS:-8}"

section "conformance"
timeout "${CONFORMANCE_S:-300}" $PY -m pytest -q -p no:cacheprovider $XDIST -rfE \
    tests/runtime/test_backends.py -m "slow or not slow" -k "torch_cuda or cupy or jax" \
    >"$OUT/conformance.log" 2>&1 || status=1
tail -n 40 "$OUT/conformance.log" | grep -E "^(FAILED|ERROR)|passed|failed" | tail -n 40

for backend in ${BACKENDS:-torch_cuda cupy jax}; do
    section "samples on $backend"
    timeout "${SAMPLES_S:-150}" $PY -m pytest -q -p no:cacheprovider -rfE tests/samples \
        --backend "$backend" >"$OUT/samples_$backend.log" 2>&1 || status=1
    grep -E "^(FAILED|ERROR)|passed|failed" "$OUT/samples_$backend.log" | tail -n 20
done

section "bench"
timeout "${BENCH_S:-240}" $PY -m bench --device GPU --only "${BENCH_ONLY:-W16,W17,W18,W19}" \
    --repeats "${REPEATS:-7}" --threads 4 --json "$OUT/bench.json" 2>&1 \
    | tee "$OUT/bench.txt" || status=1
section "done, status $status"
exit $status
