// A bug in ptxcc (here provoked with PTXCC_DEBUG_PANIC) is reported as an internal error with
// status 70, not as a Rust panic message, and leaves no temporary files behind.
// RUN: not env PTXCC_DEBUG_PANIC=1 %ptxcc -c %s -o %t.o 2>&1 | FileCheck %s
// CHECK: ptxcc: internal error: PTXCC_DEBUG_PANIC is set (at {{.*}}main.rs:{{[0-9]+}})
// CHECK-NOT: RUST_BACKTRACE
// RUN: %python %S/Inputs/expect-status.py 70 -- env PTXCC_DEBUG_PANIC=1 %ptxcc -c %s -o %t.o
int main(void) { return 0; }
