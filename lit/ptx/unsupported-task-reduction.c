// Task reductions in a target region are refused by the name of the user's construct, not by
// the runtime entry points clang calls for them (__kmpc_taskred_init was reported as a function
// the user should define): at the taskgroup's task_reduction and at the task's in_reduction use.
// (Tasks and taskgroups themselves compile: lit/e2e/tasks/.)
// RUN: not %ptxcc -fopenmp -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: unsupported-task-reduction.c:[[@LINE+7]]:1: error: ptxcc does not support task reductions (task_reduction, in_reduction) in target regions yet
// CHECK-NEXT: unsupported-task-reduction.c:[[@LINE+10]]:9: error: ptxcc does not support task reductions (task_reduction, in_reduction) in target regions yet
// CHECK-NOT: __kmpc
int f(void) {
  int s = 0;
#pragma omp target map(tofrom : s)
  {
#pragma omp taskgroup task_reduction(+ : s)
    {
      for (int i = 0; i < 10; i++) {
#pragma omp task in_reduction(+ : s)
        s += i;
      }
    }
  }
  return s;
}
