// -fopenmp-offload-parallel-for: each host `parallel for [simd]` becomes `target teams distribute
// parallel for [simd]` with the same clauses, on the same line; -fptxcc-print-translated prints the
// result. Loops already in device code (target regions, declare target functions, functions a
// target region calls) stay as they are.
// RUN: %ptxcc -fopenmp -fopenmp-offload-parallel-for -fptxcc-print-translated %s | FileCheck %s
// RUN: %ptxcc -fopenmp -fopenmp-offload-parallel-for -fptxcc-print-translated -o %t.i %s
// RUN: FileCheck %s < %t.i
// Without the flag the text is the preprocessed source, unchanged.
// RUN: %ptxcc -fopenmp -fptxcc-print-translated %s | FileCheck %s --check-prefix=OFF
// OFF-NOT: target teams distribute parallel for
// OFF: #pragma omp parallel for schedule({{(monotonic: )?}}static) num_threads(64)

#define N 1024
double a[N], b[N];

void device_helper(double *v, int n) {
  // Called from a target region below: its loop is device code already.
  // CHECK-LABEL: void device_helper(
  // CHECK: #pragma omp parallel for{{$}}
#pragma omp parallel for
  for (int i = 0; i < n; i++) v[i] = 0;
}

#pragma omp declare target
void declared(double *v, int n) {
  // CHECK-LABEL: void declared(
  // CHECK: #pragma omp parallel for{{$}}
#pragma omp parallel for
  for (int i = 0; i < n; i++) v[i] = 1;
}
#pragma omp end declare target

int main(void) {
  double s = 0, m = 0;
  int n = N, hits = 0;
  // CHECK-LABEL: int main(void)
  // CHECK: #pragma omp target teams distribute parallel for{{$}}
  // CHECK-NEXT: for (int i = 0; i < 1024; i++) a[i] = i;
#pragma omp parallel for
  for (int i = 0; i < N; i++) a[i] = i;
  // num_threads bounds the threads of each team; schedule stays.
  // CHECK: #pragma omp target teams distribute parallel for schedule({{(monotonic: )?}}static) thread_limit(64)
#pragma omp parallel for schedule(static) num_threads(64)
  for (int i = 0; i < N; i++) b[i] = 2 * a[i];
  // CHECK: #pragma omp target teams distribute parallel for simd reduction(+:s) reduction(max:m) simdlen(8)
#pragma omp parallel for simd reduction(+:s) reduction(max:m) simdlen(8)
  for (int i = 0; i < N; i++) {
    s += a[i];
    m = a[i] > m ? a[i] : m;
  }
  // if(c): false runs the whole loop on the host; proc_bind means nothing on a GPU.
  // CHECK: #pragma omp target teams distribute parallel for if(target: n > 100) private(s) collapse(2)
#pragma omp parallel for if(n > 100) proc_bind(spread) private(s) collapse(2)
  for (int i = 0; i < 32; i++)
    for (int j = 0; j < 32; j++) {
      s = a[i * 32 + j];
      b[i * 32 + j] = s;
    }
  // A shared scalar the loop writes is mapped back (it would be firstprivate on the device).
  // CHECK: #pragma omp target teams distribute parallel for default(shared) map(tofrom: hits)
#pragma omp parallel for default(shared)
  for (int i = 0; i < N; i++)
    if (a[i] > 1000) hits = 1;
  // CHECK: #pragma omp target teams map(tofrom: a)
  // CHECK-NEXT: {
  // CHECK-NEXT: device_helper(a, 1024);
  // CHECK-NEXT: #pragma omp parallel for{{$}}
#pragma omp target teams map(tofrom: a)
  {
    device_helper(a, N);
#pragma omp parallel for
    for (int i = 0; i < N; i++) a[i] += 1;
  }
  return (int)s + hits;
}
