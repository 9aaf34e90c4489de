// -fptxcc-info: how each loop was compiled, reductions and data movement.
// RUN: %ptxcc -fopenacc -fptxcc-info -c %s -o /dev/null 2>&1 | FileCheck %s

void f(int n, float *restrict x, float *restrict y, float a) {
  float s = 0;
  // CHECK-DAG: info.c:[[@LINE+3]]: loop parallelized: gang(blockIdx.x) vector(threadIdx.x, 128)
  // CHECK-DAG: info.c:[[@LINE+2]]: data: x[0:n] copied to the device; y[0:n] copied to the device at entry and back at exit
  #pragma acc parallel loop copyin(x[0:n]) copy(y[0:n]) vector_length(128)
  for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];
  // CHECK-DAG: info.c:[[@LINE+2]]: reduction(+: s) combined across threads and blocks
  #pragma acc parallel loop reduction(+:s) present(x[0:n])
  for (int i = 0; i < n; i++) s += x[i];
  #pragma acc kernels copy(x[0:n])
  {
    // CHECK-DAG: info.c:[[@LINE+1]]: loop parallelized: gang(blockIdx.x) vector(threadIdx.x) (independent iterations proven)
    for (int i = 0; i < n; i++) x[i] = x[i] * 2;
    // CHECK-DAG: info.c:[[@LINE+1]]: loop not parallelized: loop-carried dependence on x
    for (int i = 1; i < n; i++) x[i] = x[i - 1] + 1;
  }
  y[0] = s;
}
