// The `scope` construct (OpenMP 5.1; OpenMP 5.2 section 11.2), which clang 19 cannot compile and
// ptxcc writes out itself: every thread of the team runs the block once with its own private,
// firstprivate and reduction copies; the reductions are combined into the original before the
// implicit barrier (none under nowait). Each result is compared with what the serial program
// computes, on the device (target parallel) and on the host (parallel).
// RUN: %ptxcc -fopenmp -O1 %s -o %t
// RUN: %run %t | FileCheck %s
// CHECK: device: sum ok, max ok, all ok, product ok, firstprivate ok, private ok, loop ok
// CHECK: host: sum ok, max ok, all ok, product ok, firstprivate ok, private ok, loop ok
// CHECK: nowait: ok
#include <omp.h>
#include <stdio.h>
#define N 256
#define T 4

static const char *ok(int good) { return good ? "ok" : "WRONG"; }

// The team's code, the same on the device and on the host.
#define TEAM_BODY                                                                              \
  {                                                                                            \
    int me = omp_get_thread_num();                                                             \
    _Pragma("omp single") nthreads = omp_get_num_threads();                                    \
    _Pragma("omp scope reduction(+ : sum) reduction(max : mx) reduction(&& : all) reduction(* : prod)") \
    {                                                                                          \
      sum += me + 1;                                                                           \
      mx = mx > me * 1.5 ? mx : me * 1.5;                                                      \
      all = all && (me < T);                                                                   \
      prod *= 2;                                                                               \
    }                                                                                          \
    /* After the scope's barrier every thread sees the combined values. */                     \
    _Pragma("omp atomic") seen += sum == 5 + nthreads * (nthreads + 1) / 2;                    \
    _Pragma("omp scope firstprivate(base) private(priv)")                                      \
    {                                                                                          \
      priv = me;     /* each thread's own copy: the original is untouched */                   \
      base += me;    /* starts from the original 7 in every thread */                          \
      _Pragma("omp atomic") fp_ok += base == 7 + me;                                           \
    }                                                                                          \
    _Pragma("omp scope")                                                                       \
    {                                                                                          \
      _Pragma("omp for") for (int i = 0; i < N; i++) loop[i] += i;                             \
    }                                                                                          \
    /* the scope's barrier ended the loop in every thread */                                   \
    _Pragma("omp atomic") any += loop[N - 1] == N - 1;                                         \
  }

static void run(const char *where, int on_device) {
  int sum = 5, seen = 0, any = 0, loop[N];
  long prod = 3;
  double mx = -1.0;
  int all = 1;
  int base = 7, fp_ok = 0, priv = -1, nthreads = 0;
  for (int i = 0; i < N; i++)
    loop[i] = 0;
  if (on_device) {
#pragma omp target parallel num_threads(T) map(tofrom : sum, mx, all, prod, fp_ok, priv, nthreads, loop, seen, any)
    TEAM_BODY
  } else {
#pragma omp parallel num_threads(T)
    TEAM_BODY
  }
  int n = nthreads, loop_ok = 1;
  for (int i = 0; i < N; i++)
    loop_ok &= loop[i] == i;
  long want_prod = 3;
  for (int i = 0; i < n; i++)
    want_prod *= 2;
  printf("%s: sum %s, max %s, all %s, product %s, firstprivate %s, private %s, loop %s\n",
         where, ok(sum == 5 + n * (n + 1) / 2 && seen == n), ok(mx == (n - 1) * 1.5),
         ok(all == 1), ok(prod == want_prod), ok(fp_ok == n), ok(priv == -1),
         ok(loop_ok && any == n));
}

int main(void) {
  run("device", 1);
  run("host", 0);
  // nowait: no barrier at the end of the first scope; the explicit one orders the second.
  int a[T] = {0}, b = 0, t = 0;
#pragma omp parallel num_threads(T) shared(a, b, t)
  {
#pragma omp single
    t = omp_get_num_threads();
#pragma omp scope nowait
    a[omp_get_thread_num()] = 1;
#pragma omp barrier
#pragma omp scope reduction(+ : b)
    for (int i = 0; i < T; i++)
      b += a[i];
  }
  printf("nowait: %s\n", ok(b == t * t));
  return 0;
}
