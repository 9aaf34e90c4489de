// -fptxcc-layout=auto under -fopenacc: a restrict pointer to structs of three floats, copied
// in by a data region whose `parallel loop` runs in a loop, gets one array per field; a
// `parallel loop` with its own data clause (copy(p[0:n]), no data region: kernel level) would
// convert it for one launch, which never pays, and it stays. Checked against the serial answer.
// RUN: %ptxcc -fopenacc -O2 -fptxcc-layout=auto -fptxcc-info %s -o %t 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: %run %t | FileCheck %s
// INFO-DAG: auto-acc.c:[[#REGION:]]:1: layout: p[?] (structs) -> one array per field, p[3][?] (3 fields of 4 bytes; coalesced on the struct index: 3 of 3 accesses)
// INFO-DAG: auto-acc.c:[[#ONCE:]]:1: layout: p[?] stays: the compute construct maps it for its one launch
// CHECK: PASS
#include <stdio.h>
#include <stdlib.h>
typedef struct { float x, y, z; } P;
void steps(P *restrict p, int n, int iters) {
#pragma acc data copy(p[0:n])
  for (int it = 0; it < iters; it++) {
#pragma acc parallel loop present(p[0:n])
    for (int i = 0; i < n; i++) p[i].z = p[i].x * p[i].y + it;
  }
}
void once(P *restrict p, int n) {
#pragma acc parallel loop copy(p[0:n])
  for (int i = 0; i < n; i++) p[i].x = p[i].z - 1;
}
int main(int argc, char **argv) {
  int n = 5000, iters = argc > 1 ? atoi(argv[1]) : 3; P *p = malloc(n * sizeof(P));
  for (int i = 0; i < n; i++) { p[i].x = i; p[i].y = 0.5f; p[i].z = 0; }
  steps(p, n, iters);
  int bad = 0; for (int i = 0; i < n; i++) bad += p[i].z != i * 0.5f + (iters - 1);
  once(p, n);
  for (int i = 0; i < n; i++) bad += p[i].x != i * 0.5f + (iters - 2);
  printf("%s\n", bad ? "FAIL" : "PASS"); return bad;
}
