// Attachments are not reference counts (OpenACC 3.3, 2.7.2): attaching a struct's pointer
// member does not hold the data it points to, and detaching does not release it. So an
// `exit data copyout` of the target after `enter data ... attach(...)` copies the data back,
// and an `exit data detach` before it does not free the target first.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// CHECK: attach then copyout: ok
// CHECK: detach then copyout: ok
// CHECK: acc_detach then copyout: ok
// CHECK: PASS
#include <openacc.h>
#include <stdio.h>
#include <stdlib.h>
typedef struct {
  double *a;
  double *b;
} Pair;

static int check(const char *what, Pair *p, int n) {
  int bad = 0;
  for (int i = 0; i < n; i++)
    if (p->a[i] != 2.0 * i || p->b[i] != 3.0 * i)
      bad++;
  printf("%s: %s\n", what, bad ? "FAIL" : "ok");
  return bad;
}

static void fill(Pair *p, int n) {
  for (int i = 0; i < n; i++) {
    p->a[i] = i;
    p->b[i] = 3.0 * i;
  }
}

int main(void) {
  int n = 500, bad = 0;
  Pair p;
  p.a = malloc(n * sizeof(double));
  p.b = malloc(n * sizeof(double));
  double *ha = p.a, *hb = p.b;

  // attach in the struct's own enter data; no detach: the copyout of the targets must copy.
  fill(&p, n);
#pragma acc enter data copyin(p.a[0:n], p.b[0:n])
#pragma acc enter data copyin(p) attach(p.a, p.b)
#pragma acc parallel loop default(present)
  for (int i = 0; i < n; i++)
    p.a[i] = p.a[i] * 2;
#pragma acc exit data copyout(p.a[0:n], p.b[0:n])
#pragma acc exit data copyout(p)
  bad += check("attach then copyout", &p, n);

  // exit data detach first: the targets stay present until their own copyout.
  fill(&p, n);
#pragma acc enter data copyin(p.a[0:n], p.b[0:n])
#pragma acc enter data copyin(p)
  acc_attach((void **)&p.a);
  acc_attach((void **)&p.b);
#pragma acc parallel loop default(present)
  for (int i = 0; i < n; i++)
    p.a[i] = p.a[i] * 2;
#pragma acc exit data detach(p.a, p.b)
  if (!acc_is_present(p.a, n * sizeof(double)))
    bad++, printf("detach released the target\n");
#pragma acc exit data copyout(p.a[0:n], p.b[0:n])
#pragma acc exit data copyout(p)
  bad += check("detach then copyout", &p, n);

  // acc_detach, then the same.
  fill(&p, n);
#pragma acc enter data copyin(p.a[0:n], p.b[0:n])
#pragma acc enter data copyin(p) attach(p.a, p.b)
#pragma acc parallel loop default(present)
  for (int i = 0; i < n; i++)
    p.a[i] = p.a[i] * 2;
  acc_detach((void **)&p.a);
  acc_detach((void **)&p.b);
#pragma acc exit data copyout(p.a[0:n], p.b[0:n])
#pragma acc exit data copyout(p)
  bad += check("acc_detach then copyout", &p, n);

  if (p.a != ha || p.b != hb)
    bad++, printf("host pointers changed\n");
  if (acc_is_present(ha, n * sizeof(double)) || acc_is_present(&p, sizeof p))
    bad++, printf("data left on the device\n");
  printf("%s\n", bad ? "FAIL" : "PASS");
  free(ha);
  free(hb);
  return bad != 0;
}
