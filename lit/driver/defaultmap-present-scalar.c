// defaultmap(present) over scalars (no category, scalar, all) is refused at the clause: clang 19
// maps the scalar as present but compiles the kernel to take it by value, so the region would
// read an address instead of the device copy. The aggregate and pointer categories and explicit
// present maps of scalars compile (lit/e2e/defaultmap-present.c runs them).
// RUN: not %ptxcc -fopenmp -c %s -o /dev/null 2>&1 | FileCheck %s
int s, a[8];
void f(void) {
  // CHECK: defaultmap-present-scalar.c:[[@LINE+1]]:20: error: ptxcc does not support 'defaultmap(present)' for scalar variables: clang 19 passes a scalar to the kernel by value, so the region would not use its device copy; map the scalars the region uses explicitly (map(present, tofrom: x)) and write defaultmap(present: aggregate) defaultmap(present: pointer) for the rest
#pragma omp target defaultmap(present)
  s = a[1];
  // CHECK: defaultmap-present-scalar.c:[[@LINE+1]]:35: error: ptxcc does not support 'defaultmap(present: scalar)'
#pragma omp target map(tofrom: a) defaultmap(present: scalar)
  a[0] = s;
  // CHECK-NOT: error:
#pragma omp target map(present, tofrom: s) defaultmap(present: aggregate) defaultmap(present: pointer)
  s = a[2];
}
