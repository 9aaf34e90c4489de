// update: self/host -> from, device -> to, with the present modifier (absent data is an error in
// OpenACC, where OpenMP would skip it), which if_present leaves out.
// RUN: %ptxcc -fopenacc -fopenacc-print=omp %s | FileCheck %s

struct P { int n; float *v; };
void f(int n, float *a, struct P p) {
  // CHECK: #pragma omp target update from(present: a[0:n]) to(present: p.v[0:p.n])
  #pragma acc update self(a[0:n]) device(p.v[0:p.n])
  // CHECK: #pragma omp target update from(a[2:4]) if(n > 4)
  #pragma acc update host(a[2:4]) if(n > 4) if_present
  // CHECK: #pragma omp target update to(present: a[0:n]) nowait depend(inout: __ptxcc_acc_queue[(unsigned)(3) % 64u])
  #pragma acc update device(a[0:n]) async(3)
}

// Two sections of one array (a halo exchange): OpenMP's target update takes one list item per
// variable, so each further section of it gets its own update line, with the same if and queue.
void halo(int n, double *u, double *w, int c) {
  // CHECK-LABEL: void halo(
  // CHECK: #pragma omp target update from(present: u[1:1], w[0:1]) if(c) nowait depend(inout: __ptxcc_acc_queue[(unsigned)(2) % 64u])
  // CHECK-NEXT: # {{[0-9]+}}
  // CHECK-NEXT: #pragma omp target update from(present: u[n:1]) to(present: w[n+1:1]) if(c) nowait depend(inout: __ptxcc_acc_queue[(unsigned)(2) % 64u])
  // CHECK-NEXT: # {{[0-9]+}}
  // CHECK-NEXT: #pragma omp target update to(present: u[0:1]) if(c) nowait depend(inout: __ptxcc_acc_queue[(unsigned)(2) % 64u])
  #pragma acc update self(u[1:1], u[n:1], w[0:1]) device(u[0:1], w[n+1:1]) if(c) async(2)
}
