// PTXCC_PTXAS: ptxcc assembles each module's PTX with the ptxas it names before embedding it;
// a rejection is an internal error (status 70) that shows ptxas's message, a ptxas that cannot
// be run a usage error. Without offload regions there is nothing to assemble.
// RUN: printf '#!/bin/sh\necho "ptxas fatal: Unresolved extern function" >&2\nexit 255\n' > %t.ptxas && chmod +x %t.ptxas
// RUN: not env PTXCC_PTXAS=%t.ptxas %ptxcc -fopenmp -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=REJECT
// RUN: %python %S/Inputs/expect-status.py 70 -- env PTXCC_PTXAS=%t.ptxas %ptxcc -fopenmp -c %s -o %t.o
// RUN: not env PTXCC_PTXAS=%t.missing %ptxcc -fopenmp -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: env PTXCC_PTXAS=%t.ptxas %ptxcc -fopenmp -DNO_REGION -c %s -o %t.o
// REJECT: ptxcc: internal error: ptxas (PTXCC_PTXAS) rejects the PTX made for '{{.*}}ptxas-check.c' (sm_90):
// REJECT-NEXT: ptxas fatal: Unresolved extern function
// MISSING: ptxcc: error: PTXCC_PTXAS names '{{.*}}.missing', which cannot be run
void f(int n, double *x) {
#ifndef NO_REGION
#pragma omp target teams distribute parallel for map(tofrom : x[0:n])
#endif
  for (int i = 0; i < n; i++) x[i] += 1;
}
