// data, enter/exit data, update, present, create, copyout, no_create, deviceptr, struct members:
// the emulator's device memory is separate, so a missing transfer shows up as a wrong answer.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// CHECK: PASS
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>
typedef struct { int n; double *v; } vec_t;
int main(void) {
  int n = 1000, bad = 0;
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  for (int i = 0; i < n; i++) { a[i] = i; b[i] = -1; }
  #pragma acc data copyin(a[0:n]) copyout(b[0:n])
  {
    #pragma acc parallel loop present(a[0:n], b[0:n])
    for (int i = 0; i < n; i++) b[i] = a[i] + 1;
    // The host copy of a changes; the device copy does not until update device.
    for (int i = 0; i < n; i++) a[i] = 10 * i;
    #pragma acc update device(a[0:n/2])
    #pragma acc parallel loop default(present)
    for (int i = 0; i < n; i++) b[i] += a[i];
  }
  for (int i = 0; i < n; i++) {
    double want = i < n / 2 ? (i + 1) + 10.0 * i : (i + 1) + i;
    if (b[i] != want) { printf("data b[%d] %f %f\n", i, b[i], want); bad++; break; }
  }
  // Unstructured lifetime.
  #pragma acc enter data copyin(a[0:n]) create(b[0:n])
  if (!acc_is_present(a, n * sizeof *a)) { printf("not present\n"); bad++; }
  #pragma acc parallel loop present(a[0:n], b[0:n])
  for (int i = 0; i < n; i++) b[i] = 2 * a[i];
  #pragma acc update self(b[0:10])
  if (b[9] != 180) { printf("update self %f\n", b[9]); bad++; }
  #pragma acc exit data copyout(b[0:n]) delete(a[0:n])
  if (b[n - 1] != 20.0 * (n - 1)) { printf("exit data copyout %f\n", b[n - 1]); bad++; }
  if (acc_is_present(a, n * sizeof *a)) { printf("still present\n"); bad++; }
  // A struct and its member array.
  vec_t s = { n, b };
  #pragma acc enter data copyin(s) copyin(s.v[0:n])
  #pragma acc parallel loop present(s)
  for (int i = 0; i < s.n; i++) s.v[i] = i * 0.5;
  #pragma acc exit data copyout(s.v[0:n]) delete(s)
  for (int i = 0; i < n; i++) if (b[i] != i * 0.5) { printf("member %d %f\n", i, b[i]); bad++; break; }
  // deviceptr with acc_malloc'd memory; no_create of present data.
  double *d = acc_malloc(n * sizeof *d);
  #pragma acc parallel loop deviceptr(d)
  for (int i = 0; i < n; i++) d[i] = 3 * i;
  acc_memcpy_from_device(a, d, n * sizeof *a);
  acc_free(d);
  for (int i = 0; i < n; i++) if (a[i] != 3 * i) { printf("deviceptr %d\n", i); bad++; break; }
  #pragma acc data copy(a[0:n])
  {
    #pragma acc parallel loop no_create(a[0:n])
    for (int i = 0; i < n; i++) a[i] += 1;
  }
  for (int i = 0; i < n; i++) if (a[i] != 3 * i + 1) { printf("no_create %d\n", i); bad++; break; }
  // create(zero:)
  #pragma acc data create(zero: b[0:n]) copyout(a[0:n])
  {
    #pragma acc parallel loop
    for (int i = 0; i < n; i++) a[i] = b[i];
  }
  for (int i = 0; i < n; i++) if (a[i] != 0) { printf("zero %d %f\n", i, a[i]); bad++; break; }
  free(a); free(b);
  printf("%s %d\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
