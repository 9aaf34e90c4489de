// A construct may map data its loop never uses: an OpenACC `present` list naming every array
// of a data region on every loop (NPB CG's OpenACC loops do). Clang maps such an item without
// a kernel argument; the split leaves it out when the kernel cannot reach it and mapping it only
// checks its presence (split/bystanders.rs), where the loop used to stay on one device.
// Mapped data without an argument that the kernel may still reach, or whose mapping moves bytes,
// keeps the loop on one device:
//   - `copyin` of an array not present: the construct itself would copy it in;
//   - a `declare create` global: the kernel reaches it by name (ptxsim only: the emulator's
//     devices share one copy of a global, so it runs such programs on one device).
// RUN: %ptxcc -fopenacc -fptxcc-multi-device -O2 %s -o %t
// RUN: env PTXRT_EMU_DEVICES=1 PTXSIM_DEVICES=1 %run %t | FileCheck %s
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_DEBUG=1 %run %t 2>&1 | FileCheck %s --check-prefixes=CHECK,SPLIT
// RUN: env PTXRT_EMU_DEVICES=3 PTXSIM_DEVICES=3 %run %t | FileCheck %s
// SPLIT: ptxrt: split {{.*}}: kernel '{{.*}}main_l{{[0-9]+}}', 4096 iterations: [0, 2048) on device 0, [2048, 4096) on device 1
// SPLIT: ptxrt: split {{.*}}: kernel '{{.*}}main_l{{[0-9]+}}' runs on one device: 'more[0:4096]' is mapped without being a kernel argument
// GLOBAL: ptxrt: split {{.*}}: kernel '{{.*}}main_l{{[0-9]+}}' runs on one device: 'tab[0:4096]' is mapped without being a kernel argument
// CHECK: 0 wrong
// RUN: %if ptxsim %{ %ptxcc -fopenacc -fptxcc-multi-device -O2 -DWITH_GLOBAL %s -o %t.g %}
// RUN: %if ptxsim %{ env PTXSIM_DEVICES=2 PTXRT_DEBUG=1 %run %t.g 2>&1 | FileCheck %s --check-prefixes=CHECK,SPLIT,GLOBAL %}
#include <stdio.h>
#define N 4096
static double x[N], y[N], unused[N], more[N];
#ifdef WITH_GLOBAL
static double tab[N];
#pragma acc declare create(tab)
#endif

int main(void) {
  for (int i = 0; i < N; i++) {
    x[i] = i;
    y[i] = 0;
    unused[i] = more[i] = -1;
  }
  int bad = 0;
#pragma acc data copyin(x[0 : N], unused[0 : N]) copy(y[0 : N])
  {
#pragma acc parallel loop present(x[0 : N], y[0 : N], unused[0 : N])
    for (int i = 0; i < N; i++)
      y[i] = 2 * x[i];
#pragma acc parallel loop present(y[0 : N]) copyin(more[0 : N])
    for (int i = 0; i < N; i++)
      y[i] += 1;
#ifdef WITH_GLOBAL
#pragma acc parallel loop present(x[0 : N], tab[0 : N])
    for (int i = 0; i < N; i++)
      tab[i] = x[i] + 1;
#pragma acc update self(tab[0 : N])
    for (int i = 0; i < N; i++)
      bad += tab[i] != i + 1.0;
#endif
  }
  for (int i = 0; i < N; i++)
    bad += y[i] != 2.0 * i + 1 || unused[i] != -1 || more[i] != -1;
  printf("%d wrong\n", bad);
  return bad != 0;
}
