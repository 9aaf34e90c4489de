// A lastprivate variable of a combined target construct that no clause maps is mapped tofrom
// (OpenMP 5.0+ data-mapping rules), so the host sees the last iteration's value; clang 19 alone
// leaves the host's variable unchanged. Scalars and an array, on several combined constructs;
// a variable the construct maps itself keeps its map.
// RUN: %ptxcc -fopenmp -O2 %s -o %t && %run %t | FileCheck %s
// RUN: %ptxcc -fopenmp -fptxcc-multi-device -O2 %s -o %t.md && env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 %run %t.md | FileCheck %s
// CHECK: last=1999 lastp=999 lasts=4 arr=997,998 mapped=-1 PASS
#include <stdio.h>

int main(void) {
  int n = 1000, last = -1, lastp = -1, lasts = -1, mapped = -1;
  int arr[2] = {0, 0};
#pragma omp target teams distribute parallel for lastprivate(last)
  for (int i = 0; i < n; i++)
    last = 2 * i + 1;
#pragma omp target parallel for lastprivate(lastp, arr)
  for (int i = 0; i < n; i++) {
    lastp = i;
    arr[0] = i - 2;
    arr[1] = i - 1;
  }
#pragma omp target teams distribute lastprivate(lasts)
  for (int i = 0; i < 5; i++)
    lasts = i;
  // Mapped `to` by the user: the device's last value stays there.
#pragma omp target teams distribute parallel for lastprivate(mapped) map(to : mapped)
  for (int i = 0; i < n; i++)
    mapped = i;
  int ok = last == 2 * n - 1 && lastp == n - 1 && lasts == 4 && arr[0] == n - 3 && arr[1] == n - 2 && mapped == -1;
  printf("last=%d lastp=%d lasts=%d arr=%d,%d mapped=%d %s\n", last, lastp, lasts, arr[0], arr[1], mapped,
         ok ? "PASS" : "FAIL");
  return 0;
}
