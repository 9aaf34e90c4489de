#!/usr/bin/env bash
# Sets up a Debian 12 machine for ptxcc, builds it, and runs the main job: examples/saxpy.c
# compiled by ptxcc and run with OMP_TARGET_OFFLOAD=MANDATORY (on the GPU if one answers, else on
# libptxrt's CPU emulator).
#
#   scripts/setup.sh              install what is missing, build, run the main job
#   scripts/setup.sh --no-run     install what is missing and build only (what CI uses)
#   scripts/setup.sh --no-cuda-tools   skip NVIDIA's CUDA tools from PyPI (nvcc, ptxas, ...)
#
# Idempotent: installed packages are left alone, the build is incremental. Needs root (or sudo)
# for apt-get.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
RUN_MAIN=1
CUDA_TOOLS=1
for arg in "$@"; do
  case "$arg" in
    --no-run) RUN_MAIN=0 ;;
    --no-cuda-tools) CUDA_TOOLS=0 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) echo "setup.sh: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done

say() { printf '==> %s\n' "$*"; }

SUDO=()
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null; then SUDO=(sudo); else
    echo "setup.sh: not root and no sudo: install packages as root" >&2
  fi
fi

# --- Debian packages -------------------------------------------------------------------------
# clang 19 and LLVM 19 (libLLVM for inkwell/llvm-sys, FileCheck/not/lit.py from llvm-19-tools),
# libclang for the OpenACC front end, libomp for the host OpenMP runtime, libclc for device math,
# what linking LLVM and building Rust crates needs, and CMake and OpenMPI (the tests build a CMake
# project and an MPI program with ptxcc).
PACKAGES=(
  clang-19 llvm-19 llvm-19-dev llvm-19-tools libclang-19-dev libomp-19-dev libclc-19 libclc-19-dev
  zlib1g-dev libzstd-dev libxml2-dev libffi-dev
  build-essential pkg-config python3 python3-pip ca-certificates curl
  cmake openmpi-bin libopenmpi-dev
)
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
export DEBIAN_FRONTEND=noninteractive
apt_install() { "${SUDO[@]}" apt-get install -y -q --no-install-recommends "$@"; }
APT_UPDATED=0
apt_update() { [ "$APT_UPDATED" = 1 ] || { "${SUDO[@]}" apt-get update -q && APT_UPDATED=1; }; }

# python3-venv: the virtual environment of NVIDIA's CUDA tools (.cuda-venv, below).
PACKAGES+=(python3-venv)

missing=()
for pkg in "${PACKAGES[@]}"; do
  installed "$pkg" || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  say "installing: ${missing[*]}"
  apt_update
  apt_install "${missing[@]}"
else
  say "Debian packages: all present"
fi

# GCC 12's nvptx offloading, for the test-suite's GCC versions (the harness compares ptxcc with
# it; on a machine without a GPU they run on ptxsim). Optional: a failure here is only a warning.
# clang-tools-19 (clang-offload-packager, clang-linker-wrapper): Clang 19's own OpenMP offloading,
# built as a peer of ptxcc.
OPTIONAL=(gcc-12-offload-nvptx clang-tools-19)
for pkg in "${OPTIONAL[@]}"; do
  if ! installed "$pkg"; then
    say "installing (optional): $pkg"
    # With stale package lists (nothing above needed installing) the first try can fail.
    apt_install "$pkg" 2>/dev/null || { apt_update && apt_install "$pkg"; } \
      || echo "setup.sh: could not install $pkg; what needs it (GCC's or Clang's offloading) is skipped" >&2
  fi
done

# --- lit (PyPI) --------------------------------------------------------------------------------
# Debian's Python is externally managed (PEP 668): install for this user, overriding that.
pip_install() {
  python3 -m pip install --user --quiet "$1" 2>/dev/null \
    || python3 -m pip install --user --quiet --break-system-packages "$1"
}
export PATH="$HOME/.local/bin:$HOME/.cargo/bin:$PATH"
# 'import lit.main', not 'import lit': run from the repository root, the test folder lit/ imports
# as an empty namespace package and would pass for an installed lit.
if command -v lit >/dev/null || python3 -c 'import lit.main' 2>/dev/null; then
  say "lit: present"
else
  say "installing lit from PyPI"
  pip_install lit \
    || echo "setup.sh: pip could not install lit; scripts/test.sh falls back to LLVM 19's lit.py" >&2
fi

# --- matplotlib (PyPI): the test-suite report's charts (harness.py writes them when it can) -------
if python3 -c 'import matplotlib' 2>/dev/null; then
  say "matplotlib: present"
else
  say "installing matplotlib from PyPI"
  pip_install matplotlib \
    || echo "setup.sh: pip could not install matplotlib; the test-suite report will have no charts" >&2
fi

# --- A current CMake (PyPI) in .cmake-venv/, next to Debian's (scripts/setup-cmake-current.sh) ---
bash "$ROOT/scripts/setup-cmake-current.sh"

# --- CUDA tools (PyPI): nvcc, ptxas, cuobjdump, nvdisasm in .cuda-venv/ -----------------------
# Without a GPU: nvcc's programs run on ptxsim, lit assembles its PTX with ptxas (the 'ptxas'
# feature). Never fatal: without PyPI the tests that need them are skipped.
if [ "$CUDA_TOOLS" = 1 ]; then
  bash "$ROOT/scripts/setup-cuda-tools.sh"
else
  say "CUDA tools: skipped (--no-cuda-tools)"
fi

# --- Rust --------------------------------------------------------------------------------------
if command -v cargo >/dev/null; then
  say "cargo: $(cargo --version)"
else
  say "installing Rust (rustup, stable)"
  if curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal; then
    # shellcheck disable=SC1091
    . "$HOME/.cargo/env"
  else
    echo "setup.sh: rustup failed; trying Debian's cargo (may be too old for this workspace)" >&2
    "${SUDO[@]}" apt-get install -y -q cargo rustc
  fi
fi

# --- Build -------------------------------------------------------------------------------------
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
say "building (cargo build --release) into $TARGET_DIR"
cargo build --release --workspace

# --- Main job ----------------------------------------------------------------------------------
if [ "$RUN_MAIN" = 1 ]; then
  say "main job: ptxcc -O2 examples/saxpy.c, run with OMP_TARGET_OFFLOAD=MANDATORY"
  "$TARGET_DIR/release/ptxcc" -O2 examples/saxpy.c -o "$TARGET_DIR/saxpy"
  OMP_TARGET_OFFLOAD=MANDATORY "$TARGET_DIR/saxpy"
fi
