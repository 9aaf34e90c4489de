#!/usr/bin/env bash
# Installs a current CMake (3.31 or later) from PyPI into the project-local .cmake-venv/
# (git-ignored), next to Debian's. Debian 12's CMake 3.25 cannot find OpenACC for a compiler it
# identifies as Clang (FindOpenACC has no flag for Clang and its fallback list never reaches the
# caller; fixed in 3.31), so lit builds its CMake project with both: Debian's with
# -DACC_FLAG_Clang=-fopenacc (lit/driver/cmake.c), this one without (cmake-openacc-current.c).
#
#   scripts/setup-cmake-current.sh    install .cmake-venv; a no-op when it is there
#
# Called by scripts/setup.sh and by CI. Never fails the caller: without PyPI it says so and exits
# 0, and the test that needs it is skipped.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.cmake-venv"
say() { printf '==> %s\n' "$*"; }

if [ -x "$VENV/bin/cmake" ]; then
  say "CMake (PyPI): present ($("$VENV/bin/cmake" --version | head -n 1))"
  exit 0
fi
if python3 -m venv "$VENV" 2>/dev/null \
    && "$VENV/bin/pip" install --quiet --disable-pip-version-check 'cmake>=3.31'; then
  say "CMake (PyPI): $("$VENV/bin/cmake" --version | head -n 1) in $VENV"
else
  rm -rf "$VENV"
  echo "setup-cmake-current: could not install CMake from PyPI; the test of find_package(OpenACC) with a current CMake is skipped" >&2
fi
exit 0
