// Flags ptxcc does not know go to clang unchanged: to every compile step, and -f/-m flags also to
// the link; clang's verdict on them stands (its message, its status).
// RUN: %ptxcc -### -c %s -fno-strict-aliasing -mavx2 -ffast-math -fPIC 2>&1 | FileCheck %s
// CHECK: "-E" {{.*}}"-fno-strict-aliasing" "-mavx2" "-ffast-math" "-fPIC"
// CHECK: "--offload-host-only" {{.*}}"-fno-strict-aliasing" "-mavx2" "-ffast-math" "-fPIC" "-c" "-emit-llvm"
// CHECK: "-c" {{.*}}"-fno-strict-aliasing" "-mavx2" "-ffast-math" "-fPIC"
//
// Their effect is real: -ffast-math defines __FAST_MATH__, -fPIC __PIC__.
// RUN: %ptxcc -E -dM %s -ffast-math -fPIC | FileCheck %s --check-prefix=MACRO
// MACRO-DAG: #define __FAST_MATH__ 1
// MACRO-DAG: #define __PIC__ 2
//
// A flag clang does not know either is clang's error, with clang's status.
// RUN: not %ptxcc -c %s -fbogus-ptxcc-test-flag -o %t.o 2>&1 | FileCheck %s --check-prefix=BOGUS
// BOGUS: clang{{.*}}: error: unknown argument: '-fbogus-ptxcc-test-flag'
// BOGUS-NOT: ptxcc: error
// RUN: %python %S/Inputs/expect-status.py 1 -- %ptxcc -c %s -fbogus-ptxcc-test-flag -o %t.o
//
// Separate-argument flags keep their argument.
// RUN: %ptxcc -### -c %s -Xclang -fno-math-errno -mllvm -inline-threshold=100 2>&1 | FileCheck %s --check-prefix=SEP
// SEP: "--offload-host-only" {{.*}}"-Xclang" "-fno-math-errno" "-mllvm" "-inline-threshold=100" "-c"
// SEP: "-c" {{.*}}"-Xclang" "-fno-math-errno" "-mllvm" "-inline-threshold=100"
int f(void) { return 0; }
