// -fptxcc-verify-each runs LLVM's IR verifier after every pass of the offload pipeline: a
// program compiles and runs the same with it, and a pass that left invalid IR (the test hook
// PTXCC_TEST_BREAK_IR_AFTER breaks the module after the pass it names) is an internal error
// that names the pass, where without verification the broken module would reach code generation.
// RUN: %ptxcc -fptxcc-verify-each -O2 %s -o %t && %run %t | FileCheck %s
// CHECK: sum=5050
// RUN: %ptxcc -### -fptxcc-verify-each -c %s 2>&1 | FileCheck %s --check-prefix=DRY
// DRY: passes: compile_offload --offload-arch=sm_90 -O0 -verify-each
// DRY-NOT: "-fptxcc-verify-each"
// RUN: env PTXCC_TEST_BREAK_IR_AFTER=loop-mapping not %ptxcc -fptxcc-verify-each -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOOPS
// LOOPS: error: internal error: the IR is invalid after pass 'loop-mapping'
// LOOPS-SAME: does not have terminator
// PTXCC_VERIFY_EACH=1 in the environment does the same without the flag (the lit suite sets it
// for every test; here it is set and cleared explicitly).
// RUN: env PTXCC_VERIFY_EACH=1 PTXCC_TEST_BREAK_IR_AFTER=loop-mapping not %ptxcc -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOOPS
// RUN: env PTXCC_VERIFY_EACH=0 %ptxcc -### -c %s 2>&1 | FileCheck %s --check-prefix=DRY-OFF
// DRY-OFF: passes: compile_offload --offload-arch=sm_90 -O0 {{.*}}.hostir.bc
// RUN: env PTXCC_TEST_BREAK_IR_AFTER=device-extraction not %ptxcc -fptxcc-verify-each -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXTRACT
// EXTRACT: error: internal error: the IR is invalid after pass 'device-extraction'
// RUN: env PTXCC_TEST_BREAK_IR_AFTER=simt-lowering not %ptxcc -fptxcc-verify-each -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=EMU
// EMU: error: internal error: the IR is invalid after pass 'simt-lowering'
// RUN: env PTXCC_TEST_BREAK_IR_AFTER=math-library not %ptxcc -fptxcc-verify-each -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTX
// PTX: error: internal error: the IR is invalid after pass 'math-library'
#include <stdio.h>

int main(void) {
  long sum = 0;
#pragma omp target teams distribute parallel for reduction(+ : sum) map(tofrom : sum)
  for (int i = 1; i <= 100; i++)
    sum += i;
  printf("sum=%ld\n", sum);
  return sum != 5050;
}
