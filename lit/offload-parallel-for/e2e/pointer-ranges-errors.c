// Pointers without a visible extent that the access ranges cannot map: the program stops with an
// error naming the pointer, the loop's line and what to write instead, and a non-zero status,
// instead of computing on host addresses or moving a wrong range.
// - an indirect subscript (data[idx[i]]): the compiler tables 'data' as "whole section" and
//   -fptxcc-info says so at compile time; 'idx' itself is mapped by its range;
// - a stride so large that the loop would reach more memory than a program can hold;
// - a loop without iterations reaches nothing: nothing is mapped, it runs.
// RUN: %ptxcc -fopenmp -O2 -fopenmp-offload-parallel-for -fptxcc-info %s -o %t 2> %t.info
// RUN: FileCheck %s --check-prefix=INFO < %t.info
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY not %t indirect > %t.out 2>&1
// RUN: FileCheck %s --check-prefix=INDIRECT < %t.out
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY not %t huge > %t.out 2>&1
// RUN: FileCheck %s --check-prefix=HUGE < %t.out
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t none | FileCheck %s --check-prefix=NONE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// INFO: pointer-ranges-errors.c:[[@LINE+4]]:1: access ranges of kernel '{{.*}}gather{{.*}}': argument {{[0-9]}}: read [4*i, 4*i + 4); argument {{[0-9]}}: written: whole section (a subscript that is not affine in the loop variables at {{.*}}pointer-ranges-errors.c:[[@LINE+6]])
// INDIRECT-NOT: reached the end
// INDIRECT: error: {{.*}}pointer-ranges-errors.c:[[@LINE+2]]:1: pointer 'data' is used in the offloaded parallel loop without a visible extent and its data is not present on device 0 {{.*}}, and ptxcc cannot tell which elements the loop reaches (an access that is not affine in the loop's iteration, or a call it cannot see: -fptxcc-info says which); map it, e.g. map(tofrom: data[0:n]), or enclose the loop in a 'target data' region that maps it
void gather(double *data, const int *idx, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    data[idx[i]] = i;
}

// HUGE-NOT: reached the end
// HUGE: error: {{.*}}pointer-ranges-errors.c:[[@LINE+2]]:1: pointer 'a' (host 0x{{[0-9a-f]+}}) is used in the offloaded parallel loop without a visible extent; its 2 iterations reach bytes [0, {{[0-9]+}}) from it, which is not memory a program can hold (a negative or huge bound?); map it, e.g. map(tofrom: a[0:n])
void strided(double *a, long stride, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    a[i * stride] = 0;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  int n = 100;
  double *data = calloc(n, sizeof *data);
  int *idx = malloc(n * sizeof *idx);
  for (int i = 0; i < n; i++)
    idx[i] = (i * 7) % n;
  fflush(stdout);
  if (!strcmp(mode, "indirect"))
    gather(data, idx, n);
  if (!strcmp(mode, "huge"))
    strided(data, 1L << 46, 2);
  // No iterations: nothing is reached, nothing is mapped, the kernel runs.
  if (!strcmp(mode, "none")) {
    gather(data, idx, 0);
    strided(data, 1L << 46, 0);
  }
  // NONE: reached the end
  printf("reached the end\n");
  return 0;
}
