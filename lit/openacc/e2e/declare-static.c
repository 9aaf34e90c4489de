// declare create / copyin on `static` globals (internal linkage), as people write them in one
// file: compute constructs use the device copy, and update self/device (also async and under
// if) move it. A static of the same name in another translation unit stays apart.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc -c %s -o %t.main.o
// RUN: %ptxcc -fopenacc -DOTHER -c %s -o %t.other.o
// RUN: %ptxcc -fopenacc %t.main.o %t.other.o -o %t && %run %t | FileCheck %s
// CHECK: PASS
#include <stdio.h>
#define N 1000
static double field[N];
#pragma acc declare create(field)
static int offset = 5;
#pragma acc declare copyin(offset)

#ifdef OTHER
double other_sum(void) {
  double s = 0;
  #pragma acc parallel loop
  for (int i = 0; i < N; i++) field[i] = 1.0;
  #pragma acc parallel loop reduction(+:s)
  for (int i = 0; i < N; i++) s += field[i] + offset;
  return s;
}
#else
double other_sum(void);

#pragma acc routine seq
static double shifted(int i) { return field[i] + offset; }

int main(void) {
  int bad = 0;
  #pragma acc parallel loop
  for (int i = 0; i < N; i++) field[i] = i * 0.5;
  #pragma acc update self(field[100:10])
  if (field[105] != 52.5 || field[0] != 0.0) bad |= 1;
  for (int i = 0; i < N; i++) field[i] = -i;
  offset = 7;
  #pragma acc update device(field, offset) async(2)
  #pragma acc wait(2)
  double s = 0;
  #pragma acc parallel loop reduction(+:s)
  for (int i = 0; i < N; i++) s += shifted(i);
  if (s != -499500.0 + 7 * N) bad |= 2;
  int no = 0;
  #pragma acc parallel loop
  for (int i = 0; i < N; i++) field[i] = 3;
  #pragma acc update self(field) if(no)
  if (field[1] != -1) bad |= 4;
  #pragma acc update self(field) if(!no)
  if (field[1] != 3) bad |= 8;
  if (other_sum() != 6.0 * N) bad |= 16;
  #pragma acc update self(field[0:1])
  if (field[0] != 3) bad |= 32;
  printf("%s %d\n", bad ? "FAIL" : "PASS", bad);
  return bad;
}
#endif
