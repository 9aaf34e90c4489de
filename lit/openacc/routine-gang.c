// The gang loop of a 'routine gang' function deals its iterations to the gangs that call the
// routine (each gang runs the routine): a count of iterations, and team t runs those equal to t
// modulo the number of teams. Worker/vector routines' loops stay sequential in their thread.
// RUN: %ptxcc -fopenacc -fopenacc-print=omp %s | FileCheck %s
// RUN: %ptxcc -fopenacc -fptxcc-info -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: not %ptxcc -fopenacc -fsyntax-only -DBAD %s 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK: int omp_get_team_num(void); int omp_get_num_teams(void);
#pragma acc routine gang
void scale(double *a, int n, double s) {
  // CHECK: { long __ptxcc_gang_iter[[K:[0-9]+]] = 0; /* acc loop gang vector: iterations dealt to the gangs that call the routine */
  // CHECK-NEXT: for (int i = 0; i < n; i++) { if (__ptxcc_gang_iter[[K]]++ % omp_get_num_teams() != omp_get_team_num()) continue;
  // INFO: routine-gang.c:[[@LINE+2]]: loop parallelized: gang (iterations dealt cyclically to the gangs that call the routine)
  #pragma acc loop gang vector
  for (int i = 0; i < n; i++) {
    a[i] *= s;
  }
}

void twice(double *a, int n);
#pragma acc routine(twice) gang
void twice(double *a, int n) {
  // CHECK: { long __ptxcc_gang_iter[[J:[0-9]+]] = 0;
  // CHECK: for (int i = 0; i < n; i++) { if (__ptxcc_gang_iter[[J]]++ % omp_get_num_teams() != omp_get_team_num()) continue; a[i] *= 2;}}
  #pragma acc loop gang
  for (int i = 0; i < n; i++) a[i] *= 2;
}

#pragma acc routine worker
void row(double *a, int n) {
  // CHECK: /* acc loop worker: sequential (orphaned loop: run sequentially by each thread that calls it) */
  #pragma acc loop worker
  for (int i = 0; i < n; i++) a[i] += 1;
}

#ifdef BAD
#pragma acc routine gang
double total(const double *a, int n) {
  double s = 0;
  // BAD: routine-gang.c:[[@LINE+1]]:25: error: ptxcc does not support a reduction on the gang loop of a 'routine gang' function
  #pragma acc loop gang reduction(+:s)
  for (int i = 0; i < n; i++) s += a[i];
  return s;
}
#endif
