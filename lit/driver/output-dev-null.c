// `-o /dev/null` (configure scripts, build-system probes) names a device, not a file ptxcc made.
// When LLVM reports a warning, the in-process host object is made again by clang; the old
// object is removed first only when it is a regular file. ptxcc once deleted /dev/null here
// (run as root), and every later `> /dev/null` then made it a regular file that collected output.
// The loop below cannot be vectorised as its pragma asks: LLVM warns (-Wpass-failed, quiet by
// default), so both ways run, as -v shows.
// RUN: %ptxcc -v -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: test -c /dev/null
// RUN: %ptxcc -v -fopenmp -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: test -c /dev/null
// CHECK: host object: {{.*}} -> /dev/null (in process)
// CHECK: clang-19" "-c" {{.*}} "-o" "/dev/null"
int f(int *a, int n) {
  int s = 0;
#pragma clang loop vectorize(enable)
  for (int i = 0; i < n; i++) {
    s += a[i];
    if (s > 100)
      break;
  }
  return s;
}
