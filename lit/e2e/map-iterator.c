// The iterator modifier of map, to and from (OpenMP 5.1; OpenMP 5.2 section 3.2.6), which clang 19
// does not parse there: an iterator over the last subscript names the elements of one array
// section, which ptxcc maps, updates or lets a mapper map. Each result against the serial one.
// RUN: %ptxcc -fopenmp -O1 %s -o %t
// RUN: %run %t | FileCheck %s
// CHECK: map: 100 of 100; update to/from: 40 of 40 and host 10 of 10; mapper: 64 of 64
#include <stdio.h>
#include <stdlib.h>
#define N 100

typedef struct {
  int len;
  double *data;
} vec_t;
#pragma omp declare mapper(vec_t v) map(tofrom : v) map(iterator(it = 0 : v.len), tofrom : v.data[it])

int main(void) {
  int a[N];
  int *p = malloc(N * sizeof(int));
  for (int i = 0; i < N; i++)
    a[i] = p[i] = i;
#pragma omp target map(iterator(it = 0 : N), tofrom : a[it]) map(iterator(int k = 10 : N), to : p[k])
  for (int i = 10; i < N; i++)
    a[i] += p[i];
  int good = 0;
  for (int i = 0; i < N; i++)
    good += a[i] == (i < 10 ? i : 2 * i);

  struct {
    double data[50];
  } s;
  for (int i = 0; i < 50; i++)
    s.data[i] = i;
#pragma omp target enter data map(to : s)
  for (int i = 0; i < 50; i++)
    s.data[i] = -1;
  // Elements 5..44 go to the device again (now -1), are doubled there and come back.
#pragma omp target update to(iterator(i = 5 : 45) : s.data[i])
#pragma omp target
  for (int i = 0; i < 50; i++)
    s.data[i] *= 2;
  for (int i = 0; i < 50; i++)
    s.data[i] = 0;
#pragma omp target update from(iterator(i = 5 : 45) : s.data[i])
  int up = 0, host = 0;
  for (int i = 0; i < 50; i++) {
    up += (i >= 5 && i < 45) && s.data[i] == -2;
    host += (i < 5 || i >= 45) && s.data[i] == 0; // not in the update: left as the host set it
  }
#pragma omp target exit data map(delete : s)

  vec_t v = {64, malloc(64 * sizeof(double))};
  for (int i = 0; i < v.len; i++)
    v.data[i] = i;
#pragma omp target
  for (int i = 0; i < v.len; i++)
    v.data[i] += 0.5;
  int mgood = 0;
  for (int i = 0; i < v.len; i++)
    mgood += v.data[i] == i + 0.5;
  printf("map: %d of %d; update to/from: %d of 40 and host %d of 10; mapper: %d of 64\n", good, N,
         up, host, mgood);
  return 0;
}
