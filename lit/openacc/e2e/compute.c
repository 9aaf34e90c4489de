// parallel, serial, kernels and their loop forms, with gang/worker/vector, collapse, tile,
// private and firstprivate, compared with the serial answer.
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// CHECK: PASS
#include <stdio.h>
#define N 300
#define M 70
static float a[N][M], b[N][M], r[N][M], v[N], w[N];
static int check(const char *what, float (*x)[M], float (*y)[M]) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      if (x[i][j] != y[i][j]) { printf("%s: [%d][%d] %f != %f\n", what, i, j, x[i][j], y[i][j]); return 1; }
  return 0;
}
int main(void) {
  int bad = 0;
  float c = 3, t;
  int j;
  for (int i = 0; i < N; i++) for (int k = 0; k < M; k++) { a[i][k] = i - k; b[i][k] = 0; }
  for (int i = 0; i < N; i++) for (int k = 0; k < M; k++) r[i][k] = c * a[i][k] + 1;

  #pragma acc parallel loop collapse(2) copyin(a) copyout(b) firstprivate(c)
  for (int i = 0; i < N; i++) for (int k = 0; k < M; k++) b[i][k] = c * a[i][k] + 1;
  bad += check("parallel loop collapse", b, r);

  #pragma acc parallel num_gangs(16) vector_length(32) copyin(a) copy(b)
  {
    #pragma acc loop gang
    for (int i = 0; i < N; i++) {
      #pragma acc loop vector private(t)
      for (int k = 0; k < M; k++) { t = a[i][k]; b[i][k] = t * c + 1 + 1; }
    }
  }
  for (int i = 0; i < N; i++) for (int k = 0; k < M; k++) r[i][k] += 1;
  bad += check("gang/vector", b, r);

  #pragma acc parallel loop gang worker vector num_workers(4) copyin(a) copy(b)
  for (int i = 0; i < N; i++)
    for (j = 0; j < M; j++) b[i][j] = a[i][j] * 2;
  for (int i = 0; i < N; i++) for (int k = 0; k < M; k++) r[i][k] = a[i][k] * 2;
  bad += check("gang worker vector + inner counter", b, r);

  #pragma acc parallel loop tile(8, 8) copy(b)
  for (int i = 0; i < N; i++) for (int k = 0; k < M; k++) b[i][k] = i * k;
  for (int i = 0; i < N; i++) for (int k = 0; k < M; k++) r[i][k] = i * k;
  bad += check("tile", b, r);

  // serial: a recurrence on one thread.
  for (int i = 0; i < N; i++) v[i] = 1;
  #pragma acc serial copy(v)
  for (int i = 1; i < N; i++) v[i] = v[i - 1] + v[i];
  for (int i = 0; i < N; i++) if (v[i] != i + 1) { bad++; break; }

  #pragma acc serial loop copy(v)
  for (int i = 1; i < N; i++) v[i] = v[i - 1] * 0.5f + 1;
  float ref = 1; w[0] = N;
  for (int i = 1; i < N; i++) ref = ref * 0.5f + 1;
  if (v[N - 1] != ref) { printf("serial loop %f %f\n", v[N - 1], ref); bad++; }

  // kernels: one parallel nest, one recurrence, one scalar statement.
  float s = 0;
  #pragma acc kernels copy(v, w)
  {
    for (int i = 0; i < N; i++) w[i] = i;
    for (int i = 1; i < N; i++) w[i] = w[i] + w[i - 1];
    for (int i = 0; i < N; i++) s += w[i];
    s = s + 1;
  }
  double ss = 0, pre = 0;
  for (int i = 0; i < N; i++) { pre += i; if (w[i] != pre) { bad++; printf("kernels w[%d]\n", i); break; } ss += pre; }
  if (s != (float)ss + 1) { printf("kernels s %f %f\n", s, ss + 1); bad++; }

  #pragma acc kernels loop copy(w)
  for (int i = 0; i < N; i++) w[i] = 2 * i;
  for (int i = 0; i < N; i++) if (w[i] != 2 * i) { bad++; break; }

  // kernels with a time loop: the time loop runs on the host, its two sweeps are kernels.
  static float u[N], un[N], ru[N], run_[N];
  for (int i = 0; i < N; i++) u[i] = ru[i] = (i % 13) * 1.0f;
  #pragma acc kernels copy(u) create(un)
  for (int it = 0; it < 20; it++) {
    for (int i = 1; i < N - 1; i++) un[i] = 0.5f * (u[i - 1] + u[i + 1]);
    for (int i = 1; i < N - 1; i++) u[i] = un[i];
  }
  for (int it = 0; it < 20; it++) {
    for (int i = 1; i < N - 1; i++) run_[i] = 0.5f * (ru[i - 1] + ru[i + 1]);
    for (int i = 1; i < N - 1; i++) ru[i] = run_[i];
  }
  for (int i = 0; i < N; i++) if (u[i] != ru[i]) { printf("jacobi %d %f %f\n", i, u[i], ru[i]); bad++; break; }

  // if(false) and self: run on the host, same answer.
  int on_dev = 0;
  #pragma acc parallel loop copy(w) if(on_dev)
  for (int i = 0; i < N; i++) w[i] = 3 * i;
  for (int i = 0; i < N; i++) if (w[i] != 3 * i) { bad++; break; }
  #pragma acc parallel loop copy(w) self(1)
  for (int i = 0; i < N; i++) w[i] = 4 * i;
  for (int i = 0; i < N; i++) if (w[i] != 4 * i) { bad++; break; }
  printf("%s %d\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
