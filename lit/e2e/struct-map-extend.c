// Mapping more members of a struct one member of which is already mapped (OpenMP 5.1 §5.8.3:
// the implicit map of the struct in the target region; the members given on the construct and
// those mapped before share the struct's one device copy). The struct's span on the device is
// extended over the member mapped first: its device value (the attached pointer) is kept, the
// new members come from the host, and the first mapping's end still copies its data back.
// RUN: %ptxcc -fopenmp -O1 %s -o %t
// RUN: %run %t | FileCheck %s
// CHECK: member then more members: 4 202
// CHECK-NEXT: pointer member then scalars: 6 303
// CHECK-NEXT: two members then the rest: 10 109
#include <stdio.h>
#include <stdlib.h>
#define N 100

struct rec {
  char pad[256];
  float scale, shift;
  float *data;
  int n;
};

#pragma omp begin declare target
static void axpb(struct rec *r) {
  for (int i = 0; i < r->n; i++)
    r->data[i] = r->data[i] * r->scale + r->shift;
}
#pragma omp end declare target

static struct rec make(float scale, float shift) {
  struct rec r;
  r.scale = scale, r.shift = shift, r.n = N;
  r.data = malloc(N * sizeof(float));
  for (int i = 0; i < N; i++)
    r.data[i] = i;
  return r;
}

int main(void) {
  // The data (and the pointer member with it) first; then the scalars and the implicit struct.
  struct rec a = make(2, 4);
#pragma omp target data map(a.data[:N])
#pragma omp target map(a.data[:0], a.scale, a.shift, a.n)
  axpb(&a);
  printf("member then more members: %.0f %.0f\n", a.data[0], a.data[N - 1]);

  // The pointer member alone first, attached by the second construct.
  struct rec b = make(3, 6);
#pragma omp target data map(tofrom : b.data[:N]) map(to : b.data)
#pragma omp target map(b.scale, b.shift, b.n, b.data[:0])
  axpb(&b);
  printf("pointer member then scalars: %.0f %.0f\n", b.data[0], b.data[N - 1]);

  // Two members mapped, then an enter data of the rest of the struct's members.
  struct rec c = make(1, 10);
#pragma omp target enter data map(to : c.scale, c.shift)
#pragma omp target enter data map(to : c.data[:N], c.n)
#pragma omp target
  axpb(&c);
#pragma omp target exit data map(from : c.data[:N]) map(release : c.n, c.scale, c.shift)
  printf("two members then the rest: %.0f %.0f\n", c.data[0], c.data[N - 1]);
  free(a.data), free(b.data), free(c.data);
  return 0;
}
