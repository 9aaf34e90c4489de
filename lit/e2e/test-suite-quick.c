// The test-suite's quick mode as a lit test, so that CI (scripts/test.sh runs lit/) proves every
// test-suite program compiles with ptxcc and gives the right answer in class S on the emulator:
// OpenMP and OpenACC versions of STREAM (1-D, 2-D AoS/SoA), saxpy, matmul, pi, 5-point Jacobi, the
// Himeno-style solver, N-body and NPB CG/EP/IS, each verified against the serial version or the
// published NPB values. UNSUPPORTED (a feature whose issue is still open) is reported but allowed; any
// wrong answer, crash, timeout or build failure fails. Report: Output/test-suite-quick.c.tmp.dir/report.md.
// The executables go to a private temporary folder: other lit runs in the same checkout share Output/.
// RUN: rm -rf %t.dir
// Under --param device=ptxsim the ptxcc versions run on ptxsim instead (the PTX, through the CUDA path).
// RUN: %python %S/../../test-suite/harness/harness.py quick --ptxcc %ptxcc --build-dir tmp --out %t.dir \
// RUN:   %if ptxsim %{--ptxsim%} 2>&1 | FileCheck %s --check-prefixes=CHECK,%if ptxsim %{SIM%} %else %{EMU%}
// EMU: device emu
// SIM: device ptxsim
// CHECK-NOT: {{BUILD-FAIL|CRASH|TIMEOUT}}
// CHECK: {{[0-9]+}} results: {{[0-9]+}} pass, {{[0-9]+}} unsupported, 0 bad
