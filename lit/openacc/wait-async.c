// async/wait: work on one queue is ordered through a dependence on that queue's slot; wait
// waits for it (taskwait) and for what the acc_*_async routines put on the queue's device
// queue (__ptxrt_acc_wait_*). async on enter/exit data and update: nowait on the queue; on a
// kernels region: each kernel and the region's data movements (enter/exit data) on the queue;
// on a data region: entry after the queue's earlier work, exit after the region's work on it.
// RUN: %ptxcc -fopenacc -fopenacc-print=omp %s | FileCheck %s

// CHECK: __attribute__((weak)) char __ptxcc_acc_queue[64]; int acc_get_default_async(void);
// CHECK: void __ptxrt_acc_wait_queue(int); void __ptxrt_acc_wait_all_queues(void); void __ptxrt_acc_wait_queue_async(int, int); void __ptxrt_acc_wait_all_queues_async(int);
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
  // CHECK: {
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}wait-async.c"
  // CHECK-NEXT: #pragma omp taskwait depend(inout: __ptxcc_acc_queue[(unsigned)(q) % 64u])
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}wait-async.c"
  // CHECK-NEXT: __ptxrt_acc_wait_queue((int)(q));
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}wait-async.c"
  // CHECK-NEXT: }
  #pragma acc wait(q)
  // CHECK: #pragma omp taskwait depend(inout: __ptxcc_acc_queue[(unsigned)(1) % 64u]) depend(inout: __ptxcc_acc_queue[(unsigned)(q + 1) % 64u])
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}wait-async.c"
  // CHECK-NEXT: __ptxrt_acc_wait_queue((int)(1)); __ptxrt_acc_wait_queue((int)(q + 1));
  #pragma acc wait(1, q + 1)
  // CHECK: {
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}wait-async.c"
  // CHECK-NEXT: #pragma omp taskwait{{$}}
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}wait-async.c"
  // CHECK-NEXT: __ptxrt_acc_wait_all_queues();
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}wait-async.c"
  // CHECK-NEXT: }
  #pragma acc wait
  // CHECK: {
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}wait-async.c"
  // CHECK-NEXT: #pragma omp task depend(in: __ptxcc_acc_queue[(unsigned)(1) % 64u]) depend(inout: __ptxcc_acc_queue[(unsigned)(2) % 64u])
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}wait-async.c"
  // CHECK-NEXT: {}
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}wait-async.c"
  // CHECK-NEXT: __ptxrt_acc_wait_queue_async((int)(1), (int)(2));
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}wait-async.c"
  // CHECK-NEXT: }
  // CHECK-NEXT: # [[@LINE+2]] "{{.*}}wait-async.c"
  #pragma acc wait(1) async(2)
  // wait async(q) without queues: after every queue (the host waits for the tasks).
  // CHECK: {
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}wait-async.c"
  // CHECK-NEXT: #pragma omp taskwait{{$}}
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}wait-async.c"
  // CHECK-NEXT: __ptxrt_acc_wait_all_queues_async((int)(q));
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}wait-async.c"
  // CHECK-NEXT: }
  #pragma acc wait async(q)
  // CHECK: if (n) {
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}wait-async.c"
  // CHECK-NEXT: #pragma omp taskwait
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}wait-async.c"
  // CHECK-NEXT: __ptxrt_acc_wait_all_queues();
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}wait-async.c"
  // CHECK-NEXT: }
  #pragma acc wait if(n)
  // A wait clause without queues waits for everything first.
  // CHECK: #pragma omp taskwait
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}wait-async.c"
  // CHECK-NEXT: #pragma omp target teams distribute parallel for
  #pragma acc parallel loop wait
  for (int i = 0; i < n; i++) a[i] += 1;
  // enter/exit data and update: nowait on the queue, after the queues they wait for.
  // CHECK: #pragma omp target enter data map(to: a[0:n]) nowait depend(in: __ptxcc_acc_queue[(unsigned)(1) % 64u]) depend(inout: __ptxcc_acc_queue[(unsigned)(3) % 64u])
  #pragma acc enter data copyin(a[0:n]) async(3) wait(1)
  // CHECK: #pragma omp target update from(present: a[0:n]) nowait depend(inout: __ptxcc_acc_queue[(unsigned)(3) % 64u])
  #pragma acc update self(a[0:n]) async(3)
  // CHECK: #pragma omp target exit data map(from: a[0:n]) nowait depend(inout: __ptxcc_acc_queue[(unsigned)(3) % 64u])
  #pragma acc exit data copyout(a[0:n]) async(3)
  // enter data with zero: the zeroing kernels need the data, so it is mapped synchronously,
  // after the queue's earlier work.
  // CHECK: #pragma omp taskwait depend(inout: __ptxcc_acc_queue[(unsigned)(3) % 64u])
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}wait-async.c"
  // CHECK-NEXT: { int __ptxcc_zf{{[0-9]+}} = !omp_target_is_present
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}wait-async.c"
  // CHECK-NEXT: #pragma omp target enter data map(alloc: a[0:n]){{$}}
  #pragma acc enter data create(zero: a[0:n]) async(3)
  // kernels async: enter data, every kernel, exit data on the queue, in a block.
  // CHECK: {{^[{]$}}
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}wait-async.c"
  // CHECK-NEXT: #pragma omp taskwait depend(inout: __ptxcc_acc_queue[(unsigned)(1) % 64u])
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}wait-async.c"
  // CHECK-NEXT: #pragma omp target enter data map(to: a[0:n]) map(to: s) nowait depend(inout: __ptxcc_acc_queue[(unsigned)(q) % 64u])
  // CHECK: #pragma omp target teams distribute parallel for nowait depend(inout: __ptxcc_acc_queue[(unsigned)(q) % 64u])
  // CHECK: #pragma omp target map(tofrom: s) nowait depend(inout: __ptxcc_acc_queue[(unsigned)(q) % 64u])
  // CHECK: #pragma omp target exit data map(from: a[0:n]) map(from: s) nowait depend(inout: __ptxcc_acc_queue[(unsigned)(q) % 64u])
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}wait-async.c"
  // CHECK-NEXT: }
  float s = 0;
  #pragma acc kernels copy(a[0:n]) async(q) wait(1)
  {
    for (int i = 0; i < n; i++) a[i] *= 2;
    s = a[0];
  }
  // data async: the host waits for the queue before the entry and at the end of the body.
  // CHECK: #pragma omp taskwait depend(inout: __ptxcc_acc_queue[(unsigned)(4) % 64u])
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}wait-async.c"
  // CHECK-NEXT: #pragma omp target data map(ompx_hold, tofrom: a[0:n])
  // CHECK: #pragma omp target teams distribute parallel for nowait depend(inout: __ptxcc_acc_queue[(unsigned)(4) % 64u])
  // CHECK: #pragma omp taskwait depend(inout: __ptxcc_acc_queue[(unsigned)(4) % 64u])
  // CHECK-NEXT: # [[@LINE+6]] "{{.*}}wait-async.c"
  // CHECK-NEXT: }
  #pragma acc data copy(a[0:n]) async(4)
  {
    #pragma acc parallel loop async(4)
    for (int i = 0; i < n; i++) a[i] += 1;
  }
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
