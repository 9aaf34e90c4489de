#!/usr/bin/env bash
# Dump `ptxcc -fopenacc-print=omp` for every C file under lit/openacc (or the folders given)
# into one directory, one FILE.omp per input (stderr and exit status appended), so that a
# refactoring of the OpenACC front end can be checked byte-identical:
#
#   scripts/openacc-print-omp.sh /tmp/before          # before the change
#   scripts/openacc-print-omp.sh /tmp/after           # after it
#   diff -r /tmp/before /tmp/after
#
# PTXCC: the ptxcc binary (default target/release/ptxcc).
set -u
out=${1:?usage: $0 OUTDIR [DIR...]}
shift
dirs=("$@")
[ ${#dirs[@]} -eq 0 ] && dirs=(lit/openacc)
ptxcc=${PTXCC:-target/release/ptxcc}
mkdir -p "$out"
find "${dirs[@]}" -name '*.c' | sort | while read -r f; do
    dst="$out/$(echo "$f" | tr / _).omp"
    "$ptxcc" -fopenacc -fopenacc-print=omp "$f" >"$dst" 2>"$dst.err"
    echo "exit $?" >>"$dst.err"
done
