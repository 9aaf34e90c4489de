// What ptxcc does not take in `scope` and `assume` (which it compiles itself: clang 19 cannot)
// is an error at the user's clause, never a silently different program.
// RUN: not %ptxcc -fopenmp -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: panicked
void f(int n, int *a, int s, int m) {
#pragma omp parallel
  {
    // CHECK: scope-assume-errors.c:[[@LINE+1]]:19: error: ptxcc does not support the reduction item 'a[0:4]' on 'scope' (an array section or element); reduce into a scalar variable
#pragma omp scope reduction(+ : a[0:4])
    a[0]++;
    // CHECK: scope-assume-errors.c:[[@LINE+1]]:19: error: ptxcc does not support the reduction modifier 'task' on 'scope'
#pragma omp scope reduction(task, + : s)
    s++;
    // CHECK: scope-assume-errors.c:[[@LINE+1]]:19: error: ptxcc does not support the reduction identifier 'myop' on 'scope'
#pragma omp scope reduction(myop : s)
    s++;
    // CHECK: scope-assume-errors.c:[[@LINE+1]]:30: error: ptxcc does not support 'my_alloc' in 'allocate' on 'scope'
#pragma omp scope private(m) allocate(my_alloc : m)
    m = 1;
    // CHECK: scope-assume-errors.c:[[@LINE+1]]:19: error: unexpected clause 'copyin(s)' on '#pragma omp scope'
#pragma omp scope copyin(s)
    s++;
  }
  // CHECK: scope-assume-errors.c:[[@LINE+1]]:30: error: unexpected clause 'sometimes(n)' on '#pragma omp assume'
#pragma omp assume no_openmp sometimes(n)
  a[1] = 2;
}

int g(int *a) {
#pragma omp parallel
  {
    // CHECK: scope-assume-errors.c:[[@LINE+1]]:13: error: a 'return' in the structured block of this 'scope' would leave it
#pragma omp scope
    {
      if (a[0])
        return 1;
    }
  }
  return 0;
}
