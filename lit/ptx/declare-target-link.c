// 'declare target link' variables are refused where device code names them, at the use and by
// the variable's name (clang's reference pointer, 'g_decl_tgt_ref_ptr', was named before, with
// no location); a translation unit that declares one but whose device code never names it
// compiles.
// RUN: not %ptxcc -fopenmp -c -DIN_FUNCTION %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=FUNC
// RUN: not %ptxcc -fopenmp -c -DIN_REGION %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REGION
// RUN: %ptxcc -fopenmp -c %s -o /dev/null
// FUNC-NOT: decl_tgt_ref_ptr
// FUNC: declare-target-link.c:[[@LINE+10]]:{{[0-9]+}}: error: ptxcc does not support 'declare target link' variables in device code yet ('g', used in 'get'); declare it 'declare target enter' instead
// REGION-NOT: decl_tgt_ref_ptr
// REGION: declare-target-link.c:[[@LINE+22]]:{{[0-9]+}}: error: ptxcc does not support 'declare target link' variables in device code yet ('g', used in a target region)
int g[100];
#pragma omp declare target link(g)

int host_only(void) { return g[0]; }

#ifdef IN_FUNCTION
#pragma omp declare target
int get(int i) { return g[i]; }
#pragma omp end declare target

int f(void) {
  int r = 0;
#pragma omp target map(tofrom : g, r)
  r = get(5);
  return r;
}
#endif
#ifdef IN_REGION
void f(void) {
#pragma omp target map(tofrom : g)
  for (int i = 0; i < 100; i++)
    g[i] *= 2;
}
#endif
