// target enter/exit data reference counts: a section entered twice stays present after one exit, its
// device copy is not refreshed by a second `to` while present, `always` forces the copy, `delete`
// removes it whatever the count; omp_target_is_present reports each state.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// CHECK: after enter x2: present=1
// CHECK: after exit x1: present=1
// CHECK: after exit x2: present=0
// CHECK: after delete: present=0
// CHECK: PASS
#include <omp.h>
#include <stdio.h>

#define N 1000
static int a[N];

static void add(int v) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++)
    a[i] += v;
}

int main(void) {
  int dev = omp_get_default_device(), ok = 1;
  for (int i = 0; i < N; i++)
    a[i] = i;
#pragma omp target enter data map(to : a[0:N])
  for (int i = 0; i < N; i++)
    a[i] = -1; /* host changes: must not reach the device, the section is already present */
#pragma omp target enter data map(to : a[0:N])
  printf("after enter x2: present=%d\n", omp_target_is_present(a, dev));
  ok &= omp_target_is_present(a, dev) != 0;
  add(10); /* device: i + 10 */
#pragma omp target exit data map(from : a[0:N])
  /* count 2 -> 1: no copy back yet */
  int untouched = 1;
  for (int i = 0; i < N; i++)
    untouched &= a[i] == -1;
  printf("after exit x1: present=%d, host untouched=%d\n", omp_target_is_present(a, dev), untouched);
  ok &= omp_target_is_present(a, dev) != 0 && untouched;
#pragma omp target exit data map(from : a[0:N])
  /* count 1 -> 0: copied back */
  int copied = 1;
  for (int i = 0; i < N; i++)
    copied &= a[i] == i + 10;
  printf("after exit x2: present=%d, copied back=%d\n", omp_target_is_present(a, dev), copied);
  ok &= !omp_target_is_present(a, dev) && copied;

  /* always: the copy happens although the section is present */
#pragma omp target enter data map(to : a[0:N])
  for (int i = 0; i < N; i++)
    a[i] = 5;
#pragma omp target enter data map(always, to : a[0:N])
  add(1);
#pragma omp target update from(a[0:N])
  int always_ok = 1;
  for (int i = 0; i < N; i++)
    always_ok &= a[i] == 6;
  printf("always to: %s\n", always_ok ? "copied" : "not copied");
  ok &= always_ok;
  /* delete: gone whatever the count (2 here), nothing copied back */
  for (int i = 0; i < N; i++)
    a[i] = 0;
#pragma omp target exit data map(delete : a[0:N])
  int zero = 1;
  for (int i = 0; i < N; i++)
    zero &= a[i] == 0;
  printf("after delete: present=%d, host untouched=%d\n", omp_target_is_present(a, dev), zero);
  ok &= !omp_target_is_present(a, dev) && zero;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
