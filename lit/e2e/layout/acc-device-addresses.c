// Device addresses of an array a `trans` block lays out (ptx-runtime/README.md): acc_deviceptr
// and host_data use_device give the start of the converted copy, where element (i,j,k) of
// transpose(a[0:I][0:J][0:K], [1,3,2]) sits at (i*K + k)*J + j; acc_is_present and
// acc_update_self of a sub-section see the array as the program declares it; after the block
// the device copy is back in the original layout at the same address.
// RUN: %ptxcc -fopenacc -O2 %s -o %t
// RUN: %run %t | FileCheck %s
// CHECK: acc_deviceptr: ok
// CHECK-NEXT: host_data use_device: ok
// CHECK-NEXT: present: ok
// CHECK-NEXT: update self of a sub-section: ok
// CHECK-NEXT: after the block: ok
// CHECK-NEXT: PASS
#include <openacc.h>
#include <stdio.h>

#define I 4
#define J 3
#define K 5
static double a[I][J][K];
static double raw[I * J * K];
static int failures;

static void check(const char *what, int ok) {
  printf("%s: %s\n", what, ok ? "ok" : "WRONG");
  failures += !ok;
}

static double value(int i, int j, int k) { return 100 * i + 10 * j + k; }

int main(void) {
  for (int i = 0; i < I; i++)
    for (int j = 0; j < J; j++)
      for (int k = 0; k < K; k++)
        a[i][j][k] = value(i, j, k);
  void *outside = NULL;
#pragma acc data copy(a)
  {
    outside = acc_deviceptr(a);
#pragma acc trans transpose { a[0:I][0:J][0:K], [1,3,2] }
    {
#pragma acc parallel loop collapse(3)
      for (int i = 0; i < I; i++)
        for (int j = 0; j < J; j++)
          for (int k = 0; k < K; k++)
            a[i][j][k] += 0.5;
      double *d = acc_deviceptr(a);
      acc_memcpy_from_device(raw, d, sizeof raw);
      int ok = d != NULL;
      for (int i = 0; i < I; i++)
        for (int j = 0; j < J; j++)
          for (int k = 0; k < K; k++)
            ok &= raw[(i * K + k) * J + j] == value(i, j, k) + 0.5;
      check("acc_deviceptr", ok);
      double *u = NULL;
#pragma acc host_data use_device(a)
      u = &a[0][0][0];
      check("host_data use_device", u == d);
      check("present", acc_is_present(a, sizeof a) && acc_is_present(&a[2][1][0], K * sizeof(double)));
      // Rows 1 and 2 come back in the declared layout; the others keep the host's values.
#pragma acc update self(a[1:2][0:J][0:K])
      ok = 1;
      for (int i = 0; i < I; i++)
        for (int j = 0; j < J; j++)
          for (int k = 0; k < K; k++)
            ok &= a[i][j][k] == value(i, j, k) + (i == 1 || i == 2 ? 0.5 : 0);
      check("update self of a sub-section", ok);
    }
    // The block's end converted the device copy back, in place.
    acc_memcpy_from_device(raw, acc_deviceptr(a), sizeof raw);
    int ok = acc_deviceptr(a) == outside;
    for (int i = 0; i < I; i++)
      for (int j = 0; j < J; j++)
        for (int k = 0; k < K; k++)
          ok &= raw[(i * J + j) * K + k] == value(i, j, k) + 0.5;
    check("after the block", ok);
  }
  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures != 0;
}
