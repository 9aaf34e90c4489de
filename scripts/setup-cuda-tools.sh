#!/usr/bin/env bash
# Installs NVIDIA's CUDA compiler tools from PyPI into the project-local virtual environment
# .cuda-venv/ (git-ignored): nvcc, cicc, ptxas, fatbinary, nvlink (nvidia-cuda-nvcc), the CRT and
# runtime headers with libcudart (nvidia-cuda-crt, nvidia-cuda-runtime), cuobjdump and nvdisasm.
# They run without a GPU. scripts/with-cuda puts them on PATH; lit, the test-suite harness and
# `harness.py isa` find them in .cuda-venv/cuda/bin by themselves.
#
#   scripts/setup-cuda-tools.sh       install (or complete) .cuda-venv; a no-op when it is there
#
# Called by scripts/setup.sh (unless --no-cuda-tools) and by CI. Never fails the caller: where
# pip cannot reach PyPI it says so and exits 0, and what needs the tools is skipped with a reason.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.cuda-venv"
# CUDA 13: ptxsim's stand-in runtime is libcudart.so.13 (ptx-sim/README.md).
WHEELS=(nvidia-cuda-nvcc nvidia-cuda-crt nvidia-cuda-runtime nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm)
SPEC=()
for w in "${WHEELS[@]}"; do SPEC+=("$w>=13,<14"); done

say() { printf '==> %s\n' "$*"; }
warn() { printf 'setup-cuda-tools: %s\n' "$*" >&2; }

if [ -x "$VENV/cuda/bin/nvcc" ] && [ -x "$VENV/cuda/bin/ptxas" ] && [ -e "$VENV/cuda/lib/libcudart.so" ]; then
  say "CUDA tools: present ($("$VENV/cuda/bin/nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p'))"
  exit 0
fi

if [ ! -x "$VENV/bin/pip" ]; then
  say "creating $VENV"
  if ! python3 -m venv "$VENV"; then
    warn "python3 -m venv failed (Debian: apt-get install python3-venv); no CUDA tools: the nvcc tests are skipped"
    rm -rf "$VENV"
    exit 0
  fi
fi
say "installing the CUDA tools from PyPI into $VENV: ${WHEELS[*]}"
if ! "$VENV/bin/pip" install --quiet --disable-pip-version-check "${SPEC[@]}"; then
  warn "pip could not install ${WHEELS[*]} (is PyPI reachable?); no CUDA tools: the nvcc tests and the ptxas check are skipped"
  exit 0
fi

# The wheels put everything under site-packages/nvidia/cu13; .cuda-venv/cuda names it for
# everyone (CUDA_HOME-like: bin/, include/, lib/, nvvm/).
top=$(ls -d "$VENV"/lib/python3*/site-packages/nvidia/cu13 2>/dev/null | head -n 1)
if [ -z "$top" ] || [ ! -x "$top/bin/nvcc" ]; then
  warn "the wheels installed, but no nvidia/cu13/bin/nvcc in $VENV: the nvcc tests are skipped"
  exit 0
fi
ln -sfn "${top#"$VENV"/}" "$VENV/cuda"
# `nvcc -cudart shared` links -lcudart; the wheel ships only libcudart.so.13.
[ -e "$VENV/cuda/lib/libcudart.so" ] || ln -s libcudart.so.13 "$VENV/cuda/lib/libcudart.so"
say "CUDA tools: $("$VENV/cuda/bin/nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p') in $VENV/cuda"
