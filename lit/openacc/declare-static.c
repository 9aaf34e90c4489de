// update of a `static` global that a file-scope declare puts on the device: clang refuses
// `target update` of a declare target variable with internal linkage, so those items move
// through acc_update_self/acc_update_device (the runtime knows the global); others stay
// `target update`.
// RUN: %ptxcc -fopenacc -fopenacc-print=omp %s | FileCheck %s

// CHECK: void acc_update_self(void *, unsigned long); void acc_update_device(void *, unsigned long);
static float s[100];
#pragma acc declare create(s)
float g[100];
#pragma acc declare create(g)
static float plain[100];

void f(int c, int q) {
  // CHECK: if (1) { acc_update_self(&s[2], (10) * sizeof(s[2])); }
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}declare-static.c"
  // CHECK-NEXT: #pragma omp target update from(present: g)
  #pragma acc update self(s[2:10], g)
  // CHECK: #pragma omp taskwait depend(inout: __ptxcc_acc_queue[(unsigned)(q) % 64u])
  // CHECK-NEXT: # {{[0-9]+}} "{{.*}}declare-static.c"
  // CHECK-NEXT: if(c) { acc_update_device(&s, sizeof(s)); }
  // CHECK-NOT: target update
  #pragma acc update device(s) if(c) async(q)
  #pragma acc data copy(plain)
  {
    // CHECK: #pragma omp target update from(present: plain)
    #pragma acc update self(plain)
  }
}
