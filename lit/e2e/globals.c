// Globals in target regions: `declare target` arrays and scalars (device copies kept in step with
// target update), a global array used without any map clause (implicitly map(tofrom)), and a file-scope
// static scalar read in a region (implicitly firstprivate).
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t | FileCheck %s
// CHECK: declare target: ok
// CHECK: implicit global array: ok
// CHECK: PASS
#include <stdio.h>

#define N 4096
#pragma omp declare target
double table[N];
int table_scale = 3;
#pragma omp end declare target

double plain[N];          /* no declare target: mapped implicitly where used */
static double bias = 0.5; /* scalar: firstprivate */

int main(void) {
  int ok = 1;
  for (int i = 0; i < N; i++)
    table[i] = i;
#pragma omp target update to(table, table_scale)
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++)
    table[i] = table[i] * table_scale + 1;
#pragma omp target update from(table)
  int t_ok = 1;
  for (int i = 0; i < N; i++)
    t_ok &= table[i] == 3.0 * i + 1;
  table_scale = 5; /* host only until updated */
#pragma omp target update to(table_scale)
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++)
    table[i] = table_scale;
#pragma omp target update from(table)
  t_ok &= table[0] == 5 && table[N - 1] == 5;
  printf("declare target: %s\n", t_ok ? "ok" : "wrong");
  ok &= t_ok;

  for (int i = 0; i < N; i++)
    plain[i] = -i;
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++)
    plain[i] = 2 * plain[i] + bias;
  int p_ok = 1;
  for (int i = 0; i < N; i++)
    p_ok &= plain[i] == -2.0 * i + 0.5;
  printf("implicit global array: %s\n", p_ok ? "ok" : "wrong");
  ok &= p_ok;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
