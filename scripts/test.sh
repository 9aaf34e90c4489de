#!/usr/bin/env bash
# Runs every test: `cargo fmt --check` and `cargo clippy -D warnings` over the workspace, the
# workspace's cargo tests, then the lit suite (lit/) against the binaries just built, then lit's
# end-to-end programs once more on ptxsim (the CUDA path, PTX simulated).
# Prints 'N passed, N failed, N skipped' at the end; exits non-zero on any failure.
#
#   scripts/test.sh [extra lit arguments, e.g. --filter driver]
set -uo pipefail
# No test reads the terminal.
exec < /dev/null

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$HOME/.local/bin:$HOME/.cargo/bin:$PATH"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
LOGS="$(mktemp -d)"
trap 'rm -rf "$LOGS"' EXIT

status=0

# The build and the lit suite's executables take about 6 GB; a full disk makes every later
# compile fail at its link with a message lit's pipes may hide. Say so first and last.
free_mb() { df -Pm "$1" 2>/dev/null | awk 'NR == 2 { print $4 }'; }
disk_note() {
  local mb
  mb="$(free_mb "$(dirname "$TARGET_DIR")")"
  if [ -n "$mb" ] && [ "$mb" -lt 6000 ]; then
    echo "test.sh: only ${mb} MB free where the build and the tests write ($(dirname "$TARGET_DIR")):" \
      "they need about 6000 MB; compiles may fail with 'No space left on device'" >&2
  fi
}
disk_note

echo "==> cargo build --release --workspace"
if ! cargo build --release --workspace; then
  echo "0 passed, 1 failed"
  exit 1
fi

# Formatting and lints: a failure counts as one failed test, and the tests still run.
echo "==> cargo fmt --check"
if ! cargo fmt --all --check; then
  echo "test.sh: the workspace is not cargo fmt clean: run 'cargo fmt'" >&2
  status=1
  lint_failures=$((${lint_failures:-0} + 1))
fi
echo "==> cargo clippy --workspace --release --all-targets -- -D warnings"
if ! cargo clippy --workspace --release --all-targets -- -D warnings; then
  echo "test.sh: clippy reports warnings (above)" >&2
  status=1
  lint_failures=$((${lint_failures:-0} + 1))
fi

echo "==> cargo test --release --workspace"
cargo test --release --workspace 2>&1 | tee "$LOGS/cargo.log"
cargo_status=${PIPESTATUS[0]}
[ "$cargo_status" = 0 ] || status=1

# lit: from PATH, else the Python module (lit.main: the folder lit/ alone imports as 'lit'), else
# the copy LLVM 19's tools ship.
if command -v lit >/dev/null; then
  LIT=(lit)
elif python3 -c 'import lit.main' 2>/dev/null; then
  LIT=(python3 -m lit)
elif [ -f /usr/lib/llvm-19/build/utils/lit/lit.py ]; then
  LIT=(python3 /usr/lib/llvm-19/build/utils/lit/lit.py)
else
  echo "test.sh: lit not found: run scripts/setup.sh" >&2
  exit 1
fi

echo "==> lit -sv lit/"
PTXCC_BIN_DIR="$TARGET_DIR/release" "${LIT[@]}" -sv "$@" lit/ 2>&1 | tee "$LOGS/lit.log"
[ "${PIPESTATUS[0]}" = 0 ] || status=1

# The end-to-end programs again, through libptxrt's CUDA path on ptxsim: the PTX itself runs.
SIM_SUITES=(lit/e2e lit/openacc/e2e lit/offload-parallel-for/e2e)
echo "==> lit -sv --param device=ptxsim ${SIM_SUITES[*]}"
PTXCC_BIN_DIR="$TARGET_DIR/release" "${LIT[@]}" -sv --param device=ptxsim "$@" "${SIM_SUITES[@]}" 2>&1 \
  | tee -a "$LOGS/lit.log"
[ "${PIPESTATUS[0]}" = 0 ] || status=1

# A test that deletes or replaces /dev/null (ptxcc once removed `-o /dev/null` as root) breaks
# every later command that reads or writes it: say so as a failure.
if [ ! -c /dev/null ]; then
  echo "test.sh: /dev/null is no longer a character device: a test or ptxcc replaced it" >&2
  status=1
  lint_failures=$((${lint_failures:-0} + 1))
fi

[ "$status" = 0 ] || disk_note

# One closing line for both runners.
python3 - "$LOGS/cargo.log" "$LOGS/lit.log" "$status" "${lint_failures:-0}" "$cargo_status" <<'PY'
import re, sys
cargo, lit, status = open(sys.argv[1], errors="replace").read(), open(sys.argv[2], errors="replace").read(), int(sys.argv[3])
passed = failed = skipped = 0
failed += int(sys.argv[4])  # cargo fmt --check, cargo clippy
cargo_failed = 0
for m in re.finditer(r"test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored", cargo):
    passed += int(m[1]); cargo_failed += int(m[2]); skipped += int(m[3])
if int(sys.argv[5]) and not cargo_failed:
    cargo_failed = 1  # cargo test failed without a failed test: it did not build or run
failed += cargo_failed
counts = {}
for k, v in re.findall(r"^\s+([A-Za-z ]+?)\s*:\s*(\d+)", lit, re.M):  # summed over the lit runs
    counts[k.strip()] = counts.get(k.strip(), 0) + int(v)
passed += counts.get("Passed", 0)
failed += sum(counts.get(k, 0) for k in ("Failed", "Unresolved", "Timed Out", "Unexpectedly Passed"))
skipped += sum(counts.get(k, 0) for k in ("Unsupported", "Expectedly Failed", "Skipped", "Excluded"))
if status and not failed:
    failed = 1  # a runner failed without a countable test failure (a build error, a crash)
print(f"{passed} passed, {failed} failed, {skipped} skipped")
PY
exit "$status"
