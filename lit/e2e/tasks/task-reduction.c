// Task reductions in target regions (OpenMP 5.2 §5.5.9 task_reduction, §5.5.10 in_reduction,
// §5.5.8 the reduction clause's task modifier): a taskgroup's participating tasks and the tasks
// of a parallel region with reduction(task, …) contribute to the reduction. ptxcc's device tasks
// are undeferred, so a participating task updates the list item of the thread that makes it.
// Every answer is compared with the one the host computes.
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: %run %t | FileCheck %s
// RUN: env OMP_TARGET_OFFLOAD=DISABLED %t | FileCheck %s
// RUN: %ptxcc -fopenmp -O0 %s -o %t0
// RUN: %run %t0 | FileCheck %s
// CHECK: taskgroup: 4950
// CHECK-NEXT: operators: 3628800 -7 1 15.5
// CHECK-NEXT: section: 10 20 30 40
// CHECK-NEXT: single producer: 1275
// CHECK-NEXT: task modifier: 2080
// CHECK-NEXT: worksharing task modifier: 8128
// CHECK-NEXT: nested tasks: 110
// CHECK-NEXT: teams: 10 20 30 40
// CHECK-NEXT: PASS
#include <stdio.h>

int main(void) {
  int ok = 1;

  // One taskgroup, a producer loop of participating tasks.
  int s = 0;
#pragma omp target map(tofrom : s)
#pragma omp taskgroup task_reduction(+ : s)
  for (int i = 0; i < 100; i++) {
#pragma omp task in_reduction(+ : s) firstprivate(i)
    s += i;
  }
  printf("taskgroup: %d\n", s);
  ok &= s == 4950;

  // Several items and operators in one taskgroup, and a double.
  long prod = 1;
  int mn = 100, any = 0;
  double d = 0.5;
#pragma omp target map(tofrom : prod, mn, any, d)
#pragma omp taskgroup task_reduction(* : prod) task_reduction(min : mn) task_reduction(|| : any)   \
    task_reduction(+ : d)
  for (int i = 1; i <= 10; i++) {
#pragma omp task in_reduction(* : prod) in_reduction(min : mn) in_reduction(|| : any)           \
    in_reduction(+ : d)
    {
      prod *= i;
      mn = mn < 3 - i ? mn : 3 - i;
      any = any || i == 7;
      d += 1.5;
    }
  }
  printf("operators: %ld %d %d %g\n", prod, mn, any, d);
  ok &= prod == 3628800 && mn == -7 && any == 1 && d == 15.5;

  // An array section.
  int a[4] = {0, 0, 0, 0};
#pragma omp target map(tofrom : a)
#pragma omp taskgroup task_reduction(+ : a[0 : 4])
  for (int t = 0; t < 10; t++) {
#pragma omp task in_reduction(+ : a[0 : 4])
    for (int k = 0; k < 4; k++)
      a[k] += k + 1;
  }
  printf("section: %d %d %d %d\n", a[0], a[1], a[2], a[3]);
  ok &= a[0] == 10 && a[1] == 20 && a[2] == 30 && a[3] == 40;

  // The producer pattern: one thread of a parallel region makes the tasks.
  int p = 0;
#pragma omp target parallel num_threads(16) map(tofrom : p)
#pragma omp single
#pragma omp taskgroup task_reduction(+ : p)
  for (int i = 1; i <= 50; i++) {
#pragma omp task in_reduction(+ : p)
    p += i;
  }
  printf("single producer: %d\n", p);
  ok &= p == 1275;

  // reduction(task, …): every thread's tasks join the parallel region's reduction.
  int m = 0;
#pragma omp target parallel num_threads(64) reduction(task, + : m) map(tofrom : m)
  {
    int me = 0;
#pragma omp for
    for (int i = 0; i < 64; i++)
      me = i + 1;
#pragma omp task in_reduction(+ : m)
    m += me;
  }
  printf("task modifier: %d\n", m);
  ok &= m == 2080;

  // A worksharing loop with reduction(task, …): the tasks of every iteration take part.
  int w = 0;
#pragma omp target parallel num_threads(32) map(tofrom : w)
#pragma omp for reduction(task, + : w)
  for (int i = 0; i < 128; i++) {
#pragma omp task in_reduction(+ : w)
    w += i;
  }
  printf("worksharing task modifier: %d\n", w);
  ok &= w == 8128;

  // A participating task that makes participating tasks.
  int n = 0;
#pragma omp target map(tofrom : n)
#pragma omp taskgroup task_reduction(+ : n)
  for (int i = 0; i < 10; i++) {
#pragma omp task in_reduction(+ : n)
    {
      n += 1;
      for (int j = 0; j < 10; j++) {
#pragma omp task in_reduction(+ : n)
        n += 1;
      }
    }
  }
  printf("nested tasks: %d\n", n);
  ok &= n == 110;

  // A taskgroup in each team, over the team's own element.
  int t[4] = {0, 0, 0, 0};
#pragma omp target teams distribute num_teams(4) map(tofrom : t)
  for (int g = 0; g < 4; g++) {
    int v = 0;
#pragma omp taskgroup task_reduction(+ : v)
    for (int i = 0; i < 4; i++) {
#pragma omp task in_reduction(+ : v)
      v += (g + 1) * (i + 1);
    }
    t[g] = v;
  }
  printf("teams: %d %d %d %d\n", t[0], t[1], t[2], t[3]);
  ok &= t[0] == 10 && t[1] == 20 && t[2] == 30 && t[3] == 40;

  printf(ok ? "PASS\n" : "FAIL\n");
  return !ok;
}
