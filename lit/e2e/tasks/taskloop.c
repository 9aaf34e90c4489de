// taskloop in a target region (passes/src/taskloop.rs): the thread that meets it makes the
// loop's tasks and runs them at once, in order. Each task has its own firstprivate copy (set
// from the original at the task's start: a counter in it restarts at every task, which shows
// where the tasks begin), the last task's lastprivate value comes back, and the iterations are
// dealt as OpenMP 5.2 12.6 says: grainsize(g) gives every task at least g and fewer than 2g
// (all of them when fewer), num_tasks(n) min(n, trips) tasks that differ by at most one; a
// negative step and an empty loop work; no clause runs every iteration once. Each count is
// checked against those rules, the values against the serial loop. (Clang 19 drops the strict
// modifier in its code, for the host's libomp too; not tested.)
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %run %t | FileCheck %s
// CHECK: grainsize(10) of 100: 10 tasks ok
// CHECK: grainsize(7) of 100: 14 tasks ok
// CHECK: num_tasks(6) of 100: 6 tasks ok
// CHECK: num_tasks(8) of 5: 5 tasks ok
// CHECK: grainsize(4) of 34, step -3: 8 tasks ok
// CHECK: grainsize(4) of 0: 0 tasks ok
// CHECK: no clause of 100: ok
// CHECK: PASS
#include <stdio.h>

#define N 100
enum { GRAIN, NUM, NONE };

// Runs the taskloop over i = lo, lo + step, ... (n iterations) on the device; at[k] is the
// iteration's position in its task, val[k] its value; returns the lastprivate.
static int run(int kind, int g, int lo, int step, int n, int *at, int *val) {
  int last = -1, pos = 0;
#pragma omp target map(tofrom : at[0:N], val[0:N], last)
  {
    if (kind == GRAIN) {
#pragma omp taskloop grainsize(g) firstprivate(pos) lastprivate(last) shared(at, val)
      for (int k = 0; k < n; k++) {
        at[k] = pos++;
        val[k] = lo + k * step;
        last = val[k];
      }
    } else if (kind == NUM) {
#pragma omp taskloop num_tasks(g) firstprivate(pos) lastprivate(last) shared(at, val)
      for (int k = 0; k < n; k++) {
        at[k] = pos++;
        val[k] = lo + k * step;
        last = val[k];
      }
    } else {
#pragma omp taskloop firstprivate(pos) lastprivate(last) shared(at, val)
      for (int k = 0; k < n; k++) {
        at[k] = pos++;
        val[k] = lo + k * step;
        last = val[k];
      }
    }
  }
  return last;
}

// A loop written with a negative step, to check the bounds the tasks get.
static int down(int g, int *at, int *val) {
  int last = -1, pos = 0;
#pragma omp target map(tofrom : at[0:N], val[0:N], last)
#pragma omp taskloop grainsize(g) firstprivate(pos) lastprivate(last) shared(at, val)
  for (int i = 99; i >= 0; i -= 3) {
    at[(99 - i) / 3] = pos++;
    val[(99 - i) / 3] = i;
    last = i;
  }
  return last;
}

// Checks one run: every iteration done once with its value, the task sizes by the rules.
static int check(const char *what, int kind, int g, int lo, int step, int n, int last,
                 const int *at, const int *val) {
  int tasks = 0, ok = 1, size = 0, sizes[N];
  for (int k = 0; k < n; k++) {
    ok &= val[k] == lo + k * step;
    if (at[k] == 0) {
      if (k > 0)
        sizes[tasks - 1] = size;
      tasks++;
      size = 0;
    }
    ok &= at[k] == size;
    size++;
  }
  if (n > 0)
    sizes[tasks - 1] = size;
  ok &= n == 0 ? last == -1 : last == lo + (n - 1) * step;
  for (int t = 0; t < tasks; t++) {
    if (kind == GRAIN)
      ok &= n < g ? sizes[t] == n : (sizes[t] >= g && sizes[t] < 2 * g);
    if (kind == NUM)
      ok &= sizes[t] == n / tasks || sizes[t] == n / tasks + 1;
  }
  if (kind == NUM)
    ok &= tasks == (g < n ? g : n);
  if (kind == NONE)
    printf("%s: %s\n", what, ok ? "ok" : "WRONG");
  else
    printf("%s: %d tasks %s\n", what, tasks, ok ? "ok" : "WRONG");
  return ok;
}

int main(void) {
  int at[N], val[N], ok = 1, last;
  last = run(GRAIN, 10, 0, 1, 100, at, val);
  ok &= check("grainsize(10) of 100", GRAIN, 10, 0, 1, 100, last, at, val);
  last = run(GRAIN, 7, 3, 2, 100, at, val);
  ok &= check("grainsize(7) of 100", GRAIN, 7, 3, 2, 100, last, at, val);
  last = run(NUM, 6, 0, 1, 100, at, val);
  ok &= check("num_tasks(6) of 100", NUM, 6, 0, 1, 100, last, at, val);
  last = run(NUM, 8, 0, 1, 5, at, val);
  ok &= check("num_tasks(8) of 5", NUM, 8, 0, 1, 5, last, at, val);
  last = down(4, at, val);
  ok &= check("grainsize(4) of 34, step -3", GRAIN, 4, 99, -3, 34, last, at, val);
  last = run(GRAIN, 4, 0, 1, 0, at, val);
  ok &= check("grainsize(4) of 0", GRAIN, 4, 0, 1, 0, last, at, val);
  last = run(NONE, 0, 0, 1, 100, at, val);
  ok &= check("no clause of 100", NONE, 0, 0, 1, 100, last, at, val);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
