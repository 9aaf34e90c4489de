// -fsyntax-only checks the program (with OpenMP on) and writes nothing.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %ptxcc -fsyntax-only %s
// RUN: not %ptxcc -fsyntax-only -DBROKEN %s 2>&1 | FileCheck %s --check-prefix=ERR
// ERR: syntax-only.c:[[@LINE+8]]:10: error: use of undeclared identifier 'undeclared'
// RUN: ls | count 0
// RUN: %ptxcc -### -fsyntax-only %s 2>&1 | FileCheck %s
// CHECK: "-E"
// CHECK: "-fopenmp" "--offload-arch=sm_90" "--offload-host-only" "-fsyntax-only" "{{.*}}syntax-only.i"
// CHECK-NOT: "-c"
int f(double x) {
#ifdef BROKEN
  return undeclared;
#endif
  return 0;
}
