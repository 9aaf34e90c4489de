// async/wait: work on one queue is ordered through a dependence on that queue's slot; wait
// waits for it (taskwait).
// RUN: %ptxcc -fopenacc -fopenacc-print=omp %s | FileCheck %s

// CHECK: __attribute__((weak)) char __ptxcc_acc_queue[64]; int acc_get_default_async(void);
void f(int n, float *a, int q) {
  // CHECK: #pragma omp target teams distribute parallel for map(ompx_hold, tofrom: a[0:n]) nowait depend(inout: __ptxcc_acc_queue[(unsigned)(q) % 64u])
  #pragma acc parallel loop copy(a[0:n]) async(q)
  for (int i = 0; i < n; i++) a[i] += 1;
  // CHECK: #pragma omp target teams distribute parallel for nowait depend(inout: __ptxcc_acc_queue[(unsigned)acc_get_default_async() % 64u])
  #pragma acc parallel loop async
  for (int i = 0; i < n; i++) a[i] += 1;
  // CHECK: #pragma omp target teams distribute parallel for nowait depend(in: __ptxcc_acc_queue[(unsigned)(1) % 64u]) depend(inout: __ptxcc_acc_queue[(unsigned)(2) % 64u])
  #pragma acc parallel loop async(2) wait(1)
  for (int i = 0; i < n; i++) a[i] += 1;
  // CHECK: #pragma omp taskwait depend(inout: __ptxcc_acc_queue[(unsigned)(q) % 64u])
  #pragma acc wait(q)
  // CHECK: #pragma omp taskwait{{$}}
  #pragma acc wait
  // CHECK: #pragma omp task depend(in: __ptxcc_acc_queue[(unsigned)(1) % 64u]) depend(inout: __ptxcc_acc_queue[(unsigned)(2) % 64u])
  // CHECK-NEXT: {}
  // CHECK-NEXT: # [[@LINE+2]] "{{.*}}wait-async.c"
  #pragma acc wait(1) async(2)
  // CHECK: if (n) {
  // CHECK-NEXT: #pragma omp taskwait
  // CHECK-NEXT: }
  #pragma acc wait if(n)
  // A wait clause without queues waits for everything first.
  // CHECK: #pragma omp taskwait
  // CHECK-NEXT: #pragma omp target teams distribute parallel for
  #pragma acc parallel loop wait
  for (int i = 0; i < n; i++) a[i] += 1;
}
// The runtime routines wait for the async constructs themselves (whoever calls them): calls in
// the user's code are left as written.
void acc_wait(int);
int acc_async_test(int);
void g(void) {
  // CHECK: {{^ *}}acc_wait(1);
  acc_wait(1);
  // CHECK: {{^ *}}if (acc_async_test(2)) return;
  if (acc_async_test(2)) return;
}
// CHECK-NOT: taskwait
