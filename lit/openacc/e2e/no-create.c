// no_create: present data is used on the device (and held for the region); absent data is
// neither allocated nor copied, and the region gets the host address (OpenACC 3.3 2.7.11).
// Absent data is only looked at by address here, so the test is right on any device.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// CHECK: PASS
// Data that is only partly present is an error (a subarray is present entirely or not at all).
// RUN: %ptxcc -fopenacc -DPARTIAL %s -o %t.partial && not %run %t.partial 2>&1 | FileCheck --check-prefix=PARTIAL %s
// PARTIAL: ptxrt: error: no_create: the 4000 bytes at {{.*}} are only partly present on device 0 {{.*}}(they overlap 'p[0:500]', 2000 bytes at
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <openacc.h>
#define N 1000

static float ga[N];

// Called with the data present and without: the same code works either way.
static void bump(float *p, int n, uintptr_t *seen) {
  uintptr_t addr = 0;
  int present = acc_is_present(p, n * sizeof *p);
  #pragma acc parallel loop no_create(p[0:n]) copy(addr)
  for (int i = 0; i < n; i++) {
    if (i == 0) addr = (uintptr_t)p;
    if (present) p[i] += 1;
  }
  *seen = addr;
}

static void bump_array(int present, uintptr_t *seen) {
  uintptr_t addr = 0;
  #pragma acc parallel loop no_create(ga) copy(addr)
  for (int i = 0; i < N; i++) {
    if (i == 0) addr = (uintptr_t)&ga[0];
    if (present) ga[i] *= 2;
  }
  *seen = addr;
}

static void bump_kernels(float *p, int n, uintptr_t *seen) {
  uintptr_t addr = 0;
  int present = acc_is_present(p, n * sizeof *p);
  #pragma acc kernels no_create(p[0:n]) copy(addr)
  {
    for (int i = 0; i < n; i++) {
      if (i == 0) addr = (uintptr_t)p;
      if (present) p[i] -= 3;
    }
  }
  *seen = addr;
}

int main(void) {
  int bad = 0;
  float *p = malloc(N * sizeof *p);
  float want[N];
  for (int i = 0; i < N; i++) p[i] = want[i] = i;
  uintptr_t seen;
#ifdef PARTIAL
  #pragma acc enter data copyin(p[0:500])
  bump(p, N, &seen);
#endif

  // Present: the device copy is used; the host copy is untouched until update self.
  #pragma acc enter data copyin(p[0:N])
  bump(p, N, &seen);
  for (int i = 0; i < N; i++) want[i] += 1;
  if (seen == (uintptr_t)p) { printf("present: the kernel got the host address\n"); bad++; }
  if (p[7] != 7) { printf("present: the host copy changed (%g)\n", p[7]); bad++; }
  bump_kernels(p, N, &seen);
  for (int i = 0; i < N; i++) want[i] -= 3;
  if (seen == (uintptr_t)p) { printf("present (kernels): the kernel got the host address\n"); bad++; }
  #pragma acc update self(p[0:N])
  for (int i = 0; i < N; i++) if (p[i] != want[i]) { printf("present: p[%d] = %g, want %g\n", i, p[i], want[i]); bad++; break; }
  // The region held its own reference and let it go: still present, then gone.
  if (!acc_is_present(p, N * sizeof *p)) { printf("present: gone after the region\n"); bad++; }
  #pragma acc exit data delete(p[0:N])
  if (acc_is_present(p, N * sizeof *p)) { printf("present: still there after exit data\n"); bad++; }

  // Absent: nothing is allocated, the kernel gets the host address, the host data is unchanged.
  bump(p, N, &seen);
  if (seen != (uintptr_t)p) { printf("absent: the kernel got %#lx, not the host address %p\n", (unsigned long)seen, (void *)p); bad++; }
  bump_kernels(p, N, &seen);
  if (seen != (uintptr_t)p) { printf("absent (kernels): the kernel got %#lx, not the host address %p\n", (unsigned long)seen, (void *)p); bad++; }
  if (acc_is_present(p, N * sizeof *p)) { printf("absent: allocated\n"); bad++; }
  for (int i = 0; i < N; i++) if (p[i] != want[i]) { printf("absent: p[%d] = %g, want %g\n", i, p[i], want[i]); bad++; break; }

  // A whole array: present through a data region, then absent.
  for (int i = 0; i < N; i++) ga[i] = i;
  #pragma acc data copy(ga)
  {
    bump_array(1, &seen);
    if (seen == (uintptr_t)&ga[0]) { printf("array present: host address\n"); bad++; }
  }
  for (int i = 0; i < N; i++) if (ga[i] != 2.0f * i) { printf("array: ga[%d] = %g\n", i, ga[i]); bad++; break; }
  bump_array(0, &seen);
  if (seen != (uintptr_t)&ga[0]) { printf("array absent: not the host address\n"); bad++; }

  // A data region: inside it, absent data is still absent (not allocated for the region),
  // present data is present.
  #pragma acc data no_create(p[0:N])
  {
    if (acc_is_present(p, N * sizeof *p)) { printf("data: absent data was allocated\n"); bad++; }
  }
  #pragma acc enter data copyin(p[0:N])
  #pragma acc data no_create(p[0:N])
  {
    #pragma acc exit data delete(p[0:N])
    // The data region's own (structured) reference keeps it.
    if (!acc_is_present(p, N * sizeof *p)) { printf("data: present data not held by the region\n"); bad++; }
  }
  if (acc_is_present(p, N * sizeof *p)) { printf("data: not released at the end\n"); bad++; }

  // A scalar cannot be left unmapped: when absent the region works on a copy of the host value.
  int s = 5;
  #pragma acc parallel num_gangs(1) no_create(s)
  { s += 1; }
  if (s != 6) { printf("scalar absent: s = %d\n", s); bad++; }
  #pragma acc data copyin(s)
  {
    #pragma acc parallel num_gangs(1) no_create(s)
    { s += 10; }
    if (s != 6) { printf("scalar present: the host copy changed (%d)\n", s); bad++; }
    #pragma acc update self(s)
  }
  if (s != 16) { printf("scalar present: s = %d\n", s); bad++; }
  free(p);
  printf("%s %d\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
