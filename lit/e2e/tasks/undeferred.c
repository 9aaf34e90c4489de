// task and taskgroup in target regions (OpenMP 5.2 §12.5, §15.4): ptxcc's device tasks are
// undeferred — the encountering thread runs each task at once — which is a conforming
// execution of every program below (the OpenMP examples' task patterns: a producer loop in a
// single region, taskgroup, depend chains, if(0), final/mergeable/untied/priority, recursive
// tasks with taskwait, tasks in each team). The results must be those of the host.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: %run %t | FileCheck %s
// RUN: env OMP_TARGET_OFFLOAD=DISABLED %t | FileCheck %s
// CHECK: taskgroup: 0 3 6 9
// CHECK-NEXT: single producer: 4950
// CHECK-NEXT: depend chain: 1 2 4 8 16
// CHECK-NEXT: clauses: 10 20 30 40
// CHECK-NEXT: fib(15) = 610
// CHECK-NEXT: teams: 1 2 3 4
// CHECK-NEXT: PASS
#include <stdio.h>

#pragma omp declare target
int fib(int n) {
  if (n < 2)
    return n;
  int x, y;
#pragma omp task shared(x)
  x = fib(n - 1);
#pragma omp task shared(y)
  y = fib(n - 2);
#pragma omp taskwait
  return x + y;
}
#pragma omp end declare target

int main(void) {
  int ok = 1;
  int a[4] = {0}, k = 3;
#pragma omp target map(tofrom : a)
  {
#pragma omp taskgroup
    {
      for (int i = 0; i < 4; i++) {
#pragma omp task firstprivate(i) shared(a)
        a[i] = i * k;
      }
    }
  }
  printf("taskgroup: %d %d %d %d\n", a[0], a[1], a[2], a[3]);
  ok &= a[0] == 0 && a[1] == 3 && a[2] == 6 && a[3] == 9;

  // One thread of a parallel region makes the tasks; each runs when it is made.
  int v[100], total = 0;
#pragma omp target parallel map(from : v) num_threads(64)
  {
#pragma omp single
    {
      for (int i = 0; i < 100; i++) {
#pragma omp task firstprivate(i) shared(v)
        v[i] = i;
      }
#pragma omp taskwait
    }
  }
  for (int i = 0; i < 100; i++)
    total += v[i];
  printf("single producer: %d\n", total);
  ok &= total == 4950;

  // A chain of dependences: each task reads what the one before wrote.
  int c[5] = {1, 0, 0, 0, 0};
#pragma omp target map(tofrom : c)
  {
    for (int i = 1; i < 5; i++) {
#pragma omp task depend(in : c[i - 1]) depend(out : c[i]) firstprivate(i) shared(c)
      c[i] = 2 * c[i - 1];
    }
#pragma omp taskwait
  }
  printf("depend chain: %d %d %d %d %d\n", c[0], c[1], c[2], c[3], c[4]);
  ok &= c[4] == 16;

  int d[4] = {0};
#pragma omp target map(tofrom : d)
  {
#pragma omp task if (0) shared(d)
    d[0] = 10;
#pragma omp task final(1) mergeable shared(d)
    d[1] = 20;
#pragma omp task untied shared(d)
    d[2] = 30;
#pragma omp task priority(5) shared(d)
    d[3] = 40;
  }
  printf("clauses: %d %d %d %d\n", d[0], d[1], d[2], d[3]);
  ok &= d[0] == 10 && d[1] == 20 && d[2] == 30 && d[3] == 40;

  int f = 0;
#pragma omp target map(from : f)
  f = fib(15);
  printf("fib(15) = %d\n", f);
  ok &= f == 610;

  // Each team's initial thread makes its task.
  int t[4] = {0};
#pragma omp target teams num_teams(4) map(tofrom : t)
  {
    int me = 0;
#pragma omp distribute
    for (int i = 0; i < 4; i++) {
      me = i;
#pragma omp task shared(t) firstprivate(me)
      t[me] = me + 1;
    }
  }
  printf("teams: %d %d %d %d\n", t[0], t[1], t[2], t[3]);
  ok &= t[0] == 1 && t[3] == 4;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
