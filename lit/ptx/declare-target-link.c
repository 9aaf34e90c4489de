// 'declare target link' variables: the device has no storage for them, only clang's reference
// pointer (registered as the variable's offload entry), which the runtime points at the mapped
// copy; device code (a target region, a declare target function) loads it and indexes from it.
// A static link variable has clang's file-unique reference pointer name. The address of a link
// variable in another device global's initializer cannot be known: a located error.
// RUN: %ptxcc -fopenmp -O2 --emit=ptx -o - %s | FileCheck %s
// RUN: not %ptxcc -fopenmp -c -DIN_INITIALIZER %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=INIT
// CHECK-DAG: .visible .global .align 8 .u64 g_decl_tgt_ref_ptr;
// CHECK-DAG: .visible .global .align 8 .u64 s_{{[0-9a-f]+}}_decl_tgt_ref_ptr;
// CHECK-NOT: .global .align {{[0-9]+}} .b8 g[400]
// CHECK-NOT: .b8 s[
// CHECK-LABEL: .entry __omp_offloading_{{.*}}_f_l{{[0-9]+}}(
// CHECK: ld.global{{.*}}.u64 %rd{{[0-9]+}}, [g_decl_tgt_ref_ptr];
// CHECK-LABEL: .entry __omp_offloading_{{.*}}_h_l{{[0-9]+}}(
// CHECK: ld.global{{.*}}.u64 %rd{{[0-9]+}}, [s_{{[0-9a-f]+}}_decl_tgt_ref_ptr];
// INIT: declare-target-link.c:[[@LINE+29]]:{{[0-9]+}}: error: ptxcc does not support the address of the 'declare target link' variable 'g' in the initializer of 'p' on the device
int g[100];
static int s[10];
#pragma omp declare target link(g, s)

int host_only(void) { return g[0]; }

#pragma omp declare target
int get(int i) { return g[i]; }
#pragma omp end declare target

void f(void) {
#pragma omp target map(tofrom : g)
  for (int i = 0; i < 100; i++)
    g[i] = 2 * get(i);
}

void h(void) {
#pragma omp target map(tofrom : s)
  s[3] = 1;
}

#ifdef IN_INITIALIZER
#pragma omp declare target
int *p = &g[1];
#pragma omp end declare target
int use(void) {
  int r = 0;
#pragma omp target map(from : r)
  r = *p;
  return r;
}
#endif
