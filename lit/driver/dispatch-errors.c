// What ptxcc does not take in `dispatch` (which it compiles itself: clang 19 cannot) is an error
// at the user's directive or clause, never a call of the wrong function.
// RUN: not %ptxcc -fopenmp -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: panicked
void g_gpu(int *a);
#pragma omp declare variant(g_gpu) match(construct = {dispatch}, implementation = {vendor(llvm)})
void g(int *a);

void f(int *a, int n, int o) {
  // CHECK: dispatch-errors.c:[[@LINE+1]]:13: error: the statement after 'dispatch' must be a function call ('f(…);' or 'x = f(…);')
#pragma omp dispatch
  n = n + 1;
  // CHECK: dispatch-errors.c:[[@LINE+1]]:22: error: ptxcc does not support the 'interop' clause of 'dispatch'
#pragma omp dispatch interop(o)
  g(a);
  // CHECK: dispatch-errors.c:[[@LINE+1]]:13: error: ptxcc does not support 'dispatch' of 'g' through its variant 'g_gpu', which selects on 'match(construct = {dispatch}, implementation = {vendor(llvm)})'
#pragma omp dispatch
  g(a);
}
