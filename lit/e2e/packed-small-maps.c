// On a GPU (here ptxsim behind the CUDA driver API) the small objects one construct maps share
// one device block (ptx-runtime/src/mapping, `pack_small`): three reduction variables of 8, 8
// and 80 bytes take one allocation and three 32-byte sectors, as one CUDA buffer of 12 doubles
// would, so the kernel's DRAM traffic is 3 sectors read and written back (192 bytes; 320 with
// an allocation each). The sums are right, and the block is freed with the construct's
// entries, launch after launch.
// REQUIRES: ptxsim
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: rm -f %t.json && env PTXSIM_STATS=json:%t.json %run %t | FileCheck %s
// RUN: %python -c "import json,sys; ks=json.load(open(sys.argv[1]))['kernels']; print('dram', ks[0]['launches'], ks[0]['dram_bytes'])" %t.json | FileCheck %s --check-prefix=DRAM
// CHECK: sums: ok
// DRAM: dram 3 576
#include <stdio.h>

int main(void) {
  int ok = 1;
  for (int rep = 0; rep < 3; rep++) {
    double sx = 0, sy = 0, q[10] = {0};
#pragma omp target teams distribute parallel for reduction(+ : sx, sy) reduction(+ : q[0:10]) \
    map(tofrom : sx, sy, q[0:10])
    for (int i = 0; i < 1000; i++) {
      sx += i;
      sy += 2 * i;
      q[i % 10] += 1;
    }
    ok &= sx == 499500 && sy == 999000;
    for (int k = 0; k < 10; k++)
      ok &= q[k] == 100;
  }
  printf("sums: %s\n", ok ? "ok" : "FAILED");
  return 0;
}
