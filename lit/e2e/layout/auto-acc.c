// -fptxcc-layout=auto under -fopenacc: a `parallel loop` with its own data clause
// (copy(p[0:n]), no data region: kernel level) on a restrict pointer to structs of three
// floats gets one array per field; checked against the serial answer.
// RUN: %ptxcc -fopenacc -O2 -fptxcc-layout=auto -fptxcc-info %s -o %t 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: %run %t | FileCheck %s
// INFO: auto-acc.c:[[#]]:1: layout: p[?] (structs) -> one array per field, p[3][?] (3 fields of 4 bytes; coalesced on the struct index: 3 of 3 accesses)
// CHECK: PASS
#include <stdio.h>
#include <stdlib.h>
typedef struct { float x, y, z; } P;
void step(P *restrict p, int n) {
#pragma acc parallel loop copy(p[0:n])
  for (int i = 0; i < n; i++) p[i].z = p[i].x * p[i].y;
}
int main(void) {
  int n = 5000; P *p = malloc(n * sizeof(P));
  for (int i = 0; i < n; i++) { p[i].x = i; p[i].y = 0.5f; p[i].z = 0; }
  step(p, n);
  int bad = 0; for (int i = 0; i < n; i++) bad += p[i].z != i * 0.5f;
  printf("%s\n", bad ? "FAIL" : "PASS"); return bad;
}
