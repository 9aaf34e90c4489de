// reduction with every operator, on parallel loop, nested loops and a parallel construct.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// CHECK: PASS
#include <stdio.h>
#define N 5000
static int x[N];
static double d[N];
int main(void) {
  int bad = 0;
  for (int i = 0; i < N; i++) { x[i] = (i * 7919) % 1000 - 300; d[i] = (i % 97) * 0.25; }
  int sum = 0, prod = 1, mx = -100000, mn = 100000, band = ~0, bor = 0, bxor = 0, land = 1, lor = 0;
  double dsum = 0, dmax = -1;
  #pragma acc parallel loop copyin(x, d) reduction(+:sum) reduction(*:prod) reduction(max:mx) reduction(min:mn) \
      reduction(&:band) reduction(|:bor) reduction(^:bxor) reduction(&&:land) reduction(||:lor) reduction(+:dsum) reduction(max:dmax)
  for (int i = 0; i < N; i++) {
    sum += x[i];
    if (i % 500 == 0) prod *= (x[i] % 3 == 0 ? -1 : 1);
    mx = x[i] > mx ? x[i] : mx;
    mn = x[i] < mn ? x[i] : mn;
    band &= x[i] | 0x100;
    bor |= x[i] & 0xff;
    bxor ^= x[i];
    land = land && (x[i] > -400);
    lor = lor || (x[i] == 699);
    dsum += d[i];
    dmax = d[i] > dmax ? d[i] : dmax;
  }
  int rsum = 0, rprod = 1, rmx = -100000, rmn = 100000, rband = ~0, rbor = 0, rbxor = 0, rland = 1, rlor = 0;
  double rdsum = 0, rdmax = -1;
  for (int i = 0; i < N; i++) {
    rsum += x[i];
    if (i % 500 == 0) rprod *= (x[i] % 3 == 0 ? -1 : 1);
    rmx = x[i] > rmx ? x[i] : rmx;
    rmn = x[i] < rmn ? x[i] : rmn;
    rband &= x[i] | 0x100;
    rbor |= x[i] & 0xff;
    rbxor ^= x[i];
    rland = rland && (x[i] > -400);
    rlor = rlor || (x[i] == 699);
    rdsum += d[i];
    rdmax = d[i] > rdmax ? d[i] : rdmax;
  }
  if (sum != rsum) { printf("sum %d %d\n", sum, rsum); bad++; }
  if (prod != rprod) { printf("prod %d %d\n", prod, rprod); bad++; }
  if (mx != rmx || mn != rmn) { printf("max/min\n"); bad++; }
  if (band != rband || bor != rbor || bxor != rbxor) { printf("bitwise %x %x %x / %x %x %x\n", band, bor, bxor, rband, rbor, rbxor); bad++; }
  if (land != rland || lor != rlor) { printf("logical\n"); bad++; }
  if (dsum != rdsum || dmax != rdmax) { printf("double %f %f\n", dsum, rdsum); bad++; }

  // A reduction across gangs and vector lanes of nested loops.
  long total = 0;
  #pragma acc parallel loop gang reduction(+:total) copyin(x)
  for (int i = 0; i < 50; i++) {
    #pragma acc loop vector reduction(+:total)
    for (int k = 0; k < 100; k++) total += x[i * 100 + k];
  }
  long rtotal = 0;
  for (int i = 0; i < 5000; i++) rtotal += x[i];
  if (total != rtotal) { printf("nested %ld %ld\n", total, rtotal); bad++; }

  // On the parallel construct itself.
  int cnt = 0;
  #pragma acc parallel reduction(+:cnt) num_gangs(8)
  {
    #pragma acc loop gang
    for (int i = 0; i < 80; i++) cnt += 1;
  }
  if (cnt != 80) { printf("parallel reduction %d\n", cnt); bad++; }
  printf("%s %d\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
