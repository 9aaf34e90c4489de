// private/firstprivate of a pointer's section: the construct allocates one copy per gang (or
// per thread on worker/vector loops) before it and frees them after it; each body points the
// variable at its copy. A section of an array variable is the array, private whole.
// RUN: %ptxcc -fopenacc -fopenacc-print=omp %s | FileCheck %s

void gang(int n, int m, double *c, double *r) {
  // CHECK-LABEL: void gang(
  // CHECK: { int __ptxcc_pd[[ID:[0-9]+]] = (1);
  // CHECK: long __ptxcc_pl[[ID]]_0 = (m), __ptxcc_po[[ID]]_0 = (0);
  // CHECK: long __ptxcc_pg[[ID]] = (__ptxcc_pd[[ID]] ? __ptxrt_acc_private_copies(__ptxcc_pl[[ID]]_0 * sizeof(*c)) : 1);
  // CHECK: void *__ptxcc_pb[[ID]]_0 = __ptxrt_acc_private_alloc("c", __ptxcc_pg[[ID]], __ptxcc_pl[[ID]]_0 * sizeof(*c), (const void *)0, __ptxcc_pd[[ID]]);
  // CHECK: #pragma omp target teams distribute map(ompx_hold, from: r[0:n]) num_teams(__ptxcc_pg[[ID]]) is_device_ptr(__ptxcc_pb[[ID]]_0)
  // CHECK-NEXT: # {{[0-9]+}}
  // CHECK-NEXT: for (int i = 0; i < n; i++) { __typeof__(c) c = (__typeof__(c))__ptxcc_pb[[ID]]_0 + omp_get_team_num() * __ptxcc_pl[[ID]]_0 - __ptxcc_po[[ID]]_0;
  // CHECK: __ptxrt_acc_private_free(__ptxcc_pb[[ID]]_0, __ptxcc_pd[[ID]]);
  #pragma acc parallel loop gang private(c[0:m]) copyout(r[0:n])
  for (int i = 0; i < n; i++) {
    #pragma acc loop vector
    for (int j = 0; j < m; j++) c[j] = i;
    r[i] = c[0];
  }
}

void thread(int n, double *c, double *r, double w[8]) {
  double fixed[8];
  // CHECK-LABEL: void thread(
  // CHECK: long __ptxcc_pt[[ID:[0-9]+]] = (64);
  // CHECK: long __ptxcc_pl[[ID]]_0 = (4), __ptxcc_po[[ID]]_0 = (2);
  // CHECK: long __ptxcc_pg[[ID]] = (8);
  // CHECK: __ptxrt_acc_private_alloc("c", __ptxcc_pg[[ID]] * __ptxcc_pt[[ID]], __ptxcc_pl[[ID]]_0 * sizeof(*c), (const void *)0, __ptxcc_pd[[ID]]);
  // CHECK: #pragma omp target teams num_teams(8) thread_limit(64) {{.*}}is_device_ptr(__ptxcc_pb[[ID]]_0)
  // CHECK: #pragma omp distribute parallel for private(fixed)
  // CHECK: for (int i = 0; i < n; i++) { __typeof__(c) c = (__typeof__(c))__ptxcc_pb[[ID]]_0 + (omp_get_team_num() * __ptxcc_pt[[ID]] + omp_get_thread_num()) * __ptxcc_pl[[ID]]_0 - __ptxcc_po[[ID]]_0;
  #pragma acc parallel num_gangs(8) vector_length(64) copyout(r[0:n])
  {
    #pragma acc loop gang vector private(c[2:4]) private(fixed[0:8])
    for (int i = 0; i < n; i++) { fixed[0] = c[2]; r[i] = c[3] + fixed[0]; }
  }
  // A bare statement as the body gets braces; async frees in a task on the queue.
  // CHECK: __ptxrt_acc_private_alloc("c", __ptxcc_pg[[ID2:[0-9]+]], __ptxcc_pl[[ID2]]_0 * sizeof(*c), (const void *)(c + __ptxcc_po[[ID2]]_0), __ptxcc_pd[[ID2]]);
  // CHECK: #pragma omp target {{.*}}is_device_ptr(__ptxcc_pb[[ID2]]_0)
  // CHECK-NEXT: # {{[0-9]+}}
  // CHECK-NEXT: { __typeof__(c) c = (__typeof__(c))__ptxcc_pb[[ID2]]_0 + omp_get_team_num() * __ptxcc_pl[[ID2]]_0 - __ptxcc_po[[ID2]]_0; r[0] = c[0]; }
  // CHECK: #pragma omp task depend(inout: __ptxcc_acc_queue[(unsigned)(1) % 64u])
  // CHECK-NEXT: # {{[0-9]+}}
  // CHECK-NEXT: { __ptxrt_acc_private_free(__ptxcc_pb[[ID2]]_0, __ptxcc_pd[[ID2]]); }
  #pragma acc serial firstprivate(c[0:1]) copyout(r[0:1]) async(1)
  r[0] = c[0];
}
