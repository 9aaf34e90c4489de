// The report: one line per host `parallel for`, under -fopenmp-offload-parallel-for=report or
// -fptxcc-info; loops in device code are not reported. Without either, only the remarks of loops
// left on the host are printed.
// RUN: %ptxcc -fopenmp -fopenmp-offload-parallel-for=report -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=offloaded
// RUN: %ptxcc -fopenmp -fopenmp-offload-parallel-for -fptxcc-info -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=offloaded
// RUN: %ptxcc -fopenmp -fopenmp-offload-parallel-for -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=QUIET
// QUIET-NOT: offloaded:
// QUIET: report.c:[[@LINE+25]]:13: remark: parallel for stays on the host: schedule(dynamic)
// QUIET-NOT: offloaded:
// -w silences remarks and warnings, as clang's.
// RUN: %ptxcc -fopenmp -fopenmp-offload-parallel-for -w -fsyntax-only %s 2>&1 | count 0

#define N 512
float x[N], y[N];

void saxpy(float a) {
  // CHECK: report.c:[[@LINE+1]]: parallel for offloaded: target teams distribute parallel for{{$}}
#pragma omp parallel for
  for (int i = 0; i < N; i++) y[i] = a * x[i] + y[i];
}

float dot(void) {
  float s = 0;
  // CHECK: report.c:[[@LINE+1]]: parallel for simd offloaded: target teams distribute parallel for simd (num_threads(128) became thread_limit(128))
#pragma omp parallel for simd reduction(+:s) num_threads(128)
  for (int i = 0; i < N; i++) s += x[i] * y[i];
  return s;
}

void uneven(void) {
  // CHECK: report.c:[[@LINE+2]]:13: remark: parallel for stays on the host: schedule(dynamic) (ptxcc offloads static schedules only)
  // CHECK: report.c:[[@LINE+1]]: parallel for stays on the host: schedule(dynamic) (ptxcc offloads static schedules only)
#pragma omp parallel for schedule(dynamic, 16)
  for (int i = 0; i < N; i++) y[i] = i;
}

int main(void) {
  saxpy(2.0f);
#pragma omp target map(tofrom: x)
  {
#pragma omp parallel for
    for (int i = 0; i < N; i++) x[i] = 1;
  }
  uneven();
  return (int)dot();
}
